import { describe, expect, it } from "vitest";
import tablePartitionTooLarge from "../../rules/table-partition-too-large.js";
import { runRule } from "../rule-tester.js";

// Partition-key columns every write sets to the same literal: they split nothing.
const readings = `CREATE TABLE readings (
  sensor_id uuid,
  shard int,
  reading_time timestamp,
  value double,
  PRIMARY KEY ((sensor_id, shard), reading_time)
);
`;
const manifest = (volume: string, writes: string[]) => `version: 1
keyspace: shop
tables:
  readings:
${volume}writes:
${writes.map((cql, i) => `  - id: W${i + 1}\n    cql: ${cql}\n`).join("")}`;
const growing = "    partitions: 100_000\n    rows_per_partition: 2_000\n    growth: 20/s\n    retention: 1y\n";
const insert = (shard: string) => `INSERT INTO readings (sensor_id, shard, reading_time, value) VALUES (?, ${shard}, ?, ?)`;

function run(volume: string, writes: string[]) {
  return runRule(tablePartitionTooLarge, { cql: readings, manifest: manifest(volume, writes) });
}

describe("constant partition-key columns", () => {
  it("are found in every INSERT and UPDATE of the table", () => {
    const { model } = run(growing, [insert("0"), "UPDATE readings SET value = ? WHERE sensor_id = ? AND shard = 0 AND reading_time = ?"]);
    expect(model.estimates.get("shop.readings")?.constantKey).toEqual([{ column: "shard", value: "0", writes: ["W1", "W2"] }]);
  });

  it("are not constant when one write binds them, sets another literal, or computes them", () => {
    for (const other of [insert("?"), insert("1"), "INSERT INTO readings (sensor_id, shard, reading_time, value) VALUES (?, blobAsInt(?), ?, ?)"]) {
      expect(run(growing, [insert("0"), other]).model.estimates.get("shop.readings")?.constantKey).toBeUndefined();
    }
  });

  it("size a partition over the rows' lifetime, since a constant bucket closes none, and the fix reuses the column", () => {
    const { model, findings } = run(growing, [insert("0")]);
    const estimate = model.estimates.get("shop.readings")!;
    expect(estimate.worst.rows).toBe(20 * 365 * 86_400);
    expect(estimate.basisText).toMatch(/^every write sets `shard` = 0 \(in W1\), so that column splits nothing: a partition keeps its rows for their whole 1 year lifetime/);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toContain("Compute the existing bucket `shard` from time: every write sets it to 0, so it splits nothing;");
    expect(findings[0]!.message).toContain("with no second bucket beside it");
    expect(findings[0]!.message).not.toMatch(/\(\(sensor_id, shard, \w+\)\)|partition by \(sensor_id, shard, /);
  });

  it("leave a bucket the writes bind alone: the stated rows stand", () => {
    const estimate = run(growing, [insert("?")]).model.estimates.get("shop.readings")!;
    expect(estimate.worst.rows).toBe(2_000);
  });
});
