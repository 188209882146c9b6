import { describe, expect, it } from "vitest";
import rule from "../../rules/query-rows-read.js";
import { ruleTester, runRule } from "../rule-tester.js";

// A job scheduler: each batch's tasks in one partition, and a sensor's readings per day.
const schema = `CREATE TABLE tasks_by_batch (
  batch_id uuid,
  task_id timeuuid,
  state int,
  worker text,
  PRIMARY KEY ((batch_id), task_id)
);

CREATE TABLE readings_by_sensor_day (
  sensor_id text,
  day date,
  reading_time timestamp,
  value double,
  PRIMARY KEY ((sensor_id, day), reading_time)
);
`;

const manifest = (...queries: string[]) =>
  [
    "version: 1",
    "keyspace: shop",
    "tables:",
    "  tasks_by_batch:",
    "    partitions: 2_000",
    "    rows_per_partition: { avg: 20_000, max: 60_000 }",
    "  readings_by_sensor_day:",
    "    partitions: 500_000",
    "    rows_per_partition: 1_440",
    "queries:",
    ...queries.flatMap((q, i) => [`  - id: Q${i + 1}`, `    cql: ${q.split(" @ ")[0]}`, `    rate: ${q.split(" @ ")[1] ?? "1/s"}`]),
  ].join("\n") + "\n";

ruleTester.run("query-rows-read", rule, {
  valid: [
    { name: "one row by its full primary key", cql: schema, manifest: manifest("SELECT state FROM tasks_by_batch WHERE batch_id = ? AND task_id = ? @ 500/s") },
    { name: "a page of a partition", cql: schema, manifest: manifest("SELECT task_id, state FROM tasks_by_batch WHERE batch_id = ? LIMIT 100 @ 50/s") },
    { name: "a day of readings, rarely", cql: schema, manifest: manifest("SELECT reading_time, value FROM readings_by_sensor_day WHERE sensor_id = ? AND day = ? @ 2/s") },
    {
      name: "a time range with no LIMIT: any slice of the day, too weak to warn",
      cql: schema,
      manifest: manifest("SELECT value FROM readings_by_sensor_day WHERE sensor_id = ? AND day = ? AND reading_time > ? @ 900/s"),
    },
    { name: "a day of readings returned whole, often: the rows are the answer", cql: schema, manifest: manifest("SELECT reading_time, value FROM readings_by_sensor_day WHERE sensor_id = ? AND day = ? @ 3000/s") },
    { name: "a bound LIMIT on a plain read", cql: schema, manifest: manifest("SELECT task_id FROM tasks_by_batch WHERE batch_id = ? LIMIT ? @ 100/s") },
    { name: "no figures for the table: nothing to estimate", cql: schema, manifest: "version: 1\nkeyspace: shop\nqueries:\n  - id: Q1\n    cql: SELECT worker FROM tasks_by_batch WHERE batch_id = ? AND state = 1 ALLOW FILTERING\n    rate: 10/s\n" },
  ],
  invalid: [
    {
      name: "ALLOW FILTERING inside a 20,000-row partition",
      cql: schema,
      manifest: manifest("SELECT task_id, worker FROM tasks_by_batch WHERE batch_id = ? AND state = 1 ALLOW FILTERING @ 10/s"),
      findings: [{ messageId: "many", line: 11, data: { query: "Q1", table: "tasks_by_batch", about: "up to", perCall: "60,000" } }],
    },
    {
      name: "a whole 20,000-row partition with no LIMIT",
      cql: schema,
      manifest: manifest("SELECT task_id, state FROM tasks_by_batch WHERE batch_id = ? @ 1/s"),
      findings: [{ messageId: "many", line: 11, data: { about: "up to", perCall: "60,000" } }],
    },
    {
      name: "an aggregate over a time range: up to the whole partition",
      cql: schema,
      manifest: manifest("SELECT max(value) FROM readings_by_sensor_day WHERE sensor_id = ? AND day = ? AND reading_time > ? @ 200/s"),
      findings: [{ messageId: "many", line: 11, data: { about: "up to", perCall: "1,440" } }],
    },
    {
      name: "an aggregate over a day of readings at a high rate",
      cql: schema,
      manifest: manifest("SELECT avg(value) FROM readings_by_sensor_day WHERE sensor_id = ? AND day = ? @ 500/s"),
      findings: [{ messageId: "many", line: 11, data: { perCall: "1,440" } }],
    },
  ],
});

describe("query-rows-read", () => {
  it("says why the read is large and how many rows a second it costs", () => {
    const [finding] = runRule(rule, { cql: schema, manifest: manifest("SELECT avg(value) FROM readings_by_sensor_day WHERE sensor_id = ? AND day = ? @ 500/s") }).findings;
    expect(finding?.message).toMatch(/an aggregate reads every row it aggregates/);
    expect(finding?.message).toMatch(/about 720,000 rows a second \(threshold 100,000\)/);
  });

  it("puts the estimate in the plan", () => {
    const { model } = runRule(rule, { cql: schema, manifest: manifest("SELECT task_id FROM tasks_by_batch WHERE batch_id = ? AND state = 1 ALLOW FILTERING @ 10/s") });
    expect(model.queries[0]?.plan.rowsEstimate).toMatchObject({ perCall: 20_000, worstPerCall: 60_000, perSecond: 200_000, because: "filtering" });
  });

  it("judges a read on the worst partition it can hit, not the average", () => {
    // Five rows on average, but a few values are shared by most rows: their partitions are huge.
    const cql = "CREATE TABLE docs_by_tag (tag text, doc_id uuid, PRIMARY KEY ((tag), doc_id));\n";
    const yaml = "version: 1\nkeyspace: shop\ntables:\n  docs_by_tag:\n    partitions: 100_000\n    rows_per_partition: { avg: 5, max: 400_000 }\nqueries:\n  - id: docs-of-tag\n    cql: SELECT doc_id FROM docs_by_tag WHERE tag = ?\n    rate: 20/s\n";
    const [finding] = runRule(rule, { cql, manifest: yaml }).findings;
    expect(finding?.message).toMatch(/^docs-of-tag reads up to 400,000 rows of docs_by_tag per call on its largest partitions and returns them all \(about 5 on average; one partition/);
    expect(finding?.message).toMatch(/Only the largest partitions are this large/);
  });

  it("says how many rows a filtering read scans to return its LIMIT", () => {
    const [finding] = runRule(rule, { cql: schema, manifest: manifest("SELECT task_id FROM tasks_by_batch WHERE batch_id = ? AND worker = 'w1' LIMIT 20 ALLOW FILTERING @ 10/s") }).findings;
    expect(finding?.message).toMatch(/reads up to 60,000 rows of tasks_by_batch per call on its largest partitions to return at most 20 \(about 20,000 on average; /);
  });

  it("stays silent on a skewed table when even the worst partition is small", () => {
    const cql = "CREATE TABLE docs_by_tag (tag text, doc_id uuid, PRIMARY KEY ((tag), doc_id));\n";
    const yaml = "version: 1\nkeyspace: shop\ntables:\n  docs_by_tag:\n    rows_per_partition: { avg: 5, max: 2_000 }\nqueries:\n  - id: docs-of-tag\n    cql: SELECT doc_id FROM docs_by_tag WHERE tag = ?\n    rate: 20/s\n";
    expect(runRule(rule, { cql, manifest: yaml }).findings).toEqual([]);
  });

  it("takes its thresholds from the options", () => {
    const findings = runRule(rule, {
      cql: schema,
      manifest: manifest("SELECT reading_time, value FROM readings_by_sensor_day WHERE sensor_id = ? AND day = ? @ 2/s"),
      config: { rules: { "query-rows-read": { severity: "warning", options: { maxRowsPerCall: 1_000 } } } },
    }).findings;
    expect(findings).toHaveLength(1);
  });

  it("counts the rows a read through an index scans inside the bound partition, and leaves a fan-out to query-index-without-partition-key", () => {
    const cql = `CREATE TABLE events_by_account (account_id uuid, event_id timeuuid, kind text, source text, PRIMARY KEY ((account_id), event_id));
CREATE INDEX events_kind_idx ON events_by_account (kind);
`;
    const yaml = (query: string) =>
      `version: 1\nkeyspace: shop\ntables:\n  events_by_account:\n    partitions: 10_000\n    rows_per_partition: { avg: 50_000, max: 400_000 }\n    distinct_values: { kind: { count: 10, max_rows: 250_000_000 } }\nqueries:\n  - id: Q1\n    cql: ${query}\n    rate: 5/s\n`;
    const [finding] = runRule(rule, { cql, manifest: yaml("SELECT event_id FROM events_by_account WHERE account_id = ? AND kind = 'login' AND source = ? LIMIT 10 ALLOW FILTERING") }).findings;
    expect(finding?.message).toMatch(
      /^Q1 reads up to 200,000 rows of events_by_account per call on its largest partitions to return at most 10 \(about 5,000 on average; one partition of 50,000 rows, worst 400,000, times one `kind` value's share of the table: 10,000 partitions × 50,000 rows ÷ 10 distinct values, from the manifest\): the index events_kind_idx returns every row of the partition with that `kind` value, and `source` is filtered row by row\./,
    );
    // Without filtering the index returns what it reads; without the partition key the fan-out rule speaks.
    expect(runRule(rule, { cql, manifest: yaml("SELECT event_id FROM events_by_account WHERE account_id = ? AND kind = 'login' LIMIT 10") }).findings).toEqual([]);
    expect(runRule(rule, { cql, manifest: yaml("SELECT event_id FROM events_by_account WHERE kind = 'login' AND source = ? ALLOW FILTERING") }).findings).toEqual([]);
  });
});

describe("query-rows-read: the weight of the worst partition", () => {
  it("gives the worst partition's bytes beside its rows, from the manifest's column sizes", () => {
    const wide = manifest("SELECT task_id, worker FROM tasks_by_batch WHERE batch_id = ? @ 5/s").replace("    rows_per_partition: { avg: 20_000, max: 60_000 }\n", "    rows_per_partition: { avg: 20_000, max: 60_000 }\n    columns: { worker: 2_000 }\n");
    const [finding] = runRule(rule, { cql: schema, manifest: wide }).findings;
    expect(finding?.message).toMatch(/one partition of 20,000 rows, worst 60,000 rows and 12\d MB, from the manifest's rows per partition/);
  });
});
