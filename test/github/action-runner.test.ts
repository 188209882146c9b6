// The Action shares the review use case: with the workflow's GITHUB_TOKEN its reviews are written
// by github-actions (a Bot), and it withdraws the change requests it made once the gate passes.
import { Octokit } from "@octokit/rest";
import { beforeEach, describe, expect, it } from "vitest";
import { runAction } from "../../src/github/action-runner.js";
import { recordingToolkit } from "../action/recording-toolkit.js";
import { REVIEW_MARKER } from "../../src/github/api/review-marker.js";
import { fakeCore } from "./helpers/fake-core.js";
import { fixture, unbucketedTimeSeries } from "./helpers/fixtures.js";
import { Capture, captureEachTest, nockCommandAnswer, nockReviewOf, type RepositoryState } from "./helpers/github-mock.js";
import { issueCommentEvent, pullRequestEvent } from "./helpers/payloads.js";

const github = captureEachTest({ installationToken: false });
let capture: Capture;
beforeEach(() => {
  capture = github();
});

const base = { "schema/000_keyspace.cql": fixture("keyspace.cql") };
const config = "comments:\n  event: REQUEST_CHANGES\n";
const unbucketed: RepositoryState = { base, head: { ...base, "schema/020_readings.cql": fixture("readings-unbucketed.cql") }, config };
const bucketed: RepositoryState = { base, head: { ...base, "schema/020_readings.cql": fixture("readings-bucketed.cql") }, config };

async function run(event: object, eventName = "pull_request") {
  const output: string[] = [];
  const code = await runAction({
    core: fakeCore(unbucketedTimeSeries),
    env: {
      GITHUB_TOKEN: "ghs_workflow_token",
      GITHUB_EVENT_NAME: eventName,
      GITHUB_EVENT_PATH: "/github/workflow/event.json",
    },
    readFile: () => JSON.stringify(event),
    toolkit: recordingToolkit(output),
    github: new Octokit({ auth: "ghs_workflow_token", request: { retries: 0 } }),
  });
  return { code, output };
}

describe("runAction with comments.event: REQUEST_CHANGES", () => {
  it("requests changes while the gate fails", async () => {
    nockReviewOf(capture, unbucketed);

    const { code } = await run(pullRequestEvent("opened").payload);

    expect(code).toBe(1);
    expect(capture.bodiesOf("POST", "/reviews")[0].event).toBe("REQUEST_CHANGES");
  });

  it("dismisses the change request the workflow's token made once a push fixes the model", async () => {
    nockReviewOf(
      capture,
      {
        ...bucketed,
        changeRequests: [{ databaseId: 8801, body: `**cql-review** found 1 new finding in this change.\n\n${REVIEW_MARKER}`, login: "github-actions" }],
      },
      { review: false, dismiss: [8801] },
    );

    const { code, output } = await run(pullRequestEvent("synchronize").payload);

    expect(code).toBe(0);
    expect(capture.requests.filter((r) => r.method === "PUT").map((r) => r.path)).toEqual([
      "/repos/acme-data/iot-models/pulls/17/reviews/8801/dismissals",
    ]);
    expect(output.at(-1)).toBe("cql-review: success, 0 new inline comment(s). 1 earlier change request(s) dismissed.");
  });

  it("a token that may not dismiss leaves a warning annotation and still passes the step", async () => {
    nockReviewOf(
      capture,
      { ...bucketed, changeRequests: [{ databaseId: 8801, body: REVIEW_MARKER, login: "github-actions" }] },
      { review: false, dismiss: [[8801, 403]] },
    );

    const { code, output } = await run(pullRequestEvent("synchronize").payload);

    expect(code).toBe(0);
    expect(output.filter((line) => line.startsWith("::warning::Could not dismiss"))).toHaveLength(1);
    expect(output.at(-1)).toBe("cql-review: success, 0 new inline comment(s).");
  });
});

describe("runAction on issue_comment", () => {
  it("answers /cql explain on a pull request as the app does", async () => {
    nockCommandAnswer(capture, unbucketed);

    const { code, output } = await run(issueCommentEvent("/cql explain Q1").payload, "issue_comment");

    expect(code).toBe(0);
    expect(capture.api.map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([
      "POST /repos/acme-data/iot-models/issues/comments/555001/reactions",
      "GET /repos/acme-data/iot-models/pulls/17",
      expect.stringMatching(/^GET \/repos\/acme-data\/iot-models\/git\/trees\//),
      "POST /graphql",
      "POST /repos/acme-data/iot-models/issues/17/comments",
    ]);
    expect(capture.bodiesOf("POST", "/issues/17/comments")[0].body).toMatch(/^> `\/cql explain Q1`/);
    expect(output.at(-1)).toBe("cql-review: answered /cql explain.");
  });

  it("ignores comments by bots, comments on issues and comments without a command", async () => {
    const byBot = await run(issueCommentEvent("/cql help", { senderType: "Bot", senderLogin: "github-actions[bot]" }).payload, "issue_comment");
    const onIssue = await run(issueCommentEvent("/cql help", { onPullRequest: false }).payload, "issue_comment");
    const plain = await run(issueCommentEvent("Looks good to me").payload, "issue_comment");
    const stranger = await run(issueCommentEvent("/cql explain Q1", { authorAssociation: "NONE" }).payload, "issue_comment");

    expect([byBot.code, onIssue.code, plain.code, stranger.code]).toEqual([0, 0, 0, 0]);
    expect(capture.api).toEqual([]);
    expect(plain.output.at(-1)).toBe("cql-review: the comment holds no /cql command.");
  });
});
