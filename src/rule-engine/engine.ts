// The rule engine: runs the catalogue over an analysed model and returns the review's findings.
// Config decides each rule's severity and options; the engine formats messages, builds stable
// fingerprints, keeps the input stages' findings under their rules, drops suppressed findings,
// and survives a rule that throws (the review must never crash because one rule has a bug).
import { rules as registry } from "../../rules/index.js";
import { compareFindings, FILE_START, SEVERITY_ORDER, type Finding, type Severity, type SourceLocation } from "../findings.js";
import { closestRuleId } from "./helpers.js";
import { canonicalRuleId } from "./rule-aliases.js";
import type { AnalysedModel } from "./model.js";
import { groupSharedCauses } from "./grouping.js";
import { applySuppressions, collectSuppressions, SUPPRESSION_UNUSED } from "./suppression.js";
import type { RuleContext, RuleModule, RuleReport } from "./types.js";

export interface RunRulesOptions {
  /** the base commit's model, for rules that compare (change rules) */
  base?: AnalysedModel;
  /** the rules to run instead of the whole registry (the rule tester runs one) */
  rules?: RuleModule[];
  /** asked before each rule but the input ones; once true, the rules left are skipped and an `input-limit-exceeded` finding names them */
  pastDeadline?: () => boolean;
}

/** Rules whose findings the engine itself raises, besides re-reporting the input stages'. */
export const CONFIG_INVALID = "config-invalid";
export const INTERNAL_ERROR = "internal-error";
export const INPUT_LIMIT_EXCEEDED = "input-limit-exceeded";
const DEFAULT_CONFIG_PATH = ".github/cql-review.yml";

interface ResolvedRule {
  severity: Severity | "off";
  options: unknown;
}

/**
 * A template cut at its placeholders: texts at even indexes, placeholder names at odd ones. Cut
 * once per template (a review formats hundreds of findings from a few dozen templates).
 */
const templateParts = new Map<string, string[]>();

function partsOf(template: string): string[] {
  let parts = templateParts.get(template);
  if (!parts) {
    parts = template.split(/\{(\w+)\}/);
    templateParts.set(template, parts);
  }
  return parts;
}

/** `{name}` placeholders filled from data; an unknown name stays as written, so the gap is visible. */
export function formatMessage(template: string, data: RuleReport["data"]): string {
  const parts = partsOf(template);
  let message = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i]!;
    message += data && Object.prototype.hasOwnProperty.call(data, key) ? String(data[key]) : `{${key}}`;
    message += parts[i + 1]!;
  }
  return message;
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/** Collects findings; knows every rule's meta and configured severity. */
class FindingCollector {
  readonly findings: Finding[] = [];

  constructor(
    private readonly rulesById: ReadonlyMap<string, RuleModule>,
    private readonly settings: Map<string, ResolvedRule>,
    private readonly model: AnalysedModel,
  ) {}

  severityOf(ruleId: string): Severity | "off" {
    return this.settings.get(ruleId)?.severity ?? this.rulesById.get(ruleId)?.meta.defaultSeverity ?? "error";
  }

  /** Turns one report into a finding; throws on an unknown message id (a bug in the rule). */
  build(ruleId: string, report: RuleReport, severity: Severity): Finding {
    const meta = this.rulesById.get(ruleId)?.meta;
    let message = report.message;
    if (message === undefined) {
      const template = meta && Object.prototype.hasOwnProperty.call(meta.messages, report.messageId) ? meta.messages[report.messageId] : undefined;
      if (template === undefined) throw new Error(`rule ${ruleId} reported unknown message id "${report.messageId}"`);
      message = formatMessage(template, report.data);
    }
    const capped = report.severityCap !== undefined && SEVERITY_ORDER[report.severityCap] > SEVERITY_ORDER[severity] ? report.severityCap : severity;
    const finding: Finding = {
      rule: ruleId,
      severity: capped,
      location: { file: report.file, range: report.range },
      message,
      fingerprint: `${ruleId}:${report.entity}`,
    };
    if (report.data) finding.data = report.data;
    if (report.fix) {
      // Safe only when the rule says its fixes are and this one did not opt out.
      const { safe, ...fix } = report.fix;
      finding.fix = meta?.safeFix === true && safe !== false ? { ...fix, safe: true } : fix;
    }
    return finding;
  }

  /** A finding the engine raises itself (config problems, crashed rules), unless config turned its rule off. */
  raise(ruleId: string, report: RuleReport): void {
    const severity = this.severityOf(ruleId);
    if (severity === "off") return;
    this.findings.push(this.build(ruleId, report, severity));
  }

  /** Runs one rule, keeping its findings only when it completes. */
  run(rule: RuleModule, extra: Pick<RuleContext, "base" | "afterRules">): void {
    const { id } = rule.meta;
    const severity = this.severityOf(id);
    if (severity === "off") return;
    const reports: RuleReport[] = [];
    const context: RuleContext = {
      model: this.model,
      options: this.settings.get(id)?.options ?? {},
      report: (report) => void reports.push(report),
      ...(extra.base ? { base: extra.base } : {}),
      ...(extra.afterRules ? { afterRules: extra.afterRules } : {}),
    };
    try {
      rule.check(context);
      const built = reports.map((report) => this.build(id, report, severity));
      // One by one: spreading a rule's hundred thousand findings into push() overflows the stack.
      for (const finding of built) this.findings.push(finding);
    } catch (error) {
      this.raise(INTERNAL_ERROR, {
        messageId: "ruleFailed",
        data: { rule: id, error: describeError(error) },
        file: anchorFile(this.model),
        range: FILE_START,
        entity: `rule:${id}`,
      });
    }
  }
}

/** A file of the review to hang findings about the review as a whole on: the manifest first, as every query meets it. */
function anchorFile(model: AnalysedModel): string {
  return model.manifest?.file ?? model.manifestFiles[0] ?? model.schemaFiles[0]?.path ?? model.configFile?.path ?? DEFAULT_CONFIG_PATH;
}

function ruleSettingLocation(model: AnalysedModel, ruleId: string): SourceLocation {
  return model.configFile?.ruleLocations?.[ruleId] ?? { file: model.configFile?.path ?? DEFAULT_CONFIG_PATH, range: FILE_START };
}

function issuesText(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

interface SettingProblem {
  messageId: "unknownRule" | "badOptions" | "noOptions";
  ruleId: string;
  data: Record<string, string>;
}

/** Severity and options per rule from the config; problems for unknown ids and invalid options. */
function resolveSettings(model: AnalysedModel, rulesById: ReadonlyMap<string, RuleModule>): { settings: Map<string, ResolvedRule>; problems: SettingProblem[] } {
  const settings = new Map<string, ResolvedRule>();
  const problems: SettingProblem[] = [];
  // A former id configures its rule, unless the config also names the rule by its current id.
  const configured: typeof model.config.rules = {};
  for (const [id, setting] of Object.entries(model.config.rules)) {
    const current = canonicalRuleId(id);
    if (current === id || !Object.prototype.hasOwnProperty.call(model.config.rules, current)) configured[current] = setting;
  }
  for (const id of Object.keys(model.config.rules).sort()) {
    if (rulesById.has(canonicalRuleId(id))) continue;
    const suggestion = closestRuleId(id, rulesById.keys());
    problems.push({ messageId: "unknownRule", ruleId: id, data: { rule: id, suggestion: suggestion ? ` (did you mean "${suggestion}"?)` : "" } });
  }
  for (const [id, rule] of rulesById) {
    const setting = Object.prototype.hasOwnProperty.call(configured, id) ? configured[id] : undefined;
    const severity = setting?.severity ?? rule.meta.defaultSeverity;
    const schema = rule.meta.options;
    if (!schema) {
      if (setting?.options !== undefined) problems.push({ messageId: "noOptions", ruleId: id, data: { rule: id } });
      settings.set(id, { severity, options: {} });
      continue;
    }
    const parsed = schema.safeParse(setting?.options ?? {});
    if (parsed.success) {
      settings.set(id, { severity, options: parsed.data });
      continue;
    }
    problems.push({ messageId: "badOptions", ruleId: id, data: { rule: id, problem: issuesText(parsed.error) } });
    // Bad options fall back to the defaults: the rule still runs, the config problem is reported.
    const defaults = schema.safeParse({});
    settings.set(id, { severity: defaults.success ? severity : "off", options: defaults.success ? defaults.data : {} });
  }
  return { settings, problems };
}

/**
 * Runs every rule whose configured severity is not `off` and returns the findings, sorted with
 * compareFindings, de-duplicated by fingerprint, with suppressed ones removed.
 */
export function runRules(model: AnalysedModel, options: RunRulesOptions = {}): Finding[] {
  const catalogue = [...(options.rules ?? registry)].sort((a, b) => (a.meta.id < b.meta.id ? -1 : a.meta.id > b.meta.id ? 1 : 0));
  // Ids are checked against the whole registry even when a subset runs: the config is the repository's.
  const rulesById = new Map<string, RuleModule>();
  for (const rule of [...registry, ...catalogue]) rulesById.set(rule.meta.id, rule);
  const { settings, problems } = resolveSettings(model, rulesById);
  const collector = new FindingCollector(rulesById, settings, model);

  for (const problem of problems) {
    const location = ruleSettingLocation(model, problem.ruleId);
    collector.raise(CONFIG_INVALID, {
      messageId: problem.messageId,
      data: problem.data,
      file: location.file,
      range: location.range,
      entity: `rules.${problem.ruleId}:${problem.messageId}`,
    });
  }

  const judges = catalogue.filter((rule) => rule.meta.id === SUPPRESSION_UNUSED);
  const pastDeadline = options.pastDeadline ?? (() => false);
  const skipped: string[] = [];
  for (const rule of catalogue) {
    if (rule.meta.id === SUPPRESSION_UNUSED) continue;
    // Input rules only re-report what the stages found (which files were not read, and why): always run.
    const skippable = rule.meta.category !== "input" && collector.severityOf(rule.meta.id) !== "off";
    if (skippable && (skipped.length > 0 || pastDeadline())) skipped.push(rule.meta.id);
    else collector.run(rule, { base: options.base });
  }
  if (skipped.length > 0) {
    collector.raise(INPUT_LIMIT_EXCEEDED, {
      messageId: "input",
      data: {
        message: `The review ran out of time while checking the rules: ${skipped.length} of them did not run (${skipped.join(", ")}), so their findings are missing.`,
      },
      file: anchorFile(model),
      range: FILE_START,
      entity: "time-budget:rules",
    });
  }

  // A stage may report under an id the registry does not know yet: keep it, as the stage wrote it,
  // rather than lose it (config cannot address an unknown id; it is reported as config-invalid).
  if (!options.rules) {
    for (const finding of model.inputFindings) {
      if (!rulesById.has(finding.rule)) collector.findings.push(finding);
    }
  }

  const beforeJudges = dedupe(collector.findings);
  const ruleIds = new Set(rulesById.keys());
  const judgedFrom = collector.findings.length;
  for (const rule of judges) collector.run(rule, { base: options.base, afterRules: { findings: beforeJudges, ruleIds } });
  // The first finding per fingerprint among all is the first among the sorted survivors and the
  // judges' findings: the sorted list is not sorted again from scratch, only merged with the few new.
  const judged = collector.findings.slice(judgedFrom);
  const unique = judged.length === 0 ? beforeJudges : dedupe([...beforeJudges, ...judged]);

  const { suppressions } = collectSuppressions(model);
  // Suppression keeps the order, so the findings stay sorted; so does grouping.
  return groupSharedCauses(applySuppressions(unique, suppressions).kept, model);
}

/** One finding per fingerprint: the first in reading order wins. */
function dedupe(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  const unique: Finding[] = [];
  for (const finding of [...findings].sort(compareFindings)) {
    if (seen.has(finding.fingerprint)) continue;
    seen.add(finding.fingerprint);
    unique.push(finding);
  }
  return unique;
}
