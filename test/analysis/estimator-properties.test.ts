// Properties of the estimator over random tables and figures: it never throws, every figure is a
// finite, non-negative number, and more rows never make a partition smaller.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimatePartition } from "../../src/analysis/estimator.js";
import { DEFAULT_CONFIG } from "../../src/config.js";
import type { PartitionFigures } from "../../src/analysis/types.js";
import { query, table, volume, type TableSpec, type VolumeSpec } from "./estimator-helpers.js";

const keyTypes = ["text", "int", "uuid", "timeuuid", "date", "bigint", "smallint", "frozen<list<int>>"];
const valueTypes = [
  ...keyTypes,
  "boolean",
  "double",
  "counter",
  "blob",
  "decimal",
  "duration",
  "inet",
  "set<text>",
  "list<bigint>",
  "map<text, int>",
  "frozen<map<int, text>>",
  "tuple<int, text>",
  "vector<float, 8>",
  "addr",
  "frozen<addr>",
];

const tableSpec: fc.Arbitrary<TableSpec> = fc
  .record({
    partition: fc.array(fc.constantFrom(...keyTypes), { minLength: 1, maxLength: 3 }),
    clustering: fc.array(fc.constantFrom(...keyTypes), { maxLength: 3 }),
    statics: fc.array(fc.constantFrom(...valueTypes), { maxLength: 2 }),
    regular: fc.array(fc.constantFrom(...valueTypes), { maxLength: 5 }),
    ttl: fc.constantFrom(0, 3_600, 90 * 86_400),
  })
  .map(({ partition, clustering, statics, regular, ttl }) => {
    const columns: Record<string, string> = {};
    const name = (prefix: string, types: string[]) =>
      types.map((type, i) => {
        columns[`${prefix}${i}`] = type;
        return `${prefix}${i}`;
      });
    const spec: TableSpec = {
      name: "random",
      columns,
      partitionKey: name("p", partition),
      clustering: name("c", clustering),
      // Cassandra allows static columns only beside clustering columns.
      static: clustering.length > 0 ? name("s", statics) : [],
      ttl,
      userTypes: { addr: [{ name: "street", type: "text" }, { name: "zip", type: "int" }] },
    };
    name("r", regular);
    return spec;
  });

const volumeSpec: fc.Arbitrary<VolumeSpec | undefined> = fc.option(
  fc.record(
    {
      rows: fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.record({ avg: fc.integer({ min: 0, max: 1_000 }), max: fc.integer({ min: 0, max: 10_000_000 }) })),
      growthPerSecond: fc.double({ min: 0, max: 10_000, noNaN: true }),
      retentionSeconds: fc.option(fc.integer({ min: 1, max: 10 * 365 * 86_400 }), { nil: null }),
      columns: fc.dictionary(fc.constantFrom("p0", "c0", "r0", "r1", "s0"), fc.integer({ min: 0, max: 5_000 })),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

function checkFigures(figures: PartitionFigures) {
  for (const value of [figures.rows, figures.values, figures.cells, figures.bytes, figures.engineBytes ?? 0]) {
    expect(Number.isFinite(value)).toBe(true);
    expect(value).toBeGreaterThanOrEqual(0);
  }
  expect(figures.engineBytes).toBeGreaterThan(0);
}

describe("estimator properties", () => {
  it("never throws and gives finite, non-negative figures with a stated basis", () => {
    fc.assert(
      fc.property(tableSpec, volumeSpec, fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }), (spec, vol, limit) => {
        const queries = [query({ id: "Q1", table: "ks.random", limit, rangeOn: spec.clustering?.[0] })];
        const result = estimatePartition(table(spec), vol ? volume(vol) : undefined, { version: "4.1", limits: DEFAULT_CONFIG.limits, queries });
        checkFigures(result.average);
        checkFigures(result.worst);
        expect(result.worst.rows).toBeGreaterThanOrEqual(result.average.rows);
        expect(result.basisText.length).toBeGreaterThan(0);
        if (result.bucket?.kind === "bucket") expect(result.bucket.width).toBeDefined();
        if (result.bucket?.kind === "shard") expect(result.bucket.shards).toBeGreaterThanOrEqual(2);
        if (result.bucket) expect(result.bucket.explanation).not.toBe("");
      }),
      { numRuns: 200 },
    );
  });

  it("never shrinks a partition when it holds more rows", () => {
    fc.assert(
      fc.property(tableSpec, fc.integer({ min: 0, max: 100_000 }), fc.constantFrom("3.11" as const, "5.0" as const), (spec, rows, version) => {
        // Without clustering columns a partition is one row whatever the manifest says.
        fc.pre((spec.clustering ?? []).length > 0);
        const context = { version, limits: DEFAULT_CONFIG.limits, queries: [] };
        const fewer = estimatePartition(table(spec), volume({ rows }), context).worst;
        const more = estimatePartition(table(spec), volume({ rows: rows + 1 }), context).worst;
        expect(more.bytes).toBeGreaterThanOrEqual(fewer.bytes);
        expect(more.engineBytes!).toBeGreaterThan(fewer.engineBytes!);
        expect(more.values).toBeGreaterThanOrEqual(fewer.values);
      }),
      { numRuns: 200 },
    );
  });
});
