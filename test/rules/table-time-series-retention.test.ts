import { expect } from "vitest";
import rule from "../../rules/table-time-series-retention.js";
import { ruleTester } from "../rule-tester.js";

const readings = (options = "") => `CREATE TABLE readings_by_sensor_day (
  sensor_id text,
  day date,
  reading_time timestamp,
  value double,
  PRIMARY KEY ((sensor_id, day), reading_time)
)${options};
`;

const twcs = " WITH compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 1}";

function volume(figures: string, writes?: string): string {
  const lines = ["version: 1", "keyspace: shop", "tables:", "  readings_by_sensor_day:", ...figures.split("\n").map((l) => `    ${l}`)];
  if (writes) lines.push("writes:", "  - id: W1", "    cql:", `      - ${writes}`);
  return `${lines.join("\n")}\n`;
}

/** A manifest with rated write paths, each `[id, rate, cql]`. */
function ratedWrites(figures: string, writes: [string, string, string][]): string {
  const lines = ["version: 1", "keyspace: shop", "tables:", "  readings_by_sensor_day:", ...figures.split("\n").map((l) => `    ${l}`), "writes:"];
  for (const [id, rate, cql] of writes) lines.push(`  - id: ${id}`, `    rate: ${rate}`, "    cql:", `      - ${cql}`);
  return `${lines.join("\n")}\n`;
}
const insertWithTtl = (using = "USING TTL 7776000") => `INSERT INTO readings_by_sensor_day (sensor_id, day, reading_time, value) VALUES (?, ?, ?, ?) ${using}`;
const deleteSensorDay = "DELETE FROM readings_by_sensor_day WHERE sensor_id = ? AND day = ?";

// A store whose time is inside an opaque clustering blob: only the stated growth says it is a series.
const blobPoints = `CREATE TABLE points (
  series blob,
  offset blob,
  value blob,
  PRIMARY KEY ((series), offset)
);
`;

// A lookup table: the schedule ids of each keyspace, timeuuids used as unique identifiers.
const schedules = `CREATE TABLE schedules_by_keyspace (
  cluster_name text,
  keyspace_name text,
  schedule_id timeuuid,
  PRIMARY KEY ((cluster_name, keyspace_name), schedule_id)
);
`;
const scheduleQuery = (cql: string) => `version: 1\nkeyspace: shop\nqueries:\n  - id: Q1\n    cql: ${cql}\n`;

ruleTester.run("table-time-series-retention", rule, {
  valid: [
    {
      name: "a timeuuid used as an identifier in a lookup table",
      cql: schedules,
      manifest: scheduleQuery("SELECT schedule_id FROM schedules_by_keyspace WHERE cluster_name = ? AND keyspace_name = ?"),
    },
    {
      name: "a TTL on every write, on time windows",
      cql: readings(twcs),
      manifest: volume("growth: 1440/day", "INSERT INTO readings_by_sensor_day (sensor_id, day, reading_time, value) VALUES (?, ?, ?, ?) USING TTL 7776000"),
    },
    {
      name: "a default TTL on another compaction chosen on purpose",
      cql: readings(" WITH compaction = {'class': 'LeveledCompactionStrategy'} AND default_time_to_live = 7776000"),
    },
    {
      name: "a TTL series that is also deleted from: no time-window advice",
      cql: readings(" WITH default_time_to_live = 7776000"),
      manifest: volume("growth: 1440/day", "DELETE FROM readings_by_sensor_day WHERE sensor_id = ? AND day = ?"),
    },
    { name: "a TTL on a table not clustered by time", cql: "CREATE TABLE sessions (\n  session_id uuid PRIMARY KEY,\n  user_id uuid\n) WITH default_time_to_live = 3600;\n" },
    { name: "a stated retention", cql: readings(), manifest: volume("growth: 1440/day\nretention: 90d") },
    { name: "kept for ever on purpose", cql: readings(), manifest: volume("growth: 1440/day\nretention: forever") },
    { name: "stated rows, no growth: an ordered list, not a series", cql: readings(), manifest: volume("rows_per_partition: { avg: 2, max: 400 }") },
    { name: "not ordered by time", cql: "CREATE TABLE users_by_group (\n  group_name text,\n  user_name text,\n  PRIMARY KEY ((group_name), user_name)\n);\n" },
    { name: "a counter table cannot expire", cql: "CREATE TABLE hits_by_day (\n  page text,\n  day date,\n  hits counter,\n  PRIMARY KEY ((page), day)\n);\n" },
    { name: "TWCS with a TTL", cql: readings(`${twcs} AND default_time_to_live = 7776000`) },
    {
      name: "deletes 1 % as often as inserts or more: no time-window advice",
      cql: readings(),
      manifest: ratedWrites("growth: 1440/day", [["W1", "100/s", insertWithTtl()], ["W2", "2/s", deleteSensorDay]]),
    },
    {
      name: "a delete path with no rate: not known to be rare",
      cql: readings(),
      manifest: `${ratedWrites("growth: 1440/day", [["W1", "100/s", insertWithTtl()]])}  - id: W2\n    cql:\n      - ${deleteSensorDay}\n`,
    },
    {
      name: "a blob clustering with no stated growth is not known to be a series",
      cql: blobPoints,
      manifest: "version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n    cql:\n      - INSERT INTO points (series, offset, value) VALUES (?, ?, ?) USING TTL 86400\n",
    },
  ],
  invalid: [
    {
      name: "a default TTL on the default compaction: time windows of the TTL's 25th",
      cql: readings(" WITH default_time_to_live = 7776000"),
      findings: [
        {
          messageId: "ttlOnDefaultCompaction",
          line: 1,
          data: {
            series: "clustered by `reading_time`",
            ttl: " (90 days)",
            deletes: "are never deleted",
            advice:
              "use compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 4}, about 23 windows over the TTL (the Apache Cassandra docs advise 20 to 30).",
          },
        },
      ],
    },
    {
      name: "a TTL on every write, a day of data: windows in hours",
      cql: readings(),
      manifest: volume("growth: 1440/day", "INSERT INTO readings_by_sensor_day (sensor_id, day, reading_time, value) VALUES (?, ?, ?, ?) USING TTL 86400"),
      findings: [{ messageId: "ttlOnDefaultCompaction", line: 1, data: { ttl: " (1 day)", advice: expect.stringContaining("'compaction_window_unit': 'HOURS', 'compaction_window_size': 1}, about 24 windows") } }],
    },
    {
      name: "a TTL bound per write: windows advised without a size",
      cql: readings(),
      manifest: volume("growth: 1440/day", "INSERT INTO readings_by_sensor_day (sensor_id, day, reading_time, value) VALUES (?, ?, ?, ?) USING TTL ?"),
      findings: [{ messageId: "ttlOnDefaultCompaction", line: 1, data: { ttl: "", advice: expect.stringContaining("so the TTL spans about 20 to 30 windows") } }],
    },
    {
      name: "rare whole-partition deletes do not rule time windows out",
      cql: readings(),
      manifest: ratedWrites("growth: 1440/day", [["W1", "1000/s", insertWithTtl()], ["W2", "1/min", deleteSensorDay]]),
      findings: [
        {
          messageId: "ttlOnDefaultCompaction",
          line: 1,
          data: { deletes: expect.stringContaining("deleted from only rarely"), advice: expect.stringContaining("'compaction_window_unit': 'DAYS', 'compaction_window_size': 4}") },
        },
      ],
    },
    {
      name: "time in a blob, growth and retention stated, TTL and timestamp bound: window from the retention, a word on timestamp units",
      cql: blobPoints,
      manifest:
        "version: 1\nkeyspace: shop\ntables:\n  points:\n    growth: 8640/day\n    retention: 365d\nwrites:\n  - id: W1\n    cql:\n      - INSERT INTO points (series, offset, value) VALUES (?, ?, ?) USING TTL ? AND TIMESTAMP ?\n",
      findings: [
        {
          messageId: "ttlOnDefaultCompaction",
          line: 1,
          data: {
            series: "its partitions grow by 8640/day",
            ttl: " (365 days, the manifest's retention, as the writes bind the TTL)",
            advice: expect.stringMatching(/'compaction_window_size': 15\}, about 24 windows.*USING TIMESTAMP.*'timestamp_resolution': 'MILLISECONDS'/),
          },
        },
      ],
    },
    {
      name: "millisecond write timestamps declared in the manifest: timestamp_resolution in the advised map",
      cql: readings(),
      manifest: volume("growth: 1440/day\nwrite_timestamps: milliseconds", insertWithTtl("USING TTL 7776000 AND TIMESTAMP ?")),
      findings: [{ messageId: "ttlOnDefaultCompaction", line: 1, data: { advice: expect.stringContaining("'compaction_window_size': 4, 'timestamp_resolution': 'MILLISECONDS'}") } }],
    },
    {
      name: "a literal millisecond write timestamp gives the unit away",
      cql: readings(),
      manifest: volume("growth: 1440/day", insertWithTtl("USING TTL 7776000 AND TIMESTAMP 1700000000000")),
      findings: [{ messageId: "ttlOnDefaultCompaction", line: 1, data: { advice: expect.stringContaining("'timestamp_resolution': 'MILLISECONDS'}") } }],
    },
    {
      name: "a literal microsecond write timestamp needs no resolution",
      cql: readings(),
      manifest: volume("growth: 1440/day", insertWithTtl("USING TTL 7776000 AND TIMESTAMP 1700000000000000")),
      findings: [{ messageId: "ttlOnDefaultCompaction", line: 1, data: { advice: expect.not.stringContaining("timestamp_resolution") } }],
    },
    {
      name: "a timeuuid read newest first is time",
      cql: schedules,
      manifest: scheduleQuery("SELECT schedule_id FROM schedules_by_keyspace WHERE cluster_name = ? AND keyspace_name = ? ORDER BY schedule_id DESC LIMIT 10"),
      findings: [{ messageId: "noTtl", line: 1, data: { column: "schedule_id" } }],
    },
    {
      name: "a timeuuid kept newest first is time",
      cql: schedules.replace(");", ") WITH CLUSTERING ORDER BY (schedule_id DESC);"),
      findings: [{ messageId: "noTtl", line: 1 }],
    },
    {
      name: "a timeuuid filled with now() is time",
      cql: schedules,
      manifest: "version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n    cql:\n      - INSERT INTO schedules_by_keyspace (cluster_name, keyspace_name, schedule_id) VALUES (?, ?, now())\n",
      findings: [{ messageId: "noTtl", line: 1 }],
    },
    { name: "no TTL, no figures", cql: readings(), findings: [{ messageId: "noTtl", line: 1, column: 14, data: { column: "reading_time" } }] },
    { name: "growth without retention", cql: readings(), manifest: volume("growth: 1440/day"), findings: [{ messageId: "noTtl", line: 1 }] },
    {
      name: "TWCS without a TTL",
      cql: readings(twcs),
      findings: [{ messageId: "twcsWithoutTtl", line: 7, column: 8, data: { writesTtl: "" } }],
    },
    {
      name: "TWCS, and only some writes set a TTL",
      cql: readings(twcs),
      manifest: `${volume("growth: 1440/day", "INSERT INTO readings_by_sensor_day (sensor_id, day, reading_time, value) VALUES (?, ?, ?, ?) USING TTL 86400")}  - id: W2\n    cql:\n      - INSERT INTO readings_by_sensor_day (sensor_id, day, reading_time, value) VALUES (?, ?, ?, ?)\n`,
      findings: [{ messageId: "twcsWithoutTtl", line: 7, data: { writesTtl: " and only some writes set a TTL" } }],
    },
  ],
});
