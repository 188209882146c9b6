// Rule ids that were renamed. The old id keeps working wherever a team wrote it down (the config's
// `rules:` map, suppression comments, the manifest's `ignore:`), so a rename breaks no repository.

/** old id → current id */
export const RULE_ALIASES: ReadonlyMap<string, string> = new Map([
  // It reports time series whose retention (TTL) and compaction do not fit together, most of them with a TTL.
  ["table-time-series-without-ttl", "table-time-series-retention"],
]);

/** The current id of a rule id as written: itself unless it is a former name. */
export function canonicalRuleId(id: string): string {
  return RULE_ALIASES.get(id) ?? id;
}
