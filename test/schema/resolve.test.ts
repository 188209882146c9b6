import { describe, expect, it } from "vitest";
import type { ColumnType } from "../../src/schema/model.js";
import { containsCounter, formatColumnType, isCollection, isFrozen } from "../../src/schema/resolve.js";
import { build, table } from "./helpers.js";

const text: ColumnType = { kind: "native", name: "text" };
const int: ColumnType = { kind: "native", name: "int" };

describe("formatColumnType", () => {
  it("writes frozen<> where the value becomes frozen, not again inside it", () => {
    expect(formatColumnType({ kind: "map", frozen: true, key: text, value: int })).toBe("frozen<map<text, int>>");
    expect(formatColumnType({ kind: "list", frozen: false, element: { kind: "set", frozen: true, element: int } })).toBe("list<frozen<set<int>>>");
    expect(formatColumnType({ kind: "list", frozen: true, element: { kind: "set", frozen: true, element: int } })).toBe("frozen<list<set<int>>>");
  });

  it("writes user types by name, quoted when CQL needs it", () => {
    const udt = (name: string, frozen: boolean): ColumnType => ({ kind: "udt", keyspace: "ks", name, frozen, fields: [] });
    expect(formatColumnType(udt("address", false))).toBe("address");
    expect(formatColumnType(udt("address", true))).toBe("frozen<address>");
    expect(formatColumnType(udt("HomeAddress", true))).toBe('frozen<"HomeAddress">');
  });

  it("writes tuples, vectors, custom and unknown types", () => {
    expect(formatColumnType({ kind: "tuple", elements: [int, { kind: "list", frozen: true, element: text }] })).toBe("tuple<int, frozen<list<text>>>");
    expect(formatColumnType({ kind: "vector", element: { kind: "native", name: "float" }, dimension: 1536 })).toBe("vector<float, 1536>");
    expect(formatColumnType({ kind: "custom", className: "org.apache.cassandra.db.marshal.BytesType" })).toBe("'org.apache.cassandra.db.marshal.BytesType'");
    expect(formatColumnType({ kind: "unknown", name: "adress" })).toBe("adress");
  });

  it("round-trips what the builder resolves", () => {
    const cql = "CREATE TYPE point (x int);\nCREATE TABLE t (k int PRIMARY KEY, a frozen<map<text, frozen<list<int>>>>, b list<frozen<point>>, c set<text>);";
    const columns = table(build(cql).schema, ".t").columns;
    expect(columns.map((c) => formatColumnType(c.type))).toEqual(["int", "frozen<map<text, list<int>>>", "list<frozen<point>>", "set<text>"]);
  });
});

describe("type questions", () => {
  it("isCollection: list, set and map, frozen or not", () => {
    expect(isCollection({ kind: "set", frozen: false, element: text })).toBe(true);
    expect(isCollection({ kind: "map", frozen: true, key: text, value: int })).toBe(true);
    expect(isCollection({ kind: "tuple", elements: [int] })).toBe(false);
    expect(isCollection(text)).toBe(false);
  });

  it("isFrozen: frozen collections and user types, tuples and vectors", () => {
    expect(isFrozen({ kind: "list", frozen: true, element: int })).toBe(true);
    expect(isFrozen({ kind: "list", frozen: false, element: int })).toBe(false);
    expect(isFrozen({ kind: "udt", keyspace: "", name: "p", frozen: false, fields: [] })).toBe(false);
    expect(isFrozen({ kind: "tuple", elements: [int] })).toBe(true);
    expect(isFrozen({ kind: "vector", element: int, dimension: 2 })).toBe(true);
    expect(isFrozen(text)).toBe(false);
  });

  it("containsCounter: a table with a counter column", () => {
    const { schema } = build("CREATE TABLE hits (page text PRIMARY KEY, n counter);\nCREATE TABLE pages (page text PRIMARY KEY, title text);");
    expect(containsCounter(table(schema, ".hits"))).toBe(true);
    expect(containsCounter(table(schema, ".pages"))).toBe(false);
  });
});
