// The rule system, after ESLint's: one RuleModule per file in rules/, metadata plus a pure
// `check` over the analysed model. A rule reports data, never formatted text.
import type * as z from "zod";
import type { SourceRange } from "../cql/ast.js";
import type { Finding, Severity } from "../findings.js";
import type { AnalysedModel } from "./model.js";

export type RuleCategory = "input" | "query" | "table" | "write" | "change";

export interface RuleMeta {
  id: string;
  category: RuleCategory;
  defaultSeverity: Severity;
  /** one line, shown in the rule index and SARIF */
  description: string;
  /** message templates with `{placeholders}` filled from the report's data */
  messages: Record<string, string>;
  /** zod schema of the rule's options (from the config's `[level, options]`) */
  options?: z.ZodType;
  /** whether the rule can offer a textual fix */
  fixable: boolean;
  /**
   * its fixes are mechanical and keep what the model means, so `cql-review check --fix` applies
   * them without asking (a fix may still opt out with `safe: false`); the others stay suggestions
   */
  safeFix?: boolean;
}

export interface RuleFix {
  description: string;
  file: string;
  range: SourceRange;
  replacement: string;
  /** false when this fix is not safe though the rule's fixes usually are (meta.safeFix) */
  safe?: boolean;
}

export interface RuleReport {
  messageId: string;
  data?: Record<string, string | number | boolean | null>;
  file: string;
  range: SourceRange;
  /** what the finding is about, for its fingerprint: e.g. `table:ks.t`, `query:Q1`, `column:ks.t.c` */
  entity: string;
  fix?: RuleFix;
  /**
   * the most this finding may weigh, whatever the configured severity: a rule lowers it when its
   * evidence is weak (a scan of a table the manifest sizes at a few hundred partitions)
   */
  severityCap?: Severity;
  /** only for input rules re-reporting an input stage's finding: its text, already written; every other rule uses messageId */
  message?: string;
}

export interface RuleContext<Options = unknown> {
  model: AnalysedModel;
  /** the base commit's model, when a pull request is reviewed */
  base?: AnalysedModel;
  options: Options;
  /** given only to rules that judge the other rules' output (suppression-unused): their findings before suppression, and every known rule id */
  afterRules?: { findings: readonly Finding[]; ruleIds: ReadonlySet<string> };
  report(report: RuleReport): void;
}

export interface RuleModule<Options = unknown> {
  meta: RuleMeta;
  check(context: RuleContext<Options>): void;
}
