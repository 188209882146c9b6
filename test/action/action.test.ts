// The Action entry with a fake event file, a real @octokit/rest client and GitHub mocked by nock.
import { Octokit } from "@octokit/rest";
import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runAction } from "../../src/github/action-runner.js";
import { fakeCore } from "../github/helpers/fake-core.js";
import { fixture, unbucketedTimeSeries } from "../github/helpers/fixtures.js";
import { Capture, nockReviewOf, type RepositoryState } from "../github/helpers/github-mock.js";
import { pullRequestEvent } from "../github/helpers/payloads.js";

let capture: Capture;
beforeEach(() => {
  capture = new Capture();
});
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  capture.assertAllValid();
  expect(pending).toEqual([]);
});

const base = { "schema/000_keyspace.cql": fixture("keyspace.cql") };
const unbucketed: RepositoryState = { base, head: { ...base, "schema/020_readings.cql": fixture("readings-unbucketed.cql") } };
const bucketed: RepositoryState = { base, head: { ...base, "schema/020_readings.cql": fixture("readings-bucketed.cql") } };

function run(event: object, env: Record<string, string> = {}) {
  const output: string[] = [];
  const files: Record<string, string> = { "/github/workflow/event.json": JSON.stringify(event) };
  const code = runAction({
    core: fakeCore(unbucketedTimeSeries),
    env: {
      GITHUB_TOKEN: "ghs_workflow_token",
      GITHUB_EVENT_NAME: "pull_request",
      GITHUB_EVENT_PATH: "/github/workflow/event.json",
      GITHUB_RUN_ID: "9912",
      ...env,
    },
    readFile: (path) => {
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: ${path}`);
      return text;
    },
    write: (line) => output.push(line),
    // Retries off, as in Probot's tests: a refused request must fail at once.
    github: new Octokit({ auth: "ghs_workflow_token", request: { retries: 0 } }),
  });
  return { code, output };
}

describe("the Action", () => {
  it("fails the step when the gate fails, after posting the same check run and review", async () => {
    nockReviewOf(capture, unbucketed);

    const { code, output } = run(pullRequestEvent("opened").payload);

    expect(await code).toBe(1);
    expect(output.at(-1)).toBe("cql-review: failure, 1 new inline comment(s).");
    const completed = capture.bodiesOf("PATCH", "/check-runs/9001")[0];
    expect(completed.conclusion).toBe("failure");
    // The Re-run button would reach a webhook the Action does not have.
    expect(completed).not.toHaveProperty("actions");
  });

  it("passes the step when the model is fixed", async () => {
    nockReviewOf(capture, bucketed, { review: false });

    const { code } = run(pullRequestEvent("synchronize").payload);

    expect(await code).toBe(0);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("success");
  });

  it("does nothing for other events and draft pull requests", async () => {
    const push = run({ ref: "refs/heads/main" }, { GITHUB_EVENT_NAME: "push" });
    expect(await push.code).toBe(0);
    expect(push.output).toEqual(["cql-review reviews pull requests and answers /cql comments; nothing to do for this event. event=push"]);

    const draft = run(pullRequestEvent("opened", { draft: true }).payload);
    expect(await draft.code).toBe(0);
    expect(capture.requests).toEqual([]);
  });

  it("explains a missing token or event file as an error annotation", async () => {
    const { code, output } = run(pullRequestEvent("opened").payload, { GITHUB_TOKEN: "" });
    expect(await code).toBe(1);
    expect(output[0]).toMatch(/^::error::No token/);
  });

  it("reports a review it could not complete and fails the step", async () => {
    capture
      .scope()
      .post("/repos/acme-data/iot-models/check-runs")
      .reply(function (uri, body) {
        capture.record("POST", uri, body);
        return [201, { id: 9001 }];
      });
    capture
      .scope()
      .get("/repos/acme-data/iot-models/pulls/17/files")
      .query(true)
      .reply(function (uri) {
        capture.record("GET", uri, undefined);
        return [403, { message: "Resource not accessible by integration" }];
      });
    capture
      .scope()
      .patch("/repos/acme-data/iot-models/check-runs/9001")
      .reply(function (uri, body) {
        capture.record("PATCH", uri, body);
        return [200, { id: 9001 }];
      });

    const { code, output } = run(pullRequestEvent("opened").payload);

    expect(await code).toBe(1);
    expect(output.find((line) => line.startsWith("::error::cql-review could not"))).toContain("GitHub answered 403");
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].output.summary).toContain("correlation id `run 9912`");
  });
});
