import { describe, expect, it } from "vitest";
import rule from "../../rules/query-full-scan.js";
import { ruleTester, runRule } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const videos = `CREATE TABLE videos (
  video_id uuid PRIMARY KEY,
  title text,
  added_date timestamp
);
`;

const countries = `CREATE TABLE countries (
  code text PRIMARY KEY,
  name text
);
`;
const countriesManifest = (partitions: string) =>
  `version: 1\nkeyspace: shop\ntables:\n  countries:\n    partitions: ${partitions}\nqueries:\n  - id: country-list\n    cql: SELECT code, name FROM countries\n    rate: 5/s\n`;

ruleTester.run("query-full-scan", rule, {
  valid: [
    { name: "a read by partition key", cql: videos, manifest: manifestWith([{ id: "Q1", cql: "SELECT title FROM videos WHERE video_id = ?" }]) },
    {
      name: "a scan with ALLOW FILTERING is query-allow-filtering-scan's",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT title FROM videos WHERE title = 'x' ALLOW FILTERING" }]),
    },
    {
      name: "rejected queries are other rules'",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT title FROM videos WHERE title = ?" }]),
    },
  ],
  invalid: [
    {
      name: "no WHERE clause on a table of unknown size",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT video_id, title FROM videos" }]),
      findings: [{ messageId: "scan", line: 4, column: 5, data: { query: "Q1", table: "videos", partitions: "all" } }],
    },
    {
      name: "nothing filters the rows, so the LIMIT stops the scan",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT video_id, title FROM videos LIMIT 50" }]),
      findings: [{ messageId: "limited", line: 4, data: { rows: "50" } }],
    },
    {
      name: "a filter on a non-key column makes the LIMIT no bound (the scan reads until it finds 50)",
      cql: videos + "CREATE INDEX ON videos (title);\n",
      manifest: manifestWith([{ id: "Q1", cql: "SELECT video_id FROM videos WHERE token(video_id) > ? LIMIT 50" }]),
      findings: [{ messageId: "tokenRange", line: 4 }],
    },
    {
      name: "a table the manifest sizes at a few hundred partitions",
      cql: countries,
      manifest: countriesManifest("300"),
      findings: [{ messageId: "smallTable", line: 7, data: { partitions: "300" } }],
    },
    {
      name: "a large table stays an error",
      cql: countries,
      manifest: countriesManifest("2_000_000"),
      findings: [{ messageId: "scan", line: 7 }],
    },
    {
      name: "a token range",
      cql: videos,
      manifest: manifestWith([{ id: "Q7", cql: "SELECT video_id FROM videos WHERE token(video_id) > ? AND token(video_id) <= ?" }]),
      findings: [{ messageId: "tokenRange", line: 4, data: { query: "Q7", partitions: null } }],
    },
    {
      name: "a table in another keyspace is named in full",
      cql: "CREATE TABLE archive.videos (\n  video_id uuid PRIMARY KEY,\n  title text\n);\n",
      manifest: manifestWith([{ id: "Q1", cql: "SELECT title FROM archive.videos" }]),
      findings: [{ messageId: "scan", line: 4, data: { table: "archive.videos" } }],
    },
  ],
});

describe("query-full-scan severity", () => {
  const severities = (manifest: string) => runRule(rule, { cql: countries, manifest }).findings.map((f) => f.severity);
  it("does not fail the gate on a table the manifest sizes as small, nor on a scan its LIMIT stops", () => {
    expect(severities(countriesManifest("300"))).toEqual(["info"]);
    expect(severities(countriesManifest("300").replace("FROM countries", "FROM countries LIMIT 5"))).toEqual(["info"]);
  });
  it("keeps its configured severity on a large or unsized table", () => {
    expect(severities(countriesManifest("2_000_000"))).toEqual(["error"]);
  });
  it("takes the small-table bound from its options", () => {
    const findings = runRule(rule, { cql: countries, manifest: countriesManifest("300"), config: { rules: { "query-full-scan": { severity: "error", options: { smallTablePartitions: 100 } } } } }).findings;
    expect(findings.map((f) => [f.messageId, f.severity])).toEqual([["scan", "error"]]);
  });
});

describe("query-full-scan messages", () => {
  it("say once that every partition is read, without pasting the planner's reason", () => {
    const [message] = runRule(rule, { cql: videos, manifest: manifestWith([{ id: "Q1", cql: "SELECT video_id, title FROM videos" }]) }).findings.map(
      (f) => f.message,
    );
    expect(message).toBe(
      "Q1 restricts no partition key column of videos, so it reads every partition: the coordinator walks the whole token ring, and the cost grows with the table. Give the query a table whose partition key it can bind.",
    );
  });
});
