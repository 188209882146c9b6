// Measured beside estimated: the check summary's partition table, explain's table answer and the
// JSON report carry production's figures with their sources.
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { explain } from "../../src/explain.js";
import { renderExplainText } from "../../src/report/explain-text.js";
import { buildJsonReport } from "../../src/report/json.js";
import { renderCheckSummary, renderExplainMarkdown } from "../../src/report/markdown.js";
import { review } from "../../src/review.js";
import { tablestatsText } from "../helpers/stats-text.js";

const schema = JSON.parse(readFileSync(new URL("../../schema/report.schema.json", import.meta.url), "utf8"));
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

const cql = `CREATE TABLE shop.orders_by_customer (
  customer_id uuid,
  order_id timeuuid,
  items text,
  PRIMARY KEY ((customer_id), order_id)
);

CREATE TABLE shop.carts (
  cart_id uuid PRIMARY KEY,
  user_id uuid
);
`;
const manifest = `version: 1
keyspace: shop
tables:
  orders_by_customer:
    rows_per_partition: { avg: 150, max: 2_000 }
    columns: { items: 950 }
queries:
  - id: Q1
    description: A customer's orders
    cql: SELECT order_id, items FROM orders_by_customer WHERE customer_id = ? LIMIT 20
`;
const stats = (maxBytes: number) => tablestatsText({ keyspace: "shop", table: "orders_by_customer", maxBytes, meanBytes: 160_000, tombstonesAverage: 3, tombstonesMax: 40 });

function reviewed() {
  return review({
    files: [
      { path: "schema.cql", content: cql },
      { path: "access-patterns.yaml", content: manifest },
      { path: "cassandra-stats/prod-node1.txt", content: stats(2_300_000) },
      { path: "cassandra-stats/prod-node3.txt", content: stats(140_000_000) },
    ],
  });
}

describe("measured beside estimated", () => {
  it("the JSON report carries each measured figure with its file, line and node count, and validates", () => {
    const report = buildJsonReport(reviewed());
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).toBe(true);
    const orders = report.tables.find((table) => table.name === "orders_by_customer")!;
    expect(orders.measured?.files).toEqual(["cassandra-stats/prod-node1.txt", "cassandra-stats/prod-node3.txt"]);
    expect(orders.measured?.figures.partitionBytesMax).toEqual({ value: 140_000_000, file: "cassandra-stats/prod-node3.txt", line: 36, nodes: 2, from: "worst node" });
    expect(orders.measured?.figures.tombstonesPerSliceMax?.value).toBe(40);
    // A table without measurements has no key at all: the document stays as before.
    expect(Object.keys(report.tables.find((table) => table.name === "carts")!)).not.toContain("measured");
  });

  it("the check summary's partition table gets a measured column", () => {
    const summary = renderCheckSummary(reviewed());
    expect(summary).toContain("| Table | Rows/partition | Values | Bytes | Engine bytes | Measured largest | Basis | Unbounded |");
    expect(summary).toMatch(/\| `shop\.orders_by_customer` \| 2,000 \| 2,000 \| [^|]+ \| 2\.0 MB \| 140 MB \(`cassandra-stats\/prod-node3\.txt`\) \| manifest \| no \|/);
    expect(summary).toMatch(/\| `shop\.carts` \|[^\n]*\| — \| single-row \|/);
  });

  it("without stats files the summary's table is as before", () => {
    const summary = renderCheckSummary(review({ files: [{ path: "schema.cql", content: cql }, { path: "access-patterns.yaml", content: manifest }] }));
    expect(summary).toContain("| Table | Rows/partition | Values | Bytes | Engine bytes | Basis | Unbounded |");
  });

  it("explain shows the estimate and the measurement side by side, with their sources", () => {
    const answer = explain(reviewed(), { kind: "table", name: "orders_by_customer" });
    const text = renderExplainText(answer, { color: false });
    expect(text).toContain("Measured in production (saved nodetool output) beside the estimate:");
    expect(text).toMatch(/largest partition\s+2 MB\s+140 MB\s+cassandra-stats\/prod-node3\.txt:36 \(worst node of 2\)/);
    expect(text).toMatch(/mean partition\s+\S+ kB\s+160 kB\s+cassandra-stats\/prod-node1\.txt:37 \(median node of 2\)/);
    expect(text).toMatch(/tombstones per read, most \(last five minutes\)\s+—\s+40 tombstones/);
    const markdown = renderExplainMarkdown(answer);
    expect(markdown).toContain("| largest partition | 2 MB | 140 MB | `cassandra-stats/prod-node3.txt:36` (worst node of 2) |");
    // And the finding about the difference is in the table's answer.
    expect(text).toContain("table-measured-size");
  });
});
