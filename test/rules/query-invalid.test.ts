import { describe, expect, it } from "vitest";
import rule from "../../rules/query-invalid.js";
import { ruleTester, runRule } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const comments = `CREATE TABLE comments_by_video (
  video_id uuid,
  comment_id timeuuid,
  author text,
  body text,
  PRIMARY KEY ((video_id), comment_id)
);
`;

ruleTester.run("query-invalid", rule, {
  valid: [

    { name: "a single-partition read", cql: comments, manifest: manifestWith([{ id: "Q1", cql: "SELECT body FROM comments_by_video WHERE video_id = ?" }]) },
    {
      name: "ORDER BY on the clustering column",
      cql: comments,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT body FROM comments_by_video WHERE video_id = ? ORDER BY comment_id DESC" }]),
    },
    {
      name: "a query that only needs ALLOW FILTERING is another rule's",
      cql: comments,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT body FROM comments_by_video WHERE author = ?" }]),
    },
  ],
  invalid: [

    {
      name: "ORDER BY a regular column",
      cql: comments,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT body FROM comments_by_video WHERE video_id = ? ORDER BY author" }]),
      findings: [{ messageId: "rejected", line: 4, data: { query: "Q1" } }],
    },
    {
      name: "!= is not a CQL restriction",
      cql: comments,
      manifest: manifestWith([
        { id: "Q1", cql: "SELECT body FROM comments_by_video WHERE video_id = ?" },
        { id: "Q2", cql: "SELECT body FROM comments_by_video WHERE video_id = ? AND author != 'bot'" },
      ]),
      findings: [{ messageId: "rejected", line: 6, data: { query: "Q2" } }],
    },
    {
      name: "ORDER BY without a partition key, even with ALLOW FILTERING",
      cql: comments,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT body FROM comments_by_video WHERE author = ? ORDER BY comment_id ALLOW FILTERING" }]),
      findings: [{ messageId: "rejected", line: 4 }],
    },
    {
      name: "a table that does not exist",
      cql: comments,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT body FROM comments WHERE video_id = ?" }]),
      // at the table's name in the cql value, naming it once
      findings: [{ messageId: "rejected", line: 5, column: 27, data: { gist: "unconfigured table comments", explanation: "comments is not a table of the schema" } }],
    },
  ],
});

describe("query-invalid messages", () => {
  it("give Cassandra's error and the reason once, without the planner's rule codes", () => {
    const run = (cql: string) =>
      runRule(rule, { cql: comments, manifest: manifestWith([{ id: "Q1", cql }]) }).findings.map((f) => f.message);
    expect(run("SELECT body FROM comments_by_video WHERE video_id = ? ORDER BY author")).toEqual([
      "Cassandra rejects Q1 even with ALLOW FILTERING: Order by is currently only supported on the clustered columns of the PRIMARY KEY, got author (author is not a clustering column).",
    ]);
    const [withFiltering] = run("SELECT body FROM comments_by_video WHERE author = ? ORDER BY comment_id ALLOW FILTERING");
    expect(withFiltering).toMatch(/^Cassandra rejects Q1: [^()]+ \([^()]+\)\.$/);
  });
});

describe("query-invalid and syntax errors", () => {
  it("leaves a query that does not parse to cql-syntax-error: one finding, where it breaks", () => {
    const run = runRule(rule, { cql: comments, manifest: manifestWith([{ id: "Q1", cql: "SELECT body FROM comments_by_video WHERE video_id = ? AND" }]) });
    expect(run.findings).toEqual([]);
    expect(run.model.inputFindings.map((f) => f.rule)).toEqual(["cql-syntax-error"]);
  });
});
