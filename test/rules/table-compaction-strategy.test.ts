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

ruleTester.run("table-compaction-strategy", rule, {
  valid: [
    { name: "leveled on a read-heavy table", cql: table(leveled), manifest: rates("100/s", "2000/s") },
    { name: "leveled, writes under ten times the reads", cql: table(leveled), manifest: rates("900/s", "100/s") },
    { name: "leveled, a rate unknown: nothing is claimed", cql: table(leveled), manifest: rates("5000/s", "") },
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
    { name: "date-tiered before 5.0", cql: table("'class': 'DateTieredCompactionStrategy'"), manifest: "version: 1\nkeyspace: shop\ncassandra: \"4.1\"\n", findings: [{ messageId: "dateTiered", line: 1 }] },
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
