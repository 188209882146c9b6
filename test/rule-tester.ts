// A strict rule tester for vitest, after ESLint's RuleTester. Each case is a small schema (and
// manifest) run through the real analysis (`analyse` from src/review.ts) and then through the
// engine with only the rule under test. Invalid cases list every finding they expect, and the
// fixed CQL when the rule offers a fix; a fix must parse and must make its finding go away.
import { describe, expect, it } from "vitest";
import { rules as registry } from "../rules/index.js";
import type { ReviewConfig } from "../src/config.js";
import { parseCql } from "../src/cql/index.js";
import { compareFindings, type Finding, type Fix } from "../src/findings.js";
import { analyse, type SourceFile } from "../src/review.js";
import { formatMessage, runRules } from "../src/rule-engine/engine.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import { SUPPRESSION_UNUSED } from "../src/rule-engine/suppression.js";
import type { RuleModule, RuleReport } from "../src/rule-engine/types.js";
import type { CassandraVersion } from "../src/schema/model.js";

/** Where a case's single CQL text and manifest are put. */
export const SCHEMA_PATH = "schema.cql";
export const MANIFEST_PATH = "access-patterns.yaml";

export type PartialConfig = Partial<Omit<ReviewConfig, "limits" | "comments">> & {
  limits?: Partial<ReviewConfig["limits"]>;
  comments?: Partial<ReviewConfig["comments"]>;
};

export interface RuleTestCase {
  name?: string;
  /** one schema file (`schema.cql`) or several, by path */
  cql: string | Record<string, string>;
  /** the access-patterns manifest (YAML), at `access-patterns.yaml` */
  manifest?: string;
  /** other files of the repository by path, such as saved nodetool output (`cassandra-stats/node1.txt`) */
  files?: Record<string, string>;
  /** merged over the loaded config (rules and limits key by key), or the text of `.github/cql-review.yml` */
  config?: PartialConfig | string;
  cassandra?: CassandraVersion;
  /** the base commit, for rules that compare */
  base?: { cql: string | Record<string, string>; manifest?: string };
}

export interface ExpectedFinding {
  messageId: string;
  line: number;
  column?: number;
  /** checked only when given */
  file?: string;
  /** a subset of the finding's data */
  data?: Record<string, string | number | boolean | null>;
}

export interface InvalidRuleTestCase extends RuleTestCase {
  findings: ExpectedFinding[];
  /** the fixed CQL (of `schema.cql`, or of each file by path) when the rule offers a fix */
  output?: string | Record<string, string>;
}

export interface RuleTests {
  valid: RuleTestCase[];
  invalid: InvalidRuleTestCase[];
}

/** Findings of the rule under test with the message id that produced each one. */
export interface RuleRun {
  model: AnalysedModel;
  findings: (Finding & { messageId: string })[];
}

function sourceFiles(cql: string | Record<string, string>, manifest: string | undefined, others: Record<string, string> = {}): SourceFile[] {
  const schema = typeof cql === "string" ? { [SCHEMA_PATH]: cql } : cql;
  const files = Object.entries(schema).map(([path, content]) => ({ path, content }));
  if (manifest !== undefined) files.push({ path: MANIFEST_PATH, content: manifest });
  for (const [path, content] of Object.entries(others)) files.push({ path, content });
  return files;
}

export function applyConfig(config: ReviewConfig, partial: PartialConfig | undefined): ReviewConfig {
  if (!partial) return config;
  return {
    ...config,
    ...partial,
    limits: { ...config.limits, ...partial.limits },
    comments: { ...config.comments, ...partial.comments },
    rules: { ...config.rules, ...partial.rules },
  };
}

export const CONFIG_PATH = ".github/cql-review.yml";

function buildModel(files: SourceFile[], testCase: RuleTestCase): AnalysedModel {
  const configFile = typeof testCase.config === "string" ? { path: CONFIG_PATH, content: testCase.config } : undefined;
  const model = analyse({ files, ...(configFile ? { configFile } : {}), ...(testCase.cassandra ? { cassandra: testCase.cassandra } : {}) });
  return typeof testCase.config === "object" ? { ...model, config: applyConfig(model.config, testCase.config) } : model;
}

/** For findings the engine raises on a rule's behalf (config problems): the template that yields the message. */
function inferMessageId(rule: RuleModule, finding: Finding): string {
  const match = Object.entries(rule.meta.messages).find(([, template]) => formatMessage(template, finding.data) === finding.message);
  return match ? match[0] : "(unknown)";
}

/** Problems in a case's own input that would make it test something else than the rule. */
function inputProblems(model: AnalysedModel, rule: RuleModule): Finding[] {
  if (rule.meta.category === "input") return [];
  return model.inputFindings.filter((f) => f.severity === "error");
}

/** Runs the rule (alone, or with the catalogue when it judges other rules' findings) over a case. */
export function runRule(rule: RuleModule, testCase: RuleTestCase, files = sourceFiles(testCase.cql, testCase.manifest, testCase.files)): RuleRun {
  const model = buildModel(files, testCase);
  const base = testCase.base ? buildModel(sourceFiles(testCase.base.cql, testCase.base.manifest), testCase) : undefined;
  const reports: RuleReport[] = [];
  const recording: RuleModule = {
    meta: rule.meta,
    check(context) {
      rule.check({ ...context, report: (report) => (reports.push(report), context.report(report)) });
    },
  };
  const catalogue =
    rule.meta.id === SUPPRESSION_UNUSED ? [...registry.filter((r) => r.meta.id !== rule.meta.id), recording] : [recording];
  const all = runRules(model, { rules: catalogue, ...(base ? { base } : {}) });
  const crash = all.find((f) => f.rule === "internal-error" && f.data?.["rule"] === rule.meta.id);
  if (crash) throw new Error(`rule ${rule.meta.id} threw: ${crash.message}`);
  const messageIds = new Map(reports.map((r) => [`${rule.meta.id}:${r.entity}`, r.messageId]));
  const findings = all
    .filter((f) => f.rule === rule.meta.id)
    .map((f) => ({ ...f, messageId: messageIds.get(f.fingerprint) ?? inferMessageId(rule, f) }));
  return { model, findings };
}

function fixesByFile(fixes: Fix[]): Map<string, Fix[]> {
  const byFile = new Map<string, Fix[]>();
  for (const fix of fixes) {
    const list = byFile.get(fix.file) ?? [];
    // The same fix offered by several findings (e.g. one table for several queries) applies once.
    if (!list.some((f) => f.range.start.offset === fix.range.start.offset && f.range.end.offset === fix.range.end.offset && f.replacement === fix.replacement)) {
      list.push(fix);
    }
    byFile.set(fix.file, list);
  }
  return byFile;
}

/** Applies non-overlapping fixes to a text, last first so earlier offsets stay valid. */
export function applyFixes(text: string, fixes: Fix[]): string {
  const sorted = [...fixes].sort((a, b) => b.range.start.offset - a.range.start.offset);
  let result = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const fix of sorted) {
    if (fix.range.end.offset > limit) throw new Error(`overlapping fixes in ${fix.file}: ${fix.description}`);
    result = result.slice(0, fix.range.start.offset) + fix.replacement + result.slice(fix.range.end.offset);
    limit = fix.range.start.offset;
  }
  return result;
}

function caseLabel(testCase: RuleTestCase, index: number): string {
  if (testCase.name) return testCase.name;
  const text = typeof testCase.cql === "string" ? testCase.cql : Object.values(testCase.cql).join(" ");
  const oneLine = text.replace(/\s+/g, " ").trim();
  return `#${index + 1}: ${oneLine.length > 70 ? `${oneLine.slice(0, 67)}...` : oneLine}`;
}

function assertNoDuplicates(id: string, tests: RuleTests): void {
  const seen = new Map<string, string>();
  const cases = [...tests.valid.map((c) => ["valid", c] as const), ...tests.invalid.map((c) => ["invalid", c] as const)];
  cases.forEach(([kind, testCase], index) => {
    const { name: _name, ...content } = testCase as RuleTestCase & Partial<InvalidRuleTestCase>;
    const { findings: _findings, output: _output, ...input } = content;
    const key = JSON.stringify(input);
    const previous = seen.get(key);
    if (previous) throw new Error(`${id}: duplicate test case (${kind} #${index + 1} repeats ${previous})`);
    seen.set(key, `${kind} #${index + 1}`);
  });
}

export function checkValid(rule: RuleModule, testCase: RuleTestCase): void {
  const { model, findings } = runRule(rule, testCase);
  expect(inputProblems(model, rule), "the case's own schema/manifest has errors").toEqual([]);
  expect(findings.map((f) => `${f.location.range.start.line}:${f.location.range.start.column} ${f.messageId}: ${f.message}`)).toEqual([]);
}

export function checkInvalid(rule: RuleModule, testCase: InvalidRuleTestCase): void {
  if (testCase.findings.length === 0) throw new Error("an invalid case must list the findings it expects");
  const files = sourceFiles(testCase.cql, testCase.manifest, testCase.files);
  const { model, findings } = runRule(rule, testCase, files);
  expect(inputProblems(model, rule), "the case's own schema/manifest has errors").toEqual([]);
  const actual = [...findings].sort(compareFindings).map((f, i) => {
    const expected = testCase.findings[i];
    return {
      messageId: f.messageId,
      line: f.location.range.start.line,
      ...(expected?.column !== undefined ? { column: f.location.range.start.column } : {}),
      ...(expected?.file !== undefined ? { file: f.location.file } : {}),
      ...(expected?.data !== undefined ? { data: pick(f.data ?? {}, Object.keys(expected.data)) } : {}),
    };
  });
  expect(actual, findings.map((f) => f.message).join("\n")).toEqual(testCase.findings);
  checkFixes(rule, testCase, files, findings);
}

function pick(data: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, data[k]]));
}

function checkFixes(rule: RuleModule, testCase: InvalidRuleTestCase, files: SourceFile[], findings: Finding[]): void {
  const fixes = findings.flatMap((f) => (f.fix ? [f.fix] : []));
  if (fixes.length === 0) {
    expect(testCase.output, "the case gives an output but no finding offers a fix").toBeUndefined();
    return;
  }
  if (testCase.output === undefined) throw new Error(`${rule.meta.id} offers a fix here: the case must give its output`);
  const fixed = files.map((file) => {
    const own = fixesByFile(fixes).get(file.path);
    return own ? { path: file.path, content: applyFixes(file.content, own) } : file;
  });
  const unknownFile = fixes.find((fix) => !files.some((f) => f.path === fix.file));
  if (unknownFile) throw new Error(`a fix targets ${unknownFile.file}, which is not a file of the case`);
  const expectedOutput = typeof testCase.output === "string" ? { [SCHEMA_PATH]: testCase.output } : testCase.output;
  for (const [path, content] of Object.entries(expectedOutput)) {
    expect(fixed.find((f) => f.path === path)?.content, `fixed ${path}`).toBe(content);
  }
  for (const file of fixed) {
    if (!file.path.endsWith(".cql") || !fixes.some((fix) => fix.file === file.path)) continue;
    const syntaxErrors = parseCql(file.content).diagnostics.filter((d) => d.code === "cql-syntax-error");
    expect(syntaxErrors.map((d) => d.message), `the fixed ${file.path} must parse`).toEqual([]);
  }
  const after = runRule(rule, testCase, fixed);
  const fixedFingerprints = new Set(findings.filter((f) => f.fix).map((f) => f.fingerprint));
  expect(
    after.findings.filter((f) => fixedFingerprints.has(f.fingerprint)).map((f) => f.message),
    "the fix must remove its finding",
  ).toEqual([]);
}

export const ruleTester = {
  run(id: string, rule: RuleModule, tests: RuleTests): void {
    if (rule.meta.id !== id) throw new Error(`rule tester: id "${id}" does not match the rule's meta.id "${rule.meta.id}"`);
    assertNoDuplicates(id, tests);
    describe(id, () => {
      if (tests.valid.length > 0) {
        describe("valid", () => {
          tests.valid.forEach((testCase, index) => it(caseLabel(testCase, index), () => checkValid(rule, testCase)));
        });
      }
      if (tests.invalid.length > 0) {
        describe("invalid", () => {
          tests.invalid.forEach((testCase, index) => it(caseLabel(testCase, index), () => checkInvalid(rule, testCase)));
        });
      }
    });
  },
};
