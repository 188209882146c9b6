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
      name: "no WHERE clause; a LIMIT does not make it a partition read",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT video_id, title FROM videos LIMIT 50" }]),
      findings: [{ messageId: "scan", line: 4, column: 5, data: { query: "Q1", table: "videos", partitions: "all" } }],
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

describe("query-full-scan messages", () => {
  it("say once that every partition is read, without pasting the planner's reason", () => {
    const [message] = runRule(rule, { cql: videos, manifest: manifestWith([{ id: "Q1", cql: "SELECT video_id, title FROM videos LIMIT 50" }]) }).findings.map(
      (f) => f.message,
    );
    expect(message).toBe(
      "Q1 restricts no partition key column of videos, so it reads every partition: the coordinator walks the whole token ring, and the cost grows with the table. Give the query a table whose partition key it can bind.",
    );
  });
});
