// The planner on tables built the real way: CQL through parseCql and buildSchema, so index
// classes, UDTs, views, clustering orders and quoted names reach the planner as the builder
// models them.
import { describe, expect, it } from "vitest";
import { planSelect } from "../../src/analysis/planner.js";
import type { SelectStatement } from "../../src/cql/ast.js";
import { parseCql } from "../../src/cql/index.js";
import { buildSchema } from "../../src/schema/builder.js";
import type { CassandraVersion } from "../../src/schema/model.js";
import { findTable } from "../../src/schema/resolve.js";

const SCHEMA = `
CREATE KEYSPACE app WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
USE app;
CREATE TYPE address (street text, city text, zip text);
CREATE TABLE customers (
  id uuid PRIMARY KEY, email text, name text, home frozen<address>, work address, tags set<text>, prefs map<text, text>
);
CREATE INDEX customers_email ON customers (email);
CREATE INDEX customers_tags ON customers (tags);
CREATE INDEX customers_pref_keys ON customers (KEYS(prefs));
CREATE CUSTOM INDEX customers_name_sai ON customers (name) USING 'StorageAttachedIndex';
CREATE TABLE "Orders" (
  "customerId" uuid, day date, placed timestamp, "orderId" uuid, total decimal, status text, region text static,
  PRIMARY KEY (("customerId", day), placed, "orderId")
) WITH CLUSTERING ORDER BY (placed DESC, "orderId" ASC);
CREATE CUSTOM INDEX orders_status ON "Orders" (status) USING 'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = {'mode': 'CONTAINS'};
CREATE MATERIALIZED VIEW orders_by_status AS
  SELECT "customerId", day, placed, "orderId", status, total FROM "Orders" WHERE status IS NOT NULL AND "customerId" IS NOT NULL AND day IS NOT NULL AND placed IS NOT NULL AND "orderId" IS NOT NULL
  PRIMARY KEY ((status), "customerId", day, placed, "orderId");
`;

const parsed = parseCql(SCHEMA);
const built = buildSchema([{ path: "schema/app.cql", text: SCHEMA, parse: parsed }]);

function plan(query: string, version: CassandraVersion = "5.0") {
  const result = parseCql(query);
  expect(result.diagnostics).toEqual([]);
  const select = result.statements[0] as SelectStatement;
  const table = findTable(built.schema, select.table, "app");
  expect(table, `table of ${query}`).toBeDefined();
  return planSelect(select, table!, version);
}

describe("planner on built schemas", () => {
  it("builds the fixture without findings", () => {
    expect(parsed.diagnostics).toEqual([]);
    expect(built.findings.map((f) => f.message)).toEqual([]);
  });

  it("reads quoted names and the declared clustering order", () => {
    const p = plan(`SELECT * FROM "Orders" WHERE "customerId" = ? AND day = ? ORDER BY placed ASC LIMIT 50`);
    expect(p).toMatchObject({ verdict: "single-partition", partitions: 1, direction: "reverse", rowsRead: 50 });
    expect(p.reason).toContain('customerId, day');
    expect(plan(`SELECT * FROM "Orders" WHERE customerid = ?`).errorGist).toBe("Undefined column name customerid");
  });

  it("uses plain CREATE INDEX as a legacy index, by target", () => {
    expect(plan("SELECT * FROM customers WHERE email = ?")).toMatchObject({ verdict: "index", partitions: "all", index: "customers_email" });
    expect(plan("SELECT * FROM customers WHERE tags CONTAINS 'vip'")).toMatchObject({ verdict: "index", index: "customers_tags" });
    expect(plan("SELECT * FROM customers WHERE prefs CONTAINS KEY 'lang'")).toMatchObject({ verdict: "index", index: "customers_pref_keys" });
    expect(plan("SELECT * FROM customers WHERE prefs CONTAINS 'fr'").verdict).toBe("needs-allow-filtering");
    expect(plan("SELECT * FROM customers WHERE email = ? AND tags CONTAINS 'vip'").verdict).toBe("needs-allow-filtering");
  });

  it("uses SAI from 5.0 only", () => {
    expect(plan("SELECT * FROM customers WHERE name = 'Ada'")).toMatchObject({ verdict: "index", index: "customers_name_sai" });
    expect(plan("SELECT * FROM customers WHERE name = 'Ada'", "4.1").verdict).toBe("needs-allow-filtering");
  });

  it("judges user types by frozenness", () => {
    expect(plan("SELECT * FROM customers WHERE home = {street: 'a', city: 'b', zip: 'c'} ALLOW FILTERING").verdict).toBe("scan");
    expect(plan("SELECT * FROM customers WHERE work = {street: 'a', city: 'b', zip: 'c'} ALLOW FILTERING")).toMatchObject({
      verdict: "invalid",
      errorGist: "Non-frozen UDT column 'work' (app.address) cannot be restricted by any relation",
    });
  });

  it("serves LIKE through a SASI index in CONTAINS mode", () => {
    expect(plan(`SELECT * FROM "Orders" WHERE status LIKE '%paid%'`)).toMatchObject({ verdict: "index", index: "orders_status" });
    expect(plan(`SELECT * FROM "Orders" WHERE total LIKE '1%'`).verdict).toBe("invalid");
  });

  it("plans a materialized view by its own key", () => {
    expect(plan("SELECT * FROM orders_by_status WHERE status = 'open'")).toMatchObject({ verdict: "single-partition", partitions: 1 });
    expect(plan(`SELECT * FROM orders_by_status WHERE status = 'open' AND "customerId" = ?`).verdict).toBe("single-partition");
    expect(plan(`SELECT * FROM orders_by_status WHERE day = ?`).verdict).toBe("needs-allow-filtering");
  });

  it("treats static columns as filterable non-key columns", () => {
    expect(plan(`SELECT region FROM "Orders" WHERE "customerId" = ? AND day = ? AND placed > ?`).errorGist).toBe(
      "Cannot restrict clustering columns when selecting only static columns",
    );
    expect(plan(`SELECT * FROM "Orders" WHERE "customerId" = ? AND day = ? AND region = 'eu' ALLOW FILTERING`).verdict).toBe("single-partition");
  });
});
