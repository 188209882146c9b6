import { describe, expect, it } from "vitest";
import type { ColumnRelation, Relation } from "../../src/cql/ast.js";
import { parseCql } from "../../src/cql/index.js";
import { parseOne, withoutPositions } from "./helpers.js";

const where = (text: string) => parseOne(text, "select").where!;
const relation = (clause: string): Relation => where(`SELECT * FROM t WHERE ${clause}`).relations[0]!;

describe("SELECT", () => {
  it("with JSON, DISTINCT, aliases and every clause", () => {
    const select = parseOne(
      "SELECT JSON DISTINCT a, b AS bee FROM ks.t WHERE a = ? GROUP BY a ORDER BY b DESC, c PER PARTITION LIMIT 2 LIMIT 100 ALLOW FILTERING;",
      "select",
    );
    expect(select).toMatchObject({ json: true, distinct: true, star: false, allowFiltering: true, table: { keyspace: { name: "ks" }, name: { name: "t" } } });
    expect(select.selectors.map((s) => s.alias?.name)).toEqual([undefined, "bee"]);
    expect(select.groupBy.map((g) => g.kind)).toEqual(["column"]);
    expect(select.orderBy.map((o) => [o.column.name, o.direction])).toEqual([
      ["b", "desc"],
      ["c", "asc"],
    ]);
    expect(withoutPositions(select.perPartitionLimit)).toEqual({ kind: "literal", type: "integer", value: "2" });
    expect(withoutPositions(select.limit)).toEqual({ kind: "literal", type: "integer", value: "100" });
  });

  it("SELECT * without WHERE", () => {
    const select = parseOne("select * from t", "select");
    expect([select.star, select.selectors, select.where]).toEqual([true, [], undefined]);
  });

  it("reads json and distinct as column names where they are", () => {
    const select = parseOne("SELECT json, distinct FROM t", "select");
    expect([select.json, select.distinct]).toEqual([false, false]);
    expect(select.selectors.map((s) => s.expression.kind === "column" && s.expression.name.name)).toEqual(["json", "distinct"]);
    expect(parseOne("SELECT DISTINCT json FROM t", "select").distinct).toBe(true);
  });

  it("SELECT JSON * (Cassandra 2.2+), and json * 2 as a product", () => {
    expect(parseOne("SELECT JSON * FROM orders WHERE order_id = ?", "select")).toMatchObject({ json: true, star: true, selectors: [] });
    const product = parseOne("SELECT json * 2 FROM t", "select");
    expect([product.json, product.star, product.selectors[0]?.expression.kind]).toEqual([false, false, "binary"]);
  });

  it("names the missing operand of ORDER BY … ANN OF", () => {
    for (const text of ["SELECT id FROM items ORDER BY embedding ANN OF LIMIT 5", "SELECT id FROM items ORDER BY embedding ANN OF"]) {
      const messages = parseCql(text).diagnostics.map((d) => d.message);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(/^ORDER BY … ANN OF needs the vector to compare with after OF \(a vector literal such as \[0\.1, 0\.2, 0\.3\] or a bind marker \?\), found/);
    }
  });

  it("selectors: arithmetic, casts, type hints, fields, elements, slices, calls", () => {
    const select = parseOne(
      "SELECT a + b * 2, CAST(c AS text), (int) ?, u.city, m['k'], l[1..3], l[..2], s['a'..], ks.fn(1), count(*), writetime(v), ttl(v), token(id), map_keys(m), -a FROM t",
      "select",
    );
    const kinds = select.selectors.map((s) => s.expression.kind);
    expect(kinds).toEqual(["binary", "cast", "type-hint", "field", "element", "slice", "slice", "slice", "function", "function", "function", "function", "function", "function", "negate"]);
    expect(withoutPositions(select.selectors[0]!.expression)).toMatchObject({
      operator: "+",
      left: { kind: "column" },
      right: { kind: "binary", operator: "*" },
    });
    expect(select.selectors[5]!.expression).toMatchObject({ kind: "slice", from: { value: "1" }, to: { value: "3" } });
    expect(select.selectors[6]!.expression).not.toHaveProperty("from");
    expect(select.selectors[7]!.expression).not.toHaveProperty("to");
    expect(select.selectors[8]!.expression).toMatchObject({ name: { keyspace: { name: "ks" }, name: { name: "fn" } } });
    expect(select.selectors[9]!.expression).toMatchObject({ name: { name: { name: "count" } }, args: [{ kind: "star" }] });
    expect(select.selectors[12]!.expression).toMatchObject({ name: { name: { name: "token" } } });
  });

  it("ORDER BY … ANN OF (vector search)", () => {
    const select = parseOne("SELECT * FROM t ORDER BY v ANN OF [0.1, -2.5, 3e2] LIMIT 5", "select");
    expect(withoutPositions(select.orderBy[0]!.ann)).toEqual({
      kind: "list",
      elements: [
        { kind: "literal", type: "float", value: "0.1" },
        { kind: "literal", type: "float", value: "-2.5" },
        { kind: "literal", type: "float", value: "3e2" },
      ],
    });
  });

  it("GROUP BY a function", () => {
    const select = parseOne("SELECT a, max(v) FROM t WHERE a = 1 GROUP BY a, floor(ts, 5m)", "select");
    expect(select.groupBy[1]).toMatchObject({ kind: "function", args: [{ kind: "column" }, { kind: "literal", type: "duration", value: "5m" }] });
  });

  it("rejects USING TTL in SELECT", () => {
    const result = parseCql("SELECT * FROM t USING TTL 5");
    expect(result.statements).toEqual([]);
    expect(result.diagnostics[0]!.message).toBe("USING TTL is not allowed in SELECT");
  });

  it("rejects USING TIMESTAMP in SELECT, at the TIMESTAMP part of the clause", () => {
    const text = "SELECT * FROM t USING TIMEOUT 1s AND TIMESTAMP 5";
    const result = parseCql(text);
    expect(result.statements).toEqual([]);
    expect(result.diagnostics.map((d) => [d.message, text.slice(d.range.start.offset, d.range.end.offset)])).toEqual([
      ["USING TIMESTAMP is not allowed in SELECT", "TIMESTAMP 5"],
    ]);
  });
});

describe("WHERE relations", () => {
  it.each([
    ["a = 1", "="],
    ["a != 1", "!="],
    ["a < 1", "<"],
    ["a <= 1", "<="],
    ["a > 1", ">"],
    ["a >= 1", ">="],
    ["a CONTAINS 1", "CONTAINS"],
    ["a CONTAINS KEY 'k'", "CONTAINS KEY"],
    ["a NOT CONTAINS 1", "NOT CONTAINS"],
    ["a NOT CONTAINS KEY 'k'", "NOT CONTAINS KEY"],
    ["a LIKE 'x%'", "LIKE"],
  ])("%s", (clause, operator) => {
    expect(relation(clause)).toMatchObject({ kind: "column", column: { name: "a" }, operator, value: { kind: "literal" } });
  });

  it("IN lists, IN ?, IN :name, empty IN, NOT IN", () => {
    expect(withoutPositions(relation("a IN (1, 2)"))).toMatchObject({ operator: "IN", values: [{ value: "1" }, { value: "2" }] });
    expect(relation("a IN ?")).toMatchObject({ operator: "IN", value: { kind: "bind" } });
    expect(relation("a IN ?")).not.toHaveProperty("values");
    expect(relation("a IN :ids")).toMatchObject({ operator: "IN", value: { kind: "bind", name: "ids" } });
    expect(relation("a IN ()")).toMatchObject({ operator: "IN", values: [] });
    expect(relation("a NOT IN (1)")).toMatchObject({ operator: "NOT IN", values: [{ value: "1" }] });
    expect(relation("a IN (?, ?)")).toMatchObject({ values: [{ kind: "bind" }, { kind: "bind" }] });
  });

  it("BETWEEN and IS NOT NULL", () => {
    const between = relation("a BETWEEN 1 AND 5");
    expect(between).toMatchObject({ operator: "BETWEEN", values: [{ value: "1" }, { value: "5" }] });
    const clause = where("SELECT * FROM t WHERE a BETWEEN 1 AND 5 AND b = 2");
    expect(clause.relations).toHaveLength(2);
    const notNull = relation("a IS NOT NULL") as ColumnRelation;
    expect(notNull.operator).toBe("IS NOT NULL");
    expect(notNull.value).toBeUndefined();
  });

  it("map entries and multi-column relations", () => {
    expect(relation("m['k'] = 'v'")).toMatchObject({ kind: "column", column: { name: "m" }, key: { value: "k" }, value: { value: "v" } });
    expect(relation("(a, b) > (1, 2)")).toMatchObject({ kind: "multi-column", operator: ">", value: { kind: "tuple", elements: [{}, {}] } });
    expect(relation("(a, b) IN ((1, 2), (3, 4))")).toMatchObject({ kind: "multi-column", operator: "IN", values: [{ kind: "tuple" }, { kind: "tuple" }] });
    expect(relation("(a, b) IN ?")).toMatchObject({ operator: "IN", value: { kind: "bind" } });
    expect(relation("(a, b) = ?")).toMatchObject({ operator: "=", value: { kind: "bind" } });
    // a one-column tuple keeps its value a tuple
    expect(relation("(a) = (1)")).toMatchObject({ kind: "multi-column", columns: [{ name: "a" }], value: { kind: "tuple", elements: [{ value: "1" }] } });
  });

  it("token relations and custom index expressions", () => {
    expect(relation("token(a, b) > ?")).toMatchObject({ kind: "token", columns: [{ name: "a" }, { name: "b" }], operator: ">", value: { kind: "bind" } });
    expect(relation("token(a) > token(1)")).toMatchObject({ value: { kind: "function" } });
    expect(relation("expr(ks.idx, 'title:foo*')")).toMatchObject({ kind: "custom-index-expression", index: { keyspace: { name: "ks" } }, expression: { value: "title:foo*" } });
  });

  // OR is outside CQL 3.11–5.0, but SAI users write it: it parses so the planner can report it.
  it("records OR (including inside parentheses) without failing the statement", () => {
    const text = "SELECT * FROM t WHERE a = 1 OR b = 2 AND (c = 3 OR d = 4)";
    const clause = where(text);
    expect(clause.relations.map((r) => r.kind === "column" && r.column.name)).toEqual(["a", "b", "c", "d"]);
    expect(clause.or.map((r) => text.slice(r.start.offset, r.end.offset))).toEqual(["OR", "OR"]);
    expect(clause.or[0]!.start.offset).toBe(text.indexOf("OR"));
  });

  it("named bind markers", () => {
    expect(relation("a = :user_id")).toMatchObject({ value: { kind: "bind", name: "user_id" } });
  });
});

describe("INSERT", () => {
  it("VALUES with IF NOT EXISTS and USING TTL … AND TIMESTAMP …", () => {
    const insert = parseOne("INSERT INTO ks.t (a, b, c) VALUES (1, 'x', [1, 2]) IF NOT EXISTS USING TTL 86400 AND TIMESTAMP 123;", "insert");
    expect(insert.columns.map((c) => c.name)).toEqual(["a", "b", "c"]);
    expect(insert.values.map((v) => v.kind)).toEqual(["literal", "literal", "list"]);
    expect(insert.ifNotExists).toBe(true);
    expect(withoutPositions(insert.using)).toEqual({ ttl: { kind: "literal", type: "integer", value: "86400" }, timestamp: { kind: "literal", type: "integer", value: "123" } });
  });

  it("JSON with DEFAULT UNSET / NULL", () => {
    expect(parseOne("INSERT INTO t JSON '{\"a\": 1}' DEFAULT UNSET", "insert")).toMatchObject({ json: { value: '{"a": 1}' }, jsonDefault: "unset", columns: [], values: [] });
    expect(parseOne("INSERT INTO t JSON ? DEFAULT NULL USING TTL 5", "insert")).toMatchObject({ json: { kind: "bind" }, jsonDefault: "null", using: { ttl: {} } });
  });

  it("reports a column/value count mismatch", () => {
    const result = parseCql("INSERT INTO t (a, b) VALUES (1)");
    expect(result.diagnostics[0]!.message).toBe("INSERT names 2 columns but gives 1 value");
  });

  it("reports the count mismatch over the parenthesised values, and drops the statement", () => {
    const text = "INSERT INTO t (a) VALUES (1, 'two') IF NOT EXISTS";
    const result = parseCql(text);
    expect(result.statements).toEqual([]);
    expect(result.diagnostics.map((d) => [d.message, text.slice(d.range.start.offset, d.range.end.offset)])).toEqual([
      ["INSERT names 1 column but gives 2 values", "(1, 'two')"],
    ]);
  });

  it("merges USING clauses written before and after IF NOT EXISTS into one", () => {
    const text = "INSERT INTO t (a) VALUES (1) USING TTL 5 IF NOT EXISTS USING TIMESTAMP 3";
    const insert = parseOne(text, "insert");
    expect(insert.ifNotExists).toBe(true);
    expect(withoutPositions(insert.using)).toEqual({ ttl: { kind: "literal", type: "integer", value: "5" }, timestamp: { kind: "literal", type: "integer", value: "3" } });
    expect(text.slice(insert.using!.range.start.offset, insert.using!.range.end.offset)).toBe("USING TTL 5 IF NOT EXISTS USING TIMESTAMP 3");
  });
});

describe("UPDATE", () => {
  it("assignments of every form", () => {
    const update = parseOne(
      "UPDATE t USING TTL 5 SET c = c + 1, l = [1] + l, m['k'] = 'v', u.f = 3, s += {'a'}, s -= {'b'}, n = n - 1 WHERE a = 1 IF EXISTS",
      "update",
    );
    expect(update.assignments.map((a) => [a.column.name, a.operator, a.value.kind])).toEqual([
      ["c", "=", "binary"],
      ["l", "=", "binary"],
      ["m", "=", "literal"],
      ["u", "=", "literal"],
      ["s", "+=", "set"],
      ["s", "-=", "set"],
      ["n", "=", "binary"],
    ]);
    expect(update.assignments[0]!.value).toMatchObject({ operator: "+", left: { kind: "column", name: { name: "c" } } });
    expect(update.assignments[2]!.key).toMatchObject({ value: "k" });
    expect(update.assignments[3]!.field).toMatchObject({ name: "f" });
    expect(update.ifExists).toBe(true);
    expect(update.using).toMatchObject({ ttl: { value: "5" } });
  });

  it("IF conditions with IN, !=, <, map entries and fields", () => {
    const update = parseOne("UPDATE t SET v = 1 WHERE a = 1 IF v IN (1, 2) AND w != 3 AND x < 5 AND m['k'] = 1 AND u.f = 2", "update");
    expect(update.ifExists).toBe(false);
    expect(update.conditions.map((c) => c.operator)).toEqual(["IN", "!=", "<", "=", "="]);
    expect(update.conditions[3]!.key).toMatchObject({ value: "k" });
    expect(update.conditions[4]!.field).toMatchObject({ name: "f" });
  });

  it("a column called exists is a condition, not IF EXISTS", () => {
    const update = parseOne("UPDATE t SET v = 1 WHERE a = 1 IF exists = true", "update");
    expect([update.ifExists, update.conditions[0]!.column.name]).toEqual([false, "exists"]);
  });
});

describe("DELETE", () => {
  it("columns, elements and fields, USING TIMESTAMP, range WHERE, IF", () => {
    const del = parseOne("DELETE c[1], u.f, v FROM t USING TIMESTAMP 5 WHERE a = 1 AND b > 2 IF v = 1", "delete");
    expect(del.selections.map((s) => [s.column.name, s.key?.kind, s.field?.name])).toEqual([
      ["c", "literal", undefined],
      ["u", undefined, "f"],
      ["v", undefined, undefined],
    ]);
    expect(del.using).toMatchObject({ timestamp: { value: "5" } });
    expect(del.where.relations.map((r) => r.kind === "column" && r.operator)).toEqual(["=", ">"]);
    expect(del.conditions).toHaveLength(1);
    expect(parseOne("DELETE FROM t WHERE a IN (1, 2) IF EXISTS", "delete")).toMatchObject({ selections: [], ifExists: true });
  });
});

describe("BATCH", () => {
  it("logged, with USING TIMESTAMP and conditional members", () => {
    const text = "BEGIN BATCH USING TIMESTAMP 100\n  INSERT INTO t (a) VALUES (1);\n  UPDATE t SET v = 1 WHERE a = 1 IF v = 2;\n  DELETE FROM t WHERE a = 1;\nAPPLY BATCH;";
    const batch = parseOne(text, "batch");
    expect(batch.batchType).toBe("logged");
    expect(batch.using).toMatchObject({ timestamp: { value: "100" } });
    expect(batch.statements.map((s) => s.kind)).toEqual(["insert", "update", "delete"]);
    expect(batch.statements.map((s) => s.text)).toEqual(["INSERT INTO t (a) VALUES (1)", "UPDATE t SET v = 1 WHERE a = 1 IF v = 2", "DELETE FROM t WHERE a = 1"]);
    expect(batch.text).toBe(text.slice(0, -1));
  });

  it("UNLOGGED and COUNTER, members without ';'", () => {
    expect(parseOne("BEGIN UNLOGGED BATCH INSERT INTO t (a) VALUES (1) INSERT INTO t (a) VALUES (2) APPLY BATCH", "batch")).toMatchObject({
      batchType: "unlogged",
      statements: [{ kind: "insert" }, { kind: "insert" }],
    });
    expect(parseOne("BEGIN COUNTER BATCH UPDATE c SET n = n + 1 WHERE a = 1; APPLY BATCH", "batch").batchType).toBe("counter");
  });

  it("a batch without APPLY BATCH does not swallow the rest of the file", () => {
    const result = parseCql("BEGIN BATCH INSERT INTO t (a) VALUES (1);\nCREATE TABLE after (a int PRIMARY KEY);");
    expect(result.statements.map((s) => s.kind)).toEqual(["create-table"]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]!.message).toContain("BATCH");
  });
});

// Reports and snapshots serialise the AST: its members come in the order of the AST types.
describe("member order", () => {
  it("of every DML statement, with its optional members present", () => {
    const keys = (text: string) => Object.keys(parseCql(text).statements[0]!);
    expect(keys("SELECT a FROM t WHERE a = 1 PER PARTITION LIMIT 1 LIMIT 2")).toEqual([
      "kind", "json", "distinct", "star", "selectors", "table", "where", "groupBy", "orderBy", "perPartitionLimit", "limit", "allowFiltering", "range", "text",
    ]);
    expect(keys("INSERT INTO t (a) VALUES (1) USING TTL 1")).toEqual(["kind", "table", "ifNotExists", "columns", "values", "range", "text", "using"]);
    expect(keys("INSERT INTO t JSON '{}' DEFAULT UNSET")).toEqual(["kind", "table", "ifNotExists", "columns", "values", "json", "range", "text", "jsonDefault"]);
    expect(keys("UPDATE t USING TTL 1 SET a = 1 WHERE k = 1")).toEqual(["kind", "table", "using", "assignments", "where", "conditions", "ifExists", "range", "text"]);
    expect(keys("DELETE a FROM t USING TIMESTAMP 1 WHERE k = 1")).toEqual(["kind", "table", "selections", "using", "where", "conditions", "ifExists", "range", "text"]);
    expect(keys("BEGIN BATCH USING TIMESTAMP 1 APPLY BATCH")).toEqual(["kind", "batchType", "using", "statements", "range", "text"]);
  });

  it("of assignments, deletions, selectors and orderings", () => {
    const update = parseOne("UPDATE t SET m['k'] = 1, u.f = 2 WHERE k = 1", "update");
    expect(update.assignments.map((a) => Object.keys(a))).toEqual([
      ["column", "key", "operator", "value", "range"],
      ["column", "field", "operator", "value", "range"],
    ]);
    expect(parseOne("DELETE m['k'] FROM t WHERE k = 1", "delete").selections.map((s) => Object.keys(s))).toEqual([["column", "key", "range"]]);
    const select = parseOne("SELECT a AS b FROM t ORDER BY v ANN OF [1]", "select");
    expect(Object.keys(select.selectors[0]!)).toEqual(["expression", "alias", "range"]);
    expect(Object.keys(select.orderBy[0]!)).toEqual(["column", "direction", "ann", "range"]);
  });
});
