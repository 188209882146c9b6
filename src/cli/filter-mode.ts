// `check --base REF --filter-mode MODE`: which findings are shown and counted by the gate, by
// where they lie in the change, with reviewdog's names and meanings
// (https://github.com/reviewdog/reviewdog#filter-mode):
//   added         findings on lines the change added or modified
//   diff_context  findings on lines of the diff's hunks (added lines and the 3 lines of context)
//   file          findings in files the change touched
//   nofilter      every finding (the default)
// The diff is computed from the same base and head texts the review compared, so it needs no git
// call of its own and works for a file read from standard input.
import { structuredPatch } from "diff";
import { UNREVIEWED_RULES, gateFails, summaryOf, type Review } from "../review.js";
import type { SourceFile } from "../source-file.js";
import type { FilterMode } from "./filter-modes.js";

export { FILTER_MODES, type FilterMode } from "./filter-modes.js";

/** Lines of a head file the change touched: added or modified, and those shown in its hunks. */
export interface ChangedLines {
  added: ReadonlySet<number>;
  inHunks: ReadonlySet<number>;
}

/** reviewdog and `git diff` show three lines of context around each change. */
const CONTEXT_LINES = 3;

/** The changed lines of every head file that differs from the base (a file new at the head: all its lines). */
export function changedLines(baseFiles: readonly SourceFile[], headFiles: readonly SourceFile[]): Map<string, ChangedLines> {
  const before = new Map(baseFiles.map((file) => [file.path, file.content]));
  const changed = new Map<string, ChangedLines>();
  for (const file of headFiles) {
    const old = before.get(file.path) ?? "";
    if (old === file.content) continue;
    const added = new Set<number>();
    const inHunks = new Set<number>();
    for (const hunk of structuredPatch(file.path, file.path, old, file.content, undefined, undefined, { context: CONTEXT_LINES }).hunks) {
      let line = hunk.newStart;
      for (const text of hunk.lines) {
        const marker = text[0];
        if (marker === "-" || marker === "\\") continue;
        if (marker === "+") added.add(line);
        inHunks.add(line);
        line++;
      }
    }
    changed.set(file.path, { added, inHunks });
  }
  return changed;
}

/**
 * The review as the filter shows it: only the findings the mode keeps, with the counts and the
 * gate computed on those. What could not be reviewed stays whatever the mode (it may hide a
 * finding on a changed line). A finding spanning lines is kept when any of its lines qualifies.
 */
export function filterReview(review: Review, mode: FilterMode, changed: ReadonlyMap<string, ChangedLines>): Review {
  if (mode === "nofilter") return review;
  const keeps = (finding: Review["findings"][number]): boolean => {
    if (UNREVIEWED_RULES.has(finding.rule)) return true;
    const lines = changed.get(finding.location.file);
    if (!lines) return false;
    if (mode === "file") return true;
    const wanted = mode === "added" ? lines.added : lines.inHunks;
    const { start, end } = finding.location.range;
    for (let line = start.line; line <= Math.max(start.line, end.line); line++) if (wanted.has(line)) return true;
    return false;
  };
  const findings = review.findings.filter(keeps);
  return {
    ...review,
    findings,
    summary: summaryOf(findings),
    gateFails: gateFails(findings, review.config),
  };
}
