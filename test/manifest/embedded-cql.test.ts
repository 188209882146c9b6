import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ColumnRelation, Literal, SourceRange } from "../../src/cql/ast.js";
import { loadManifest } from "../../src/manifest/load.js";
import type { CqlQuery } from "../../src/manifest/types.js";

const manifestWith = (cqlLines: string) => `version: 1\nqueries:\n  - id: Q1\n${cqlLines}`;
const load = (content: string) => loadManifest({ path: "access-patterns.yaml", content });
const slice = (content: string, range: SourceRange) => content.slice(range.start.offset, range.end.offset);

describe("CQL positions inside the manifest", () => {
  // Each manifest holds the same broken query, `… AND j == ?`: the parser stops at the second `=`.
  // Wherever the YAML puts the text, the finding must point at that `=` in the file.
  const styles: Record<string, string> = {
    "plain, one line": "    cql: SELECT a FROM t WHERE k = ? AND j == ?\n",
    "plain, folded over lines": "    cql: SELECT a\n      FROM t\n      WHERE k = ? AND j == ?\n",
    "single-quoted with '' escapes": "    cql: 'SELECT a FROM t WHERE k = ''it''''s'' AND j == ?'\n",
    "double-quoted with escapes": '    cql: "SELECT \\"a\\"\\tFROM t\\n WHERE k = \'caf\\u00e9 \\U0001F600\' AND j == ?"\n',
    "double-quoted with an escaped line break": '    cql: "SELECT a FROM t WHERE \\\n      k = ? AND j == ?"\n',
    "literal block": "    cql: |\n      SELECT a\n      FROM t\n      WHERE k = ? AND j == ?\n",
    "literal block, strip chomping, explicit indentation": "    cql: |2-\n        SELECT a\n        FROM t WHERE k = ? AND j == ?\n",
    "folded block": "    cql: >\n      SELECT a\n      FROM t\n\n      WHERE k = ? AND j == ?\n",
    "literal block with CRLF line ends": "    cql: |\r\n      SELECT a\r\n      FROM t\r\n      WHERE k = ? AND j == ?\r\n",
  };

  for (const [style, lines] of Object.entries(styles)) {
    it(`maps a syntax error exactly: ${style}`, () => {
      const content = manifestWith(lines);
      const { findings, manifest } = load(content);
      expect(findings.map((f) => f.rule)).toEqual(["cql-syntax-error"]);
      const range = findings[0]!.location.range;
      expect(range.start.offset).toBe(content.indexOf("== ?") + 1);
      expect(slice(content, range)).toBe("=");
      // Line and column agree with the offset.
      const before = content.slice(0, range.start.offset);
      expect(range.start.line).toBe(before.split("\n").length);
      expect(range.start.column).toBe(range.start.offset - before.lastIndexOf("\n"));
      expect((manifest!.queries[0] as CqlQuery).statement).toBeUndefined();
    });
  }

  it("maps every AST range of a valid query (selectors, table, relations, literals)", () => {
    const content = manifestWith("    cql: >\n      SELECT \"Title\", added_date\n      FROM killrvideo.videos\n      WHERE userid = ? AND tag = 'it''s'\n");
    const { findings, manifest } = load(content);
    expect(findings).toEqual([]);
    const statement = (manifest!.queries[0] as CqlQuery).statement!;
    expect(statement.selectors.map((s) => slice(content, s.range))).toEqual(['"Title"', "added_date"]);
    expect(slice(content, statement.table.range)).toBe("killrvideo.videos");
    const relations = statement.where!.relations as ColumnRelation[];
    expect(relations.map((r) => slice(content, r.column.range))).toEqual(["userid", "tag"]);
    expect(slice(content, (relations[1]!.value as Literal).range)).toBe("'it''s'");
  });

  it("maps ranges that are not a node's own range too (the OR keywords of a WHERE clause)", () => {
    const content = manifestWith("    cql: |\n      SELECT a FROM t\n      WHERE k = ? OR j = ?\n");
    const statement = (load(content).manifest!.queries[0] as CqlQuery).statement!;
    const [or] = statement.where!.or;
    expect(or?.start.offset).toBe(content.indexOf("OR"));
    expect(slice(content, or!)).toBe("OR");
    expect(or!.start.line).toBe(6);
  });

  it("points at the alias when the CQL is reached through one", () => {
    const content = "version: 1\nqueries:\n  - id: Q1\n    cql: &broken SELECT a FORM t\n  - id: Q2\n    cql: *broken\n";
    const { findings } = load(content);
    expect(findings.map((f) => [f.message, f.location.range.start.line])).toEqual([
      ["Q1.cql: expected `FROM` in SELECT, found `FORM`", 4],
      ["Q2.cql: expected `FROM` in SELECT, found `FORM`", 6],
    ]);
  });
});

describe("CQL positions, for any text and any quoting style (property)", () => {
  const identifier = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/).filter((s) => !["and", "from", "where", "select", "in", "is", "not", "token", "or", "limit", "as", "null", "contains", "key"].includes(s));
  // String literal contents that stress YAML and CQL escaping: quotes, backslashes, `: `, `#`, non-ASCII.
  const literalText = fc.array(fc.constantFrom("a", "Z", " ", "'", '"', "\\", ": ", " #", "é", "😀", "\t", "x"), { maxLength: 12 }).map((parts) => parts.join(""));
  const style = fc.constantFrom("plain", "single", "double", "literal", "folded");

  it("keeps the table name and the relation columns at their exact place in the file", () => {
    fc.assert(
      fc.property(identifier, identifier, identifier, literalText, style, (table, column, other, literal, how) => {
        const cql = [`SELECT ${other}`, `FROM ${table}`, `WHERE ${column} = '${literal.replaceAll("'", "''")}' AND ${other} = ?`];
        const oneLine = cql.join(" ");
        let scalar: string;
        if (how === "plain" && !/: | #|\t|^\s|\s$/.test(oneLine)) scalar = ` ${oneLine}`;
        else if (how === "single") scalar = ` '${oneLine.replaceAll("'", "''")}'`;
        else if (how === "literal" || (how === "plain" && literal.includes("\t"))) scalar = ` |\n${cql.map((l) => `      ${l}`).join("\n")}`;
        else if (how === "folded" && !/^\s|\s$|\t/.test(literal)) scalar = ` >\n${cql.map((l) => `      ${l}`).join("\n")}`;
        else scalar = ` ${JSON.stringify(cql.join("\n "))}`;
        const content = manifestWith(`    cql:${scalar}\n`);
        const { findings, manifest } = load(content);
        expect(findings, content).toEqual([]);
        const statement = (manifest!.queries[0] as CqlQuery).statement!;
        expect(slice(content, statement.table.range)).toBe(table);
        const relations = statement.where!.relations as ColumnRelation[];
        expect(relations.map((r) => slice(content, r.column.range))).toEqual([column, other]);
      }),
      { seed: 20_240_611, numRuns: 150 },
    );
  });
});
