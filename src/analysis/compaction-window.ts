// The time window a TimeWindowCompactionStrategy table needs for its TTL, shared by the rules that
// advise time windows. Pure.

const UNITS = [
  { name: "DAYS", seconds: 86_400 },
  { name: "HOURS", seconds: 3_600 },
  { name: "MINUTES", seconds: 60 },
] as const;

/**
 * The TWCS window for a TTL: the Apache Cassandra docs advise about 20 to 30 windows over the data's
 * life, so aim for 25, in the largest unit whose whole windows stay within 20 to 30 (a day's TTL
 * gives 1-hour windows rather than 58-minute ones).
 */
export function timeWindowFor(ttlSeconds: number): { size: number; unit: string; windows: number } {
  const windowOf = (unit: (typeof UNITS)[number]) => {
    const size = Math.max(1, Math.round(ttlSeconds / 25 / unit.seconds));
    return { size, unit: unit.name, exact: ttlSeconds / (size * unit.seconds) };
  };
  const chosen = UNITS.map(windowOf).find((w) => w.exact >= 20 && w.exact <= 30) ?? windowOf(UNITS[UNITS.length - 1]!);
  return { size: chosen.size, unit: chosen.unit, windows: Math.round(chosen.exact) };
}

export function formatTtl(seconds: number): string {
  for (const [unit, length] of [["day", 86_400], ["hour", 3_600], ["minute", 60]] as const) {
    if (seconds >= length && seconds % length === 0) return `${seconds / length} ${unit}${seconds === length ? "" : "s"}`;
  }
  return `${seconds} seconds`;
}
