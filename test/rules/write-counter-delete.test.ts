import rule from "../../rules/write-counter-delete.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE page_views (
  page_id uuid PRIMARY KEY,
  views counter,
  shares counter
);
CREATE TABLE pages (
  page_id uuid PRIMARY KEY,
  title text
);
CREATE TABLE daily_views (
  page_id uuid,
  day date,
  views counter,
  PRIMARY KEY ((page_id), day)
);
`;

/** One write path per statement: W1, W2, … */
const paths = (...cql: string[]) => `version: 1\nkeyspace: shop\nwrites:\n${cql.map((c, i) => `  - id: W${i + 1}\n    cql:\n      - ${c}\n`).join("")}`;
/** One write path (W1) running every statement. */
const steps = (...cql: string[]) => `version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n    cql:\n${cql.map((c) => `      - ${c}\n`).join("")}`;

const count = "UPDATE page_views SET views = views + 1 WHERE page_id = ?";
const reset = "DELETE FROM page_views WHERE page_id = ?";

ruleTester.run("write-counter-delete", rule, {
  valid: [
    { name: "a counter table deleted from but never counted", cql: schema, manifest: paths(reset) },
    { name: "a counter table counted but never deleted from", cql: schema, manifest: paths(count, "UPDATE page_views SET shares -= 1 WHERE page_id = ?") },
    { name: "a delete from a table without counters, beside an increment elsewhere", cql: schema, manifest: paths(count, "DELETE FROM pages WHERE page_id = ?") },
    {
      name: "rows deleted from one counter table, counters incremented in another",
      cql: schema,
      manifest: paths("UPDATE daily_views SET views = views + 1 WHERE page_id = ? AND day = ?", reset),
    },
    { name: "one counter deleted, a different counter of the table counted", cql: schema, manifest: paths("UPDATE page_views SET shares = shares + 1 WHERE page_id = ?", "DELETE views FROM page_views WHERE page_id = ?") },
    {
      name: "counting under a new key per day instead of deleting",
      cql: schema,
      manifest: paths("UPDATE daily_views SET views = views + 1 WHERE page_id = ? AND day = ?", "DELETE FROM pages WHERE page_id = ?"),
    },
  ],
  invalid: [
    {
      name: "a write path resets the counters another one increments",
      cql: schema,
      manifest: paths(count, reset),
      findings: [{ messageId: "deleteThenCount", line: 9, column: 9, data: { write: "W2", deleted: "whole rows", table: "page_views", counting: "W1", verb: "counts", counters: "`views`" } }],
    },
    {
      name: "deleting a counter column that a decrement keeps counting",
      cql: schema,
      manifest: paths("UPDATE page_views SET shares -= 1 WHERE page_id = ?", "DELETE shares FROM page_views WHERE page_id = ?"),
      findings: [{ messageId: "deleteThenCount", line: 9, column: 9, data: { deleted: "the counter `shares`", counters: "`shares`" } }],
    },
    {
      name: "the same write path deletes a day's counter and counts it again",
      cql: schema,
      manifest: steps("DELETE FROM daily_views WHERE page_id = ? AND day = ?", "UPDATE daily_views SET views = views + 1 WHERE page_id = ? AND day = ?"),
      findings: [{ messageId: "deleteThenCount", line: 6, column: 9, data: { write: "W1", counting: "W1 itself", table: "daily_views" } }],
    },
    {
      name: "two deletes on one path, counted by two others, one report per DELETE",
      cql: schema,
      manifest: `${paths(count, "UPDATE page_views SET views = views + 1, shares = shares + 1 WHERE page_id = ?")}  - id: W3\n    cql:\n      - DELETE views, shares FROM page_views WHERE page_id = ?\n      - ${reset}\n`,
      findings: [
        { messageId: "deleteThenCount", line: 12, column: 9, data: { write: "W3", deleted: "the counters `views` and `shares`", counting: "W1 and W2", verb: "count", counters: "`views` and `shares`" } },
        { messageId: "deleteThenCount", line: 13, column: 9, data: { write: "W3", deleted: "whole rows" } },
      ],
    },
    {
      name: "a delete inside a batch",
      cql: schema,
      manifest: paths(count, `BEGIN UNLOGGED BATCH ${reset}; DELETE FROM pages WHERE page_id = ?; APPLY BATCH`),
      findings: [{ messageId: "deleteThenCount", line: 9, column: 30, data: { write: "W2" } }],
    },
    {
      name: "seed data in a schema file deletes a counter the manifest counts",
      cql: `${schema}DELETE views FROM page_views WHERE page_id = 11111111-1111-1111-1111-111111111111;\n`,
      manifest: paths(count),
      findings: [{ messageId: "deleteThenCount", line: 16, column: 1, file: "schema.cql", data: { write: "Seed data in schema.cql", counting: "W1" } }],
    },
    {
      name: "a keyspace-qualified table",
      cql: `CREATE KEYSPACE stats WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n${schema.replaceAll("CREATE TABLE ", "CREATE TABLE stats.")}`,
      manifest: paths("UPDATE stats.page_views SET views = views + 1 WHERE page_id = ?", "DELETE FROM stats.page_views WHERE page_id = ?"),
      findings: [{ messageId: "deleteThenCount", line: 9, data: { table: "stats.page_views" } }],
    },
  ],
});
