// The bot's markers are its own: read only from the last line where the app writes them, and only
// from content its own bot account authored. Other accounts' comments and reviews are never
// minimized or dismissed, whatever markers they carry.
import { beforeEach, describe, expect, it } from "vitest";
import { REVIEW_MARKER } from "../../src/github/api/review-marker.js";
import { fakeCore } from "./helpers/fake-core.js";
import { baseRepository, fixture, unbucketedTimeSeries } from "./helpers/fixtures.js";
import { Capture, captureEachTest, nockReviewOf, type RepositoryState } from "./helpers/github-mock.js";
import { pullRequestEvent } from "./helpers/payloads.js";
import { testProbot } from "./helpers/probot.js";

const github = captureEachTest();
let capture: Capture;
beforeEach(() => {
  capture = github();
});

const UNBOUNDED = "partition-unbounded-growth:table:telemetry.readings_by_device";
const REQUEST_CHANGES = "comments:\n  event: REQUEST_CHANGES\n";
const unbucketed: RepositoryState = {
  base: baseRepository,
  head: { ...baseRepository, "schema/020_readings.cql": fixture("readings-unbucketed.cql") },
};
const bucketed: RepositoryState = {
  base: baseRepository,
  head: { ...baseRepository, "schema/020_readings.cql": fixture("readings-bucketed.cql") },
  config: REQUEST_CHANGES,
};
const requestPaths = () => capture.api.map((r) => `${r.method} ${r.path.split("?")[0]}`);

describe("only this app's own content is acted on", () => {
  it("another bot's comment with our marker neither silences the finding nor gets minimized", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, {
      ...unbucketed,
      threads: [{ id: "PRRC_other", body: `Copied: \n\n<!-- cql-review:fingerprint=${UNBOUNDED} -->`, login: "other-bot" }],
    });

    await probot.receive(pullRequestEvent("opened"));

    expect(capture.bodiesOf("POST", "/reviews")[0].comments).toHaveLength(1);
    expect(capture.graphqlQueries().filter((q) => q.query.startsWith("mutation"))).toEqual([]);
    expect(log.lines.find((l) => l.message.startsWith("Ignored markers"))?.fields.ignored).toBe(1);
  });

  it("another bot's change request with our review marker is never dismissed", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, {
      ...bucketed,
      changeRequests: [{ databaseId: 601, body: `Blocked.\n\n${REVIEW_MARKER}`, login: "other-bot" }],
    }, { review: false });

    await probot.receive(pullRequestEvent("synchronize"));

    expect(requestPaths()).not.toContainEqual(expect.stringMatching(/dismissals/));
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("success");
  });

  it("when the app cannot learn its login, nothing is taken as its own", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    // registered before nockReviewOf's (optional) answer, so this one is used
    capture.scope().get("/app").reply(401, function (uri) {
      capture.record("GET", uri, undefined);
      return { message: "Bad credentials" };
    });
    nockReviewOf(capture, {
      ...unbucketed,
      threads: [{ id: "PRRC_ours", body: `old\n\n<!-- cql-review:fingerprint=gone -->` }],
    });

    await probot.receive(pullRequestEvent("opened"));

    expect(capture.graphqlQueries().filter((q) => q.query.startsWith("mutation"))).toEqual([]);
    expect(log.lines.some((l) => l.message.startsWith("Could not learn this app's bot login"))).toBe(true);
  });
});
