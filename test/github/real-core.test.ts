// The app with the real core (src/github/core.ts): parser, planner, rules and renderers, on the
// test repository of test/fixtures/github, through Probot and nock as in production.
import nock from "nock";
import { beforeEach, describe, expect, it } from "vitest";
import { realCore } from "../../src/github/worker/core.js";
import { tablestatsText } from "../helpers/stats-text.js";
import { fixture } from "./helpers/fixtures.js";
import {
  Capture,
  captureEachTest,
  nockCommandAnswer,
  nockInstallationToken,
  nockMinimizeComments,
  nockReviewOf,
  type RepositoryState,
} from "./helpers/github-mock.js";
import { issueCommentEvent, pullRequestEvent } from "./helpers/payloads.js";
import { testProbot } from "./helpers/probot.js";

const github = captureEachTest();
let capture: Capture;
beforeEach(() => {
  capture = github();
});

const schema = {
  "schema/000_keyspace.cql": fixture("keyspace.cql"),
  "schema/010_devices.cql": fixture("devices.cql"),
  "schema/020_readings.cql": fixture("readings-unbucketed.cql"),
};
const manifest = fixture("access-patterns.yaml");
const hotDevicesQuery = `  - id: Q3
    description: Devices running hot
    cql: SELECT device_id FROM readings_by_device WHERE temperature > 80
`;
const base = { ...schema, "access-patterns.yaml": manifest };

describe("with the real core", () => {
  it("a PR adding a query Cassandra would reject fails the gate, with the comment on the query's line", async () => {
    const { probot } = testProbot(realCore);
    const state: RepositoryState = { base, head: { ...schema, "access-patterns.yaml": manifest + hotDevicesQuery } };
    nockReviewOf(capture, state);

    await probot.receive(pullRequestEvent("opened"));

    const review = capture.bodiesOf("POST", "/reviews")[0];
    expect(review.comments.map((c: { path: string; line: number }) => [c.path, c.line])).toEqual([["access-patterns.yaml", 14]]);
    expect(review.comments[0].body).toContain("query-needs-allow-filtering");
    expect(review.comments[0].body).toContain("<!-- cql-review:fingerprint=");
    const completed = capture.bodiesOf("PATCH", "/check-runs/9001")[0];
    expect(completed.conclusion).toBe("failure");
    expect(completed.output.annotations).toContainEqual(
      expect.objectContaining({ path: "access-patterns.yaml", start_line: 14, annotation_level: "failure", title: "query-needs-allow-filtering" }),
    );
    expect(completed.output.summary.length).toBeLessThanOrEqual(65_535);
    expect(completed.output.summary).toContain("Q3");
    // The finding commented inline is not listed again among the summary's findings, which come before the queries.
    const [findingsPart] = completed.output.summary.split("<details><summary>Queries");
    expect(findingsPart).toContain("1 finding is posted as an inline comment on the changed lines");
    expect(findingsPart).toContain("table-unbounded-partition");
    expect(findingsPart).not.toContain("query-needs-allow-filtering");
  });

  it("a PR adding saved nodetool tablestats gets production's figures beside the estimates", async () => {
    const { probot } = testProbot(realCore);
    const stats = tablestatsText({ keyspace: "telemetry", table: "readings_by_device", maxBytes: 943_127_273, meanBytes: 52_066_354 });
    const state: RepositoryState = { base, head: { ...base, "cassandra-stats/prod-node1.txt": stats } };
    // The findings are on unchanged lines: they go to the check run, and no review is posted.
    nockReviewOf(capture, state, { review: false });

    await probot.receive(pullRequestEvent("opened"));

    const completed = capture.bodiesOf("PATCH", "/check-runs/9001")[0];
    expect(completed.output.summary).toContain("| Measured largest |");
    expect(completed.output.summary).toContain("943 MB (`cassandra-stats/prod-node1.txt`)");
    expect(completed.output.annotations).toContainEqual(expect.objectContaining({ path: "schema/020_readings.cql", title: "table-measured-size" }));
    capture.assertAllValid();
  });

  it("the same delivery again posts nothing new", async () => {
    const first = testProbot(realCore).probot;
    const state: RepositoryState = { base, head: { ...schema, "access-patterns.yaml": manifest + hotDevicesQuery } };
    nockReviewOf(capture, state);
    await first.receive(pullRequestEvent("opened"));
    const posted = capture.bodiesOf("POST", "/reviews")[0].comments.map((c: { body: string }, i: number) => ({ id: `PRRC_${i}`, body: c.body }));

    const again = new Capture();
    nockInstallationToken(again);
    nockReviewOf(again, { ...state, threads: posted }, { review: false });
    await testProbot(realCore).probot.receive(pullRequestEvent("opened"));

    expect(again.bodiesOf("POST", "/reviews")).toEqual([]);
    expect(again.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("failure");
    again.assertAllValid();
  });

  it("a push that fixes the model passes the gate and collapses the resolved comment", async () => {
    const { probot } = testProbot(realCore);
    const fixedQuery = hotDevicesQuery.replace("SELECT device_id FROM readings_by_device WHERE temperature > 80", "SELECT model FROM devices WHERE device_id = ?");
    const state: RepositoryState = {
      base,
      head: { ...schema, "access-patterns.yaml": manifest + fixedQuery },
      threads: [{ id: "PRRC_old", body: `query-needs-allow-filtering\n\n<!-- cql-review:fingerprint=query-needs-allow-filtering:query:Q3 -->` }],
    };
    nockReviewOf(capture, state, { review: false });
    nockMinimizeComments(capture);

    await probot.receive(pullRequestEvent("synchronize"));

    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("success");
    expect(capture.graphqlQueries()[1]!.variables).toEqual({ c0: "PRRC_old" });
  });

  it("/cql explain Q1 is answered", async () => {
    const { probot } = testProbot(realCore);
    const state: RepositoryState = { base: {}, head: base };
    nockCommandAnswer(capture, state);

    await probot.receive(issueCommentEvent("/cql explain Q1"));

    const answer: string = capture.bodiesOf("POST", "/issues/17/comments")[0].body;
    expect(answer).toContain("readings_by_device");
    expect(answer).toContain("single-partition");
  });

  it("/cql explain of a statement of the code answers with its plan and where it is", async () => {
    const dao = "src/main/java/com/example/telemetry/ReadingDao.java";
    const java = `package com.example.telemetry;

import com.datastax.oss.driver.api.core.CqlSession;

public class ReadingDao {
    private final CqlSession session;

    public ReadingDao(CqlSession session) { this.session = session; }

    public void hot() {
        session.execute("SELECT device_id FROM readings_by_device WHERE temperature > 80");
    }

    public void since(String table) {
        session.execute("SELECT * FROM " + table + " WHERE device_id = ?");
    }
}
`;
    const { probot } = testProbot(realCore);
    nockCommandAnswer(capture, { base: {}, head: { ...base, [dao]: java } });
    await probot.receive(issueCommentEvent("/cql explain ReadingDao.hot"));
    const answer: string = capture.bodiesOf("POST", "/issues/17/comments")[0].body;
    expect(answer).toContain(`In the code: \`${dao}:11\` (\`session.execute\`)`);
    expect(answer).toContain("needs-allow-filtering");

    nockCommandAnswer(capture, { base: {}, head: { ...base, [dao]: java } });
    await probot.receive(issueCommentEvent(`/cql explain ${dao}#ReadingDao.since`));
    const dynamic: string = capture.bodiesOf("POST", "/issues/17/comments")[1].body;
    expect(dynamic).toContain(`Built at run time, not analysed: table is not a constant of the code read, at \`${dao}:15\``);
  });

  it("/cql explain of a broken SELECT gets a friendly answer", async () => {
    const { probot } = testProbot(realCore);
    const state: RepositoryState = { base: {}, head: base };
    nockCommandAnswer(capture, state);

    await probot.receive(issueCommentEvent("/cql explain SELECT FROM WHERE"));

    const answer: string = capture.bodiesOf("POST", "/issues/17/comments")[0].body;
    expect(answer).not.toContain("internal error");
    expect(answer.length).toBeGreaterThan(40);
  });
});
