// The Action entry with a fake event file, a real @octokit/rest client and GitHub mocked by nock.
import { Octokit } from "@octokit/rest";
import nock from "nock";
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runAction } from "../../src/github/action-runner.js";
import { recordingToolkit } from "./recording-toolkit.js";
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
    toolkit: recordingToolkit(output),
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

  it("says what to change when GitHub refuses the token, naming pull_request_target for forks", async () => {
    const refuse = () =>
      capture
        .scope()
        .post("/repos/acme-data/iot-models/check-runs")
        .reply(function (uri, body) {
          capture.record("POST", uri, body);
          return [403, { message: "Resource not accessible by integration" }];
        })
        // Without a check run the review tries to say so on the pull request; a read-only token refuses that too.
        .post("/repos/acme-data/iot-models/issues/17/comments")
        .reply(403, { message: "Resource not accessible by integration" });
    const event = (headRepository: string) => {
      const { payload } = pullRequestEvent("opened");
      payload.pull_request.head.repo = { ...payload.pull_request.head.repo, full_name: headRepository };
      return payload;
    };

    refuse();
    const fork = run(event("someone/iot-models"));
    expect(await fork.code).toBe(1);
    expect(fork.output.slice(0, 2)).toEqual([
      expect.stringMatching(/^::error::Could not create the check run .*Resource not accessible by integration$/),
      expect.stringMatching(/^::error::Could not report the failure on the pull request either .*Resource not accessible by integration$/),
    ]);
    expect(fork.output.slice(2)).toEqual([
      "::error::GitHub refused the token: on pull requests from forks, `on: pull_request` gets a read-only token. Run the workflow `on: pull_request_target` instead (safe with cql-review: it reads the files through the API and never runs the pull request's code). The workflow's token needs `checks: write`, `pull-requests: write` and `contents: read` (the job's `permissions:`).",
    ]);

    refuse();
    const sameRepository = run(event("acme-data/iot-models"));
    expect(await sameRepository.code).toBe(1);
    expect(sameRepository.output.slice(2)).toEqual([
      "::error::GitHub refused the token. The workflow's token needs `checks: write`, `pull-requests: write` and `contents: read` (the job's `permissions:`).",
    ]);
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
        return [500, { message: "Server Error" }];
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
    expect(output.find((line) => line.startsWith("::error::cql-review could not"))).toContain("GitHub answered 500");
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].output.summary).toContain("correlation id `run 9912`");
  });

  it("sets the gate and finding counts as outputs, writes the check summary as the job summary, and SARIF when asked", async () => {
    nockReviewOf(capture, unbucketed);
    const output: string[] = [];
    const toolkit = recordingToolkit(output, { "sarif-file": "results/cql-review.sarif" });
    const written = new Map<string, string>();

    const code = await runAction({
      core: fakeCore(unbucketedTimeSeries),
      toolkit,
      env: { GITHUB_TOKEN: "t", GITHUB_EVENT_NAME: "pull_request", GITHUB_EVENT_PATH: "/e.json", GITHUB_WORKSPACE: "/work/space" },
      readFile: () => JSON.stringify(pullRequestEvent("opened").payload),
      writeFile: (file, text) => void written.set(file, text),
      toolVersion: "9.9.9",
      github: new Octokit({ auth: "t", request: { retries: 0 } }),
    });

    expect(code).toBe(1);
    expect(toolkit.outputs).toEqual({
      gate: "fail",
      conclusion: "failure",
      errors: expect.stringMatching(/^\d+$/),
      warnings: expect.stringMatching(/^\d+$/),
      infos: expect.stringMatching(/^\d+$/),
      "new-findings": expect.stringMatching(/^[1-9]\d*$/),
      "check-run-id": "9001",
      "sarif-file": "results/cql-review.sarif",
    });
    // the job summary is exactly the check run's summary
    expect(toolkit.summaries).toEqual([capture.bodiesOf("PATCH", "/check-runs/9001")[0].output.summary]);
    const sarif = JSON.parse(written.get("/work/space/results/cql-review.sarif")!);
    expect(sarif.runs[0].tool.driver.version).toBe("9.9.9");
    expect(sarif.runs[0].results.length).toBeGreaterThan(0);
  });
});

describe("action.yml", () => {
  const actionYml = parseYaml(readFileSync(new URL("../../action.yml", import.meta.url), "utf8")) as {
    inputs: Record<string, { default?: string }>;
    outputs: Record<string, { description: string }>;
  };

  it("declares the inputs the runner reads and the outputs it sets", async () => {
    expect(Object.keys(actionYml.inputs).sort()).toEqual(["github-token", "sarif-file"]);
    nockReviewOf(capture, unbucketed);
    const toolkit = recordingToolkit([], { "sarif-file": "out.sarif" });
    await runAction({
      core: fakeCore(unbucketedTimeSeries),
      toolkit,
      env: { GITHUB_TOKEN: "t", GITHUB_EVENT_NAME: "pull_request", GITHUB_EVENT_PATH: "/e.json" },
      readFile: () => JSON.stringify(pullRequestEvent("opened").payload),
      writeFile: () => {},
      github: new Octokit({ auth: "t", request: { retries: 0 } }),
    });
    expect(Object.keys(toolkit.outputs).sort()).toEqual(Object.keys(actionYml.outputs).sort());
  });
});
