// `check --fix` and `--fix-dry-run`: the fixes the review offers that their rule marks safe
// (RuleMeta.safeFix: mechanical, the model means the same), applied to the files' text as
// `eslint --fix` does. Each fix replaces exactly its range; a fix overlapping one applied before it
// waits for the next pass, which reviews the fixed text again.
import { createTwoFilesPatch } from "diff";
import type { Finding, Fix } from "../findings.js";

/** ESLint's bound: fixes that keep producing fixes stop here. */
export const MAX_FIX_PASSES = 10;

/** The safe fixes of the findings, by file, in the order of their start. */
export function safeFixesByFile(findings: readonly Finding[]): Map<string, Fix[]> {
  const byFile = new Map<string, Fix[]>();
  for (const finding of findings) {
    const fix = finding.fix;
    if (!fix?.safe) continue;
    const list = byFile.get(fix.file) ?? [];
    list.push(fix);
    byFile.set(fix.file, list);
  }
  return byFile;
}

/**
 * The text with the fixes applied: each replaces its range and nothing else. A fix whose range
 * overlaps one applied before it, or lies outside the text, is left for the next pass.
 */
export function applyFixes(text: string, fixes: readonly Fix[]): { text: string; applied: number } {
  const ordered = [...fixes].sort((a, b) => a.range.start.offset - b.range.start.offset || a.range.end.offset - b.range.end.offset);
  const parts: string[] = [];
  let copiedTo = 0;
  let applied = 0;
  for (const fix of ordered) {
    const start = fix.range.start.offset;
    const end = fix.range.end.offset;
    if (start < copiedTo || end < start || end > text.length) continue;
    parts.push(text.slice(copiedTo, start), fix.replacement);
    copiedTo = end;
    applied++;
  }
  parts.push(text.slice(copiedTo));
  return { text: parts.join(""), applied };
}

/** A unified diff of one file, with git's `a/` and `b/` prefixes, as `--fix-dry-run` prints it. */
export function fixDiff(file: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: 3 });
  // jsdiff starts with an "Index:"-style separator line of '=' that git's format does not have.
  return patch.replace(/^={10,}\n/m, "");
}
