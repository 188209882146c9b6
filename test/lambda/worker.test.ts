// The Lambda queue path end to end: webhook function → SQS FIFO (aws-sdk-client-mock) → worker
// function → GitHub (nock); the dead-letter consumer; secrets read once from Secrets Manager or SSM.
import { createHmac } from "node:crypto";
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { SendMessageCommand, SQSClient, type SendMessageCommandInput } from "@aws-sdk/client-sqs";
import { GetParameterCommand, SSMClient } from "@aws-sdk/client-ssm";
import { mockClient } from "aws-sdk-client-mock";
import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLambdaHandler } from "../../src/github/intake/lambda-handler.js";
import { queuedDelivery } from "../../src/github/delivery.js";
import { cachedSecret, readSecret } from "../../src/lambda/secrets.js";
import { MessageTooLargeError, sendDelivery, sqsId } from "../../src/lambda/sqs.js";
import { createDeadLetterHandler, createWorkerHandler, type SqsEvent } from "../../src/lambda/worker.js";
import { fakeCore } from "../github/helpers/fake-core.js";
import { fixture, unbucketedTimeSeries } from "../github/helpers/fixtures.js";
import { captureEachTest, nockGetPull, nockReviewOf } from "../github/helpers/github-mock.js";
import { OWNER, REPO, pullRequestEvent } from "../github/helpers/payloads.js";
import { testProbot } from "../github/helpers/probot.js";

const SECRET = "webhook-secret-for-tests";
const QUEUE_URL = "https://sqs.eu-west-1.amazonaws.com/123456789012/cql-review-reviews.fifo";
const base = { "schema/000_keyspace.cql": fixture("keyspace.cql") };
const state = { base, head: { ...base, "schema/020_readings.cql": fixture("readings-unbucketed.cql") } };
const silent = { debug() {}, info() {}, warn() {}, error() {} };

const sqs = mockClient(SQSClient);
beforeEach(() => sqs.reset());

/** Runs a delivery through the webhook function into the mocked queue; returns the SQS records. */
async function throughWebhookFunction(delivery: { id: string; name: string; payload: unknown }): Promise<SqsEvent> {
  sqs.on(SendMessageCommand).resolves({ MessageId: "m-1" });
  const handler = createLambdaHandler({
    secret: SECRET,
    enqueue: (queued) => sendDelivery(new SQSClient({ region: "eu-west-1" }), QUEUE_URL, queued),
    log: () => {},
  });
  const body = JSON.stringify(delivery.payload);
  const started = performance.now();
  const answer = await handler({
    headers: {
      "x-github-delivery": delivery.id,
      "x-github-event": delivery.name,
      "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`,
    },
    body,
    requestContext: { http: { method: "POST" } },
  });
  expect(answer.statusCode).toBe(202);
  expect(performance.now() - started).toBeLessThan(1_000);
  const sent = sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
  return { Records: sent.map((input, index) => ({ messageId: `m-${index}`, body: input.MessageBody!, attributes: { ApproximateReceiveCount: "1" } })) };
}

describe("sending deliveries to the SQS FIFO queue", () => {
  it("groups by pull request and deduplicates by delivery id", async () => {
    await throughWebhookFunction(pullRequestEvent("synchronize"));
    const [input] = sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input as SendMessageCommandInput);
    expect(input).toMatchObject({ QueueUrl: QUEUE_URL, MessageGroupId: `${OWNER}/${REPO}#17`, MessageDeduplicationId: "delivery-pr-synchronize" });
    expect(JSON.parse(input!.MessageBody!)).toMatchObject({ id: "delivery-pr-synchronize", name: "pull_request" });
  });

  it("keeps SQS ids within 128 printable characters, and refuses a message over SQS's size limit", async () => {
    expect(sqsId("o/r#1")).toBe("o/r#1");
    expect(sqsId(`${"o".repeat(39)}/${"r".repeat(100)}#123`)).toMatch(/^[0-9a-f]{64}$/);
    expect(sqsId("ünïcode/repo#1")).toMatch(/^[0-9a-f]{64}$/);
    const huge = queuedDelivery({ id: "big", name: "pull_request", payload: { ...pullRequestEvent("opened").payload, padding: "x".repeat(1_100_000) } })!;
    await expect(sendDelivery(new SQSClient({ region: "eu-west-1" }), QUEUE_URL, huge)).rejects.toBeInstanceOf(MessageTooLargeError);
  });
});

describe("the worker function", () => {
  const capture = captureEachTest();
  afterEach(() => nock.cleanAll());

  it("reviews a queued push that is still the head", async () => {
    const event = await throughWebhookFunction(pullRequestEvent("synchronize"));
    nockGetPull(capture());
    nockReviewOf(capture(), state);
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    const worker = createWorkerHandler({ probot: async () => probot, log: silent });

    expect(await worker(event)).toEqual({ batchItemFailures: [] });
    expect(capture().bodiesOf("POST", "/reviews")).toHaveLength(1);
    expect(capture().bodiesOf("PATCH", "/check-runs/9001")[0]).toMatchObject({ status: "completed" });
  });

  it("skips a queued push once the pull request has a newer head", async () => {
    const event = await throughWebhookFunction(pullRequestEvent("synchronize"));
    nockGetPull(capture(), { headSha: "c".repeat(40) });
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    const worker = createWorkerHandler({ probot: async () => probot, log: silent });

    expect(await worker(event)).toEqual({ batchItemFailures: [] });
    expect(capture().api.map((request) => request.method)).toEqual(["GET"]);
  });

  it("reports a failed message and every later one of the batch, so SQS retries them in order", async () => {
    const first = (await throughWebhookFunction(pullRequestEvent("synchronize"))).Records[0]!;
    const event: SqsEvent = { Records: [first, { ...first, messageId: "m-later" }] };
    const worker = createWorkerHandler({
      probot: async () => ({
        auth: async () => Promise.reject(new Error("installation token: 500")),
        receive: async () => {},
      }),
      log: silent,
    });
    expect(await worker(event)).toEqual({ batchItemFailures: [{ itemIdentifier: "m-0" }, { itemIdentifier: "m-later" }] });
    nock.cleanAll();
  });

  it("drops a message that is not JSON instead of retrying it forever", async () => {
    const worker = createWorkerHandler({ probot: async () => Promise.reject(new Error("unused")), log: silent });
    expect(await worker({ Records: [{ messageId: "bad", body: "{" }] })).toEqual({ batchItemFailures: [] });
    nock.cleanAll();
  });

  it("marks the commit's check run failed when a message reaches the dead-letter queue", async () => {
    const event = await throughWebhookFunction(pullRequestEvent("synchronize"));
    capture()
      .scope()
      .post(`/repos/${OWNER}/${REPO}/check-runs`)
      .reply(201, function (uri, body) {
        capture().record("POST", uri, body);
        return { id: 9002 };
      });
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    const deadLetters = createDeadLetterHandler({ probot: async () => probot, log: silent, maxAttempts: 3 });

    expect(await deadLetters(event)).toEqual({ batchItemFailures: [] });
    const [created] = capture().bodiesOf("POST", "/check-runs");
    expect(created).toMatchObject({ name: "cql-review", status: "completed", conclusion: "failure" });
    expect(created.output.summary).toContain("failed 3 times in a row");
    expect(created.output.summary).toContain("delivery-pr-synchronize");
  });
});

describe("secrets for the Lambda functions", () => {
  const secretsManager = mockClient(SecretsManagerClient);
  const ssm = mockClient(SSMClient);
  const clients = { secretsManager: () => new SecretsManagerClient({ region: "eu-west-1" }), ssm: () => new SSMClient({ region: "eu-west-1" }) };
  beforeEach(() => {
    secretsManager.reset();
    ssm.reset();
  });

  it("reads from Secrets Manager or an SSM SecureString, or the plain variable without a store", async () => {
    secretsManager.on(GetSecretValueCommand, { SecretId: "arn:aws:secretsmanager:eu-west-1:1:secret:hook" }).resolves({ SecretString: "from-secrets-manager" });
    ssm.on(GetParameterCommand, { Name: "/cql-review/webhook-secret", WithDecryption: true }).resolves({ Parameter: { Value: "from-ssm" } });
    expect(await readSecret("WEBHOOK_SECRET", { SECRET_STORE: "secretsmanager", WEBHOOK_SECRET_ID: "arn:aws:secretsmanager:eu-west-1:1:secret:hook" }, clients)).toBe("from-secrets-manager");
    expect(await readSecret("WEBHOOK_SECRET", { SECRET_STORE: "ssm", WEBHOOK_SECRET_ID: "/cql-review/webhook-secret" }, clients)).toBe("from-ssm");
    expect(await readSecret("WEBHOOK_SECRET", { WEBHOOK_SECRET: "plain" }, clients)).toBe("plain");
    await expect(readSecret("PRIVATE_KEY", { SECRET_STORE: "ssm" }, clients)).rejects.toThrow(/PRIVATE_KEY_ID is not set/);
    await expect(readSecret("PRIVATE_KEY", {}, clients)).rejects.toThrow(/PRIVATE_KEY is not set/);
  });

  it("reads once per container, and again only after a failed read", async () => {
    secretsManager.on(GetSecretValueCommand).rejectsOnce(new Error("throttled")).resolves({ SecretString: "s" });
    const env = { SECRET_STORE: "secretsmanager", WEBHOOK_SECRET_ID: "hook" };
    const secret = cachedSecret(() => readSecret("WEBHOOK_SECRET", env, clients));
    await expect(secret()).rejects.toThrow("throttled");
    expect(await secret()).toBe("s");
    expect(await secret()).toBe("s");
    expect(secretsManager.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });
});
