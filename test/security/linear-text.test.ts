// The inputs that froze the bot, each ~100k characters: with a quadratic (or worse) pattern they
// take from seconds to minutes of CPU; scanned linearly they take milliseconds. Each test checks
// the answer, then that the call stays far below a bound of this process's CPU time
// (test/helpers/cpu-time.ts says why CPU time).
import { describe, expect, it } from "vitest";
import { suggestTableFor } from "../../src/analysis/suggest-table.js";
import { parseCql } from "../../src/cql/index.js";
import { NEAREST_LIMITS, nearestFirst, parseExplainRequest, unwrapCodeSpan } from "../../src/explain.js";
import { parseCommand } from "../../src/github/worker/commands.js";
import type { AbstractQuery } from "../../src/manifest/types.js";
import { neutraliseLinks } from "../../src/report/neutralise.js";
import { review } from "../../src/review.js";
import { emptySchema } from "../../src/schema/model.js";
import { withCpuTime } from "../helpers/cpu-time.js";

const LONG = 100_000;
/** CPU time a linear scan of these inputs stays far below, and a quadratic one far above (seconds). */
const CPU_BOUND_MS = 2_000;

/** Runs `run` on `input(size)` and fails if it took more than the bound of this process's CPU time. */
function expectWithinCpuBound<T>(input: (size: number) => T, run: (input: T) => unknown, size = LONG): void {
  const text = input(size);
  expect(withCpuTime(() => run(text)).cpuMs).toBeLessThan(CPU_BOUND_MS);
}

describe("comment text", () => {
  it("a /cql explain followed by thousands of backticks", () => {
    expect(parseCommand(`/cql explain ${"`".repeat(LONG)}x`)).toEqual({ kind: "explain", argument: `${"`".repeat(LONG)}x` });
    expect(parseCommand(`/cql explain ${"`".repeat(LONG)}`)).toEqual({ kind: "unknown", text: `explain ${"`".repeat(LONG)}` });
    expectWithinCpuBound((n) => `/cql explain ${"`".repeat(n)}x`, parseCommand);
    expectWithinCpuBound((n) => `/cql explain ${"`".repeat(n)}`, parseCommand);
  });

  it("code spans: backticks on both sides, either side longer, or only backticks", () => {
    expect(unwrapCodeSpan("``SELECT `x` FROM t``")).toBe("SELECT `x` FROM t");
    expect(unwrapCodeSpan("```Q1`")).toBe("``Q1");
    expect(unwrapCodeSpan("`Q1```")).toBe("Q1``");
    expect(unwrapCodeSpan("```")).toBe("`");
    expect(unwrapCodeSpan("Q1")).toBe("Q1");
    expect(unwrapCodeSpan(`${"`".repeat(LONG)}\u0000`)).toBe(`${"`".repeat(LONG)}\u0000`);
    expectWithinCpuBound((n) => `${"`".repeat(n)}\u0000`, unwrapCodeSpan);
  });

  it("explain requests: fences and spans that never close", () => {
    expect(parseExplainRequest("```cql\nSELECT * FROM t\n```")).toEqual({ kind: "select", cql: "SELECT * FROM t" });
    expect(parseExplainRequest("````\nSELECT * FROM t\n```")).toEqual({ kind: "select", cql: "SELECT * FROM t" });
    expect(parseExplainRequest("~~~\nSELECT * FROM t\n~~~  \n")).toEqual({ kind: "select", cql: "SELECT * FROM t" });
    expect(parseExplainRequest("table `videos`")).toEqual({ kind: "table", name: "videos" });
    const attacks = [(n: number) => `~~~${"~".repeat(n)}`, (n: number) => `${"`".repeat(n)}\u0000`, (n: number) => `\`\`\`\n${"`".repeat(n)}\u0000`, (n: number) => `table ${"`".repeat(n)}x`];
    for (const attack of attacks) {
      expect(parseExplainRequest(attack(LONG))).toHaveProperty("error");
      expectWithinCpuBound(attack, parseExplainRequest);
    }
  });
});

describe("explain's did-you-mean", () => {
  it("is bounded in names compared, their length and the names returned", () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `shop.table_${"x".repeat(40)}_${i}`);
    let compared = 0;
    const near = nearestFirst("q".repeat(LONG), names, (name) => (compared++, [name]));
    expectWithinCpuBound((n) => "q".repeat(n), (wanted) => nearestFirst(wanted, names, (name) => [name]));
    expect(compared).toBe(NEAREST_LIMITS.candidates);
    expect(near).toHaveLength(NEAREST_LIMITS.shown);
    expect(nearestFirst("shop.table_x", ["shop.table_y", "other", "shop.table_x"])).toEqual(["shop.table_x", "shop.table_y", "other"]);
  });
});

describe("repository text", () => {
  it("a where column like a____…b in a suggested table's name", () => {
    const location = { file: "access-patterns.yaml", range: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } } };
    const queryOn = (n: number) =>
      ({ form: "abstract", id: "Q1", select: ["*"], where: [{ column: `a${"_".repeat(n)}b`, operator: "=", location }], orderBy: [], ignore: [], location }) as unknown as AbstractQuery;
    const suggest = (query: AbstractQuery) => suggestTableFor(query, emptySchema(), { keyspace: "shop" });
    expect(suggest(queryOn(2 * LONG)).text).toContain(`q1_by_a${"_".repeat(2 * LONG)}b`);
    expectWithinCpuBound(queryOn, suggest, 2 * LONG);
  });

  it("whitespace before WITH COMPACT STORAGE", () => {
    const schemaWith = (n: number) => ({ files: [{ path: "schema/sessions.cql", content: `CREATE TABLE shop.sessions (id text PRIMARY KEY, data blob)${"\n".repeat(n)} WITH COMPACT STORAGE;\n` }] });
    const result = review(schemaWith(LONG));
    expectWithinCpuBound(schemaWith, review);
    const finding = result.findings.find((f) => f.rule === "table-compact-storage");
    expect(finding?.fix?.replacement).toBe("");
    // The fix removes the clause with the whitespace and WITH before it.
    expect(finding?.fix?.range.start.line).toBe(1);
  });

  it("the lexer's comment and number patterns on unterminated comments and long digit runs", () => {
    expect(parseCql("\u0000/*".repeat(2 * LONG)).diagnostics.length).toBeGreaterThan(0);
    expect(parseCql("0".repeat(5 * LONG)).diagnostics.length).toBeGreaterThan(0);
    expectWithinCpuBound((n) => "\u0000/*".repeat(n), (text) => parseCql(text), 2 * LONG);
    expectWithinCpuBound((n) => "0".repeat(n), (text) => parseCql(text), 5 * LONG);
  });
});

describe("text shown on GitHub", () => {
  it("the neutraliser on recheck's attack string, long hex runs and runs of triggers", () => {
    const attack = (n: number) => `p${":b0".repeat(n)}:`;
    expect(neutraliseLinks(attack(LONG))).toBe(attack(LONG));
    expect(neutraliseLinks("deadbeef ".repeat(LONG))).not.toContain("deadbeef");
    expect(neutraliseLinks("@".repeat(LONG)).length).toBeGreaterThan(LONG);
    expectWithinCpuBound(attack, neutraliseLinks);
    expectWithinCpuBound((n) => "deadbeef ".repeat(n), neutraliseLinks);
    expectWithinCpuBound((n) => "@".repeat(n), neutraliseLinks);
  });
});

