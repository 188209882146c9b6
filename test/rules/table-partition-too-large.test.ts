import { describe, expect, it } from "vitest";
import rule from "../../rules/table-partition-too-large.js";
import { ruleTester, runRule } from "../rule-tester.js";

const events = `CREATE TABLE events_by_source (
  source_id uuid,
  event_time timestamp,
  kind text,
  payload text,
  PRIMARY KEY ((source_id), event_time)
);
`;

function manifest(tables: string): string {
  return `version: 1\nkeyspace: shop\ntables:\n${tables}`;
}

ruleTester.run("table-partition-too-large", rule, {
  valid: [
    {
      name: "a worst partition inside every limit",
      cql: events,
      manifest: manifest("  events_by_source:\n    rows_per_partition: { avg: 500, max: 20_000 }\n    columns: { kind: 10, payload: 200 }\n"),
    },
    { name: "no figures: the type default of 100 rows is small", cql: events },
    {
      name: "a raised limit",
      cql: events,
      config: { limits: { partitionValues: 1_000_000, rowsPerPartition: 1_000_000 } },
      manifest: manifest("  events_by_source:\n    rows_per_partition: { avg: 500, max: 60_000 }\n"),
    },
    {
      name: "unbounded growth is left to table-unbounded-partition",
      cql: events,
      manifest: manifest("  events_by_source:\n    growth: 1000/day\n"),
    },
  ],
  invalid: [
    {
      name: "values over the limit (two regular columns per row)",
      cql: events,
      manifest: manifest("  events_by_source:\n    rows_per_partition: { avg: 500, max: 60_000 }\n"),
      findings: [{ messageId: "tooLarge", line: 1, column: 14, data: { table: "events_by_source", values: 120_000, rows: 60_000 } }],
    },
    {
      name: "bytes, values and rows over the limits, with the bucket advice from the growth rate",
      cql: events,
      manifest: manifest("  events_by_source:\n    growth: 20000/day\n    retention: 30d\n    columns: { kind: 10, payload: 400 }\n"),
      findings: [{ messageId: "tooLarge", line: 1, data: { rows: 600_000, values: 1_200_000 } }],
    },
    {
      name: "a qualified table in a keyspace of its own",
      cql: `CREATE KEYSPACE metrics WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE metrics.samples (
  series text,
  at timestamp,
  value double,
  PRIMARY KEY ((series), at)
);
`,
      manifest: "version: 1\nkeyspace: shop\ntables:\n  metrics.samples:\n    rows_per_partition: 150_000\n",
      findings: [{ messageId: "tooLarge", line: 2, data: { table: "metrics.samples", rows: 150_000 } }],
    },
  ],
});

describe("table-partition-too-large messages", () => {
  it("say that collection elements were counted as cells inside the one parenthesis of the limit", () => {
    const cql = "CREATE TABLE series (\n  tenant_id uuid,\n  series_id uuid,\n  tags map<text, text>,\n  PRIMARY KEY ((tenant_id), series_id)\n);\n";
    const [message] = runRule(rule, {
      cql,
      manifest: manifest("  series:\n    rows_per_partition: { avg: 10, max: 50_000 }\n    columns:\n      tags: { items: 6, key_bytes: 8, value_bytes: 20 }\n"),
    }).findings.map((f) => f.message);
    expect(message).toMatch(/^The worst partition of series is estimated at 300,000 values \(each collection element counted as a cell; limit 100,000\)\. Basis: /);
  });
});
