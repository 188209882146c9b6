// A finding is the one shape every stage reports in: parse errors, schema and manifest problems,
// and rule results. Renderers (src/report/) turn findings into text, JSON, SARIF and Markdown.
import type { SourceRange } from "./cql/ast.js";
import { compareCodeUnits } from "./arrays.js";

export type Severity = "error" | "warning" | "info";

/** A file and a range inside it. */
export interface SourceLocation {
  file: string;
  range: SourceRange;
}

/** A textual fix: replace `range` of `file` with `replacement`. Every fix, applied, must parse. */
export interface Fix {
  description: string;
  file: string;
  range: SourceRange;
  replacement: string;
  /** mechanical and meaning-preserving: `check --fix` applies it (the rule's meta.safeFix, unless the fix opted out) */
  safe?: boolean;
}

export interface Finding {
  rule: string;
  severity: Severity;
  location: SourceLocation;
  message: string;
  /** the figures behind the finding (partition count, estimated bytes, …) for renderers */
  data?: Record<string, string | number | boolean | null>;
  fix?: Fix;
  /** stable across unrelated edits: rule + entity (+ query id), never line numbers */
  fingerprint: string;
  /** set by the review when the same fingerprint exists at the base commit */
  existing?: boolean;
}

export const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Sorts by file, then line, column, severity and rule: the order every renderer shows. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    compareCodeUnits(a.location.file, b.location.file) ||
    a.location.range.start.line - b.location.range.start.line ||
    a.location.range.start.column - b.location.range.start.column ||
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    compareCodeUnits(a.rule, b.rule) ||
    compareCodeUnits(a.fingerprint, b.fingerprint)
  );
}

/** A range covering one point, for problems that have a position but no extent. */
export function pointRange(line: number, column: number, offset: number): SourceRange {
  return { start: { line, column, offset }, end: { line, column: column + 1, offset: offset + 1 } };
}

/** The range of a whole file's start, for problems about a file as a whole. */
export const FILE_START: SourceRange = pointRange(1, 1, 0);
