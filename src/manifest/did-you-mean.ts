// "Did you mean" suggestions for misspelt keys, tables and columns.
import { compareCodeUnits } from "../arrays.js";

/**
 * Optimal string alignment distance: Levenshtein plus adjacent transpositions, so the common
 * typo `growht` is one edit away from `growth`, not two.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let twoBack = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, twoBack[j - 2]! + 1);
      }
      current[j] = best;
    }
    [twoBack, previous, current] = [previous, current, twoBack];
  }
  return previous[b.length]!;
}

/**
 * The known names closest to `name`, best first. Close means a third of the name's length in
 * edits (at least one, at most three), compared case-insensitively: enough for typos, too little
 * to suggest an unrelated name.
 */
export function closestNames(name: string, known: Iterable<string>, max = 3): string[] {
  const wanted = name.toLowerCase();
  const threshold = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  const scored: { name: string; distance: number }[] = [];
  for (const candidate of new Set(known)) {
    if (candidate === name) continue;
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance <= threshold) scored.push({ name: candidate, distance });
  }
  scored.sort((x, y) => x.distance - y.distance || compareCodeUnits(x.name, y.name));
  return scored.slice(0, max).map((s) => s.name);
}

/** ` (did you mean "growth"?)`, or an empty string when nothing is close. */
export function didYouMean(name: string, known: Iterable<string>): string {
  const [best, second] = closestNames(name, known, 2);
  if (best === undefined) return "";
  return second === undefined ? ` (did you mean "${best}"?)` : ` (did you mean "${best}" or "${second}"?)`;
}
