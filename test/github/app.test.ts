// End to end through a real Probot instance: webhook payloads from @octokit/webhooks-examples,
// GitHub mocked with nock, every body sent to GitHub checked against its OpenAPI description.
import nock from "nock";
import { beforeEach, describe, expect, it } from "vitest";
import type { Finding } from "../../src/findings.js";
import { fakeCore } from "./helpers/fake-core.js";
import { baseRepository, fixture, unbucketedTimeSeries } from "./helpers/fixtures.js";
import {
  Capture,
  captureEachTest,
  changedFilesOf,
  nockCreateCheckRun,
  nockCreateReview,
  nockGetApp,
  nockGraphqlFiles,
  nockInstallationToken,
  nockListOpenPulls,
  nockMinimizeComments,
  nockPullFiles,
  nockReviewOf,
  nockTree,
  nockUpdateCheckRun,
  type RepositoryState,
} from "./helpers/github-mock.js";
import { BASE_SHA, checkRunEvent, checkSuiteRerequestedEvent, HEAD_SHA, pullRequestEvent } from "./helpers/payloads.js";
import { testProbot } from "./helpers/probot.js";

const github = captureEachTest();
let capture: Capture;
beforeEach(() => {
  capture = github();
});


const addsUnbucketedTable: RepositoryState = {
  base: baseRepository,
  head: { ...baseRepository, "schema/020_readings.cql": fixture("readings-unbucketed.cql") },
};

const marker = (fingerprint: string) => `<!-- cql-review:fingerprint=${fingerprint} -->`;
const UNBOUNDED = "partition-unbounded-growth:table:telemetry.readings_by_device";

describe("pull_request", () => {
  it("a PR adding a table without a bucket gets a suggestion on the PRIMARY KEY line", async () => {
    const core = fakeCore(unbucketedTimeSeries);
    const { probot } = testProbot(core);
    nockReviewOf(capture, addsUnbucketedTable);

    await probot.receive(pullRequestEvent("opened"));

    expect(capture.api.map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([
      "POST /repos/acme-data/iot-models/check-runs",
      "GET /repos/acme-data/iot-models/pulls/17/files",
      `GET /repos/acme-data/iot-models/git/trees/${HEAD_SHA}`,
      "POST /graphql",
      "POST /repos/acme-data/iot-models/pulls/17/reviews",
      "PATCH /repos/acme-data/iot-models/check-runs/9001",
    ]);
    expect(capture.bodiesOf("POST", "/check-runs")[0]).toEqual({
      name: "cql-review",
      head_sha: HEAD_SHA,
      status: "in_progress",
    });
    expect(capture.bodiesOf("POST", "/reviews")[0]).toMatchInlineSnapshot(`
      {
        "body": "**cql-review** found 1 new finding in this change.

      <!-- cql-review:review -->",
        "comments": [
          {
            "body": "**partition-unbounded-growth**: Partitions of readings_by_device grow without bound: device_id alone never closes a partition.

      \`\`\`suggestion
        PRIMARY KEY ((device_id, day), reading_time)
      \`\`\`

      <!-- cql-review:fingerprint=partition-unbounded-growth:table:telemetry.readings_by_device -->",
            "line": 9,
            "path": "schema/020_readings.cql",
            "side": "RIGHT",
          },
        ],
        "commit_id": "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
        "event": "COMMENT",
      }
    `);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0]).toMatchInlineSnapshot(`
      {
        "actions": [
          {
            "description": "Review this pull request again",
            "identifier": "rerun",
            "label": "Re-run cql-review",
          },
        ],
        "conclusion": "failure",
        "output": {
          "annotations": [
            {
              "annotation_level": "failure",
              "end_column": 41,
              "end_line": 9,
              "message": "Partitions of readings_by_device grow without bound: device_id alone never closes a partition.",
              "path": "schema/020_readings.cql",
              "raw_details": "rowsPerPartitionAfterOneYear: 3153600
      suggestedBucket: 1 day
      fix: Add a day bucket to the partition key
      rule: https://github.com/cql-review/cql-review/blob/main/rules/partition-unbounded-growth.md",
              "start_column": 3,
              "start_line": 9,
              "title": "partition-unbounded-growth",
            },
          ],
          "summary": "1 findings",
          "title": "1 new error · gate failed (fail_on: error)",
        },
        "status": "completed",
      }
    `);
    // The core saw every schema file at the head, and the base without the added file.
    expect(core.inputs[0]!.files.map((f) => f.path)).toEqual([
      "access-patterns.yaml",
      "schema/000_keyspace.cql",
      "schema/010_devices.cql",
      "schema/020_readings.cql",
    ]);
    expect(core.inputs[0]!.baseFiles!.map((f) => f.path)).toEqual([
      "access-patterns.yaml",
      "schema/000_keyspace.cql",
      "schema/010_devices.cql",
    ]);
  });

  it("reads every candidate blob, the config and the posted comments in one GraphQL query", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, { ...addsUnbucketedTable, config: fixture("cql-review.yml") });

    await probot.receive(pullRequestEvent("opened"));

    const [read] = capture.graphqlQueries();
    expect(read!.query).toMatchInlineSnapshot(`
      "query CqlReviewFiles($owner: String!, $repo: String!, $e0: String!, $e1: String!, $e2: String!, $e3: String!, $config: String!, $number: Int!) {
        repository(owner: $owner, name: $repo) {
          f0: object(expression: $e0) { ...BlobText }
          f1: object(expression: $e1) { ...BlobText }
          f2: object(expression: $e2) { ...BlobText }
          f3: object(expression: $e3) { ...BlobText }
          config: object(expression: $config) { ...BlobText }
          pullRequest(number: $number) { headRefOid reviewThreads(first: 100) { pageInfo { hasNextPage endCursor } nodes { comments(first: 1) { nodes { id body isMinimized author { __typename login } } } } } reviews(last: 50, states: [CHANGES_REQUESTED]) { nodes { databaseId body author { __typename login } } } }
        }
      }
      fragment BlobText on Blob { text isBinary byteSize isTruncated }"
    `);
    expect(read!.variables).toMatchInlineSnapshot(`
      {
        "config": "main:.github/cql-review.yml",
        "e0": "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678:access-patterns.yaml",
        "e1": "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678:schema/000_keyspace.cql",
        "e2": "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678:schema/010_devices.cql",
        "e3": "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678:schema/020_readings.cql",
        "number": 17,
        "owner": "acme-data",
        "repo": "iot-models",
      }
    `);
  });

  it("the same delivery again posts nothing new", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(
      capture,
      { ...addsUnbucketedTable, threads: [{ id: "PRRC_kwDOold", body: `**partition-unbounded-growth** …\n\n${marker(UNBOUNDED)}` }] },
      { review: false },
    );

    await probot.receive(pullRequestEvent("opened"));

    expect(capture.bodiesOf("POST", "/reviews")).toEqual([]);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("failure");
    // check create, files, tree, GraphQL, GET /app (whose comment the marker is in), check update
    expect(capture.api).toHaveLength(6);
  });

  it("a marker quoted by a person does not silence the finding", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, {
      ...addsUnbucketedTable,
      threads: [{ id: "PRRC_kwDOquote", body: `> ${marker(UNBOUNDED)}\nwhy?`, authorType: "User" }],
    });

    await probot.receive(pullRequestEvent("opened"));

    expect(capture.bodiesOf("POST", "/reviews")[0].comments).toHaveLength(1);
  });

  it("a push that fixes the model passes the gate and collapses the resolved comment", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    const fixed: RepositoryState = {
      base: baseRepository,
      head: { ...baseRepository, "schema/020_readings.cql": fixture("readings-bucketed.cql") },
      threads: [{ id: "PRRC_kwDOold", body: `**partition-unbounded-growth** …\n\n${marker(UNBOUNDED)}` }],
    };
    nockCreateCheckRun(capture);
    nockPullFiles(capture, changedFilesOf(fixed));
    nockTree(capture, fixed.head);
    nockGraphqlFiles(capture, fixed);
    nockGetApp(capture);
    nockMinimizeComments(capture);
    nockUpdateCheckRun(capture);

    await probot.receive(pullRequestEvent("synchronize"));

    const [, minimize] = capture.graphqlQueries();
    expect(minimize).toMatchInlineSnapshot(`
      {
        "query": "mutation CqlReviewResolved($c0: ID!) {
        m0: minimizeComment(input: { subjectId: $c0, classifier: OUTDATED }) { minimizedComment { isMinimized } }
      }",
        "variables": {
          "c0": "PRRC_kwDOold",
        },
      }
    `);
    const completed = capture.bodiesOf("PATCH", "/check-runs/9001")[0];
    expect(completed.conclusion).toBe("success");
    expect(completed.output.title).toBe("No findings");
  });

  it("findings that existed at the base get no inline comment and do not fail the gate", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    const withReadings = { ...baseRepository, "schema/020_readings.cql": fixture("readings-unbucketed.cql") };
    const touchesDevicesOnly: RepositoryState = {
      base: withReadings,
      head: { ...withReadings, "schema/010_devices.cql": fixture("devices.cql").replace("firmware text,", "firmware text,\n  location text,") },
    };
    nockReviewOf(capture, touchesDevicesOnly, { review: false });

    await probot.receive(pullRequestEvent("synchronize"));

    const completed = capture.bodiesOf("PATCH", "/check-runs/9001")[0];
    expect(completed.conclusion).toBe("success");
    expect(completed.output.title).toBe("Nothing new · 1 existing");
    expect(completed.output.annotations.map((a: { title: string }) => a.title)).toEqual(["partition-unbounded-growth (existing)"]);
  });

  it("a finding on an unchanged line of a changed file goes to the check run only", async () => {
    const readings = fixture("readings-unbucketed.cql");
    const commentOnly: RepositoryState = {
      base: { ...baseRepository, "schema/020_readings.cql": readings },
      head: { ...baseRepository, "schema/020_readings.cql": readings.replace("-- One row per reading", "-- A row per reading") },
    };
    // The finding exists at the base with another fingerprint, so it counts as new.
    const core = fakeCore((files) =>
      unbucketedTimeSeries(files).map((f) => ({ ...f, fingerprint: files.some((x) => x.content.includes("A row")) ? "new" : "old" })),
    );
    const { probot } = testProbot(core);
    nockReviewOf(capture, commentOnly, { review: false });

    await probot.receive(pullRequestEvent("synchronize"));

    expect(capture.bodiesOf("POST", "/reviews")).toEqual([]);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].output.annotations).toHaveLength(1);
  });

  it("comments stop at comments.max and 120 findings are annotated 50 per request", async () => {
    const findings: Finding[] = Array.from({ length: 120 }, (_, i) => ({
      rule: "query-needs-allow-filtering",
      severity: "warning",
      location: {
        file: "schema/020_readings.cql",
        range: { start: { line: 5, column: 1, offset: 0 }, end: { line: 5, column: 10, offset: 9 } },
      },
      message: `Query Q${i} needs ALLOW FILTERING`,
      fingerprint: `query-needs-allow-filtering:query:Q${i}`,
    }));
    const { probot } = testProbot(fakeCore((files) => (files.some((f) => f.path === "schema/020_readings.cql") ? findings : [])));
    nockReviewOf(capture, { ...addsUnbucketedTable, config: "comments:\n  max: 5\n" }, { updates: 3 });

    await probot.receive(pullRequestEvent("opened"));

    const review = capture.bodiesOf("POST", "/reviews")[0];
    expect(review.comments).toHaveLength(5);
    expect(review.body).toMatchInlineSnapshot(`
      "**cql-review** found 120 new findings in this change. 115 findings outside the changed lines are in the \`cql-review\` check run.

      <!-- cql-review:review -->"
    `);
    const updates = capture.bodiesOf("PATCH", "/check-runs/9001");
    expect(updates.map((u) => [u.status, u.conclusion, u.output.annotations.length])).toEqual([
      [undefined, undefined, 50],
      [undefined, undefined, 50],
      ["completed", "neutral", 20],
    ]);
  });

  it("when GitHub still refuses the inline comments, the review is posted again without them", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    nockCreateCheckRun(capture);
    nockPullFiles(capture, changedFilesOf(addsUnbucketedTable));
    nockTree(capture, addsUnbucketedTable.head);
    nockGraphqlFiles(capture, addsUnbucketedTable);
    nockCreateReview(capture, 422);
    nockCreateReview(capture, 200);
    nockUpdateCheckRun(capture);

    await probot.receive(pullRequestEvent("opened"));

    const [refused, retried] = capture.bodiesOf("POST", "/reviews");
    expect(refused.comments).toHaveLength(1);
    expect(retried.comments).toBeUndefined();
    expect(retried.body).toMatchInlineSnapshot(`
      "**cql-review** found 1 new finding; GitHub could not place them inline, so they are listed here and annotated in the \`cql-review\` check run.

      - \`partition-unbounded-growth\` at \`schema/020_readings.cql:9\`: Partitions of readings\\_by\\_device grow without bound: device\\_id alone never closes a partition.

      <!-- cql-review:review -->"
    `);
    expect(log.lines.some((l) => l.level === "warn" && l.message.includes("refused"))).toBe(true);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].output.annotations).toHaveLength(1);
  });

  it("a crash in the core is reported in the check run with the delivery id", async () => {
    const core = fakeCore(() => {
      throw new RangeError("Maximum call stack size exceeded");
    });
    const { probot, log } = testProbot(core);
    nockCreateCheckRun(capture);
    nockPullFiles(capture, changedFilesOf(addsUnbucketedTable));
    nockTree(capture, addsUnbucketedTable.head);
    nockGraphqlFiles(capture, addsUnbucketedTable);
    nockUpdateCheckRun(capture);

    await probot.receive(pullRequestEvent("opened"));

    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0]).toMatchInlineSnapshot(`
      {
        "actions": [
          {
            "description": "Review this pull request again",
            "identifier": "rerun",
            "label": "Re-run cql-review",
          },
        ],
        "conclusion": "failure",
        "output": {
          "summary": "cql-review hit a problem and could not review commit \`a1b2c3d\`:

      > RangeError: Maximum call stack size exceeded

      Press **Re-run cql-review** to try again. If it keeps failing, report correlation id \`delivery-pr-opened\`.",
          "title": "cql-review could not finish the review",
        },
        "status": "completed",
      }
    `);
    expect(log.lines.find((l) => l.level === "error")?.fields.correlationId).toBe("delivery-pr-opened");
  });

  it("a file over the size limit is reported, not fetched", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    const state: RepositoryState = {
      base: baseRepository,
      head: { ...baseRepository, "schema/900_seed_data.cql": "INSERT INTO devices (device_id) VALUES (uuid());\n" },
    };
    nockCreateCheckRun(capture);
    nockPullFiles(capture, changedFilesOf(state));
    nockTree(capture, state.head, { sizes: { "schema/900_seed_data.cql": 3 * 1024 * 1024 } });
    nockGraphqlFiles(capture, state);
    nockCreateReview(capture);
    nockUpdateCheckRun(capture);

    await probot.receive(pullRequestEvent("opened"));

    const [read] = capture.graphqlQueries();
    expect(Object.values(read!.variables)).not.toContain(`${HEAD_SHA}:schema/900_seed_data.cql`);
    const completed = capture.bodiesOf("PATCH", "/check-runs/9001")[0];
    expect(completed.output.annotations).toMatchInlineSnapshot(`
      [
        {
          "annotation_level": "warning",
          "end_column": 1,
          "end_line": 1,
          "message": "schema/900_seed_data.cql is 3.0 MiB, over the 1.0 MiB limit; it was not reviewed.",
          "path": "schema/900_seed_data.cql",
          "raw_details": "rule: https://github.com/cql-review/cql-review/blob/main/rules/input-limit-exceeded.md",
          "start_column": 1,
          "start_line": 1,
          "title": "input-limit-exceeded",
        },
      ]
    `);
    // A file left unread could hide an error: the gate fails closed.
    expect(completed.conclusion).toBe("failure");
    // The file is new in this change, so its first line can carry the comment.
    expect(capture.bodiesOf("POST", "/reviews")[0].comments.map((c: { path: string; line: number }) => [c.path, c.line])).toEqual([
      ["schema/900_seed_data.cql", 1],
    ]);
  });

  it("a config with its own globs costs one more query for the files it adds", async () => {
    const { probot } = testProbot(fakeCore(() => []));
    const state: RepositoryState = {
      base: {},
      head: { "db/tables.cqlsh": "CREATE TABLE t (k int PRIMARY KEY);\n", "schema/000_keyspace.cql": fixture("keyspace.cql") },
      config: "schema: ['**/*.cql', 'db/*.cqlsh']\n",
    };
    nockCreateCheckRun(capture);
    nockPullFiles(capture, changedFilesOf(state));
    nockTree(capture, state.head);
    nockGraphqlFiles(capture, state, 2);
    nockUpdateCheckRun(capture);

    await probot.receive(pullRequestEvent("opened"));

    const [, second] = capture.graphqlQueries();
    expect(second!.variables).toEqual({ owner: "acme-data", repo: "iot-models", e0: `${HEAD_SHA}:db/tables.cqlsh` });
  });

  it("a repository with more schema files than one query holds is read in chunks", async () => {
    const core = fakeCore(() => []);
    const { probot } = testProbot(core);
    const head: Record<string, string> = { ...baseRepository };
    for (let i = 0; i < 300; i++) head[`schema/tables/t${String(i).padStart(3, "0")}.cql`] = `CREATE TABLE t${i} (k int PRIMARY KEY);\n`;
    const state: RepositoryState = { base: head, head: { ...head, "schema/010_devices.cql": fixture("devices.cql") + "\n" } };
    nockCreateCheckRun(capture);
    nockPullFiles(capture, changedFilesOf(state));
    nockTree(capture, state.head);
    nockGraphqlFiles(capture, state, 2);
    nockUpdateCheckRun(capture);

    await probot.receive(pullRequestEvent("synchronize"));

    const [first, second] = capture.graphqlQueries();
    expect(Object.keys(first!.variables).filter((k) => /^e\d+$/.test(k))).toHaveLength(250);
    expect(first!.variables).toHaveProperty("config");
    expect(second!.variables).not.toHaveProperty("config");
    expect(core.inputs[0]!.files).toHaveLength(303);
    expect(core.inputs[0]!.baseFiles).toHaveLength(303);
  });

  it("a draft pull request is left alone until it is marked ready", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    nock.cleanAll();

    await probot.receive(pullRequestEvent("opened", { draft: true }));

    expect(capture.requests).toEqual([]);
    expect(log.lines.map((l) => l.message)).toContain("Ignored: draft pull request (reviewed when marked ready)");

    nockInstallationToken(capture);
    nockReviewOf(capture, addsUnbucketedTable);
    await probot.receive(pullRequestEvent("ready_for_review"));
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("failure");
  });

  it("a closed pull request is ignored", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    nock.cleanAll();
    const event = pullRequestEvent("opened");
    event.payload.pull_request.state = "closed";

    await probot.receive(event);

    expect(capture.requests).toEqual([]);
    expect(log.lines.map((l) => l.message)).toContain("Ignored: the pull request is closed");
  });

  it("reviews a pull request of 100 files in six requests", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    const head: Record<string, string> = { ...addsUnbucketedTable.head };
    for (let i = 0; i < 96; i++) head[`schema/tables/t${String(i).padStart(3, "0")}.cql`] = `CREATE TABLE t${i} (k int PRIMARY KEY);\n`;
    const state: RepositoryState = { base: baseRepository, head };
    expect(changedFilesOf(state)).toHaveLength(97);
    nockReviewOf(capture, state);

    const started = performance.now();
    await probot.receive(pullRequestEvent("opened"));
    const elapsed = performance.now() - started;

    expect(capture.api).toHaveLength(6);
    expect(elapsed).toBeLessThan(10_000);
  });
});

describe("check_run and check_suite", () => {
  it("re-runs the review when our check run is re-requested", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, addsUnbucketedTable);

    await probot.receive(checkRunEvent("rerequested"));

    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("failure");
  });

  it("the Re-run button reviews again", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, addsUnbucketedTable);

    await probot.receive(checkRunEvent("requested_action", { identifier: "rerun" }));

    expect(log.lines.filter((l) => l.level === "warn" || l.level === "error")).toEqual([]);
    // the six of a review, then the look for runs a dead review left in progress on this commit
    expect(capture.api).toHaveLength(7);
    expect(capture.api.at(-1)!.path).toMatch(/\/commits\/[0-9a-f]{40}\/check-runs\?/);
  });

  it("ignores other apps' check runs and unknown buttons", async () => {
    const { probot, log } = testProbot(fakeCore(unbucketedTimeSeries));
    nock.cleanAll();

    await probot.receive(checkRunEvent("rerequested", { name: "build" }));
    await probot.receive(checkRunEvent("rerequested", { appId: 1 }));
    await probot.receive(checkRunEvent("requested_action", { identifier: "lgtm" }));

    expect(capture.requests).toEqual([]);
    expect(log.lines.filter((l) => l.message.startsWith("Ignored")).map((l) => l.message)).toEqual([
      "Ignored: not our check run",
      "Ignored: not our check run",
      "Ignored: unknown check run action",
    ]);
  });

  it("a re-requested suite of a fork's pull request finds the pull request by its head SHA", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockListOpenPulls(capture, [
      { number: 3, headSha: "ffffffffffffffffffffffffffffffffffffffff" },
      { number: 17, headSha: HEAD_SHA },
    ]);
    nockReviewOf(capture, addsUnbucketedTable);

    await probot.receive(checkSuiteRerequestedEvent({ fromFork: true }));

    expect(capture.api[0]!.path).toBe("/repos/acme-data/iot-models/pulls?state=open&per_page=100");
    expect(capture.bodiesOf("POST", "/reviews")[0].commit_id).toBe(HEAD_SHA);
  });

  it("a re-requested suite lists its pull request and needs no lookup", async () => {
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    nockReviewOf(capture, addsUnbucketedTable);

    await probot.receive(checkSuiteRerequestedEvent());

    expect(capture.api).toHaveLength(7); // with the look for runs left in progress
    expect(capture.graphqlQueries()[0]!.variables).toMatchObject({ e0: expect.stringMatching(new RegExp(`^(${HEAD_SHA}|${BASE_SHA}):`)) });
  });
});
