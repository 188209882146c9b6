import { describe, expect, it } from "vitest";
import type { CqlType, Term } from "../../src/cql/ast.js";
import { parseCql } from "../../src/cql/index.js";
import { parseOne, withoutPositions } from "./helpers.js";

/** The term on the right of `WHERE x = …`. */
function value(text: string): Term {
  const select = parseOne(`SELECT * FROM t WHERE x = ${text}`, "select");
  const relation = select.where!.relations[0]!;
  if (relation.kind !== "column" || !relation.value) throw new Error("no value");
  return withoutPositions(relation.value);
}

function type(text: string): CqlType {
  return withoutPositions(parseOne(`CREATE TABLE t (k int PRIMARY KEY, c ${text})`, "create-table").columns[1]!.type);
}

describe("literals", () => {
  it.each([
    ["'text'", "string", "text"],
    ["'it''s'", "string", "it's"],
    ["'multi\nline'", "string", "multi\nline"],
    ["'ünïcödé ✓'", "string", "ünïcödé ✓"],
    ["'{\"json\": [1, 2]}'", "string", '{"json": [1, 2]}'],
    ["$$ body; with 'quotes' $$", "string", " body; with 'quotes' "],
    ["42", "integer", "42"],
    ["-42", "integer", "-42"],
    ["1.5", "float", "1.5"],
    ["-0.5", "float", "-0.5"],
    ["1e10", "float", "1e10"],
    ["2.5E-3", "float", "2.5E-3"],
    ["true", "boolean", "true"],
    ["FALSE", "boolean", "FALSE"],
    ["123e4567-e89b-12d3-a456-426614174000", "uuid", "123e4567-e89b-12d3-a456-426614174000"],
    ["0xcafe", "blob", "0xcafe"],
    ["1h30m", "duration", "1h30m"],
    ["-2d", "duration", "-2d"],
    ["P1Y2M3DT4H", "duration", "P1Y2M3DT4H"],
    ["PT90S", "duration", "PT90S"],
    ["P0001-02-03T04:05:06", "duration", "P0001-02-03T04:05:06"],
    ["null", "null", "null"],
    ["NaN", "nan", "NaN"],
    ["-NaN", "nan", "-NaN"],
    ["Infinity", "infinity", "Infinity"],
    ["-Infinity", "infinity", "-Infinity"],
  ])("%s is a %s literal", (text, literalType, literalValue) => {
    expect(value(text)).toEqual({ kind: "literal", type: literalType, value: literalValue });
  });

  it("bind markers", () => {
    expect(value("?")).toEqual({ kind: "bind" });
    expect(value(":Name")).toEqual({ kind: "bind", name: "name" });
    expect(value(':"Name"')).toEqual({ kind: "bind", name: "Name" });
  });
});

describe("collections, tuples, user types", () => {
  it("lists, sets, maps, empty braces", () => {
    expect(value("[1, 2]")).toMatchObject({ kind: "list", elements: [{ value: "1" }, { value: "2" }] });
    expect(value("[]")).toEqual({ kind: "list", elements: [] });
    expect(value("{'a', 'b'}")).toMatchObject({ kind: "set", elements: [{ value: "a" }, { value: "b" }] });
    expect(value("{'k': 1}")).toMatchObject({ kind: "map", entries: [{ key: { value: "k" }, value: { value: "1" } }] });
    expect(value("{}")).toEqual({ kind: "map", entries: [] });
    expect(value("{1: [2], 3: [4]}")).toMatchObject({ kind: "map", entries: [{ value: { kind: "list" } }, {}] });
  });

  it("a brace literal with bare names as keys is a user type literal", () => {
    expect(value("{street: '1 Main', city: 'Paris', geo: {lat: 1.5, lon: -2}}")).toMatchObject({
      kind: "udt",
      fields: [{ name: { name: "street" } }, { name: { name: "city" } }, { name: { name: "geo" }, value: { kind: "udt" } }],
    });
  });

  it("tuples and parenthesised expressions", () => {
    expect(value("(1, 'a', null)")).toMatchObject({ kind: "tuple", elements: [{ value: "1" }, { value: "a" }, { type: "null" }] });
    expect(value("(1)")).toEqual({ kind: "literal", type: "integer", value: "1" });
  });
});

describe("expressions", () => {
  it("gives * / % precedence over + - and associates to the left", () => {
    expect(value("1 + 2 * 3 - 4")).toMatchObject({
      kind: "binary",
      operator: "-",
      left: { kind: "binary", operator: "+", left: { value: "1" }, right: { kind: "binary", operator: "*" } },
      right: { value: "4" },
    });
    expect(value("(1 + 2) * 3")).toMatchObject({ operator: "*", left: { operator: "+" } });
  });

  it("inside collections, calls and VALUES, a literal may start an expression", () => {
    expect(value("[1 + 2, 3]")).toMatchObject({ kind: "list", elements: [{ kind: "binary" }, { kind: "literal" }] });
    expect(value("{1: 2 * 3, 'k' + 'x': 4}")).toMatchObject({ kind: "map", entries: [{ value: { kind: "binary" } }, { key: { kind: "binary" } }] });
    expect(value("f(1 - 1, 2)")).toMatchObject({ kind: "function", args: [{ kind: "binary" }, { kind: "literal" }] });
    const insert = parseOne("INSERT INTO t (a, b) VALUES (1 + 2, 3)", "insert");
    expect(insert.values.map((v) => v.kind)).toEqual(["binary", "literal"]);
  });

  it("type hints, casts and function calls", () => {
    expect(value("(int) ?")).toEqual({ kind: "type-hint", type: { kind: "native", name: "int" }, value: { kind: "bind" } });
    expect(value("(frozen<list<int>>) :v")).toMatchObject({ kind: "type-hint", type: { kind: "frozen" } });
    expect(value("(address) {street: 'x'}")).toMatchObject({ kind: "type-hint", type: { kind: "user" }, value: { kind: "udt" } });
    expect(value("cast(y AS text)")).toEqual({ kind: "cast", value: { kind: "column", name: { name: "y", quoted: false } }, type: { kind: "native", name: "text" } });
    expect(value("now()")).toMatchObject({ kind: "function", name: { name: { name: "now" } }, args: [] });
    expect(value("ks.fn(1, 'a')")).toMatchObject({ kind: "function", name: { keyspace: { name: "ks" } }, args: [{}, {}] });
    expect(value("minTimeuuid('2013-02-02 10:00+0000')")).toMatchObject({ kind: "function", name: { name: { name: "mintimeuuid" } } });
  });

  it("a parenthesised column named like a type, with an alias, is not a type hint", () => {
    const select = parseOne("SELECT (text) AS t, (int) x FROM t", "select");
    expect(select.selectors.map((s) => [s.expression.kind, s.alias?.name])).toEqual([
      ["column", "t"],
      ["type-hint", undefined],
    ]);
  });

  it("rejects `AS type` outside CAST", () => {
    const result = parseCql("SELECT fn(a AS int) FROM t");
    expect(result.statements).toEqual([]);
    expect(result.diagnostics[0]!.message).toBe("`AS type` is only valid in CAST(value AS type)");
  });
});

describe("types", () => {
  it.each(["ascii", "bigint", "blob", "boolean", "counter", "date", "decimal", "double", "duration", "float", "inet", "int", "smallint", "text", "time", "timestamp", "timeuuid", "tinyint", "uuid", "varchar", "varint"])(
    "native %s",
    (name) => {
      expect(type(name.toUpperCase())).toEqual({ kind: "native", name });
    },
  );

  it("collections, nested and frozen", () => {
    expect(type("map<text, frozen<list<frozen<set<int>>>>>")).toEqual({
      kind: "collection",
      collection: "map",
      elements: [
        { kind: "native", name: "text" },
        {
          kind: "frozen",
          inner: { kind: "collection", collection: "list", elements: [{ kind: "frozen", inner: { kind: "collection", collection: "set", elements: [{ kind: "native", name: "int" }] } }] },
        },
      ],
    });
  });

  it("tuples, vectors, user types, custom classes", () => {
    expect(type("tuple<int, text, frozen<address>>")).toMatchObject({ kind: "tuple", elements: [{ kind: "native" }, { kind: "native" }, { kind: "frozen", inner: { kind: "user" } }] });
    expect(type("vector<float, 1536>")).toEqual({ kind: "vector", element: { kind: "native", name: "float" }, dimension: 1536 });
    expect(type("ks.address")).toEqual({ kind: "user", name: { keyspace: { name: "ks", quoted: false }, name: { name: "address", quoted: false } } });
    expect(type('"Address"')).toEqual({ kind: "user", name: { name: { name: "Address", quoted: true } } });
    expect(type("'org.apache.cassandra.db.marshal.DynamicCompositeType(s=>UTF8Type)'")).toEqual({
      kind: "custom",
      className: "org.apache.cassandra.db.marshal.DynamicCompositeType(s=>UTF8Type)",
    });
  });
});
