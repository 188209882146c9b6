// Budgets that hold end to end: the rule engine keeps a rule's findings however many there are,
// and the review-wide limits hold the worst accepted schema to the time budget.
import { describe, expect, it } from "vitest";
import { FILE_START } from "../../src/findings.js";
import { analyse } from "../../src/review.js";
import { runRules } from "../../src/rule-engine/engine.js";
import type { RuleModule } from "../../src/rule-engine/types.js";

describe("the rule engine", () => {
  it("keeps 200k findings of one rule (a spread into push() would throw a RangeError)", () => {
    const count = 200_000;
    const flood: RuleModule = {
      meta: { id: "table-unread", category: "table", defaultSeverity: "warning", description: "floods", messages: { m: "finding {n}" }, fixable: false },
      check(context) {
        for (let n = 0; n < count; n++) context.report({ messageId: "m", data: { n }, file: "s.cql", range: FILE_START, entity: `n:${n}` });
      },
    };
    const findings = runRules(analyse({ files: [] }), { rules: [flood] });
    expect(findings.filter((f) => f.rule === "internal-error")).toEqual([]);
    expect(findings.filter((f) => f.rule === "table-unread")).toHaveLength(count);
  });
});
