// `comments.event: REQUEST_CHANGES` end to end: the review blocks only while the gate fails, and
// the push that makes the gate pass dismisses cql-review's own change requests, and nobody else's.
import nock from "nock";
import { beforeEach, describe, expect, it } from "vitest";
import { dismissalMessage } from "../../src/github/api/change-requests.js";
import { REVIEW_MARKER } from "../../src/github/api/review-marker.js";
import { fakeCore } from "./helpers/fake-core.js";
import { baseRepository, fixture, unbucketedTimeSeries } from "./helpers/fixtures.js";
import { Capture, captureEachTest, nockReviewOf, type RepositoryState } from "./helpers/github-mock.js";
import { HEAD_SHA, pullRequestEvent } from "./helpers/payloads.js";
import { testProbot } from "./helpers/probot.js";

const github = captureEachTest();
let capture: Capture;
beforeEach(() => {
  capture = github();
});

const REQUEST_CHANGES = "comments:\n  event: REQUEST_CHANGES\n";
const unbucketed: RepositoryState = {
  base: baseRepository,
  head: { ...baseRepository, "schema/020_readings.cql": fixture("readings-unbucketed.cql") },
  config: REQUEST_CHANGES,
};
const bucketed: RepositoryState = {
  base: baseRepository,
  head: { ...baseRepository, "schema/020_readings.cql": fixture("readings-bucketed.cql") },
  config: REQUEST_CHANGES,
};

const UNBOUNDED = "partition-unbounded-growth:table:telemetry.readings_by_device";
const ourChangeRequest = (databaseId: number) => ({
  databaseId,
  body: `**cql-review** found 1 new finding in this change.\n\n${REVIEW_MARKER}`,
});
const requestPaths = () => capture.api.map((r) => `${r.method} ${r.path.split("?")[0]}`);
const dismissals = () => capture.requests.filter((r) => r.method === "PUT");

describe("the review event follows the gate", () => {
  it("a finding that fails the gate is posted as a change request", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, unbucketed);

    await probot.receive(pullRequestEvent("opened"));

    const [review] = capture.bodiesOf("POST", "/reviews");
    expect(review.event).toBe("REQUEST_CHANGES");
    expect(review.comments).toHaveLength(1);
    expect(review.body).toContain(REVIEW_MARKER);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("failure");
  });

  it("info comments only are posted as a comment, though REQUEST_CHANGES is configured", async () => {
    const infoOnly = fakeCore((files) => unbucketedTimeSeries(files).map((finding) => ({ ...finding, severity: "info" as const })));
    const { probot } = testProbot(infoOnly);
    nockReviewOf(capture, unbucketed);

    await probot.receive(pullRequestEvent("opened"));

    const [review] = capture.bodiesOf("POST", "/reviews");
    expect(review.event).toBe("COMMENT");
    expect(review.comments).toHaveLength(1);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("neutral");
  });

  it("fail_on decides: a warning requests changes under fail_on: warning, and only comments under fail_on: error", async () => {
    const warnings = fakeCore((files) => unbucketedTimeSeries(files).map((finding) => ({ ...finding, severity: "warning" as const })));
    const { probot } = testProbot(warnings);
    nockReviewOf(capture, { ...unbucketed, config: `fail_on: warning\n${REQUEST_CHANGES}` });
    await probot.receive(pullRequestEvent("opened"));

    nockReviewOf(capture, unbucketed);
    await probot.receive(pullRequestEvent("synchronize"));

    expect(capture.bodiesOf("POST", "/reviews").map((review) => review.event)).toEqual(["REQUEST_CHANGES", "COMMENT"]);
  });

  it("a failing gate with no new inline comment and no change request in force still requests changes, naming the findings", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    // The finding was commented on in an earlier review posted as a comment (the gate passed under another fail_on).
    nockReviewOf(capture, {
      ...unbucketed,
      threads: [{ id: "PRRC_kwDOold", body: `**partition-unbounded-growth** …\n\n<!-- cql-review:fingerprint=${UNBOUNDED} -->` }],
    });

    await probot.receive(pullRequestEvent("synchronize"));

    const [review] = capture.bodiesOf("POST", "/reviews");
    expect(review.event).toBe("REQUEST_CHANGES");
    expect(review).not.toHaveProperty("comments");
    expect(review.body).toMatchInlineSnapshot(`
      "**cql-review** requests changes: 1 new finding in this change fails the gate (\`fail_on: error\`). The \`cql-review\` check run has the details.

      - \`partition-unbounded-growth\` at \`schema/020_readings.cql:9\`: Partitions of readings\\_by\\_device grow without bound: device\\_id alone never closes a partition.

      <!-- cql-review:review -->"
    `);
  });

  it("a failing gate with our change request still in force posts no second one and dismisses nothing", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(
      capture,
      {
        ...unbucketed,
        threads: [{ id: "PRRC_kwDOold", body: `**partition-unbounded-growth** …\n\n<!-- cql-review:fingerprint=${UNBOUNDED} -->` }],
        changeRequests: [ourChangeRequest(501)],
      },
      { review: false },
    );

    await probot.receive(pullRequestEvent("synchronize"));

    expect(capture.api).toHaveLength(6); // with GET /app
    expect(dismissals()).toEqual([]);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("failure");
  });

  it("with the default COMMENT event a failing gate never requests changes", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, { ...unbucketed, config: undefined });

    await probot.receive(pullRequestEvent("opened"));

    expect(capture.bodiesOf("POST", "/reviews")[0].event).toBe("COMMENT");
    expect(capture.api).toHaveLength(6);
  });
});

describe("dismissal once fixed", () => {
  it("a push that fixes the model dismisses the bot's change request, and not a person's or an unmarked bot review", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(
      capture,
      {
        ...bucketed,
        changeRequests: [
          ourChangeRequest(501),
          // A person quoting our marker in their own change request: theirs to withdraw.
          { databaseId: 502, body: `> ${REVIEW_MARKER}\nPlease also add a TTL.`, authorType: "User" },
          // Another bot's change request (a linter, say) without our marker.
          { databaseId: 503, body: "Lint failed: trailing whitespace.", login: "other-linter" },
        ],
      },
      { review: false, dismiss: [501] },
    );

    await probot.receive(pullRequestEvent("synchronize"));

    expect(requestPaths()).toEqual([
      "POST /repos/acme-data/iot-models/check-runs",
      "GET /repos/acme-data/iot-models/pulls/17/files",
      `GET /repos/acme-data/iot-models/git/trees/${HEAD_SHA}`,
      "POST /graphql",
      "GET /app",
      "PUT /repos/acme-data/iot-models/pulls/17/reviews/501/dismissals",
      "PATCH /repos/acme-data/iot-models/check-runs/9001",
    ]);
    expect(dismissals()[0]!.body).toMatchInlineSnapshot(`
      {
        "event": "DISMISS",
        "message": "The findings that requested changes are fixed as of a1b2c3d; cql-review's gate (fail_on: error) passes.",
      }
    `);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("success");
    expect(log.lines.find((l) => l.message === "Dismissed earlier change requests")?.fields.dismissed).toEqual([501]);
    // An attempt on 502 or 503 would fail against nock and show up here.
    expect(log.lines.filter((l) => l.level === "warn" || l.level === "error")).toEqual([]);
  });

  it("every change request of ours still in force is dismissed, each with its own request", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, { ...bucketed, changeRequests: [ourChangeRequest(501), ourChangeRequest(517)] }, { review: false, dismiss: [501, 517] });

    await probot.receive(pullRequestEvent("synchronize"));

    expect(dismissals().map((r) => r.path)).toEqual([
      "/repos/acme-data/iot-models/pulls/17/reviews/501/dismissals",
      "/repos/acme-data/iot-models/pulls/17/reviews/517/dismissals",
    ]);
    expect(capture.api).toHaveLength(8);
  });

  it("a change request made under REQUEST_CHANGES is dismissed after the config goes back to COMMENT", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, { ...bucketed, config: undefined, changeRequests: [ourChangeRequest(501)] }, { review: false, dismiss: [501] });

    await probot.receive(pullRequestEvent("synchronize"));

    expect(dismissals()).toHaveLength(1);
  });

  it("a passing review that posts new comments posts them as a comment, then dismisses", async () => {
    const infoOnly = fakeCore((files) => unbucketedTimeSeries(files).map((finding) => ({ ...finding, severity: "info" as const })));
    const { probot } = testProbot(infoOnly);
    nockReviewOf(capture, { ...unbucketed, changeRequests: [ourChangeRequest(501)] }, { dismiss: [501] });

    await probot.receive(pullRequestEvent("synchronize"));

    expect(requestPaths().slice(4)).toEqual([
      "GET /app",
      "POST /repos/acme-data/iot-models/pulls/17/reviews",
      "PUT /repos/acme-data/iot-models/pulls/17/reviews/501/dismissals",
      "PATCH /repos/acme-data/iot-models/check-runs/9001",
    ]);
    expect(capture.bodiesOf("POST", "/reviews")[0].event).toBe("COMMENT");
  });

  it("a dismissal refused with 403 is logged; the review and the check run still complete", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    // The second is not tried: without the permission it would be refused the same way.
    nockReviewOf(capture, { ...bucketed, changeRequests: [ourChangeRequest(501), ourChangeRequest(517)] }, { review: false, dismiss: [[501, 403]] });

    await probot.receive(pullRequestEvent("synchronize"));

    const completed = capture.bodiesOf("PATCH", "/check-runs/9001")[0];
    expect(completed.status).toBe("completed");
    expect(completed.conclusion).toBe("success");
    expect(dismissals()).toHaveLength(1);
    const warnings = log.lines.filter((l) => l.level === "warn" && l.message.startsWith("Could not dismiss"));
    expect(warnings).toHaveLength(1);
    const [warning] = warnings;
    expect(warning?.fields).toMatchObject({ review: 501, status: 403 });
    expect(warning?.message).toContain("Pull requests (write)");
    expect(log.lines.some((l) => l.level === "error")).toBe(false);
    expect(log.lines.find((l) => l.message === "Reviewed pull request")?.fields.dismissed).toBe(0);
  });

  it("a dismissal refused with 422 (dismissed meanwhile) is logged and the next one is still dismissed", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(
      capture,
      { ...bucketed, changeRequests: [ourChangeRequest(501), ourChangeRequest(517)] },
      { review: false, dismiss: [[501, 422], 517] },
    );

    await probot.receive(pullRequestEvent("synchronize"));

    expect(dismissals()).toHaveLength(2);
    expect(log.lines.find((l) => l.message === "Dismissed earlier change requests")?.fields.dismissed).toEqual([517]);
    expect(log.lines.filter((l) => l.level === "warn" && l.message.startsWith("Could not dismiss"))).toHaveLength(1);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("success");
  });

  it("a passing re-run of an older commit keeps the change request made on the newer head", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(
      capture,
      { ...bucketed, changeRequests: [ourChangeRequest(501)], headRefOid: "ffffffffffffffffffffffffffffffffffffffff" },
      { review: false },
    );

    await probot.receive(pullRequestEvent("synchronize"));

    expect(dismissals()).toEqual([]);
    expect(log.lines.map((l) => l.message)).toContain("Kept earlier change requests: the reviewed commit is not the pull request's head");
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("success");
  });
});

describe("dismissalMessage", () => {
  it("names the commit and the gate", () => {
    nock.cleanAll(); // no GitHub request here
    expect(dismissalMessage(HEAD_SHA, "warning")).toBe(
      "The findings that requested changes are fixed as of a1b2c3d; cql-review's gate (fail_on: warning) passes.",
    );
    expect(dismissalMessage(HEAD_SHA, "never")).toBe(
      "cql-review no longer gates this pull request (fail_on: never) as of a1b2c3d; its request for changes is withdrawn.",
    );
  });
});
