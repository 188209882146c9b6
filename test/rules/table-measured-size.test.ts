import { describe, expect, it } from "vitest";
import rule from "../../rules/table-measured-size.js";
import { tablestatsText } from "../helpers/stats-text.js";
import { runRule, ruleTester } from "../rule-tester.js";

const cql = `CREATE TABLE shop.orders_by_customer (
  customer_id uuid,
  order_id timeuuid,
  status text,
  total decimal,
  items text,
  PRIMARY KEY ((customer_id), order_id)
) WITH CLUSTERING ORDER BY (order_id DESC);
`;

// About 2 MB in the largest partition, 150 kB in a typical one.
const manifest = `version: 1
keyspace: shop
tables:
  orders_by_customer:
    rows_per_partition: { avg: 150, max: 2_000 }
    columns: { status: 10, items: 950 }
queries:
  - id: Q1
    description: A customer's latest orders
    cql: SELECT order_id, status, total FROM orders_by_customer WHERE customer_id = ? LIMIT 20
`;

const silentManifest = `version: 1
keyspace: shop
queries:
  - id: Q1
    description: A customer's latest orders
    cql: SELECT order_id, status, total FROM orders_by_customer WHERE customer_id = ? LIMIT 20
`;

const config = "stats: stats/*.txt\n";
const node = (maxBytes: number, meanBytes = 150_000) => tablestatsText({ keyspace: "shop", table: "orders_by_customer", maxBytes, meanBytes });

ruleTester.run("table-measured-size", rule, {
  valid: [
    {
      name: "production agrees with the manifest (within the factor, under the limits)",
      cql,
      manifest,
      config,
      files: { "stats/prod-node1.txt": node(2_500_000, 170_000), "stats/prod-node2.txt": node(3_100_000, 140_000) },
    },
    {
      name: "no measurements: nothing to compare",
      cql,
      manifest,
    },
    {
      name: "a factor set wider than the difference",
      cql,
      manifest,
      config: "stats: stats/*.txt\nrules:\n  table-measured-size: [warning, { factor: 100 }]\n",
      files: { "stats/prod-node3.txt": node(40_000_000) },
    },
  ],
  invalid: [
    {
      name: "production's largest partition is 70 times the manifest's",
      cql,
      manifest,
      config,
      files: { "stats/prod-node1.txt": node(9_000_000), "stats/prod-node3.txt": node(140_000_000), "stats/prod-node2.txt": node(2_100_000) },
      findings: [{ messageId: "crossesLimit", line: 1, data: { estimated: "2 MB", measured: "140 MB (stats/prod-node3.txt, the worst of 3 nodes)", file: "stats/prod-node3.txt" } }],
    },
    {
      name: "past the factor but under the limit; the mean too",
      cql,
      manifest,
      config,
      files: { "stats/prod-node3.txt": node(40_000_000, 2_000_000) },
      findings: [
        { messageId: "larger", line: 1, data: { which: "largest", ratio: "20", measured: "40 MB (stats/prod-node3.txt)" } },
        { messageId: "larger", line: 1, data: { which: "mean", ratio: "13" } },
      ],
    },
    {
      name: "production far smaller than the manifest says",
      cql,
      manifest: manifest.replace("max: 2_000", "max: 200_000"),
      config,
      files: { "stats/prod-node3.txt": node(3_000_000) },
      findings: [{ messageId: "smaller", line: 1, data: { which: "largest", measured: "3 MB (stats/prod-node3.txt)" } }],
    },
    {
      name: "the manifest is silent: the measured figures are the estimate, and it says so",
      cql,
      manifest: silentManifest,
      config,
      files: { "stats/prod-node3.txt": node(140_000_000) },
      findings: [{ messageId: "usedMeasured", line: 1 }],
    },
  ],
});

describe("table-measured-size", () => {
  it("names both figures and the file, in the words of the manifest and production", () => {
    const { findings } = runRule(rule, { cql, manifest, config, files: { "stats/prod-node3.txt": node(140_000_000) } });
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringContaining("The manifest gives 2 MB per partition of orders_by_customer, under the 100 MB limit; production's largest is 140 MB (stats/prod-node3.txt), past it."),
    ]);
  });

  it("a smaller partition than the manifest says weighs at most info", () => {
    const { findings } = runRule(rule, { cql, manifest: manifest.replace("max: 2_000", "max: 200_000"), config, files: { "stats/prod-node3.txt": node(3_000_000) } });
    expect(findings.map((f) => f.severity)).toEqual(["info"]);
  });

  it("where the manifest is silent, the estimate is production's, and says where it came from", () => {
    const { model, findings } = runRule(rule, { cql, manifest: silentManifest, config, files: { "stats/prod-node3.txt": node(140_000_000) } });
    const estimate = model.estimates.get("shop.orders_by_customer")!;
    expect(estimate.basis).toBe("measured");
    expect(estimate.worst.bytes).toBe(140_000_000);
    expect(estimate.average.bytes).toBe(150_000);
    expect(estimate.basisText).toContain("largest 140 MB (stats/prod-node3.txt)");
    expect(findings.map((f) => f.severity)).toEqual(["info"]);
  });
});
