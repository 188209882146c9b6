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
      name: "a worst partition inside the bytes limit",
      cql: events,
      manifest: manifest("  events_by_source:\n    rows_per_partition: { avg: 500, max: 20_000 }\n    columns: { kind: 10, payload: 200 }\n"),
    },
    { name: "no figures: the type default of 100 rows is small", cql: events },
    {
      name: "120,000 values and 60,000 rows in 7 MB: counts under the hard cell limit are informational",
      cql: events,
      manifest: manifest("  events_by_source:\n    rows_per_partition: { avg: 500, max: 60_000 }\n"),
    },
    {
      name: "a raised bytes limit",
      cql: events,
      config: { limits: { partitionBytes: 1_000_000_000 } },
      manifest: manifest("  events_by_source:\n    rows_per_partition: { avg: 500, max: 600_000 }\n    columns: { kind: 10, payload: 400 }\n"),
    },
    {
      name: "unbounded growth is left to table-unbounded-partition",
      cql: events,
      manifest: manifest("  events_by_source:\n    growth: 1000/day\n"),
    },
  ],
  invalid: [
    {
      name: "bytes over the limit, with the bucket advice from the growth rate",
      cql: events,
      manifest: manifest("  events_by_source:\n    growth: 20000/day\n    retention: 30d\n    columns: { kind: 10, payload: 400 }\n"),
      findings: [{ messageId: "tooLarge", line: 1, column: 14, data: { table: "events_by_source", rows: 600_000, values: 1_200_000 } }],
    },
    {
      name: "a qualified table in a keyspace of its own",
      cql: `CREATE KEYSPACE metrics WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE metrics.samples (
  series text,
  at timestamp,
  value text,
  PRIMARY KEY ((series), at)
);
`,
      manifest: "version: 1\nkeyspace: shop\ntables:\n  metrics.samples:\n    rows_per_partition: 150_000\n    columns: { value: 1000 }\n",
      findings: [{ messageId: "tooLarge", line: 2, data: { table: "metrics.samples", rows: 150_000 } }],
    },
  ],
});

/** A table bucketed by an integer `bucket` the application computes from the time. */
const byService = (bucketComment = "") => `CREATE TABLE trace_ids_by_service (
  service text,
  bucket int,${bucketComment}
  ts timestamp,
  trace_id blob,
  PRIMARY KEY ((service, bucket), ts)
) WITH default_time_to_live = 604800;
`;

function message(cql: string, manifestText: string): string {
  const findings = runRule(rule, { cql, manifest: manifestText }).findings;
  expect(findings).toHaveLength(1);
  return findings[0]!.message;
}

describe("table-partition-too-large advice", () => {
  it("sizes the bucket from the worst partition, not the average", () => {
    // average 1 row/s per key, the hottest 100/s: the worst key's 100 MB comes in under 9 hours
    const text = message(
      events,
      manifest("  events_by_source:\n    rows_per_partition: { avg: 86_400, max: 8_640_000 }\n    growth: 86400/day\n    retention: 1d\n    columns: { kind: 10, payload: 20 }\n"),
    );
    expect(text).toContain("At 100 rows/s for the worst key a bucket holds");
    expect(text).toMatch(/Bucket by (\d+ hours|1 hour)/);
    expect(text).not.toMatch(/Bucket by (1 day|\d+ days|1 week|1 month)/);
  });

  it("keeps the bucket narrower than the rows' lifetime", () => {
    const text = message(
      events,
      manifest("  events_by_source:\n    rows_per_partition: { avg: 300_000, max: 3_000_000 }\n    growth: 150000/day\n    retention: 2d\n    columns: { kind: 10, payload: 100 }\n"),
    );
    expect(text).not.toMatch(/month|week/);
  });

  it("narrows the table's own integer bucket, its width read from rows over growth, instead of adding a second", () => {
    const text = message(
      byService(" -- ts / one day"),
      manifest("  trace_ids_by_service:\n    rows_per_partition: { avg: 170_000, max: 20_000_000 }\n    growth: 170000/day\n    retention: 7d\n    columns: { service: 15, trace_id: 32 }\n"),
    );
    expect(text).toMatch(/Narrow the existing bucket `bucket` from about 1 day to \d+ hours?/);
    expect(text).toContain("the partition key stays (service, bucket)");
    expect(text).not.toMatch(/bucket\s*,\s*\w*bucket\w*\s*\)/);
  });

  it("finds a bucket by the figures, whatever its name: rows far fewer than growth × lifetime", () => {
    // `slice` is an int the writes fill with the week; only the manifest's figures say so.
    const cql = events.replace("source_id uuid,", "source_id uuid,\n  slice int,").replace("((source_id)", "((source_id, slice)");
    const figures = "  events_by_source:\n    rows_per_partition: { avg: 70_000, max: 3_500_000 }\n    growth: 10000/day\n    retention: 365d\n    columns: { kind: 10, payload: 60 }\n";
    const text = message(cql, manifest(figures));
    expect(text).toMatch(/Narrow the existing bucket `slice` \(taken as the partition key's time bucket: .*\) from about 1 week to \d+ (days?|hours?)/);
    expect(text).toContain("with no second bucket beside it");
    expect(text).not.toMatch(/slice\s*,\s*\w*(bucket|day|hour)\w*\s*\)/);
    // Without a retention nothing says partitions close as time passes: no bucket is assumed.
    // A partition that holds 150 of the rows' 200 days closes nothing as time passes: no bucket is assumed.
    expect(message(cql, manifest(figures.replace("retention: 365d", "retention: 200d").replace("avg: 70_000", "avg: 1_500_000")))).not.toContain("existing bucket");
  });

  it("narrows a declared time bucket, whatever its name, at its declared width", () => {
    const cql = events.replace("source_id uuid,", "source_id uuid,\n  region text,\n  shard_id bigint,").replace("((source_id)", "((source_id, region, shard_id)");
    const text = message(
      cql,
      manifest("  events_by_source:\n    time_bucket: { column: shard_id, width: 30d }\n    growth: 100000/day\n    columns: { kind: 10, payload: 20 }\n"),
    );
    expect(text).toMatch(/Narrow the existing bucket `shard_id` from 30 days to \d+ (days?|weeks?)/);
    expect(text).not.toContain("taken as the partition key's time bucket");
  });

  it("narrows a bucket whose name gives its width (a date `day`)", () => {
    const cql = events.replace("source_id uuid,", "source_id uuid,\n  day date,").replace("((source_id)", "((source_id, day)");
    const text = message(cql, manifest("  events_by_source:\n    growth: 2000000/day\n    columns: { kind: 10, payload: 400 }\n"));
    expect(text).toMatch(/Narrow the existing bucket `day` from 1 day to \d+ (minutes|hours?)/);
  });

  it("does not take a hash bucket whose partitions hold the whole lifetime for a time bucket, and names the new column apart", () => {
    const text = message(
      byService(),
      manifest("  trace_ids_by_service:\n    rows_per_partition: { avg: 7_000_000, max: 20_000_000 }\n    growth: 1000000/day\n    columns: { service: 15, trace_id: 32 }\n"),
    );
    expect(text).not.toContain("existing bucket");
    expect(text).toMatch(/partition by \(service, bucket, (day|hour|time_bucket)\)/);
  });

  it("leaves a rare outlier alone when the average partition is small and no growth is stated", () => {
    const cql = "CREATE TABLE spans (\n  trace_id blob,\n  span_id blob,\n  body text,\n  PRIMARY KEY ((trace_id), span_id)\n);\n";
    const text = message(
      cql,
      "version: 1\nkeyspace: shop\ntables:\n  spans:\n    rows_per_partition: { avg: 20, max: 100_000 }\n    columns: { body: 2000 }\nqueries:\n  - id: trace\n    cql: SELECT body FROM spans WHERE trace_id = ?\n",
    );
    expect(text).toContain("only rare keys are this large");
    expect(text).not.toMatch(/shard/i);
  });

  it("promotes a clustering column every query binds with = before any shard", () => {
    const cql = "CREATE TABLE ratings_by_video (\n  videoid uuid,\n  userid uuid,\n  rating int,\n  review text,\n  PRIMARY KEY ((videoid), userid)\n);\n";
    const text = message(
      cql,
      "version: 1\nkeyspace: shop\ntables:\n  ratings_by_video:\n    rows_per_partition: { avg: 400_000, max: 2_000_000 }\n    columns: { review: 500 }\nqueries:\n  - id: rating\n    cql: SELECT rating FROM ratings_by_video WHERE videoid = ? AND userid = ?\n",
    );
    expect(text).toContain("PRIMARY KEY ((videoid, userid))");
    expect(text).not.toMatch(/shard/i);
  });

  it("offers no shard to a table with static columns", () => {
    const cql = "CREATE TABLE runs (\n  id uuid,\n  owner text static,\n  segment int,\n  state text,\n  PRIMARY KEY ((id), segment)\n);\n";
    const text = message(cql, "version: 1\nkeyspace: shop\ntables:\n  runs:\n    rows_per_partition: { avg: 500_000, max: 600_000 }\n    columns: { state: 400 }\n");
    expect(text).toContain("static columns");
    expect(text).not.toContain("Add a hash shard");
  });

  it("keeps a partition that a conditional batch writes whole", () => {
    const cql = "CREATE TABLE shard_rows (\n  shard_id int,\n  kind int,\n  row_id uuid,\n  range_id bigint,\n  data blob,\n  PRIMARY KEY ((shard_id), kind, row_id)\n);\n";
    const text = message(
      cql,
      "version: 1\nkeyspace: shop\ntables:\n  shard_rows:\n    rows_per_partition: { avg: 100_000, max: 120_000 }\n    columns: { data: 4000 }\nwrites:\n  - id: create-row\n    cql: |\n      BEGIN BATCH\n        INSERT INTO shard_rows (shard_id, kind, row_id, data) VALUES (?, 1, ?, ?);\n        UPDATE shard_rows SET range_id = ? WHERE shard_id = ? AND kind = 0 AND row_id = ? IF range_id = ?;\n      APPLY BATCH\n",
    );
    expect(text).toContain("create-row writes several rows of shard_rows in one conditional batch");
    expect(text).not.toMatch(/hash|bucket|partition by \(/i);
  });
});
