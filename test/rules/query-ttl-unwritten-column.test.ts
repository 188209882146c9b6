import rule from "../../rules/query-ttl-unwritten-column.js";
import { ruleTester } from "../rule-tester.js";

const series = `CREATE TABLE series_by_metric (
  metric text,
  row_time timestamp,
  series text,
  value text,
  note text,
  PRIMARY KEY ((metric, row_time), series)
);
`;

/** A manifest with one query and the given write paths, each a list of statements. */
function manifest(query: string, ...writes: string[][]): string {
  const lines = ["version: 1", "keyspace: shop", "queries:", "  - id: Q1", `    cql: ${query}`];
  if (writes.length > 0) lines.push("writes:");
  writes.forEach((statements, i) => lines.push(`  - id: W${i + 1}`, "    cql:", ...statements.map((s) => `      - ${s}`)));
  return `${lines.join("\n")}\n`;
}

const insertWithoutValue = "INSERT INTO series_by_metric (metric, row_time, series) VALUES (?, ?, ?) USING TTL ?";
const ttlOfValue = "SELECT series, TTL(value) FROM series_by_metric WHERE metric = ? AND row_time = ?";

ruleTester.run("query-ttl-unwritten-column", rule, {
  valid: [
    { name: "the column is written", cql: series, manifest: manifest(ttlOfValue, ["INSERT INTO series_by_metric (metric, row_time, series, value) VALUES (?, ?, ?, ?) USING TTL ?"]) },
    {
      name: "written by an UPDATE of another path",
      cql: series,
      manifest: manifest(ttlOfValue, [insertWithoutValue], ["UPDATE series_by_metric SET value = ? WHERE metric = ? AND row_time = ? AND series = ?"]),
    },
    { name: "no write paths declared: nothing is known", cql: series, manifest: manifest(ttlOfValue) },
    {
      name: "the table is only deleted from: write-table-not-written's concern",
      cql: series,
      manifest: manifest(ttlOfValue, ["DELETE FROM series_by_metric WHERE metric = ? AND row_time = ?"]),
    },
    { name: "INSERT JSON may set any column", cql: series, manifest: manifest(ttlOfValue, ["INSERT INTO series_by_metric JSON ?"]) },
    { name: "a plain column read is no metadata read", cql: series, manifest: manifest("SELECT series, value FROM series_by_metric WHERE metric = ? AND row_time = ?", [insertWithoutValue]) },
  ],
  invalid: [
    {
      name: "TTL of a column no write sets",
      cql: series,
      manifest: manifest(ttlOfValue, [insertWithoutValue]),
      findings: [{ messageId: "unwritten", line: 4, data: { query: "Q1", function: "TTL", column: "value", writes: "W1", zero: "one that never expires" } }],
    },
    {
      name: "WRITETIME of a column no write sets, each function and column once",
      cql: series,
      manifest: manifest("SELECT WRITETIME(note), writetime(note) AS again, TTL(value) FROM series_by_metric WHERE metric = ? AND row_time = ?", [insertWithoutValue], [
        "UPDATE series_by_metric SET value = ? WHERE metric = ? AND row_time = ? AND series = ?",
      ]),
      findings: [{ messageId: "unwritten", line: 4, data: { function: "WRITETIME", column: "note", writes: "W1 and W2", verb: "write", zero: "one written in 1970" } }],
    },
  ],
});
