// The plain-query check against zod: whatever it accepts, querySchema accepts with the same
// document; the common shapes are accepted; everything else is left to zod.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadManifest } from "../../src/manifest/load.js";
import { plainQueryDocument, plainQueryDocuments } from "../../src/manifest/plain-query.js";
import { querySchema } from "../../src/manifest/schema.js";

const SEED = 20_240_611;

/** Field values worth trying: valid ones, near misses, and wrong types. */
const anyValue = fc.constantFrom<unknown>(
  "Q1", "q-2.a:b", "1bad", "-x", "", "x".repeat(64), "x".repeat(65), 7, 0, -0, -3, 2.5, 2 ** 53, Number.NaN, null, true,
  "SELECT a FROM t WHERE k = ?", "   ", "300/s", "5 / day", "3/fortnight", "=", "IN", "in", " = ", "CONTAINS KEY", "contains  key", "asc", "DESC", "desc",
  ["a"], [], ["a", "b c"], ["1a"], [1], { userid: "=" }, {}, { "\"Quoted\"": ">=" }, { a: "in" }, { a: "desc" }, { "bad col": "=" },
  [{ rule: "query-full-scan", reason: "export" }], { nested: { x: 1 } },
);
const key = fc.constantFrom("id", "description", "rate", "cql", "select", "where", "order_by", "limit", "ignore", "extra");

// YAML data is made of ordinary objects; fast-check's records have no prototype.
const ordinary = (record: object): Record<string, unknown> => ({ ...record });

/** Queries as manifests write them: the cql form or the abstract form. */
const plainQuery = fc
  .oneof(
    fc.record(
      {
        id: fc.constantFrom<unknown>("Q1", "W-7.b", 12),
        description: fc.constantFrom("The latest videos", ""),
        rate: fc.constantFrom("300/s", "2/hour"),
        cql: fc.constantFrom("SELECT a FROM t", "SELECT *\nFROM t\n"),
      },
      { requiredKeys: ["id", "cql"] },
    ),
    fc.record(
      {
        id: fc.constantFrom<unknown>("Q2", 0),
        description: fc.constant("By email"),
        rate: fc.constant("10/min"),
        select: fc.constantFrom(["userid"], ["userid", "name", '"Name"']),
        where: fc.constantFrom({ email: "=" }, { userid: "=", added: "<=" }, { tags: "CONTAINS" }, { m: "CONTAINS KEY" }),
        order_by: fc.constantFrom({ added: "desc" }, { added: "asc", id: "desc" }),
        limit: fc.constantFrom(1, 20),
      },
      { requiredKeys: ["id", "select", "where"] },
    ),
  )
  .map(ordinary);

/** Any mix of keys and values, and plain queries with one key set to any value or removed. */
const looseQuery = fc.oneof(
  fc.dictionary(key, anyValue, { maxKeys: 6 }).map(ordinary),
  fc.tuple(plainQuery, key, anyValue, fc.boolean()).map(([query, changed, value, remove]) => {
    const copy = { ...query };
    if (remove) delete copy[changed];
    else copy[changed] = value;
    return copy;
  }),
);

describe("plainQueryDocument accepts only what querySchema accepts, and returns what it returns (property)", () => {
  it("on queries of any shape", () => {
    fc.assert(
      fc.property(looseQuery, (value) => {
        const plain = plainQueryDocument(value);
        if (plain === undefined) return;
        const parsed = querySchema.safeParse(value);
        expect(parsed.success, JSON.stringify(value)).toBe(true);
        expect(plain).toStrictEqual(parsed.success ? parsed.data : undefined);
      }),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  it("on queries in the plain shapes, which it accepts", () => {
    fc.assert(
      fc.property(plainQuery, (value) => {
        const plain = plainQueryDocument(value);
        expect(plain, JSON.stringify(value)).toBeDefined();
        expect(plain).toStrictEqual(querySchema.parse(value));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe("plainQueryDocument leaves these to zod", () => {
  it.each<[string, unknown]>([
    ["an ignore list", { id: "Q1", cql: "SELECT a FROM t", ignore: [{ rule: "query-full-scan", reason: "x" }] }],
    ["an operator in lower case", { id: "Q1", select: ["a"], where: { a: "in" } }],
    ["both forms", { id: "Q1", cql: "SELECT a FROM t", select: ["a"], where: { a: "=" } }],
    ["half the abstract form", { id: "Q1", select: ["a"] }],
    ["an unknown key", { id: "Q1", cql: "SELECT a FROM t", sql: "x" }],
    ["a fractional limit", { id: "Q1", select: ["a"], where: { a: "=" }, limit: 2.5 }],
    ["an id too long", { id: "Q".repeat(65), cql: "SELECT a FROM t" }],
    ["blank CQL", { id: "Q1", cql: "  " }],
    ["a list", ["Q1"]],
  ])("%s", (_, value) => {
    expect(plainQueryDocument(value)).toBeUndefined();
  });

  it("and all queries to zod when one of them is not plain", () => {
    const plain = { id: "Q1", cql: "SELECT a FROM t" };
    expect(plainQueryDocuments([plain, plain])).toHaveLength(2);
    expect(plainQueryDocuments([plain, { id: "Q2", cql: 3 }])).toBeUndefined();
  });
});

describe("loadManifest with plain queries and problems elsewhere", () => {
  it("reports the problems of the tables and writes as before, and keeps the queries", () => {
    const content = [
      "version: 1",
      "keyspace: shop",
      "tables:",
      "  orders:",
      "    partitions: many",
      "queries:",
      "  - id: Q1",
      "    cql: SELECT a FROM orders WHERE k = ?",
      "  - id: Q2",
      "    select: [a]",
      '    where: { k: "=" }',
      "writes:",
      "  - id: W1",
      "    cql: 42",
      "",
    ].join("\n");
    const { manifest, findings } = loadManifest({ path: "access-patterns.yaml", content });
    expect(findings.map((f) => [f.location.range.start.line, f.message])).toEqual([
      [5, 'tables.orders.partitions: expected a partition count, a whole number such as 2000000 or 2_000_000'],
      [14, "writes[0].cql: expected a CQL statement or a list of them"],
    ]);
    expect(manifest?.queries.map((q) => [q.id, q.form])).toEqual([
      ["Q1", "cql"],
      ["Q2", "abstract"],
    ]);
  });
});
