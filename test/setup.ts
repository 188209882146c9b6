import nock from "nock";

// No test may reach the network: GitHub is mocked with nock scopes in each end-to-end test.
nock.disableNetConnect();
