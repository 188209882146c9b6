// Suppression (docs/manifest.md, a contract). Teams silence a finding where it is written down:
//   -- cql-review-disable-next-line <rule-id>[, <rule-id>…] -- reason   (the next statement)
//   -- cql-review-disable <rule-id>[, …] -- reason                      (the rest of the file)
//   -- cql-review-enable [<rule-id>, …]                                  (ends a `disable` early)
// in any comment style (`--`, `//`, `/* */`), and in the manifest with `ignore: [{rule, reason}]`
// on a query or a write. Collecting and matching are pure functions, shared by the engine (which
// drops suppressed findings) and the suppression rules (which report missing reasons and unused
// suppressions).
import type { Comment, SourceRange, Statement } from "../cql/ast.js";
import type { Finding, SourceLocation } from "../findings.js";
import type { ManifestIgnore } from "../manifest/types.js";
import type { AnalysedModel } from "./model.js";
import { canonicalRuleId } from "./rule-aliases.js";

export type SuppressionDirective = "disable-next-line" | "disable" | "ignore";

/** Where a suppression applies: a span of a schema file, or one query or write of the manifest. */
export type SuppressionScope =
  | { kind: "span"; file: string; startOffset: number; endOffset: number }
  | { kind: "entity"; entity: string }
  /** a statement of application code: where its text is written (a constant may be in another file) */
  | { kind: "spans"; spans: { file: string; startOffset: number; endOffset: number }[] };

/** One rule id of one suppression comment or manifest `ignore` entry. */
export interface Suppression {
  directive: SuppressionDirective;
  rule: string;
  reason?: string;
  /** where the comment or the `ignore` entry is written */
  location: SourceLocation;
  scope: SuppressionScope;
  /** the comment or entry as a whole (several rule ids of one comment share it), stable across edits elsewhere */
  directiveKey: string;
}

/** A suppression comment that names no rule at all: it cannot silence anything. */
export interface EmptyDirective {
  directive: SuppressionDirective;
  location: SourceLocation;
  directiveKey: string;
}

export interface CollectedSuppressions {
  suppressions: Suppression[];
  empty: EmptyDirective[];
}

const DIRECTIVE = /^cql-review-(disable-next-line|disable|enable)(?=\s|$)(.*)$/s;
/** ` -- reason`: the separator needs white space before it so rule ids with dashes stay whole. */
const REASON_SEPARATOR = /\s--(?:\s|$)/;

interface ParsedDirective {
  verb: "disable-next-line" | "disable" | "enable";
  rules: string[];
  reason?: string;
}

/** Reads a comment's text (markers already stripped) as a directive, or undefined when it is none. */
export function parseDirective(text: string): ParsedDirective | undefined {
  const match = DIRECTIVE.exec(text.trim());
  if (!match) return undefined;
  const verb = match[1] as ParsedDirective["verb"];
  const body = match[2] ?? "";
  const separator = REASON_SEPARATOR.exec(body);
  const rulesText = separator ? body.slice(0, separator.index) : body;
  const reasonText = separator ? body.slice(separator.index + separator[0].length) : "";
  const rules = rulesText.split(/[\s,]+/).filter((id) => id.length > 0).map(canonicalRuleId);
  const reason = reasonText.replace(/\s+/g, " ").trim();
  return { verb, rules, ...(reason ? { reason } : {}) };
}

/** The text of a finding's fingerprint after `rule:`: what the finding is about. */
export function findingEntity(finding: Finding): string {
  const prefix = `${finding.rule}:`;
  return finding.fingerprint.startsWith(prefix) ? finding.fingerprint.slice(prefix.length) : finding.fingerprint;
}

function lineEndOffset(text: string, offset: number): number {
  const next = text.indexOf("\n", offset);
  return next === -1 ? text.length : next;
}

/**
 * What `disable-next-line` covers. Before a statement (the usual place): the whole next statement.
 * Inside a statement (e.g. above one column of a CREATE TABLE): the next line, as the name says.
 */
function nextLineScope(comment: Comment, statements: Statement[], text: string): { startOffset: number; endOffset: number } {
  const commentEnd = comment.range.end.offset;
  const enclosing = statements.find((s) => s.range.start.offset < comment.range.start.offset && commentEnd <= s.range.end.offset);
  if (enclosing) {
    const lineStart = lineEndOffset(text, commentEnd) + 1;
    return { startOffset: lineStart, endOffset: lineEndOffset(text, Math.min(lineStart, text.length)) };
  }
  const next = statements.find((s) => s.range.start.offset >= commentEnd);
  if (!next) return { startOffset: text.length, endOffset: text.length };
  return { startOffset: next.range.start.offset, endOffset: next.range.end.offset };
}

function collectFromSchemaFile(
  file: AnalysedModel["schemaFiles"][number],
  out: CollectedSuppressions,
): void {
  const { statements, comments } = file.parse;
  const sortedComments = [...comments].sort((a, b) => a.range.start.offset - b.range.start.offset);
  // The n-th directive of the same text in a file keeps its key when unrelated lines move.
  const occurrences = new Map<string, number>();
  // `disable` directives wait here for a matching `enable` (or the end of the file).
  const open: Suppression[] = [];
  for (const comment of sortedComments) {
    const parsed = parseDirective(comment.text);
    if (!parsed) continue;
    const location: SourceLocation = { file: file.path, range: comment.range };
    if (parsed.verb === "enable") {
      for (const suppression of open) {
        if (suppression.scope.kind !== "span" || suppression.scope.endOffset !== file.text.length) continue;
        if (parsed.rules.length === 0 || parsed.rules.includes(suppression.rule)) {
          suppression.scope.endOffset = comment.range.start.offset;
        }
      }
      continue;
    }
    const textKey = `${parsed.verb} ${parsed.rules.join(",")}`;
    const n = (occurrences.get(textKey) ?? 0) + 1;
    occurrences.set(textKey, n);
    const directiveKey = `${file.path}:${textKey}#${n}`;
    if (parsed.rules.length === 0) {
      out.empty.push({ directive: parsed.verb, location, directiveKey });
      continue;
    }
    const span =
      parsed.verb === "disable-next-line"
        ? nextLineScope(comment, statements, file.text)
        : { startOffset: comment.range.end.offset, endOffset: file.text.length };
    for (const rule of new Set(parsed.rules)) {
      const suppression: Suppression = {
        directive: parsed.verb,
        rule,
        ...(parsed.reason ? { reason: parsed.reason } : {}),
        location,
        scope: { kind: "span", file: file.path, ...span },
        directiveKey,
      };
      out.suppressions.push(suppression);
      if (parsed.verb === "disable") open.push(suppression);
    }
  }
}

function collectFromManifest(model: AnalysedModel, out: CollectedSuppressions): void {
  const manifest = model.manifest;
  if (!manifest) return;
  // Most entries ignore nothing: only those that do get an entity and a count of their rules.
  const entries: { entity: string; ignore: ManifestIgnore[] }[] = [];
  for (const q of manifest.queries) if (q.ignore.length > 0) entries.push({ entity: `query:${q.id}`, ignore: q.ignore });
  for (const w of manifest.writes) if (w.ignore.length > 0) entries.push({ entity: `write:${w.id}`, ignore: w.ignore });
  for (const { entity, ignore } of entries) {
    const occurrences = new Map<string, number>();
    for (const entry of ignore) {
      const n = (occurrences.get(entry.rule) ?? 0) + 1;
      occurrences.set(entry.rule, n);
      const reason = entry.reason?.trim();
      out.suppressions.push({
        directive: "ignore",
        rule: canonicalRuleId(entry.rule),
        ...(reason ? { reason } : {}),
        location: entry.location,
        scope: { kind: "entity", entity },
        directiveKey: `${entity}:ignore:${entry.rule}#${n}`,
      });
    }
  }
}

/**
 * `// cql-review-disable-next-line <rule> -- reason` (`#` in Python) in application code: the
 * statement run on the next line, wherever its text is written; `disable` the rest of the file.
 */
function collectFromCode(model: AnalysedModel, out: CollectedSuppressions): void {
  const extraction = model.code?.extraction;
  if (!extraction?.directives) return;
  const statements = [...extraction.statements, ...extraction.dynamic];
  const occurrences = new Map<string, number>();
  const open: Suppression[] = [];
  for (const directive of extraction.directives) {
    const parsed = parseDirective(directive.text);
    if (!parsed) continue;
    const location: SourceLocation = { file: directive.file, range: directive.range };
    if (parsed.verb === "enable") {
      for (const suppression of open) {
        if (suppression.scope.kind !== "span" || suppression.scope.file !== directive.file || suppression.scope.endOffset !== directive.endOffset) continue;
        if (parsed.rules.length === 0 || parsed.rules.includes(suppression.rule)) suppression.scope.endOffset = directive.range.start.offset;
      }
      continue;
    }
    const textKey = `${parsed.verb} ${parsed.rules.join(",")}`;
    const n = (occurrences.get(`${directive.file}:${textKey}`) ?? 0) + 1;
    occurrences.set(`${directive.file}:${textKey}`, n);
    const directiveKey = `${directive.file}:${textKey}#${n}`;
    if (parsed.rules.length === 0) {
      out.empty.push({ directive: parsed.verb, location, directiveKey });
      continue;
    }
    const { from, to } = directive.nextLines;
    const below = statements.filter((s) => {
      const call = "call" in s && s.call ? s.call : { file: s.file, line: s.range.start.line };
      const onNext = (file: string, line: number) => file === directive.file && line >= from && line <= to;
      return onNext(call.file, call.line) || onNext(s.file, s.range.start.line);
    });
    const scope: SuppressionScope =
      parsed.verb === "disable-next-line"
        ? { kind: "spans", spans: below.map((s) => ({ file: s.file, startOffset: s.range.start.offset, endOffset: s.range.end.offset })) }
        : { kind: "span", file: directive.file, startOffset: directive.range.end.offset, endOffset: directive.endOffset };
    for (const rule of new Set(parsed.rules)) {
      const suppression: Suppression = { directive: parsed.verb, rule, ...(parsed.reason ? { reason: parsed.reason } : {}), location, scope, directiveKey };
      out.suppressions.push(suppression);
      if (parsed.verb === "disable") open.push(suppression);
    }
  }
}

/** Every suppression written in the schema files' comments and the manifest's `ignore` lists. */
// The engine and the two suppression rules each ask: collect once per model (callers only read).
const collectedByModel = new WeakMap<AnalysedModel, CollectedSuppressions>();

export function collectSuppressions(model: AnalysedModel): CollectedSuppressions {
  const cached = collectedByModel.get(model);
  if (cached) return cached;
  const out: CollectedSuppressions = { suppressions: [], empty: [] };
  for (const file of model.schemaFiles) collectFromSchemaFile(file, out);
  collectFromManifest(model, out);
  collectFromCode(model, out);
  collectedByModel.set(model, out);
  return out;
}

function startsInside(range: SourceRange, scope: { startOffset: number; endOffset: number }): boolean {
  const start = range.start.offset;
  // An empty span (a directive with nothing after it) covers nothing.
  return scope.startOffset < scope.endOffset && start >= scope.startOffset && start < scope.endOffset;
}

/** A statement's own range: a finding at its first character or anywhere in it. */
function startsInsideInclusive(range: SourceRange, span: { startOffset: number; endOffset: number }): boolean {
  return range.start.offset >= span.startOffset && range.start.offset < Math.max(span.endOffset, span.startOffset + 1);
}

/** Whether the suppression silences the finding: the same rule, and the finding inside its scope. */
export function suppresses(suppression: Suppression, finding: Finding): boolean {
  if (suppression.rule !== finding.rule) return false;
  const { scope } = suppression;
  if (scope.kind === "span") return finding.location.file === scope.file && startsInside(finding.location.range, scope);
  if (scope.kind === "spans") return scope.spans.some((span) => finding.location.file === span.file && startsInsideInclusive(finding.location.range, span));
  const entity = findingEntity(finding);
  return entity === scope.entity || entity.startsWith(`${scope.entity}:`);
}

export interface SuppressionOutcome {
  kept: Finding[];
  suppressed: Finding[];
  /** the suppressions that silenced at least one finding */
  used: Set<Suppression>;
}

/** Splits findings into kept and suppressed, and records which suppressions did any work. */
export function applySuppressions(findings: readonly Finding[], suppressions: readonly Suppression[]): SuppressionOutcome {
  const outcome: SuppressionOutcome = { kept: [], suppressed: [], used: new Set() };
  for (const finding of findings) {
    let silenced = false;
    for (const suppression of suppressions) {
      if (!suppresses(suppression, finding)) continue;
      outcome.used.add(suppression);
      silenced = true;
    }
    (silenced ? outcome.suppressed : outcome.kept).push(finding);
  }
  return outcome;
}

/** The rule that judges suppressions after every other rule ran; the engine runs it last. */
export const SUPPRESSION_UNUSED = "suppression-unused";
