import { describe, expect, it } from "vitest";
import rule from "../../rules/query-measured-tombstones.js";
import { tablestatsText } from "../helpers/stats-text.js";
import { runRule, ruleTester } from "../rule-tester.js";

const cql = `CREATE TABLE shop.cart_items (
  cart_id uuid,
  sku text,
  quantity int,
  PRIMARY KEY ((cart_id), sku)
);

CREATE TABLE shop.carts_by_user (
  user_id uuid,
  cart_id uuid,
  PRIMARY KEY ((user_id), cart_id)
);
`;

const manifest = `version: 1
keyspace: shop
queries:
  - id: Q1
    description: The items of a cart
    cql: SELECT sku, quantity FROM cart_items WHERE cart_id = ?
  - id: Q2
    description: How many of one item a cart holds
    cql: SELECT quantity FROM cart_items WHERE cart_id = ? AND sku = ?
`;

const stats = (table: string, tombstonesMax: number, tombstonesAverage: number) => tablestatsText({ keyspace: "shop", table, tombstonesMax, tombstonesAverage });

ruleTester.run("query-measured-tombstones", rule, {
  valid: [
    {
      name: "reads meet few tombstones",
      cql,
      manifest,
      files: { "cassandra-stats/node1.txt": stats("cart_items", 310, 12) },
    },
    {
      name: "exactly at the warning threshold is not past it",
      cql,
      manifest,
      files: { "cassandra-stats/node1.txt": stats("cart_items", 1000, 12) },
    },
  ],
  invalid: [
    {
      name: "every read of a table whose slices meet thousands of tombstones",
      cql,
      manifest,
      files: { "cassandra-stats/node1.txt": stats("cart_items", 24_000, 1_800), "cassandra-stats/node2.txt": stats("cart_items", 900, 20) },
      findings: [
        { messageId: "query", line: 4, file: "access-patterns.yaml", data: { maximum: "24,000 tombstones (cassandra-stats/node1.txt, the worst of 2 nodes)", average: "20" } },
        { messageId: "query", line: 7, file: "access-patterns.yaml" },
      ],
    },
    {
      name: "a table no query reads: on its CREATE TABLE",
      cql,
      manifest,
      files: { "cassandra-stats/node1.txt": stats("carts_by_user", 150_000, 40_000) },
      findings: [{ messageId: "table", line: 8, file: "schema.cql" }],
    },
  ],
});

describe("query-measured-tombstones", () => {
  it("says when reads are past the failure threshold too", () => {
    const { findings } = runRule(rule, { cql, manifest, files: { "cassandra-stats/node1.txt": stats("cart_items", 150_000, 40_000) } });
    expect(findings[0]!.message).toContain("past tombstone_warn_threshold (1,000), and past tombstone_failure_threshold (100,000), where Cassandra aborts the read");
    expect(findings[0]!.message).toMatch(/^Q1 reads cart_items, where a read met up to 150,000 tombstones \(cassandra-stats\/node1\.txt\) in production \(average 40,000\)/);
  });
});
