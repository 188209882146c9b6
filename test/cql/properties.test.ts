// Properties of parseCql on arbitrary input: it never throws, always terminates, and every range
// it returns lies inside the text with a line and column that match its offset.
import { readFileSync, readdirSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ParseResult } from "../../src/cql/ast.js";
import { parseCql } from "../../src/cql/index.js";
import { allRanges, lineColumnOf } from "./helpers.js";

function expectWellFormed(text: string, result: ParseResult): void {
  for (const { path, range } of allRanges(result)) {
    expect(range.start.offset, path).toBeGreaterThanOrEqual(0);
    expect(range.start.offset, path).toBeLessThanOrEqual(range.end.offset);
    expect(range.end.offset, path).toBeLessThanOrEqual(text.length);
    expect({ line: range.start.line, column: range.start.column }, path).toEqual(lineColumnOf(text, range.start.offset));
    expect({ line: range.end.line, column: range.end.column }, path).toEqual(lineColumnOf(text, range.end.offset));
  }
  for (const statement of result.statements) {
    expect(statement.text).toBe(text.slice(statement.range.start.offset, statement.range.end.offset));
  }
  expect(result.diagnostics.every((d) => d.message.length > 0 && !d.message.includes("internal error"))).toBe(true);
}

const VALID_CQL = [
  ...readdirSync("examples/iot/schema").map((file) => readFileSync(`examples/iot/schema/${file}`, "utf8")),
  `CREATE TABLE ks.t (a int, b text, c map<text, frozen<list<int>>>, PRIMARY KEY ((a), b)) WITH CLUSTERING ORDER BY (b DESC) AND compaction = {'class': 'LCS'};
   SELECT JSON a, b AS x, c['k'], (int) ?, cast(a AS text) FROM ks.t WHERE a IN (1, 2) AND (b, c) > ('x', {}) AND token(a) > ? OR b LIKE 'x%' ORDER BY b ANN OF [1.5, 2] LIMIT 10 ALLOW FILTERING;
   BEGIN UNLOGGED BATCH USING TIMESTAMP 5 INSERT INTO t (a, b) VALUES (1, 'x''y') IF NOT EXISTS; UPDATE t SET c = c + {'k': [1]} WHERE a = 1 IF b != 'z'; APPLY BATCH;
   CREATE FUNCTION f (x int) CALLED ON NULL INPUT RETURNS int LANGUAGE java AS $$ return x; $$;
   GRANT SELECT ON ALL TABLES IN KEYSPACE ks TO alice; DESCRIBE TABLE ks.t; SOURCE 'x.cql'
   DELETE c['k'] FROM t USING TIMESTAMP 1 WHERE a = 1 AND b > 'x' IF EXISTS; /* done */`,
];

const TOKENS = [
  "SELECT", "FROM", "WHERE", "AND", "OR", "CREATE", "TABLE", "KEYSPACE", "INDEX", "ON", "PRIMARY", "KEY", "WITH", "CLUSTERING", "ORDER", "BY", "INSERT", "INTO", "VALUES",
  "UPDATE", "SET", "DELETE", "BEGIN", "BATCH", "APPLY", "IF", "NOT", "EXISTS", "IN", "CONTAINS", "USING", "TTL", "TIMESTAMP", "GRANT", "TO", "LIST", "DESCRIBE", "MATERIALIZED", "VIEW",
  "AS", "FUNCTION", "RETURNS", "LANGUAGE", "frozen", "map", "list", "int", "text", "a", "b", "ks", "t", "\"Q\"", "'s'", "$$ x $$", "1", "-2", "1.5", "1h", "0xff", "?", ":n",
  "(", ")", "<", ">", "[", "]", "{", "}", ",", ";", ".", "..", "=", "!=", "+", "-", "*", "/", "%", ":", "#", "${", "<<<<<<<", "|", "--", "/*", "*/", "'", "\"", "$$", "\n", "\r\n", "\t", " ",
];

describe("parseCql on arbitrary input", () => {
  it("random token sequences never throw and yield well-formed ranges", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }), fc.constantFrom(" ", "", "\n"), (tokens, separator) => {
        const text = tokens.join(separator);
        expectWellFormed(text, parseCql(text));
      }),
      { seed: 424242, numRuns: 300 },
    );
  });

  it("random mutations of valid CQL (delete, duplicate, swap chunks) never throw", () => {
    const mutation = fc.record({
      source: fc.constantFrom(...VALID_CQL),
      operations: fc.array(
        fc.record({ kind: fc.constantFrom("delete", "duplicate", "swap"), at: fc.double({ min: 0, max: 1, noNaN: true }), to: fc.double({ min: 0, max: 1, noNaN: true }), length: fc.integer({ min: 1, max: 40 }) }),
        { minLength: 1, maxLength: 4 },
      ),
    });
    fc.assert(
      fc.property(mutation, ({ source, operations }) => {
        let text = source;
        for (const { kind, at, to, length } of operations) {
          const start = Math.floor(at * text.length);
          const chunk = text.slice(start, start + length);
          if (kind === "delete") text = text.slice(0, start) + text.slice(start + length);
          else if (kind === "duplicate") text = text.slice(0, start) + chunk + text.slice(start);
          else {
            const rest = text.slice(0, start) + text.slice(start + length);
            const insertAt = Math.floor(to * rest.length);
            text = rest.slice(0, insertAt) + chunk + rest.slice(insertAt);
          }
        }
        expectWellFormed(text, parseCql(text));
      }),
      { seed: 99, numRuns: 300 },
    );
  });

  it("arbitrary unicode strings never throw", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (text) => {
        expectWellFormed(text, parseCql(text));
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it("the valid samples parse without errors", () => {
    for (const text of VALID_CQL) {
      const result = parseCql(text);
      expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      expectWellFormed(text, result);
    }
  });
});
