import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { SourceRange } from "../../src/cql/ast.js";
import { parseCql } from "../../src/cql/index.js";
import { allRanges, lineColumnOf } from "./helpers.js";

const slice = (text: string, range: SourceRange) => text.slice(range.start.offset, range.end.offset);

describe("statement ranges and text", () => {
  it("text is the source of the statement without its final ';'", () => {
    const text = "USE ks;\n\nCREATE TABLE t (\n  a int PRIMARY KEY\n)  ;\nSELECT * FROM t";
    const { statements } = parseCql(text);
    expect(statements.map((s) => s.text)).toEqual(["USE ks", "CREATE TABLE t (\n  a int PRIMARY KEY\n)", "SELECT * FROM t"]);
    for (const statement of statements) expect(slice(text, statement.range)).toBe(statement.text);
    expect(statements[1]!.range).toEqual({ start: { line: 3, column: 1, offset: 9 }, end: { line: 5, column: 2, offset: 47 } });
  });

  it("names, columns and types point at their source", () => {
    const text = 'CREATE TABLE ks."Users" (\n\tid uuid,\n\tmail frozen<set<text>>,\n\tPRIMARY KEY ((id))\n);';
    const [table] = parseCql(text).statements;
    if (table?.kind !== "create-table") throw new Error("expected a table");
    expect(slice(text, table.name.range)).toBe('ks."Users"');
    expect(slice(text, table.name.name.range)).toBe('"Users"');
    const mail = table.columns[1]!;
    expect(slice(text, mail.range)).toBe("mail frozen<set<text>>");
    expect(slice(text, mail.type.range)).toBe("frozen<set<text>>");
    // after a tab: line 3, column 2
    expect(mail.name.range.start).toEqual({ line: 3, column: 2, offset: 37 });
    expect(mail.name.range.end).toEqual({ line: 3, column: 6, offset: 41 });
    expect(slice(text, table.primaryKey!.partitionKey[0]!.range)).toBe("id");
  });

  it("positions are right after CRLF line endings", () => {
    const text = "CREATE TABLE t (\r\n  a int,\r\n  b text,\r\n  PRIMARY KEY (a)\r\n);\r\nSELECT b\r\nFROM t WHERE a = 1;";
    const result = parseCql(text);
    expect(result.diagnostics).toEqual([]);
    const select = result.statements[1]!;
    if (select.kind !== "select") throw new Error("expected a select");
    const relation = select.where!.relations[0]!;
    expect(relation.range.start).toEqual({ line: 7, column: 14, offset: text.indexOf("a = 1") });
    expect(slice(text, relation.range)).toBe("a = 1");
    expect(select.text).toBe("SELECT b\r\nFROM t WHERE a = 1");
  });

  it("positions of a multi-line string value and what follows it", () => {
    const text = "INSERT INTO t (a, b) VALUES ('line one\nline two', 3);";
    const [insert] = parseCql(text).statements;
    if (insert?.kind !== "insert") throw new Error("expected an insert");
    expect(insert.values[0]!.range.end).toEqual({ line: 2, column: 10, offset: 48 });
    expect(insert.values[1]!.range.start).toEqual({ line: 2, column: 12, offset: 50 });
  });

  it("a negative literal starts at its sign; a binary expression spans both operands", () => {
    const text = "UPDATE t SET c = c - -1 WHERE k = 0";
    const [update] = parseCql(text).statements;
    if (update?.kind !== "update") throw new Error("expected an update");
    const value = update.assignments[0]!.value;
    expect(slice(text, value.range)).toBe("c - -1");
    if (value.kind !== "binary") throw new Error("expected a binary expression");
    expect(slice(text, value.right.range)).toBe("-1");
  });

  it("a call spans its name and arguments, token(…) too; a one-element tuple spans its parentheses", () => {
    const text = "SELECT token(k) + 1, ks.f(a)[0] FROM t WHERE token(k) > token(?) - 1 AND (c) >= (2)";
    const [select] = parseCql(text).statements;
    if (select?.kind !== "select") throw new Error("expected a select");
    const [sum, element] = select.selectors.map((selector) => selector.expression);
    if (sum?.kind !== "binary" || element?.kind !== "element") throw new Error("expected a sum and an element access");
    expect(slice(text, sum.range)).toBe("token(k) + 1");
    expect(slice(text, sum.left.range)).toBe("token(k)");
    expect(slice(text, element.target.range)).toBe("ks.f(a)");
    const [byToken, byTuple] = select.where!.relations;
    if (byToken?.kind !== "token" || byToken.value?.kind !== "binary") throw new Error("expected a token relation with a difference");
    expect(slice(text, byToken.range)).toBe("token(k) > token(?) - 1");
    expect(slice(text, byToken.value.left.range)).toBe("token(?)");
    if (byTuple?.kind !== "multi-column" || byTuple.value?.kind !== "tuple") throw new Error("expected a one-column tuple relation");
    expect(slice(text, byTuple.value.range)).toBe("(2)");
    expect(slice(text, byTuple.value.elements[0]!.range)).toBe("2");
  });

  it("columns on line 1 do not count a byte order mark", () => {
    const text = "\uFEFFCREATE TABLE t (a int PRIMARY KEY);";
    const [table] = parseCql(text).statements;
    expect(table!.range.start).toEqual({ line: 1, column: 1, offset: 1 });
    expect(table!.text).toBe("CREATE TABLE t (a int PRIMARY KEY)");
  });
});

describe("every range in a parse result", () => {
  const texts: [string, string][] = [
    ...readdirSync("examples/iot/schema").map((file): [string, string] => [file, readFileSync(`examples/iot/schema/${file}`, "utf8")]),
    [
      "mixed",
      "SELECT JSON a, b AS c, m['k'], l[1..2], (int) ?, cast(x AS text) FROM ks.t WHERE (a, b) > (1, 2) AND c IN ? AND token(a) > 0 OR d = 1;\r\n" +
        "UPDATE t USING TTL 1 SET m['k'] = 1, c = c + 1 WHERE a = 1 IF b != 2;\n" +
        "BEGIN BATCH\n\tINSERT INTO t (a) VALUES (-1);\n\tDELETE u.f FROM t WHERE a = 1;\nAPPLY BATCH;\n" +
        "CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE a IS NOT NULL PRIMARY KEY (a) WITH CLUSTERING ORDER BY (a ASC) AND COMPACT STORAGE;\n" +
        "-- a comment\n/* and\nanother */ ALTER TABLE t ADD (x int, y text MASKED WITH DEFAULT);",
    ],
  ];

  it.each(texts)("%s: every range is inside the text, ordered, and its line and column match its offset", (_name, text) => {
    const result = parseCql(text);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const ranges = allRanges(result);
    expect(ranges.length).toBeGreaterThan(10);
    for (const { path, range } of ranges) {
      expect(range.start.offset, path).toBeGreaterThanOrEqual(0);
      expect(range.end.offset, path).toBeLessThanOrEqual(text.length);
      expect(range.start.offset, path).toBeLessThanOrEqual(range.end.offset);
      expect({ line: range.start.line, column: range.start.column }, path).toEqual(lineColumnOf(text, range.start.offset));
      expect({ line: range.end.line, column: range.end.column }, path).toEqual(lineColumnOf(text, range.end.offset));
    }
  });
});
