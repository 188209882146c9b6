// `/cql` commands end to end: 👀 at once, then one reply computed at the pull request's head.
import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCommand } from "../../src/github/worker/commands.js";
import { fakeCore } from "./helpers/fake-core.js";
import { fixture, unbucketedTimeSeries } from "./helpers/fixtures.js";
import {
  Capture,
  nockCommandAnswer,
  nockFailure,
  nockInstallationToken,
  nockIssueComment,
  nockReaction,
  type RepositoryState,
} from "./helpers/github-mock.js";
import { HEAD_SHA, issueCommentEvent } from "./helpers/payloads.js";
import { testProbot } from "./helpers/probot.js";

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

const repository: RepositoryState = {
  base: {},
  head: {
    "schema/000_keyspace.cql": fixture("keyspace.cql"),
    "schema/020_readings.cql": fixture("readings-unbucketed.cql"),
    "access-patterns.yaml": fixture("access-patterns.yaml"),
  },
};

function nockExplain(state: RepositoryState = repository): void {
  nockInstallationToken(capture);
  nockCommandAnswer(capture, state);
}

describe("/cql commands", () => {
  it("/cql explain Q1 is answered", async () => {
    const core = fakeCore(unbucketedTimeSeries);
    const { probot } = testProbot(core);
    nockExplain();

    await probot.receive(issueCommentEvent("/cql explain Q1"));

    expect(capture.api.map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([
      "POST /repos/acme-data/iot-models/issues/comments/555001/reactions",
      "GET /repos/acme-data/iot-models/pulls/17",
      `GET /repos/acme-data/iot-models/git/trees/${HEAD_SHA}`,
      "POST /graphql",
      "POST /repos/acme-data/iot-models/issues/17/comments",
    ]);
    expect(capture.bodiesOf("POST", "/reactions")).toEqual([{ content: "eyes" }]);
    expect(capture.bodiesOf("POST", "/issues/17/comments")[0].body).toMatchInlineSnapshot(`
      "> \`/cql explain Q1\`

      explained \`Q1\` over 1 findings

      <sub>At commit a1b2c3d.</sub>"
    `);
    // Explaining needs only the head: no changed-file listing, no base versions, no threads.
    expect(core.inputs[0]!.baseFiles).toBeUndefined();
    expect(capture.graphqlQueries()[0]!.query).not.toContain("reviewThreads");
  });

  it("/cql explain SELECT … spanning lines reaches the explainer whole", async () => {
    const requests: string[] = [];
    const { probot } = testProbot(
      fakeCore(() => [], {
        explainMarkdown: (_review, request) => {
          requests.push(request);
          return "plan";
        },
      }),
    );
    nockExplain();

    await probot.receive(
      issueCommentEvent("/CQL Explain `SELECT * FROM readings_by_device\nWHERE device_id = ?`\n\nDoes this scan?"),
    );

    expect(requests).toEqual(["SELECT * FROM readings_by_device WHERE device_id = ?"]);
  });

  it("/cql help and unknown commands get the help text, without reading the repository", async () => {
    const { probot } = testProbot(fakeCore(() => []));
    nockInstallationToken(capture);
    nockReaction(capture, 555001);
    nockIssueComment(capture);

    await probot.receive(issueCommentEvent("/cql frobnicate the `tables`"));

    expect(capture.bodiesOf("POST", "/issues/17/comments")[0].body).toMatchInlineSnapshot(`
      "I don't know the command \`\` /cql frobnicate the \`tables\` \`\`.

      **cql-review commands** (in a comment on a pull request, on its first line):

      | command | answer |
      | --- | --- |
      | \`/cql explain <query-id>\` | the plan of a query of the access-patterns manifest, step by step, e.g. \`/cql explain Q1\` |
      | \`/cql explain <code statement>\` | the same for a statement of the application's code, by its function or in full, e.g. \`/cql explain UserDao.findByEmail\` or \`/cql explain src/main/java/com/example/UserDao.java#UserDao.findByEmail\` |
      | \`/cql explain SELECT …\` | the plan of any \`SELECT\` against the schema at this pull request's head |
      | \`/cql explain table <name>\` | a table's key layout, partition-size estimate and the queries that use it |
      | \`/cql help\` | this list |"
    `);
  });

  it("an internal error gets a short apology with the delivery id, and is logged", async () => {
    const { probot, log } = testProbot(
      fakeCore(() => [], {
        explainMarkdown: () => {
          throw new TypeError("Cannot read properties of undefined (reading 'columns')");
        },
      }),
    );
    nockExplain();

    await probot.receive(issueCommentEvent("/cql explain table readings_by_device"));

    expect(capture.bodiesOf("POST", "/issues/17/comments")[0].body).toMatchInlineSnapshot(`"Sorry, cql-review could not answer this command because of an internal error. Please try again; if it keeps failing, report correlation id \`delivery-comment\`."`);
    expect(log.lines.find((l) => l.level === "error")).toMatchObject({
      message: "Command failed",
      fields: { correlationId: "delivery-comment" },
    });
  });

  it("still answers when the reaction cannot be added", async () => {
    const { probot } = testProbot(fakeCore(() => []));
    nockInstallationToken(capture);
    nockFailure(capture, "POST", "/repos/acme-data/iot-models/issues/comments/555001/reactions", { status: 403, message: "Resource not accessible by integration" });
    nockIssueComment(capture);

    await probot.receive(issueCommentEvent("/cql help"));

    expect(capture.bodiesOf("POST", "/issues/17/comments")).toHaveLength(1);
  });

  it("ignores bots, plain issues and comments without a command", async () => {
    const { probot, log } = testProbot(fakeCore(() => []));

    await probot.receive(issueCommentEvent("/cql help", { senderType: "Bot", senderLogin: "renovate[bot]" }));
    await probot.receive(issueCommentEvent("/cql help", { senderLogin: "ci-helper[bot]" }));
    await probot.receive(issueCommentEvent("/cql help", { onPullRequest: false }));
    await probot.receive(issueCommentEvent("Looks good to me. /cql explain Q1"));

    expect(capture.requests).toEqual([]);
    expect(log.lines.filter((l) => l.message.startsWith("Ignored")).map((l) => l.message)).toEqual([
      "Ignored: comment by a bot",
      "Ignored: comment by a bot",
      "Ignored: a comment on an issue, not a pull request",
      "Ignored: the comment holds no /cql command",
    ]);
  });
});

describe("who may run commands", () => {
  it("answers people who can write to the repository", async () => {
    const { probot } = testProbot(fakeCore(() => []));
    nockInstallationToken(capture);
    for (const [index, association] of ["OWNER", "MEMBER", "COLLABORATOR"].entries()) {
      nockReaction(capture, 556000 + index);
      nockIssueComment(capture);
      await probot.receive(issueCommentEvent("/cql help", { authorAssociation: association, commentId: 556000 + index }));
    }

    expect(capture.bodiesOf("POST", "/issues/17/comments")).toHaveLength(3);
  });

  it("gives strangers, contributors and unknown relations nothing, and logs why", async () => {
    const { probot, log } = testProbot(fakeCore(() => []));
    const outsiders = ["NONE", "CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER", "MANNEQUIN", "owner", ""];
    for (const association of outsiders) {
      await probot.receive(issueCommentEvent("/cql explain Q1", { authorAssociation: association }));
    }

    expect(capture.requests).toEqual([]);
    const ignored = log.lines.filter((l) => l.message.startsWith("Ignored: commands are answered only"));
    expect(ignored.map((l) => l.fields.authorAssociation)).toEqual(outsiders);
  });
});

describe("parseCommand", () => {
  it.each([
    ["/cql explain Q1", { kind: "explain", argument: "Q1" }],
    ["  /CQL   EXPLAIN   q7  ", { kind: "explain", argument: "q7" }],
    ["/cql explain table telemetry.readings_by_device", { kind: "explain", argument: "table telemetry.readings_by_device" }],
    ["/cql explain ``SELECT `a` FROM t``", { kind: "explain", argument: "SELECT `a` FROM t" }],
    ["/cql", { kind: "help" }],
    ["/cql help\nmore text", { kind: "help" }],
    ["/cql explain", { kind: "unknown", text: "explain" }],
    ["/cql deploy prod", { kind: "unknown", text: "deploy prod" }],
  ])("%j → %j", (body, expected) => {
    expect(parseCommand(body)).toEqual(expected);
  });

  it.each(["/cqlx help", "please /cql help", "", "\n/cql help", "Q1"])("%j is not a command", (body) => {
    expect(parseCommand(body)).toBeUndefined();
  });

  it("only a SELECT continues on the next lines, up to a blank line", () => {
    expect(parseCommand("/cql explain Q1\nthanks!")).toEqual({ kind: "explain", argument: "Q1" });
    expect(parseCommand("/cql explain select a\nfrom t\nwhere k = 1\n\nthanks!")).toEqual({
      kind: "explain",
      argument: "select a from t where k = 1",
    });
  });
});
