import rule from "../../rules/table-hot-partition-key.js";
import { ruleTester } from "../rule-tester.js";

const eventsByHour = `CREATE TABLE events_by_hour (
  hour timestamp,
  event_id timeuuid,
  payload text,
  PRIMARY KEY ((hour), event_id)
);
`;

const settings = `CREATE TABLE feature_flags (
  tenant text,
  flag text,
  enabled boolean,
  PRIMARY KEY ((tenant), flag)
);
`;

function flagsManifest(partitions: string, rate: string): string {
  return `version: 1
keyspace: shop
tables:
  feature_flags:
    partitions: ${partitions}
writes:
  - id: W1
    description: Toggle a flag
    rate: ${rate}
    cql:
      - UPDATE feature_flags SET enabled = ? WHERE tenant = ? AND flag = ?
`;
}

ruleTester.run("table-hot-partition-key", rule, {
  valid: [
    {
      name: "an entity and a day bucket",
      cql: `CREATE TABLE readings_by_device_day (
  device_id uuid,
  day date,
  reading_time timestamp,
  value double,
  PRIMARY KEY ((device_id, day), reading_time)
);
`,
    },
    { name: "a timeuuid key is unique per row", cql: "CREATE TABLE events (event_id timeuuid PRIMARY KEY, payload text);\n" },
    { name: "an exact timestamp is not a bucket", cql: "CREATE TABLE audit (at timestamp PRIMARY KEY, what text);\n" },
    { name: "enough partitions for the write rate", cql: settings, manifest: flagsManifest("20_000", "500/s") },
    { name: "a raised per-partition limit", cql: settings, manifest: flagsManifest("20", "500/s"), config: { rules: { "table-hot-partition-key": { severity: "warning", options: { maxWritesPerSecondPerPartition: 50 } } } } },
    {
      name: "a daily summary written once a minute: the current bucket takes the whole rate, which is low",
      cql: "CREATE TABLE totals_by_day (\n  day date PRIMARY KEY,\n  orders bigint\n);\n",
      manifest: "version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n    rate: 1/minute\n    cql:\n      - UPDATE totals_by_day SET orders = ? WHERE day = ?\n",
    },
    { name: "partitions but no write rate", cql: settings, manifest: "version: 1\nkeyspace: shop\ntables:\n  feature_flags:\n    partitions: 3\n" },
  ],
  invalid: [
    {
      name: "a boolean partition key",
      cql: "CREATE TABLE users_by_active (\n  active boolean,\n  user_id uuid,\n  PRIMARY KEY ((active), user_id)\n);\n",
      findings: [{ messageId: "lowCardinality", line: 1, column: 14, data: { table: "users_by_active", count: 2 } }],
    },
    {
      name: "only the hour",
      cql: eventsByHour,
      findings: [{ messageId: "timeBucketOnly", line: 1, data: { columns: "`hour`" } }],
    },
    {
      name: "only the hour, at 500 writes a second",
      cql: eventsByHour,
      manifest: "version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n    rate: 500/s\n    cql:\n      - INSERT INTO events_by_hour (hour, event_id, payload) VALUES (?, now(), ?)\n",
      findings: [{ messageId: "timeBucketOnly", line: 1 }],
    },
    {
      name: "a day and a bucket number, both time buckets",
      cql: "CREATE TABLE metrics_by_day (\n  day date,\n  bucket int,\n  at timestamp,\n  value double,\n  PRIMARY KEY ((day, bucket), at)\n);\n",
      findings: [{ messageId: "timeBucketOnly", line: 1, data: { columns: "`day` and `bucket`" } }],
    },
    {
      name: "20 partitions for 5,000 writes a second",
      cql: settings,
      manifest: flagsManifest("20", "5000/s"),
      findings: [{ messageId: "fewPartitions", line: 1, data: { partitions: "20", rate: "5,000 writes/s", perPartition: "250 writes/s", writes: "W1" } }],
    },
  ],
});
