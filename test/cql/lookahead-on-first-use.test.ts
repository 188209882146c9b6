// The command line builds the parser's lookahead functions on first use (buildLookaheadOnFirstUse);
// that parser must read CQL exactly as the one built up front does, including a decision first
// used inside a repetition (a MANY loop keeps the function it fetched before the swap) and errors.
import { describe, expect, it } from "vitest";
import { parseCql } from "../../src/cql/index.js";
import { buildLookaheadOnFirstUse, skipGrammarValidation } from "../../src/cql/parser.js";

describe("the parser whose lookahead is built on first use", () => {
  it("parses statements, repetitions and errors as the parser built up front does", () => {
    // before the first parse of this file's process: the parser is built with these settings
    buildLookaheadOnFirstUse();
    skipGrammarValidation();
    const text =
      "CREATE TABLE ks.t (k int, c timeuuid, v text, tags set<text>, PRIMARY KEY ((k), c)) WITH CLUSTERING ORDER BY (c DESC) AND default_time_to_live = 86400;\n" +
      "INSERT INTO ks.t (k, c, v) VALUES (?, now(), 'a') USING TTL 60;\n" +
      "UPDATE ks.t SET v = 'b', tags = tags + {'x'} WHERE k = 1 AND c = ? IF EXISTS;\n" +
      "SELECT v, tags FROM ks.t WHERE k IN (1, 2, 3) AND c > ? ORDER BY c DESC LIMIT 10;\n" +
      "SELECT FROM WHERE;\n" +
      "SELECT v FROM ks.t WHERE k = 1;\n";
    const first = parseCql(text);
    expect(first.statements.map((s) => s.kind)).toEqual(["create-table", "insert", "update", "select", "select"]);
    expect(first.diagnostics).toHaveLength(1);
    expect(first.diagnostics[0]).toMatchObject({ code: "cql-syntax-error", range: { start: { line: 5 } } });
    // the second parse runs on the functions swapped in by the first: the same result
    expect(JSON.stringify(parseCql(text))).toBe(JSON.stringify(first));
  });
});
