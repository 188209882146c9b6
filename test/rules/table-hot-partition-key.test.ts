import { describe, expect, it } from "vitest";
import rule from "../../rules/table-hot-partition-key.js";
import { ruleTester, runRule } from "../rule-tester.js";

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

describe("table-hot-partition-key: a key the writes set to a constant", () => {
  const audit = `CREATE TABLE audit_log (
  bucket int,
  event_time timestamp,
  event_id uuid,
  detail text,
  PRIMARY KEY ((bucket), event_time, event_id)
);
`;
  const readings = `CREATE TABLE readings (
  sensor_id uuid,
  shard int,
  reading_time timestamp,
  value double,
  PRIMARY KEY ((sensor_id, shard), reading_time)
);
`;
  const manifest = (tables: string, writes: string[]) => `version: 1
keyspace: shop
tables:
${tables}writes:
${writes.map((cql, i) => `  - id: W${i + 1}\n    cql: ${cql}\n`).join("")}`;
  const auditVolume = "  audit_log:\n    partitions: 1_000\n    rows_per_partition: 20_000\n    columns: { detail: 200 }\n";
  const messages = (cql: string, yaml: string) => runRule(rule, { cql, manifest: yaml }).findings.map((f) => f.message);

  it("reports a partition key every write sets to one literal as one partition of the whole table", () => {
    const [message] = messages(audit, manifest(auditVolume, ["INSERT INTO audit_log (bucket, event_time, event_id, detail) VALUES (0, ?, ?, ?)", "UPDATE audit_log SET detail = ? WHERE bucket = 0 AND event_time = ? AND event_id = ?"]));
    expect(message).toBe(
      "Every write to audit_log sets its partition key to one value (`bucket` = 0, in W1 and W2): the whole table is one partition of 20,000,000 rows and 4.6 GB by the manifest's figures, on one replica set however large the cluster, and it takes every write. Compute `bucket` from the time each row is written (a day or an hour of it), and lead the key with a column of the rows' own with many values where one exists.",
    );
  });

  it("leaves a small one-partition table alone: a config row or a short registry is one partition by design", () => {
    const small = manifest("  audit_log:\n    partitions: 1\n    rows_per_partition: 50\n", ["INSERT INTO audit_log (bucket, event_time, event_id, detail) VALUES (0, ?, ?, ?)"]);
    expect(messages(audit, small).filter((m) => m.includes("one value"))).toEqual([]);
    const busy = small.replace("    cql: INSERT", "    rate: 500/s\n    cql: INSERT");
    expect(messages(audit, busy).filter((m) => m.includes("one value"))[0]).toContain("the whole table is one partition of 50 rows");
  });

  it("stays silent when a write binds the column, or two writes set different values", () => {
    const bound = manifest(auditVolume, ["INSERT INTO audit_log (bucket, event_time, event_id, detail) VALUES (0, ?, ?, ?)", "INSERT INTO audit_log (bucket, event_time, event_id, detail) VALUES (?, ?, ?, ?)"]);
    expect(messages(audit, bound).filter((m) => m.includes("one value"))).toEqual([]);
    const two = manifest(auditVolume, ["INSERT INTO audit_log (bucket, event_time, event_id, detail) VALUES (0, ?, ?, ?)", "INSERT INTO audit_log (bucket, event_time, event_id, detail) VALUES (1, ?, ?, ?)"]);
    expect(messages(audit, two).filter((m) => m.includes("one value"))).toEqual([]);
    // A literal in a read is no write: it says nothing of the values the table holds.
    const readOnly = `version: 1\nkeyspace: shop\nqueries:\n  - id: Q1\n    cql: SELECT detail FROM audit_log WHERE bucket = 0 LIMIT 10\n`;
    expect(messages(audit, readOnly).filter((m) => m.includes("one value"))).toEqual([]);
  });
});
