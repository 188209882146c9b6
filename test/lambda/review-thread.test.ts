// The Lambda worker's review thread: the server's deadline, cut to the invocation's remaining time
// minus a margin, enforced by terminating the thread; a stopped review completes its check run
// "not reviewed: …" and fails closed unless `unreviewed: warn`. The thread loads the built dist/.
import { fileURLToPath } from "node:url";
import nock from "nock";
import { Probot } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { analyseInProcess, type AnalysisRequest } from "../../src/github/worker/analysis.js";
import { createApp } from "../../src/github/worker/create-app.js";
import { realCore } from "../../src/github/worker/core.js";
import { LAMBDA_MARGIN_MS, LambdaReviewThread, reviewDeadlineMs } from "../../src/lambda/review-thread.js";
import { createWorkerHandler, type SqsEvent } from "../../src/lambda/worker.js";
import { fixture } from "../github/helpers/fixtures.js";
import { captureEachTest, nockGetPull, nockReviewOf } from "../github/helpers/github-mock.js";
import { APP_ID, pullRequestEvent } from "../github/helpers/payloads.js";
import { capturingLogger, PRIVATE_KEY, TestOctokit } from "../github/helpers/probot.js";

const REAL_ENTRY = fileURLToPath(new URL("../../dist/src/lambda/review-thread-entry.js", import.meta.url));
const HOSTILE = fileURLToPath(new URL("./fixtures/hostile-lambda-thread.mjs", import.meta.url));
const log = { warn: () => {}, error: () => {} };
const keyspace = { path: "schema/000_keyspace.cql", content: fixture("keyspace.cql") };
const readings = { path: "schema/020_readings.cql", content: fixture("readings-unbucketed.cql") };
const spin = { path: "schema/spin.cql", content: "" };

function requestOf(files: AnalysisRequest["files"], configText?: string): AnalysisRequest {
  return {
    files,
    baseFiles: [keyspace],
    ...(configText !== undefined ? { configFile: { path: ".github/cql-review.yml", content: configText } } : {}),
    collectionFindings: [],
    changedFiles: files.map((file) => ({ path: file.path, status: "added" as const })),
    postedComments: [],
  };
}

let thread: LambdaReviewThread | undefined;
afterEach(async () => {
  await thread?.close();
  thread = undefined;
});

describe("the Lambda review deadline", () => {
  it("is the configured deadline, cut to the invocation's remaining time minus the margin", () => {
    expect(reviewDeadlineMs(30_000, undefined)).toBe(30_000);
    expect(reviewDeadlineMs(30_000, 100_000)).toBe(30_000);
    expect(reviewDeadlineMs(30_000, LAMBDA_MARGIN_MS + 4_000)).toBe(4_000);
    // Almost no time left: still a moment to try, not a deadline already past.
    expect(reviewDeadlineMs(30_000, 2_000)).toBe(1_000);
  });
});

describe("the Lambda review thread", () => {
  it("a review in the thread finds what the same review finds in process", async () => {
    thread = new LambdaReviewThread(realCore, { filename: REAL_ENTRY, log });
    const request = requestOf([keyspace, readings]);
    const threaded = await thread.analyse(request);
    const inProcess = await analyseInProcess(realCore, request);
    expect(threaded.complete ?? true).toBe(true);
    expect(threaded.review.findings.map((f) => f.fingerprint)).toEqual(inProcess.review.findings.map((f) => f.fingerprint));
    expect(threaded.review.findings.length).toBeGreaterThan(0);
  }, 60_000);

  it("stops a spinning review when the invocation's time runs short, fails closed, and the next review works", async () => {
    let remaining = LAMBDA_MARGIN_MS + 2_000;
    thread = new LambdaReviewThread(realCore, { filename: HOSTILE, remainingMs: () => remaining, log });
    const stopped = await thread.analyse(requestOf([keyspace, spin]));
    expect(stopped.complete).toBe(false);
    expect(stopped.review.gateFails).toBe(true);
    expect(stopped.review.findings.map((f) => [f.rule, f.message])).toEqual([
      ["input-limit-exceeded", expect.stringMatching(/^not reviewed: the review ran past its 2 s deadline and was stopped/)],
    ]);
    remaining = 100_000;
    const next = await thread.analyse(requestOf([keyspace, readings]));
    expect(next.complete ?? true).toBe(true);
    expect(next.review.findings.length).toBeGreaterThan(0);
  }, 60_000);

  it("a stopped review passes the gate when the config says unreviewed: warn", async () => {
    thread = new LambdaReviewThread(realCore, { filename: HOSTILE, deadlineMs: 1_500, log });
    const stopped = await thread.analyse(requestOf([keyspace, spin], "unreviewed: warn\n"));
    expect(stopped.complete).toBe(false);
    expect(stopped.review.gateFails).toBe(false);
  }, 60_000);

  it("stops a review that exhausts its heap", async () => {
    thread = new LambdaReviewThread(realCore, { filename: HOSTILE, memoryMb: 128, log });
    const stopped = await thread.analyse(requestOf([keyspace, { path: "schema/allocate.cql", content: "" }]));
    expect(stopped.review.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^not reviewed: the review needed more than its 128 MB of memory/)]);
  }, 60_000);
});

describe("the worker function with a review that never returns", () => {
  const capture = captureEachTest();
  afterEach(() => nock.cleanAll());

  it("completes the check run as not reviewed, failing the gate, within the invocation", async () => {
    const delivery = pullRequestEvent("synchronize");
    const event: SqsEvent = { Records: [{ messageId: "m-0", body: JSON.stringify(delivery), attributes: { ApproximateReceiveCount: "1" } }] };
    const base = { "schema/000_keyspace.cql": fixture("keyspace.cql") };
    nockGetPull(capture());
    nockReviewOf(capture(), { base, head: { ...base, "schema/spin.cql": "" } });
    thread = new LambdaReviewThread(realCore, { filename: HOSTILE, remainingMs: () => LAMBDA_MARGIN_MS + 1_500, log });
    const probot = new Probot({ appId: APP_ID, privateKey: PRIVATE_KEY, Octokit: TestOctokit, log: capturingLogger() });
    await probot.load(createApp({ core: realCore, isolation: thread, appId: APP_ID }));
    const worker = createWorkerHandler({ probot: async () => probot, log: { debug() {}, info() {}, warn() {}, error() {} } });

    expect(await worker(event)).toEqual({ batchItemFailures: [] });
    const completed = capture().bodiesOf("PATCH", "/check-runs/9001").at(-1) as { status: string; conclusion: string; output: { summary: string } };
    expect(completed).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(JSON.stringify(completed.output)).toContain("not reviewed: the review ran past its 2 s deadline");
  }, 60_000);
});
