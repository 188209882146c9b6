// `f(...items)` passes every item as an argument on the stack: past about 100k items V8 throws
// "RangeError: Maximum call stack size exceeded" (a 20k-table change once lost a rule's findings
// that way). Arrays built from repository input can be that long, so calls with a spread argument
// are allowed only where the array is small by construction, each with the reason.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { projectSources } from "../helpers/source-files.js";
import { describe, expect, it } from "vitest";
import { append } from "../../src/arrays.js";

const ROOT = join(import.meta.dirname, "../..");

/** `file: callee` → why the arrays spread into that callee there stay small. */
const ALLOWED: Record<string, string> = {
  "src/cql/errors.ts: Math.max": "the parser's expected-token paths at one error, bounded by the grammar",
  "src/cql/split.ts: Math.max": "the parser's token types, a fixed vocabulary of a few hundred",
  "src/cql/tokens.ts: Math.max": "the CQL keywords, a fixed vocabulary",
  "src/explain.ts: Math.min": "one or two aliases per name",
  "src/cli/git.ts: path.join": "the segments of one repository path, bounded by git's path length",
  "src/rule-engine/rule-index.ts: lines.push": "constant text of the rule index",
  "src/report/explain-text.ts: lines.push":
    "one explain answer: lines per plan step, candidate table, query of a table or finding of one entity, each bounded by the review limits (20k statements) well below the ~100k arguments a call takes",
  "src/github/queue/redis-queue.ts: this.#redis.eval": "the three marker keys of one delivery, a fixed list",
  "src/github/queue/redis-queue.ts: this.#redis.del": "at most two marker keys of one delivery",
  "src/report/markdown.ts: blocks.push": "one explain answer: an estimate's few blocks, or the findings of one query or table, bounded by the review limits",
};

function spreadCalls(path: string): string[] {
  const sourceFile = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && (node.arguments ?? []).some(ts.isSpreadElement)) {
      found.push(`${relative(ROOT, path)}: ${node.expression.getText(sourceFile)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

describe("no call spreads a possibly huge array", () => {
  const calls = projectSources().map((file) => join(ROOT, file)).flatMap(spreadCalls);

  it("every call with a spread argument is allow-listed with a reason", () => {
    expect(calls.filter((call) => !Object.prototype.hasOwnProperty.call(ALLOWED, call))).toEqual([]);
  });

  it("finds the calls that spread", () => {
    expect(calls).toContain("src/report/markdown.ts: blocks.push");
  });

  it("every allow-list entry gives a reason and still names a call of the code", () => {
    for (const [call, reason] of Object.entries(ALLOWED)) {
      expect(reason.length, call).toBeGreaterThan(10);
      expect(calls, call).toContain(call);
    }
  });

  it("append takes more items than a spread can", () => {
    const target = [0];
    const items = Array.from({ length: 500_000 }, (_, i) => i + 1);
    expect(() => target.push(...items)).toThrow(RangeError);
    append(target, items);
    expect(target).toHaveLength(500_001);
    expect(target[500_000]).toBe(500_000);
  });
});
