import { describe, expect, it } from "vitest";
import rule from "../../rules/internal-error.js";
import queryInvalid from "../../rules/query-invalid.js";
import type { QueryAnalysis } from "../../src/analysis/types.js";
import { runRules } from "../../src/rule-engine/engine.js";
import { PLANNER_FAILURE_GIST } from "../../src/rule-engine/helpers.js";
import { emptyModel, rangeAt } from "../rule-engine/model-fixtures.js";
import { ruleTester } from "../rule-tester.js";

// The engine's own internal-error findings (a rule that throws) are tested in
// test/rule-engine/engine.test.ts; here, a healthy review reports none.
ruleTester.run("internal-error", rule, {
  valid: [
    { name: "a table", cql: "CREATE TABLE videos (\n  video_id uuid PRIMARY KEY,\n  title text\n);\n" },
    { name: "broken input is reported by its own rules, not as a crash", cql: "CREATE TABLE videos (video_id uuid PRIMARY KEY title text);\n" },
  ],
  invalid: [],
});

describe("internal-error on a query the planner could not plan", () => {
  const location = { file: "access-patterns.yaml", range: rangeAt(7, 5) };
  const failedPlan: QueryAnalysis = {
    id: "Q3",
    location,
    form: "cql",
    table: "shop.videos",
    candidates: [],
    plan: {
      verdict: "invalid",
      partitions: null,
      reason: "The planner could not judge this statement (x is undefined).",
      ruleIds: [],
      errorGist: PLANNER_FAILURE_GIST,
      direction: null,
      rowsRead: null,
      allowFilteringWritten: false,
      notes: [],
      steps: [],
    },
  };

  it("reports the planner's failure as cql-review's, not as Cassandra rejecting the query", () => {
    const findings = runRules(emptyModel({ queries: [failedPlan] }), { rules: [rule, queryInvalid] });
    expect(findings.map((f) => [f.rule, f.severity, f.fingerprint])).toEqual([["internal-error", "info", "internal-error:query:Q3"]]);
    expect(findings[0]!.message).toBe(
      "cql-review could not plan Q3: The planner could not judge this statement (x is undefined). Its verdict and the query rules' findings on it are missing from this review. Please report it with the query and its table.",
    );
  });

  it("leaves a real rejection to query-invalid", () => {
    const rejected = { ...failedPlan, plan: { ...failedPlan.plan, errorGist: "Undefined column name tilte", reason: "A10: unknown column." } };
    expect(runRules(emptyModel({ queries: [rejected] }), { rules: [rule, queryInvalid] }).map((f) => f.rule)).toEqual(["query-invalid"]);
  });
});
