// Production entry points skip chevrotain's grammar validation for a faster cold start; the
// parser built that way must read CQL exactly as the validated one does.
import { describe, expect, it } from "vitest";
import { parseCql } from "../../src/cql/index.js";
import { skipGrammarValidation } from "../../src/cql/parser.js";

describe("the parser built without grammar validation", () => {
  it("parses statements and reports errors as the validated parser does", () => {
    skipGrammarValidation();
    const result = parseCql(
      "CREATE TABLE ks.t (k int, c timeuuid, v text, PRIMARY KEY ((k), c)) WITH CLUSTERING ORDER BY (c DESC);\n" +
        "SELECT v FROM ks.t WHERE k = ? LIMIT 10;\n" +
        "SELECT FROM WHERE;\n",
    );
    expect(result.statements.map((s) => s.kind)).toEqual(["create-table", "select"]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ code: "cql-syntax-error", range: { start: { line: 3 } } });
  });
});
