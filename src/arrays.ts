// Helpers for arrays whose length comes from repository input.

/**
 * Appends `items` to `target` one by one. `target.push(...items)` passes every item as an argument
 * on the stack and throws a RangeError past about 100k of them; repository input reaches that.
 */
export function append<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
