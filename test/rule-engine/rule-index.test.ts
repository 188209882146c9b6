// rules/README.md is generated from the registry; this fails when the committed file drifts.
// Regenerate with: UPDATE_RULE_INDEX=1 npx vitest run test/rule-engine/rule-index.test.ts
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { rules } from "../../rules/index.js";
import { renderRuleIndex } from "../../src/rule-engine/rule-index.js";
import type { RuleModule } from "../../src/rule-engine/types.js";

const README = new URL("../../rules/README.md", import.meta.url);

function fakeRule(id: string, category: RuleModule["meta"]["category"], description: string, fixable = false): RuleModule {
  return { meta: { id, category, defaultSeverity: "warning", description, messages: {}, fixable }, check: () => undefined };
}

describe("renderRuleIndex", () => {
  it("lists rules by category, each linked to its doc with severity, fixable and description", () => {
    const text = renderRuleIndex([
      fakeRule("query-b", "query", "B | with a pipe"),
      fakeRule("query-a", "query", "A", true),
      fakeRule("cql-x", "input", "X"),
    ]);
    expect(text).toContain("cql-review has 3 rules.");
    const rows = text.split("\n").filter((l) => l.startsWith("| ["));
    expect(rows).toEqual([
      "| [cql-x](cql-x.md) | input | warning |  | X |",
      "| [query-a](query-a.md) | query | warning | yes | A |",
      "| [query-b](query-b.md) | query | warning |  | B \\| with a pipe |",
    ]);
    expect(text.indexOf("## Input")).toBeLessThan(text.indexOf("## Queries"));
    expect(text).not.toContain("## Tables");
  });
});

describe("rules/README.md", () => {
  it("matches the registry", () => {
    const expected = renderRuleIndex(rules);
    if (process.env["UPDATE_RULE_INDEX"] === "1") writeFileSync(README, expected);
    expect(readFileSync(README, "utf8")).toBe(expected);
  });

  it("the registry is sorted by id and ids are unique kebab-case", () => {
    const ids = rules.map((r) => r.meta.id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(-[a-z0-9]+)+$/);
  });
});
