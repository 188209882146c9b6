import { describe, expect, it } from "vitest";
import { z } from "zod";
import { rules as registry } from "../../rules/index.js";
import { compareFindings } from "../../src/findings.js";
import { analyse } from "../../src/review.js";
import { formatMessage, runRules } from "../../src/rule-engine/engine.js";
import type { RuleModule } from "../../src/rule-engine/types.js";
import { emptyModel, inputFinding, lineRule, rangeAt, withRules } from "./model-fixtures.js";

describe("formatMessage", () => {
  it("fills placeholders from data and leaves unknown ones visible", () => {
    expect(formatMessage("{query} reads {partitions} partitions ({missing})", { query: "Q1", partitions: 12 })).toBe(
      "Q1 reads 12 partitions ({missing})",
    );
  });

  it("renders null and booleans as text", () => {
    expect(formatMessage("{a}/{b}", { a: null, b: false })).toBe("null/false");
  });
});

describe("runRules: severities and options", () => {
  it("uses the rule's default severity, or the configured one", () => {
    const rule = lineRule("test-rule", [3]);
    expect(runRules(emptyModel(), { rules: [rule] }).map((f) => f.severity)).toEqual(["warning"]);
    const configured = withRules(emptyModel(), { "test-rule": { severity: "error" } });
    expect(runRules(configured, { rules: [rule] }).map((f) => f.severity)).toEqual(["error"]);
  });

  it("does not run a rule that is turned off", () => {
    let ran = false;
    const rule: RuleModule = { ...lineRule("test-rule", [1]), check: () => void (ran = true) };
    const model = withRules(emptyModel(), { "test-rule": { severity: "off" } });
    expect(runRules(model, { rules: [rule] })).toEqual([]);
    expect(ran).toBe(false);
  });

  it("validates options with the rule's zod schema and fills defaults", () => {
    const seen: unknown[] = [];
    const rule: RuleModule<{ max: number }> = {
      meta: { ...lineRule("sized", []).meta, options: z.object({ max: z.number().int().positive().default(5) }) },
      check: (context) => void seen.push(context.options),
    };
    runRules(emptyModel(), { rules: [rule as RuleModule] });
    runRules(withRules(emptyModel(), { sized: { severity: "warning", options: { max: 9 } } }), { rules: [rule as RuleModule] });
    expect(seen).toEqual([{ max: 5 }, { max: 9 }]);
  });

  it("reports invalid options as config-invalid at the setting's position and runs the rule with its defaults", () => {
    const seen: unknown[] = [];
    const rule: RuleModule = {
      meta: { ...lineRule("sized", []).meta, options: z.object({ max: z.number().default(5) }) },
      check: (context) => void seen.push(context.options),
    };
    const model = {
      ...withRules(emptyModel(), { sized: { severity: "warning", options: { max: "lots" } } }),
      configFile: { path: ".github/cql-review.yml", ruleLocations: { sized: { file: ".github/cql-review.yml", range: rangeAt(7, 3) } } },
    };
    const findings = runRules(model, { rules: [rule] });
    expect(seen).toEqual([{ max: 5 }]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: "config-invalid", severity: "error", location: { file: ".github/cql-review.yml", range: rangeAt(7, 3) } });
    expect(findings[0]!.message).toMatch(/^rules\.sized: invalid options \(max: .+\); the rule runs with its default options\.$/);
  });

  it("reports options given to a rule that takes none", () => {
    const model = withRules(emptyModel(), { "test-rule": { severity: "warning", options: { strict: true } } });
    const findings = runRules(model, { rules: [lineRule("test-rule", [])] });
    expect(findings.map((f) => [f.rule, f.message])).toEqual([["config-invalid", "rules.test-rule: this rule takes no options; the options are ignored."]]);
  });

  it("reports unknown rule ids in the config, with the closest known id, against the whole registry", () => {
    const model = withRules(emptyModel(), {
      "query-ful-scan": { severity: "off" },
      "query-full-scan": { severity: "warning" },
      "no-such-thing-at-all": { severity: "error" },
    });
    const findings = runRules(model, { rules: [lineRule("test-rule", [])] });
    expect(findings.map((f) => f.message)).toEqual([
      'rules: unknown rule "no-such-thing-at-all"; the setting is ignored.',
      'rules: unknown rule "query-ful-scan" (did you mean "query-full-scan"?); the setting is ignored.',
    ]);
    // Without a config file the problem still points somewhere a reader can find.
    expect(findings[0]!.location.file).toBe(".github/cql-review.yml");
  });
});

describe("runRules: findings", () => {
  it("formats messages, keeps data and builds a fingerprint from rule and entity, never the line", () => {
    const [finding] = runRules(emptyModel(), { rules: [lineRule("test-rule", [4])] });
    expect(finding).toEqual({
      rule: "test-rule",
      severity: "warning",
      location: { file: "schema/tables.cql", range: rangeAt(4) },
      message: "thing found on line 4",
      data: { what: "thing", line: 4 },
      fingerprint: "test-rule:line:4",
    });
  });

  it("keeps one finding per fingerprint, the first in reading order", () => {
    const rule: RuleModule = {
      meta: lineRule("twice", []).meta,
      check(context) {
        for (const line of [9, 2]) {
          context.report({ messageId: "found", data: { what: "x", line }, file: "a.cql", range: rangeAt(line), entity: "table:ks.t" });
        }
      },
    };
    const findings = runRules(emptyModel(), { rules: [rule] });
    expect(findings.map((f) => f.location.range.start.line)).toEqual([2]);
  });

  it("returns findings sorted by file, position, severity and rule", () => {
    const rules = [lineRule("b-rule", [5, 1]), lineRule("a-rule", [5], { defaultSeverity: "error" }), lineRule("c-rule", [5], { defaultSeverity: "info" })];
    const findings = runRules(emptyModel(), { rules });
    expect(findings.map((f) => `${f.location.range.start.line} ${f.rule}`)).toEqual(["1 b-rule", "5 a-rule", "5 b-rule", "5 c-rule"]);
    expect([...findings].sort(compareFindings)).toEqual(findings);
  });

  it("carries a rule's fix into the finding", () => {
    const rule: RuleModule = {
      meta: { ...lineRule("fixer", []).meta, fixable: true },
      check(context) {
        context.report({
          messageId: "found",
          data: { what: "x", line: 1 },
          file: "a.cql",
          range: rangeAt(1),
          entity: "table:ks.t",
          fix: { description: "rename", file: "a.cql", range: rangeAt(1, 1, 3), replacement: "abc" },
        });
      },
    };
    expect(runRules(emptyModel(), { rules: [rule] })[0]!.fix).toEqual({ description: "rename", file: "a.cql", range: rangeAt(1, 1, 3), replacement: "abc" });
  });

  it("passes the base model to rules", () => {
    const base = emptyModel({ version: "4.1" });
    let seen: string | undefined;
    const rule: RuleModule = { meta: lineRule("compares", []).meta, check: (context) => void (seen = context.base?.version) };
    runRules(emptyModel(), { rules: [rule], base });
    expect(seen).toBe("4.1");
  });
});

describe("runRules: a rule that throws", () => {
  const throwing: RuleModule = {
    meta: lineRule("fragile", []).meta,
    check(context) {
      context.report({ messageId: "found", data: { what: "half", line: 1 }, file: "a.cql", range: rangeAt(1), entity: "x" });
      throw new TypeError("Cannot read properties of undefined (reading 'columns')");
    },
  };

  it("does not break the review: the other rules' findings stay, and an internal-error names the rule", () => {
    const findings = runRules(emptyModel({ manifestFiles: ["access-patterns.yaml"] }), { rules: [throwing, lineRule("steady", [2])] });
    expect(findings.map((f) => f.rule).sort()).toEqual(["internal-error", "steady"]);
    const crash = findings.find((f) => f.rule === "internal-error")!;
    expect(crash.severity).toBe("info");
    expect(crash.location.file).toBe("access-patterns.yaml");
    expect(crash.data).toMatchObject({ rule: "fragile" });
    expect(crash.message).toContain("Rule fragile failed on this model and was skipped");
    expect(crash.message).toContain("TypeError: Cannot read properties of undefined");
    expect(crash.fingerprint).toBe("internal-error:rule:fragile");
  });

  it("drops the partial findings of the rule that threw", () => {
    expect(runRules(emptyModel(), { rules: [throwing] }).filter((f) => f.rule === "fragile")).toEqual([]);
  });

  it("reports an unknown message id as the rule's bug, not a crash of the review", () => {
    const rule: RuleModule = {
      meta: lineRule("typo", []).meta,
      check: (context) => context.report({ messageId: "fonud", file: "a.cql", range: rangeAt(1), entity: "x" }),
    };
    const findings = runRules(emptyModel(), { rules: [rule] });
    expect(findings.map((f) => f.rule)).toEqual(["internal-error"]);
    expect(findings[0]!.message).toContain('unknown message id "fonud"');
  });

  it("does not call the crashed rule's suppressions unused: they could not be judged", () => {
    const model = analyse({ files: [{ path: "schema.cql", content: "-- cql-review-disable fragile -- known noise\nCREATE TABLE t (id uuid PRIMARY KEY);\n" }] });
    const findings = runRules(model, { rules: [...registry, throwing] });
    expect(findings.map((f) => f.rule)).toEqual(["internal-error"]);
  });

  it("lets config silence internal errors like any rule", () => {
    const model = withRules(emptyModel(), { "internal-error": { severity: "off" } });
    expect(runRules(model, { rules: [throwing] })).toEqual([]);
  });
});

describe("runRules: input findings", () => {
  const syntax = inputFinding("cql-syntax-error", 3, "schema/tables.cql:expected `)`#1", { data: { expected: ")" } });
  const unsupported = inputFinding("cql-unsupported-statement", 1, "schema/tables.cql:SOURCE#1", { severity: "info" });

  it("keeps each input finding under its rule, with its message, data and fingerprint", () => {
    const findings = runRules(emptyModel({ inputFindings: [syntax, unsupported] }));
    expect(findings).toEqual([unsupported, syntax]);
  });

  it("lets config change an input rule's severity or turn it off", () => {
    const model = withRules(emptyModel({ inputFindings: [syntax, unsupported] }), {
      "cql-syntax-error": { severity: "warning" },
      "cql-unsupported-statement": { severity: "off" },
    });
    expect(runRules(model).map((f) => [f.rule, f.severity])).toEqual([["cql-syntax-error", "warning"]]);
  });

  it("keeps an input finding whose rule the registry does not know, so nothing is lost", () => {
    const stray = inputFinding("manifest-stray-check", 2, "queries[0]", { severity: "warning" });
    expect(runRules(emptyModel({ inputFindings: [stray] }))).toEqual([stray]);
  });

  it("re-reports only the input findings of the rules that run when a subset is given", () => {
    const cqlSyntaxError = registry.find((r) => r.meta.id === "cql-syntax-error")!;
    const findings = runRules(emptyModel({ inputFindings: [syntax, unsupported] }), { rules: [cqlSyntaxError] });
    expect(findings.map((f) => f.rule)).toEqual(["cql-syntax-error"]);
  });
});

describe("runRules: manifest ignores", () => {
  const location = { file: "access-patterns.yaml", range: rangeAt(12, 7) };
  const queryRule: RuleModule = {
    meta: { ...lineRule("query-thing", []).meta, category: "query" },
    check(context) {
      for (const id of ["Q1", "Q2"]) {
        context.report({ messageId: "found", data: { what: id, line: 0 }, file: "access-patterns.yaml", range: rangeAt(id === "Q1" ? 10 : 20), entity: `query:${id}` });
      }
    },
  };

  it("drops the ignored rule's findings about that query only", () => {
    const model = emptyModel({
      manifest: {
        file: "access-patterns.yaml",
        version: 1,
        tables: [],
        writes: [],
        queries: [
          { form: "cql", id: "Q1", cql: "SELECT * FROM t", cqlLocation: location, location, ignore: [{ rule: "query-thing", reason: "admin page", location }] },
          { form: "cql", id: "Q2", cql: "SELECT * FROM t", cqlLocation: location, location, ignore: [] },
        ],
      },
    });
    expect(runRules(model, { rules: [queryRule] }).map((f) => f.fingerprint)).toEqual(["query-thing:query:Q2"]);
  });
});
