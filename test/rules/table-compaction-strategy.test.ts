import rule from "../../rules/table-compaction-strategy.js";
import { ruleTester } from "../rule-tester.js";

const table = (compaction: string, more = "") => `CREATE TABLE events_by_device (
  device_id text,
  event_time timestamp,
  payload text,
  PRIMARY KEY ((device_id), event_time)
) WITH compaction = {${compaction}}${more};
`;
const leveled = "'class': 'LeveledCompactionStrategy'";
const twcs = "'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 1";

/** A manifest with a write and a query of the table at the given rates (a rate of "" is left out). */
function rates(writeRate: string, readRate: string, insert = "INSERT INTO events_by_device (device_id, event_time, payload) VALUES (?, ?, ?)", figures = ""): string {
  const lines = ["version: 1", "keyspace: shop"];
  if (figures) lines.push("tables:", "  events_by_device:", `    ${figures}`);
  lines.push("writes:", "  - id: W1", ...(writeRate ? [`    rate: ${writeRate}`] : []), "    cql:", `      - ${insert}`);
  lines.push("queries:", "  - id: Q1", ...(readRate ? [`    rate: ${readRate}`] : []), "    cql: SELECT payload FROM events_by_device WHERE device_id = ? LIMIT 10");
  return `${lines.join("\n")}\n`;
}

// The latest value of each metric of a device, rewritten at every sample.
const latest = (compaction: string) => `CREATE TABLE latest_by_device (
  device_id text,
  metric text,
  value double,
  PRIMARY KEY ((device_id), metric)
) WITH compaction = {${compaction}};
`;

function latestRates(writeRate: string, readRate: string, figures: string): string {
  return [
    "version: 1",
    "keyspace: shop",
    "tables:",
    "  latest_by_device:",
    `    ${figures}`,
    "writes:",
    "  - id: W1",
    `    rate: ${writeRate}`,
    "    cql: INSERT INTO latest_by_device (device_id, metric, value) VALUES (?, ?, ?)",
    "queries:",
    "  - id: Q1",
    `    rate: ${readRate}`,
    "    cql: SELECT metric, value FROM latest_by_device WHERE device_id = ?",
  ].join("\n") + "\n";
}

ruleTester.run("table-compaction-strategy", rule, {
  valid: [
    { name: "leveled on a read-heavy table", cql: table(leveled), manifest: rates("100/s", "2000/s") },
    { name: "leveled, writes under ten times the reads", cql: table(leveled), manifest: rates("900/s", "100/s") },
    { name: "leveled, a rate unknown: nothing is claimed", cql: table(leveled), manifest: rates("5000/s", "") },
    {
      name: "leveled on a table of latest values rewritten in place: what leveled compaction is for",
      cql: latest(leveled),
      // 10,000 keys × 20 rows are rewritten every 4 seconds at 50,000 writes a second.
      manifest: latestRates("50000/s", "1000/s", "partitions: 10_000\n    rows_per_partition: { avg: 20, max: 200 }"),
    },
    { name: "date-tiered on 5.0 is table-removed-option's", cql: table("'class': 'DateTieredCompactionStrategy'"), manifest: "version: 1\nkeyspace: shop\ncassandra: \"5.0\"\n" },
    { name: "time windows with microsecond timestamps", cql: table(twcs), manifest: rates("10/s", "1/s", "INSERT INTO events_by_device (device_id, event_time, payload) VALUES (?, ?, ?) USING TIMESTAMP 1700000000000000") },
    { name: "time windows with a bound timestamp of unknown unit", cql: table(twcs), manifest: rates("10/s", "1/s", "INSERT INTO events_by_device (device_id, event_time, payload) VALUES (?, ?, ?) USING TIMESTAMP ?") },
    {
      name: "millisecond timestamps with the resolution set",
      cql: table(`${twcs}, 'timestamp_resolution': 'MILLISECONDS'`),
      manifest: rates("10/s", "1/s", undefined, "write_timestamps: milliseconds"),
    },
  ],
  invalid: [
    {
      name: "leveled on a table of latest values that keeps growing: new rows, not rewrites",
      cql: latest(leveled),
      manifest: latestRates("50000/s", "1000/s", "partitions: 10_000\n    rows_per_partition: { avg: 20, max: 200 }\n    growth: 10/day"),
      findings: [{ messageId: "leveledWriteHeavy", line: 1 }],
    },
    {
      name: "leveled on a table whose rows outnumber a day of writes",
      cql: latest(leveled),
      manifest: latestRates("500/s", "10/s", "partitions: 10_000_000\n    rows_per_partition: { avg: 20, max: 200 }"),
      findings: [{ messageId: "leveledWriteHeavy", line: 1 }],
    },
    {
      name: "leveled on a time series with stated rows: new rows, however many writes",
      cql: table(leveled),
      manifest: rates("5000/s", "100/s", undefined, "partitions: 1_000\n    rows_per_partition: 100"),
      findings: [{ messageId: "leveledWriteHeavy", line: 1 }],
    },
    {
      name: "leveled on a table written 50 times as often as read",
      cql: table(leveled),
      manifest: rates("5000/s", "100/s"),
      findings: [{ messageId: "leveledWriteHeavy", line: 1, data: { comparison: "50× as often as it is read (writes 5,000/s against reads 100/s)", twcs: "" } }],
    },
    {
      name: "leveled on a TTL table: time windows suggested",
      cql: table(leveled, " AND default_time_to_live = 86400"),
      manifest: rates("5000/s", "10/s", "INSERT INTO events_by_device (device_id, event_time, payload) VALUES (?, ?, ?) USING TTL 86400"),
      findings: [{ messageId: "leveledWriteHeavy", line: 1, data: { twcs: " (TimeWindowCompactionStrategy, as its rows expire by TTL)" } }],
    },
    {
      name: "date-tiered before 5.0",
      cql: table("'class': 'DateTieredCompactionStrategy'"),
      manifest: "version: 1\nkeyspace: shop\ncassandra: \"4.1\"\n",
      findings: [{ messageId: "dateTiered", line: 1, data: { window: "compaction_window_unit and compaction_window_size so the TTL spans about 20 to 30 windows" } }],
    },
    {
      name: "date-tiered with a TTL: the time windows sized from it",
      cql: table("'class': 'DateTieredCompactionStrategy'", " AND default_time_to_live = 604800"),
      manifest: "version: 1\nkeyspace: shop\ncassandra: \"4.1\"\n",
      findings: [{ messageId: "dateTiered", line: 1, data: { window: "compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'HOURS', 'compaction_window_size': 7}, about 24 windows over the rows' 7 days TTL, as the Apache Cassandra docs advise 20 to 30" } }],
    },
    {
      name: "date-tiered with a bound TTL: the manifest's retention, and millisecond timestamps",
      cql: table("'class': 'DateTieredCompactionStrategy'"),
      manifest: [
        "version: 1",
        "keyspace: shop",
        'cassandra: "4.1"',
        "tables:",
        "  events_by_device:",
        "    retention: 30d",
        "    write_timestamps: milliseconds",
        "writes:",
        "  - id: W1",
        "    cql: INSERT INTO events_by_device (device_id, event_time, payload) VALUES (?, ?, ?) USING TTL ?",
      ].join("\n") + "\n",
      findings: [{ messageId: "dateTiered", line: 1, data: { window: "compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 1, 'timestamp_resolution': 'MILLISECONDS'}, about 30 windows over the rows' 30 days TTL, as the Apache Cassandra docs advise 20 to 30" } }],
    },
    {
      name: "time windows with millisecond timestamps declared",
      cql: table(twcs),
      manifest: rates("10/s", "1/s", undefined, "write_timestamps: milliseconds"),
      findings: [{ messageId: "millisecondWindows", line: 1, data: { why: "write_timestamps: milliseconds in the manifest" } }],
    },
    {
      name: "time windows with a millisecond USING TIMESTAMP literal",
      cql: table(twcs),
      manifest: rates("10/s", "1/s", "INSERT INTO events_by_device (device_id, event_time, payload) VALUES (?, ?, ?) USING TIMESTAMP 1700000000000"),
      findings: [{ messageId: "millisecondWindows", line: 1, data: { why: "a USING TIMESTAMP literal in milliseconds" } }],
    },
  ],
});
