// The plain write and table checks against zod: whatever they accept, writeSchema and
// tableVolumeSchema accept with the same document; the common shapes are accepted; everything
// else is left to zod.
import fc from "fast-check";
import type * as z from "zod";
import { describe, expect, it } from "vitest";
import { loadManifest } from "../../src/manifest/load.js";
import { plainTableDocument, plainTableDocuments, plainWriteDocument, plainWriteDocuments } from "../../src/manifest/plain-entries.js";
import { tableVolumeSchema, writeSchema } from "../../src/manifest/schema.js";

const SEED = 20_240_612;

// YAML data is made of ordinary objects; fast-check's records have no prototype.
const ordinary = (record: object): Record<string, unknown> => ({ ...record });

/** Field values worth trying: valid ones, near misses, and wrong types. */
const anyValue = fc.constantFrom<unknown>(
  "W1", "w-2.a:b", "1bad", "", "x".repeat(65), 7, 0, -0, -3, 2.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, null, true, false,
  "INSERT INTO t (k) VALUES (?)", "   ", ["INSERT INTO t (k) VALUES (?)", "DELETE FROM t WHERE k = ?"], [], ["ok", " "], [3],
  "300/s", "5 / day", "3/fortnight", "365d", "forever", "6 months", "2_000_000", "2_000.5", "1e3", "_1",
  { avg: 3, max: 5 }, { avg: 5, max: 3 }, { avg: "1_000", max: "2_000.5" }, { avg: 1 }, { avg: 1, max: 2, min: 0 },
  { title: 60 }, { "\"Quoted\"": "1_024" }, { tags: { items: 4, bytes: 10 } }, { m: { items: 2.5, key_bytes: 8, value_bytes: 20 } },
  { m: { items: 2, bytes: 3, key_bytes: 4 } }, { "bad col": 1 }, { c: -1 }, { c: 1.5 }, {},
  [{ rule: "write-counter-retried", reason: "x" }], { nested: { x: 1 } },
);

const writeKey = fc.constantFrom("id", "description", "rate", "cql", "retried", "ignore", "extra");
const tableKey = fc.constantFrom("partitions", "rows_per_partition", "growth", "retention", "columns", "extra");

const plainWrite = fc
  .record(
    {
      id: fc.constantFrom<unknown>("W1", "w-7.b", 12),
      description: fc.constantFrom("Create an order", ""),
      rate: fc.constantFrom("20/s", "2/hour"),
      cql: fc.constantFrom<unknown>("INSERT INTO t (k) VALUES (?)", ["INSERT INTO t (k) VALUES (?)", "UPDATE c SET n = n + 1 WHERE k = ?"], "BEGIN BATCH\nINSERT INTO t (k) VALUES (?);\nAPPLY BATCH\n"),
      retried: fc.boolean(),
    },
    { requiredKeys: ["id", "cql"] },
  )
  .map(ordinary);

const columnSize = fc.constantFrom<unknown>(60, "1_024", 0, { items: 4, bytes: 10 }, { items: "2.5", bytes: "8" }, { items: 3, key_bytes: 8, value_bytes: 100 });

const plainTable = fc
  .record(
    {
      partitions: fc.constantFrom<unknown>(34_297_780, "2_599_514", 0),
      rows_per_partition: fc.constantFrom<unknown>(300, "1_000.5", { avg: 460, max: 12_939 }, { avg: "1_000", max: "1_000" }),
      growth: fc.constantFrom("27/day", "1/s"),
      retention: fc.constantFrom("365d", "forever", "6mo"),
      columns: fc.dictionary(fc.constantFrom("name", "status", "tags", '"Title"', "payload"), columnSize, { maxKeys: 4 }).map(ordinary),
    },
    { requiredKeys: [] },
  )
  .map(ordinary);

/** Any mix of keys and values, and plain entries with one key set to any value or removed. */
function loose(plain: fc.Arbitrary<Record<string, unknown>>, key: fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    fc.dictionary(key, anyValue, { maxKeys: 6 }).map(ordinary),
    fc.tuple(plain, key, anyValue, fc.boolean()).map(([entry, changed, value, remove]) => {
      const copy = { ...entry };
      if (remove) delete copy[changed];
      else copy[changed] = value;
      return copy;
    }),
  );
}

/**
 * Whatever `plainCheck` accepts, `schema` accepts, with the same document; entries in the plain
 * shapes are accepted. `noun` names the entries in the test titles.
 */
function describeAgreementWithZod(
  names: { check: string; schema: string; noun: string },
  plainCheck: (value: unknown) => unknown,
  schema: z.ZodType,
  plain: fc.Arbitrary<Record<string, unknown>>,
  key: fc.Arbitrary<string>,
): void {
  describe(`${names.check} accepts only what ${names.schema} accepts, and returns what it returns (property)`, () => {
    it(`on ${names.noun} of any shape`, () => {
      fc.assert(
        fc.property(loose(plain, key), (value) => {
          const accepted = plainCheck(value);
          if (accepted === undefined) return;
          const parsed = schema.safeParse(value);
          expect(parsed.success, JSON.stringify(value)).toBe(true);
          expect(accepted).toStrictEqual(parsed.success ? parsed.data : undefined);
        }),
        { seed: SEED, numRuns: 2_000 },
      );
    });

    it(`on ${names.noun} in the plain shapes, which it accepts`, () => {
      fc.assert(
        fc.property(plain, (value) => {
          const accepted = plainCheck(value);
          expect(accepted, JSON.stringify(value)).toBeDefined();
          expect(accepted).toStrictEqual(schema.parse(value));
        }),
        { seed: SEED, numRuns: 300 },
      );
    });
  });
}

describeAgreementWithZod({ check: "plainWriteDocument", schema: "writeSchema", noun: "writes" }, plainWriteDocument, writeSchema, plainWrite, writeKey);
describeAgreementWithZod({ check: "plainTableDocument", schema: "tableVolumeSchema", noun: "tables" }, plainTableDocument, tableVolumeSchema, plainTable, tableKey);

describe("the plain checks leave these to zod", () => {
  it.each<[string, unknown]>([
    ["an ignore list", { id: "W1", cql: "INSERT INTO t (k) VALUES (?)", ignore: [{ rule: "write-counter-retried", reason: "x" }] }],
    ["an empty statement list", { id: "W1", cql: [] }],
    ["a blank statement in the list", { id: "W1", cql: ["INSERT INTO t (k) VALUES (?)", " "] }],
    ["no statements", { id: "W1" }],
    ["retried as text", { id: "W1", cql: "INSERT INTO t (k) VALUES (?)", retried: "yes" }],
    ["an unknown key", { id: "W1", cql: "INSERT INTO t (k) VALUES (?)", sql: "x" }],
  ])("a write with %s", (_, value) => {
    expect(plainWriteDocument(value)).toBeUndefined();
  });

  it.each<[string, unknown]>([
    ["a fractional partition count", { partitions: 2.5 }],
    ["a partition count in words", { partitions: "many" }],
    ["a largest partition smaller than the typical one", { rows_per_partition: { avg: 10, max: 5 } }],
    ["a map size with both bytes and key_bytes", { columns: { m: { items: 2, bytes: 3, key_bytes: 4 } } }],
    ["a column name with a space", { columns: { "bad col": 1 } }],
    ["a retention in words", { retention: "6 months" }],
    ["a null value", null],
  ])("a table with %s", (_, value) => {
    expect(plainTableDocument(value)).toBeUndefined();
  });

  it("and a whole section when one of its entries is not plain", () => {
    const write = { id: "W1", cql: "INSERT INTO t (k) VALUES (?)" };
    expect(plainWriteDocuments([write, write])).toHaveLength(2);
    expect(plainWriteDocuments([write, { id: "W2", cql: 3 }])).toBeUndefined();
    expect(plainTableDocuments({ orders: { partitions: 5 }, "shop.users": {} })).toEqual({ orders: { partitions: 5 }, "shop.users": {} });
    expect(plainTableDocuments({ orders: { partitions: 5 }, "bad name": {} })).toBeUndefined();
    expect(plainTableDocuments([{ partitions: 5 }])).toBeUndefined();
  });
});

describe("loadManifest with plain tables and writes and problems elsewhere", () => {
  it("reports the other problems as before, and keeps the plain tables and writes", () => {
    const content = [
      "version: 2",
      "keyspace: shop",
      "tables:",
      "  orders:",
      "    partitions: 2_000",
      "    rows_per_partition: { avg: 10, max: 40 }",
      "    columns: { tags: { items: 4, bytes: 10 } }",
      "queries:",
      "  - id: Q1",
      "    cql: 42",
      "writes:",
      "  - id: W1",
      "    cql: INSERT INTO orders (k) VALUES (?)",
      "    retried: false",
      "",
    ].join("\n");
    const { manifest, findings } = loadManifest({ path: "access-patterns.yaml", content });
    expect(findings.map((f) => [f.location.range.start.line, f.message])).toEqual([
      [1, "version: must be 1 (the only manifest format so far)"],
      [10, "queries[0].cql: expected CQL text"],
    ]);
    expect(manifest?.tables).toMatchObject([
      { name: "orders", partitions: 2000, rowsPerPartition: { avg: 10, max: 40 }, columns: { tags: { kind: "collection", items: 4, bytesPerItem: 10 } } },
    ]);
    expect(manifest?.writes.map((w) => [w.id, w.retried, w.statements.length])).toEqual([["W1", false, 1]]);
  });
});
