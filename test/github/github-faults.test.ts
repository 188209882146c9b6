// No duplicate, lost or stuck results under faults: a 502 after GitHub did the work sends
// nothing twice, a check run is completed on every path, a run that cannot be created is reported
// on the pull request, and a rate limit is reported as one.
import { beforeEach, describe, expect, it } from "vitest";
import { fakeCore } from "./helpers/fake-core.js";
import { baseRepository, fixture, unbucketedTimeSeries } from "./helpers/fixtures.js";
import {
  Capture,
  captureEachTest,
  changedFilesOf,
  nockCreateCheckRun,
  nockFailure,
  nockCreateReview,
  nockGraphqlFiles,
  nockIssueComment,
  nockPullFiles,
  nockReviewOf,
  nockRunsInProgress,
  nockTree,
  nockUpdateCheckRun,
  type RepositoryState,
} from "./helpers/github-mock.js";
import { checkRunEvent, HEAD_SHA, pullRequestEvent } from "./helpers/payloads.js";
import { testProbot } from "./helpers/probot.js";

const github = captureEachTest();
let capture: Capture;
beforeEach(() => {
  capture = github();
});

const REPO = "/repos/acme-data/iot-models";
const state: RepositoryState = {
  base: baseRepository,
  head: { ...baseRepository, "schema/020_readings.cql": fixture("readings-unbucketed.cql") },
};
const requestPaths = () => capture.api.map((r) => `${r.method} ${r.path.split("?")[0]}`);

function nockCollection(): void {
  nockPullFiles(capture, changedFilesOf(state));
  nockTree(capture, state.head);
  nockGraphqlFiles(capture, state);
}

/** POST reviews answering 502 `times` times (GitHub may have acted on each). */
function nockReviewBadGateway(times = 1): void {
  nockFailure(capture, "POST", `${REPO}/pulls/17/reviews`, { status: 502, message: "Server Error", times });
}

function nockListReviews(reviews: () => unknown[]): void {
  capture
    .scope()
    .get(`${REPO}/pulls/17/reviews`)
    .query(true)
    .reply(function (uri) {
      capture.record("GET", uri, undefined);
      return [200, reviews()];
    });
}

describe("a review is posted once", () => {
  it("after a 502 for a review GitHub did make, it is not posted again", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockCreateCheckRun(capture);
    nockCollection();
    nockReviewBadGateway();
    nockListReviews(() => [
      { id: 1, commit_id: "0".repeat(40), body: capture.bodiesOf("POST", "/reviews")[0].body },
      { id: 2, commit_id: HEAD_SHA, body: capture.bodiesOf("POST", "/reviews")[0].body, user: { login: "cql-review[bot]" } },
    ]);
    nockUpdateCheckRun(capture);

    await probot.receive(pullRequestEvent("opened"));

    expect(requestPaths().filter((path) => path.includes("/reviews"))).toEqual([
      `POST ${REPO}/pulls/17/reviews`,
      `GET ${REPO}/pulls/17/reviews`,
    ]);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].status).toBe("completed");
  });

  it("after a 502 for a review GitHub did not make, it is posted a second time", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockCreateCheckRun(capture);
    nockCollection();
    nockReviewBadGateway();
    nockListReviews(() => [{ id: 1, commit_id: "0".repeat(40), body: capture.bodiesOf("POST", "/reviews")[0].body }]);
    nockCreateReview(capture);
    nockUpdateCheckRun(capture);

    await probot.receive(pullRequestEvent("opened"));

    const posts = capture.bodiesOf("POST", "/reviews");
    expect(posts).toHaveLength(2);
    expect(posts[1]).toEqual(posts[0]);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("failure");
  });
});

describe("the check run", () => {
  it("after a 502 for a run GitHub did create, the run in progress is used, not a second one", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockFailure(capture, "POST", `${REPO}/check-runs`, { status: 502, message: "Server Error" });
    capture
      .scope()
      .get(`${REPO}/commits/${HEAD_SHA}/check-runs`)
      .query({ check_name: "cql-review", status: "in_progress", per_page: "100" })
      .reply(function (uri) {
        capture.record("GET", uri, undefined);
        return [200, { total_count: 2, check_runs: [{ id: 9001 }, { id: 9002 }] }];
      });
    nockCollection();
    nockCreateReview(capture);
    nockUpdateCheckRun(capture, 9002);

    await probot.receive(pullRequestEvent("opened"));

    expect(capture.bodiesOf("POST", "/check-runs")).toHaveLength(1);
    expect(capture.bodiesOf("PATCH", "/check-runs/9002")[0].status).toBe("completed");
  });

  it("when it cannot be created at all, the pull request gets a comment saying so", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    nockFailure(capture, "POST", `${REPO}/check-runs`, { status: 403, message: "Resource not accessible by integration" });
    nockIssueComment(capture);

    await probot.receive(pullRequestEvent("opened"));

    expect(requestPaths()).toEqual([`POST ${REPO}/check-runs`, `POST ${REPO}/issues/17/comments`]);
    const [comment] = capture.bodiesOf("POST", "/issues/17/comments");
    expect(comment.body).toContain("could not create its check run for commit `a1b2c3d`");
    expect(comment.body).toContain("Resource not accessible by integration (check that the app is installed with the permissions in app.yml)");
    expect(log.lines.some((l) => l.message === "Could not create the check run")).toBe(true);
  });

  it("is completed even when the first attempts to complete it fail", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockCreateCheckRun(capture);
    nockFailure(capture, "GET", `${REPO}/pulls/17/files`, { status: 500, message: "Server Error" });
    nockFailure(capture, "PATCH", `${REPO}/check-runs/9001`, { status: 502, message: "Server Error" });
    nockUpdateCheckRun(capture);

    await probot.receive(pullRequestEvent("opened"));

    const completions = capture.bodiesOf("PATCH", "/check-runs/9001");
    expect(completions).toHaveLength(2);
    expect(completions[1]).toMatchObject({ status: "completed", conclusion: "failure" });
  });

  it("a rate limit is reported as one, not as missing permissions", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockCreateCheckRun(capture);
    nockFailure(capture, "GET", `${REPO}/pulls/17/files`, { status: 403, message: "You have exceeded a secondary rate limit.", headers: { "retry-after": "120" } });
    nockUpdateCheckRun(capture);

    await probot.receive(pullRequestEvent("opened"));

    const summary: string = capture.bodiesOf("PATCH", "/check-runs/9001")[0].output.summary;
    expect(summary).toContain("GitHub rate-limited the app to GET");
    expect(summary).not.toContain("permissions");
  });
});

describe("runs a dead review left in progress", () => {
  it("a re-run completes our stale runs on the commit, not a recent one nor another app's", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, state, { runsInProgress: false });
    const old = new Date(Date.now() - 60 * 60_000).toISOString();
    nockRunsInProgress(capture, [
      { id: 9001, startedAt: old }, // the run of this review
      { id: 8001, startedAt: old }, // left by a review that died an hour ago
      { id: 8002, startedAt: new Date().toISOString() }, // another review, still working
      { id: 8003, startedAt: old, appId: 1 }, // another app's run with our check name
    ]);
    nockUpdateCheckRun(capture, 8001);

    await probot.receive(checkRunEvent("requested_action", { identifier: "rerun" }));

    expect(capture.bodiesOf("PATCH", "/check-runs/8001")).toEqual([
      expect.objectContaining({ status: "completed", conclusion: "cancelled", output: expect.objectContaining({ title: "Superseded" }) }),
    ]);
    expect(log.lines.find((l) => l.message === "Completed check runs left in progress")?.fields.completed).toEqual([8001]);
    expect(log.lines.filter((l) => l.level === "warn")).toEqual([]);
  });

  it("a new push does not look: its commit has no earlier run", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, state);

    await probot.receive(pullRequestEvent("synchronize"));

    expect(requestPaths().some((path) => path.includes("/commits/"))).toBe(false);
  });
});
