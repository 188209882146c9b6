// Helpers for arrays whose length comes from repository input.

/**
 * Appends `items` to `target` one by one. `target.push(...items)` passes every item as an argument
 * on the stack and throws a RangeError past about 100k of them; repository input reaches that.
 */
export function append<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/**
 * Orders strings by their UTF-16 code units, the same on every machine. `localeCompare` without a
 * locale follows the host's (LANG), so a review would list findings in another order elsewhere,
 * and its first call loads ICU's collation data, a noticeable part of a short command's start.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
