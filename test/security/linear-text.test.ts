// The inputs that froze the bot, each ~100k characters: with a quadratic (or worse) pattern they
// take from seconds to minutes; scanned linearly they take milliseconds. Each test checks the
// answer first; the time bound is generous (a slow shared CI machine passes it easily), it is
// there only so a quadratic regression fails instead of hanging the suite.
import { describe, expect, it } from "vitest";
import { suggestTableFor } from "../../src/analysis/suggest-table.js";
import { parseCql } from "../../src/cql/index.js";
import { NEAREST_LIMITS, nearestFirst, parseExplainRequest, unwrapCodeSpan } from "../../src/explain.js";
import { parseCommand } from "../../src/github/worker/commands.js";
import type { AbstractQuery } from "../../src/manifest/types.js";
import { neutraliseLinks } from "../../src/report/neutralise.js";
import { review } from "../../src/review.js";
import { emptySchema } from "../../src/schema/model.js";

const LONG = 100_000;
const BOUND_MS = 2_000;

function timed<T>(run: () => T): T {
  const started = performance.now();
  const result = run();
  expect(performance.now() - started).toBeLessThan(BOUND_MS);
  return result;
}

describe("comment text", () => {
  it("a /cql explain followed by thousands of backticks", () => {
    expect(timed(() => parseCommand(`/cql explain ${"`".repeat(LONG)}x`))).toEqual({ kind: "explain", argument: `${"`".repeat(LONG)}x` });
    expect(timed(() => parseCommand(`/cql explain ${"`".repeat(LONG)}`))).toEqual({ kind: "unknown", text: `explain ${"`".repeat(LONG)}` });
  });

  it("code spans: backticks on both sides, either side longer, or only backticks", () => {
    expect(unwrapCodeSpan("``SELECT `x` FROM t``")).toBe("SELECT `x` FROM t");
    expect(unwrapCodeSpan("```Q1`")).toBe("``Q1");
    expect(unwrapCodeSpan("`Q1```")).toBe("Q1``");
    expect(unwrapCodeSpan("```")).toBe("`");
    expect(unwrapCodeSpan("Q1")).toBe("Q1");
    expect(timed(() => unwrapCodeSpan(`${"`".repeat(LONG)}\u0000`))).toBe(`${"`".repeat(LONG)}\u0000`);
  });

  it("explain requests: fences and spans that never close", () => {
    expect(parseExplainRequest("```cql\nSELECT * FROM t\n```")).toEqual({ kind: "select", cql: "SELECT * FROM t" });
    expect(parseExplainRequest("````\nSELECT * FROM t\n```")).toEqual({ kind: "select", cql: "SELECT * FROM t" });
    expect(parseExplainRequest("~~~\nSELECT * FROM t\n~~~  \n")).toEqual({ kind: "select", cql: "SELECT * FROM t" });
    expect(parseExplainRequest("table `videos`")).toEqual({ kind: "table", name: "videos" });
    for (const attack of [`~~~${"~".repeat(LONG)}`, `${"`".repeat(LONG)}\u0000`, `\`\`\`\n${"`".repeat(LONG)}\u0000`, `table ${"`".repeat(LONG)}x`]) {
      expect(timed(() => parseExplainRequest(attack))).toHaveProperty("error");
    }
  });
});

describe("explain's did-you-mean", () => {
  it("is bounded in names compared, their length and the names returned", () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `shop.table_${"x".repeat(40)}_${i}`);
    let compared = 0;
    const near = timed(() => nearestFirst("q".repeat(LONG), names, (name) => (compared++, [name])));
    expect(compared).toBe(NEAREST_LIMITS.candidates);
    expect(near).toHaveLength(NEAREST_LIMITS.shown);
    expect(nearestFirst("shop.table_x", ["shop.table_y", "other", "shop.table_x"])).toEqual(["shop.table_x", "shop.table_y", "other"]);
  });
});

describe("repository text", () => {
  it("a where column like a____…b in a suggested table's name", () => {
    const query = {
      form: "abstract",
      id: "Q1",
      select: ["*"],
      where: [{ column: `a${"_".repeat(2 * LONG)}b`, operator: "=", location: { file: "access-patterns.yaml", range: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } } } }],
      orderBy: [],
      ignore: [],
      location: { file: "access-patterns.yaml", range: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } } },
    } as unknown as AbstractQuery;
    const suggestion = timed(() => suggestTableFor(query, emptySchema(), { keyspace: "shop" }));
    expect(suggestion.text).toContain(`q1_by_a${"_".repeat(2 * LONG)}b`);
  });

  it("whitespace before WITH COMPACT STORAGE", () => {
    const content = `CREATE TABLE shop.sessions (id text PRIMARY KEY, data blob)${"\n".repeat(LONG)} WITH COMPACT STORAGE;\n`;
    const result = timed(() => review({ files: [{ path: "schema/sessions.cql", content }] }));
    const finding = result.findings.find((f) => f.rule === "table-compact-storage");
    expect(finding?.fix?.replacement).toBe("");
    // The fix removes the clause with the whitespace and WITH before it.
    expect(finding?.fix?.range.start.line).toBe(1);
  });

  it("the lexer's comment and number patterns on unterminated comments and long digit runs", () => {
    expect(timed(() => parseCql("\u0000/*".repeat(2 * LONG))).diagnostics.length).toBeGreaterThan(0);
    expect(timed(() => parseCql("0".repeat(5 * LONG))).diagnostics.length).toBeGreaterThan(0);
  });
});

describe("text shown on GitHub", () => {
  it("the neutraliser on recheck's attack string, long hex runs and runs of triggers", () => {
    const attack = `p${":b0".repeat(LONG)}:`;
    expect(timed(() => neutraliseLinks(attack))).toBe(attack);
    expect(timed(() => neutraliseLinks("deadbeef ".repeat(LONG)))).not.toContain("deadbeef");
    expect(timed(() => neutraliseLinks("@".repeat(LONG))).length).toBeGreaterThan(LONG);
  });
});

