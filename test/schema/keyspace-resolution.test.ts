import { describe, expect, it } from "vitest";
import { findColumn, findTable } from "../../src/schema/resolve.js";
import { build, columnNames, table } from "./helpers.js";

describe("USE scoping and the default keyspace", () => {
  it("USE applies to the rest of its file only; each file starts at the default keyspace", () => {
    const { schema, findings } = build(
      {
        "a.cql": "CREATE TABLE before_use (id int PRIMARY KEY);\nUSE analytics;\nCREATE TABLE after_use (id int PRIMARY KEY);",
        "b.cql": "CREATE TABLE next_file (id int PRIMARY KEY);",
      },
      { defaultKeyspace: "app" },
    );
    expect(findings).toEqual([]);
    expect([...schema.tables.keys()].sort()).toEqual(["analytics.after_use", "app.before_use", "app.next_file"]);
  });

  it("without USE or a default keyspace, tables live in the \"\" keyspace and nothing is reported", () => {
    const { schema, findings } = build("CREATE TABLE t (id int PRIMARY KEY);\nCREATE INDEX ON t (id);");
    // (the index on the only partition key column is reported; the missing keyspace is not)
    expect(findings.map((f) => f.message)).toEqual(["Cannot create secondary index on the only partition key column id"]);
    expect(table(schema, ".t").keyspace).toBe("");
  });

  it("a qualified name wins over USE", () => {
    const { schema } = build("USE one;\nCREATE TABLE two.t (id int PRIMARY KEY);\nCREATE TABLE t (id int PRIMARY KEY);");
    expect([...schema.tables.keys()].sort()).toEqual(["one.t", "two.t"]);
  });

  it("later statements find a table declared without a keyspace, from files that do USE one", () => {
    const { schema, findings } = build({
      "1_tables.cql": "CREATE TABLE readings (sensor text, at timestamp, value double, PRIMARY KEY (sensor, at));",
      "2_changes.cql": "USE iot;\nALTER TABLE readings ADD unit text;\nCREATE INDEX ON readings (unit);",
    });
    expect(findings).toEqual([]);
    const readings = table(schema, ".readings");
    expect(columnNames(readings.regular)).toEqual(["value", "unit"]);
    expect(readings.indexes.map((i) => [i.keyspace, i.name])).toEqual([["", "readings_unit_idx"]]);
  });

  it("user types resolve in the statement's keyspace", () => {
    const { schema, findings } = build(`
USE a;
CREATE TYPE point (x int, y int);
CREATE TABLE shapes (id int PRIMARY KEY, origin frozen<point>);
USE b;
CREATE TYPE point (lat double, lon double);
CREATE TABLE places (id int PRIMARY KEY, at frozen<point>);`);
    expect(findings).toEqual([]);
    const fields = (qualified: string, column: string) => {
      const type = table(schema, qualified).columns.find((c) => c.name === column)?.type;
      return type?.kind === "udt" ? [type.keyspace, type.fields.map((f) => f.name)] : undefined;
    };
    expect(fields("a.shapes", "origin")).toEqual(["a", ["x", "y"]]);
    expect(fields("b.places", "at")).toEqual(["b", ["lat", "lon"]]);
  });
});

describe("quoted and mixed-case names", () => {
  const cql = `
CREATE KEYSPACE "Sales" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE "Sales"."OrderLines" ("LineId" int, Qty int, "Unit Price" decimal, PRIMARY KEY ("LineId"));
CREATE TABLE Sales.Orders (Id int PRIMARY KEY);
`;

  it("quoted names keep their case; unquoted names fold to lower case", () => {
    const { schema, findings } = build(cql);
    // Sales (unquoted) folds to `sales`, a keyspace this file never creates.
    expect(findings.map((f) => f.message)).toEqual(["Keyspace 'sales' doesn't exist"]);
    expect(schema.keyspaces.has("Sales")).toBe(true);
    expect(columnNames(table(schema, "Sales.OrderLines").columns)).toEqual(["LineId", "qty", "Unit Price"]);
    expect(table(schema, "sales.orders").columns[0]?.name).toBe("id");
  });

  it("findTable and findColumn accept Cassandra names and CQL-written names", () => {
    const { schema } = build(cql);
    const lines = table(schema, "Sales.OrderLines");
    expect(findTable(schema, "Sales.OrderLines")).toBe(lines);
    expect(findTable(schema, '"Sales"."OrderLines"')).toBe(lines);
    expect(findTable(schema, "OrderLines", "Sales")).toBe(lines);
    expect(findTable(schema, "sales.orderlines")).toBeUndefined();
    expect(findTable(schema, "SALES.ORDERS")).toBe(table(schema, "sales.orders"));
    expect(findColumn(lines, "LineId")?.name).toBe("LineId");
    expect(findColumn(lines, '"Unit Price"')?.name).toBe("Unit Price");
    expect(findColumn(lines, "QTY")?.name).toBe("qty");
    expect(findColumn(lines, "lineid")).toBeUndefined();
  });
});

describe("findTable", () => {
  const { schema } = build(`
CREATE TABLE shop.users (id int PRIMARY KEY);
CREATE TABLE shop.carts (id int PRIMARY KEY);
CREATE TABLE auth.users (id int PRIMARY KEY);
CREATE TABLE loose (id int PRIMARY KEY);`);

  it("matches a qualified name exactly", () => {
    expect(findTable(schema, "auth.users")?.qualifiedName).toBe("auth.users");
    expect(findTable(schema, "auth.carts")).toBeUndefined();
  });

  it("then looks in the given keyspace", () => {
    expect(findTable(schema, "users", "shop")?.qualifiedName).toBe("shop.users");
    expect(findTable(schema, "users", "auth")?.qualifiedName).toBe("auth.users");
  });

  it("then takes the only table of that name, never guessing between two", () => {
    expect(findTable(schema, "carts")?.qualifiedName).toBe("shop.carts");
    expect(findTable(schema, "carts", "auth")?.qualifiedName).toBe("shop.carts");
    expect(findTable(schema, "users")).toBeUndefined();
    expect(findTable(schema, "loose", "shop")?.qualifiedName).toBe(".loose");
  });

  it("accepts a QualifiedName node", () => {
    const range = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } };
    const id = (name: string) => ({ name, text: name, quoted: false, range });
    expect(findTable(schema, { name: id("users"), keyspace: id("auth"), range })?.qualifiedName).toBe("auth.users");
    expect(findTable(schema, { name: id("users"), range }, "shop")?.qualifiedName).toBe("shop.users");
  });
});
