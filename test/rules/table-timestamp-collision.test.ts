import rule from "../../rules/table-timestamp-collision.js";
import { ruleTester } from "../rule-tester.js";

const events = (atType = "timestamp") => `CREATE TABLE events_by_user (
  user_id uuid,
  at ${atType},
  action text,
  PRIMARY KEY ((user_id), at)
);
`;

const volume = (figures: string) => `version: 1\nkeyspace: shop\ntables:\n  events_by_user:\n${figures
  .split("\n")
  .map((l) => `    ${l}`)
  .join("\n")}\n`;

ruleTester.run("table-timestamp-collision", rule, {
  valid: [
    { name: "a timeuuid", cql: events("timeuuid") },
    {
      name: "a unique column after the timestamp",
      cql: "CREATE TABLE events_by_user (\n  user_id uuid,\n  at timestamp,\n  event_id uuid,\n  PRIMARY KEY ((user_id), at, event_id)\n);\n",
    },
    {
      name: "a uuid before the timestamp",
      cql: "CREATE TABLE versions (\n  doc_id uuid,\n  author_id uuid,\n  at timestamp,\n  PRIMARY KEY ((doc_id), author_id, at)\n);\n",
    },
    { name: "one reading a minute per partition", cql: events(), manifest: volume("growth: 1440/day") },
    {
      name: "a write path's rate over many partitions",
      cql: events(),
      manifest: `${volume("partitions: 2_000_000")}writes:\n  - id: W1\n    rate: 3000/s\n    cql:\n      - INSERT INTO events_by_user (user_id, at, action) VALUES (?, ?, ?)\n`,
    },
    { name: "a date is not a millisecond", cql: events("date") },
    {
      name: "a daily rollup job writes one row per day bucket",
      cql: "CREATE TABLE daily_rollups (\n  day timestamp,\n  computed_at timestamp,\n  summary text,\n  PRIMARY KEY ((day), computed_at)\n);\n",
      manifest: "version: 1\nkeyspace: shop\ntables:\n  daily_rollups:\n    rows_per_partition: 1\n    retention: forever\n",
    },
  ],
  invalid: [
    {
      name: "no figures: the rate is unknown",
      cql: events(),
      findings: [{ messageId: "unknownRate", line: 3, column: 3, data: { table: "events_by_user", column: "at" } }],
      output: events("timeuuid"),
    },
    {
      name: "five writes a second per partition",
      cql: events(),
      manifest: volume("growth: 5/s\nretention: 7d"),
      findings: [{ messageId: "frequent", line: 3, data: { rate: "5 rows/s", oneIn: "200" } }],
      output: events("timeuuid"),
    },
    {
      name: "a lowered threshold reports a partition written once a minute",
      cql: events(),
      manifest: volume("growth: 1/minute\nretention: 7d"),
      config: { rules: { "table-timestamp-collision": { severity: "warning", options: { minWritesPerSecondPerPartition: 0.01 } } } },
      findings: [{ messageId: "frequent", line: 3, data: { oneIn: "60,000" } }],
      output: events("timeuuid"),
    },
  ],
});
