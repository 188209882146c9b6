import { describe, expect, it } from "vitest";
import rule from "../../rules/query-tombstones.js";
import { ruleTester, runRule } from "../rule-tester.js";

// A job queue: producers append jobs to a queue's partition, workers read the oldest and delete
// them once done. And a tag index whose largest tags hold most documents.
const schema = (gcGrace?: number) => `CREATE TABLE jobs_by_queue (
  queue text,
  job_id timeuuid,
  payload text,
  PRIMARY KEY ((queue), job_id)
)${gcGrace === undefined ? "" : ` WITH gc_grace_seconds = ${gcGrace}`};

CREATE TABLE docs_by_tag (
  tag text,
  doc_id uuid,
  title text,
  PRIMARY KEY ((tag), doc_id)
);
`;

const manifest = (query: string, writes: string[], rate = "20/s") =>
  [
    "version: 1",
    "keyspace: shop",
    "tables:",
    "  jobs_by_queue:",
    "    partitions: 10",
    "    rows_per_partition: { avg: 100, max: 500 }",
    "  docs_by_tag:",
    "    partitions: 100_000",
    "    rows_per_partition: { avg: 10, max: 200_000 }",
    "queries:",
    "  - id: Q1",
    `    cql: ${query}`,
    `    rate: ${rate}`,
    "writes:",
    ...writes.flatMap((w, i) => [`  - id: W${i + 1}`, `    cql: ${w.split(" @ ")[0]}`, `    rate: ${w.split(" @ ")[1] ?? "1/s"}`]),
  ].join("\n") + "\n";

const enqueue = "INSERT INTO jobs_by_queue (queue, job_id, payload) VALUES (?, ?, ?) @ 2/s";
const ack = (rate: string) => `DELETE FROM jobs_by_queue WHERE queue = ? AND job_id = ? @ ${rate}`;
const untag = (rate: string) => `DELETE FROM docs_by_tag WHERE tag = ? AND doc_id = ? @ ${rate}`;

ruleTester.run("query-tombstones", rule, {
  valid: [
    {
      name: "the queue read from the worker's ack level: it starts past the deleted jobs",
      cql: schema(),
      manifest: manifest("SELECT job_id, payload FROM jobs_by_queue WHERE queue = ? AND job_id > ? LIMIT 50", [enqueue, ack("2/s")]),
    },
    {
      name: "few deletes within a short gc_grace_seconds",
      cql: schema(3_600),
      manifest: manifest("SELECT job_id, payload FROM jobs_by_queue WHERE queue = ? LIMIT 50", [enqueue, ack("0.5/s")]),
    },
    {
      name: "the queue's jobs are never deleted",
      cql: schema(),
      manifest: manifest("SELECT job_id, payload FROM jobs_by_queue WHERE queue = ? LIMIT 50", [enqueue]),
    },
    {
      name: "a LIMIT read of a partition whose rows are deleted by an arbitrary key, not oldest first",
      cql: schema(),
      manifest: manifest("SELECT doc_id FROM docs_by_tag WHERE tag = ? LIMIT 20", [untag("10/s")]),
    },
    {
      name: "one row by its primary key",
      cql: schema(),
      manifest: manifest("SELECT payload FROM jobs_by_queue WHERE queue = ? AND job_id = ?", [enqueue, ack("2/s")]),
    },
    {
      name: "a delete path with no rate: nothing to count",
      cql: schema(),
      manifest: manifest("SELECT job_id, payload FROM jobs_by_queue WHERE queue = ? LIMIT 50", [enqueue, "DELETE FROM jobs_by_queue WHERE queue = ? AND job_id = ?"]).replace(/(- id: W2\n.*\n)    rate: 1\/s\n/, "$1"),
    },
  ],
  invalid: [
    {
      name: "workers read the queue from its start while acknowledged jobs are deleted",
      cql: schema(),
      manifest: manifest("SELECT job_id, payload FROM jobs_by_queue WHERE queue = ? LIMIT 50", [enqueue, ack("2/s")]),
      // 2 deletes/s, the largest queue takes 500 / 1,000 of them, for 10 days: 864,000.
      findings: [{ messageId: "many", line: 11, data: { query: "Q1", worst: "864,000", average: "172,800" } }],
    },
    {
      name: "a common tag read whole while documents are untagged",
      cql: schema(),
      manifest: manifest("SELECT doc_id FROM docs_by_tag WHERE tag = ?", [untag("1/s")]),
      // 1 delete/s, the largest tag holds 200,000 of 1,000,000 rows, for 10 days.
      findings: [{ messageId: "many", line: 11, data: { worst: "172,800" } }],
    },
    {
      name: "nulls written into the rows a whole-partition read walks",
      cql: schema(),
      manifest: manifest("SELECT doc_id, title FROM docs_by_tag WHERE tag = ?", ["INSERT INTO docs_by_tag (tag, doc_id, title) VALUES (?, ?, null) @ 50/s"]),
      // 50 nulls/s × 0.2 × 864,000 s, capped by the 200,000 rows of the partition: one null per row.
      findings: [{ messageId: "many", line: 11, data: { worst: "200,000" } }],
    },
  ],
});

// A time series whose writes bind null to the value columns a reading does not have.
const readings = `CREATE TABLE readings (
  sensor text,
  at timestamp,
  temperature double,
  humidity double,
  label text,
  PRIMARY KEY ((sensor), at)
) WITH CLUSTERING ORDER BY (at DESC);
`;

const readingsManifest = (query: string, writes: string[]) =>
  [
    "version: 1",
    "keyspace: shop",
    "tables:",
    "  readings:",
    "    partitions: 1_000",
    "    rows_per_partition: { avg: 100_000, max: 100_000 }",
    "queries:",
    "  - id: Q1",
    `    cql: ${query}`,
    "    rate: 10/s",
    "writes:",
    ...writes.flatMap((w, i) => [`  - id: W${i + 1}`, `    cql: ${w.split(" @ ")[0]}`, `    rate: ${w.split(" @ ")[1] ?? "1/s"}`]),
  ].join("\n") + "\n";

const withNulls = (rate: string) => `INSERT INTO readings (sensor, at, temperature, humidity, label) VALUES (?, ?, ?, null, null) @ ${rate}`;
const withoutNulls = (rate: string) => `INSERT INTO readings (sensor, at, temperature) VALUES (?, ?, ?) @ ${rate}`;

describe("query-tombstones: nulls in the rows a slice reads", () => {
  it("counts the nulls of the newest rows a LIMIT slice reads", () => {
    const { model, findings } = runRule(rule, {
      cql: readings,
      manifest: readingsManifest("SELECT at, temperature FROM readings WHERE sensor = ? AND at > ? LIMIT 1000", [withNulls("10/s")]),
    });
    // Every row holds 2 nulls; 10 rows/s over 1,000 sensors for 10 days is 8,640 young rows a partition, more than the 1,000 read.
    expect(model.queries[0]?.plan.tombstonesEstimate).toMatchObject({ region: "rows", perRead: 2_000, worstPerRead: 2_000, sources: [{ write: "W1", kind: "null" }] });
    expect(findings[0]?.message).toMatch(/walks about 2,000 tombstones per read .*2,000 nulls written from W1.*walks them row by row/);
    expect(findings[0]?.message).toMatch(/Leave null columns out of the statement/);
  });

  it("weighs each write path by its share of the rows written", () => {
    const { model } = runRule(rule, {
      cql: readings,
      manifest: readingsManifest("SELECT at, temperature FROM readings WHERE sensor = ? AND at > ? LIMIT 1000", [withNulls("2/s"), withoutNulls("8/s")]),
    });
    expect(model.queries[0]?.plan.tombstonesEstimate).toMatchObject({ region: "rows", worstPerRead: 400 });
  });

  it("counts only the rows younger than gc_grace_seconds when the read goes oldest first", () => {
    const { model, findings } = runRule(rule, {
      cql: readings,
      manifest: readingsManifest("SELECT at, temperature FROM readings WHERE sensor = ? AND at > ? ORDER BY at ASC LIMIT 1000", [withNulls("10/s")]),
    });
    // 8,640 of the partition's 100,000 rows are young: 1,000 rows × 8.64 % × 2 nulls.
    expect(model.queries[0]?.plan.tombstonesEstimate).toMatchObject({ region: "rows", worstPerRead: 173 });
    expect(findings).toEqual([]);
  });

  it("says nothing for a slice of unknown length or a write path without nulls", () => {
    const unbounded = runRule(rule, { cql: readings, manifest: readingsManifest("SELECT at, temperature FROM readings WHERE sensor = ? AND at > ? LIMIT ?", [withNulls("10/s")]) });
    expect(unbounded.model.queries[0]?.plan.tombstonesEstimate).toBeUndefined();
    const clean = runRule(rule, { cql: readings, manifest: readingsManifest("SELECT at, temperature FROM readings WHERE sensor = ? AND at > ? LIMIT 1000", [withoutNulls("10/s")]) });
    expect(clean.model.queries[0]?.plan.tombstonesEstimate).toBeUndefined();
  });
});

describe("query-tombstones", () => {
  it("names the sources, the thresholds and the advice for a queue", () => {
    const [finding] = runRule(rule, { cql: schema(), manifest: manifest("SELECT job_id, payload FROM jobs_by_queue WHERE queue = ? LIMIT 50", [enqueue, ack("0.01/s")]) }).findings;
    expect(finding?.message).toMatch(/^Q1 walks about 4,320 tombstones per read of the largest partitions of jobs_by_queue \(about 864 on an average partition\): 4,320 row deletes from W2/);
    expect(finding?.message).toMatch(/gc_grace_seconds \(10 days\)/);
    expect(finding?.message).toMatch(/past tombstone_warn_threshold \(1,000\), 4 % of tombstone_failure_threshold \(100,000\)/);
    expect(finding?.message).toMatch(/Read from a cursor instead of the start/);
    expect(finding?.message).toMatch(/only if every replica is repaired within it/);
  });

  it("says when the read fails", () => {
    const [finding] = runRule(rule, { cql: schema(), manifest: manifest("SELECT job_id, payload FROM jobs_by_queue WHERE queue = ? LIMIT 50", [enqueue, ack("2/s")]) }).findings;
    expect(finding?.message).toMatch(/past tombstone_failure_threshold \(100,000\): the read fails with TombstoneOverwhelmingException/);
  });

  it("counts a range delete as its two bounds", () => {
    const { model } = runRule(rule, {
      cql: schema(),
      manifest: manifest("SELECT job_id FROM jobs_by_queue WHERE queue = ? LIMIT 50", [enqueue, "DELETE FROM jobs_by_queue WHERE queue = ? AND job_id < ? @ 0.01/s"]),
    });
    expect(model.queries[0]?.plan.tombstonesEstimate).toMatchObject({ region: "queue", worstPerRead: 8_640, gcGraceSeconds: 864_000, sources: [{ write: "W2", kind: "range-delete" }] });
  });

  it("takes the cluster's thresholds from the options", () => {
    const run = (warnThreshold: number) =>
      runRule(rule, {
        cql: schema(),
        manifest: manifest("SELECT job_id, payload FROM jobs_by_queue WHERE queue = ? LIMIT 50", [enqueue, ack("0.01/s")]),
        config: { rules: { "query-tombstones": { severity: "warning", options: { warnThreshold } } } },
      }).findings;
    expect(run(10_000)).toEqual([]);
    expect(run(500)).toHaveLength(1);
  });
});
