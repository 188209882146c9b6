// Plain-words figures for estimate sentences: counts, bytes, rates and spans of time.
// Deterministic (no locale, no clock) so the same review renders the same text everywhere.

export const MINUTE = 60;
export const HOUR = 3_600;
export const DAY = 86_400;
export const WEEK = 7 * DAY;
/** an average Gregorian month, for spans stated in months */
export const MONTH = 30.436875 * DAY;
export const YEAR = 365 * DAY;

/** "1095005" → "1,095,005": a string of digits grouped by thousands, by slicing (no lookahead regex). */
export function groupThousands(digits: string): string {
  let grouped = "";
  for (let end = digits.length; end > 0; end -= 3) {
    const group = digits.slice(Math.max(0, end - 3), end);
    grouped = grouped === "" ? group : `${group},${grouped}`;
  }
  return grouped;
}

/** 1095005 → "1,095,005"; fractions are rounded. */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const rounded = Math.round(value);
  const sign = rounded < 0 ? "-" : "";
  return sign + groupThousands(String(Math.abs(rounded)));
}

/** Bytes in decimal units, as the Cassandra docs state their limits (MB = 10^6 bytes). */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [1e12, "TB"],
    [1e9, "GB"],
    [1e6, "MB"],
    [1e3, "kB"],
  ];
  for (const [scale, unit] of units) {
    if (bytes >= scale) return `${trimNumber(bytes / scale)} ${unit}`;
  }
  return `${formatCount(bytes)} B`;
}

/** One decimal below 10, none above: 1.1, 46, 3.5. */
function trimNumber(value: number): string {
  if (value >= 100) return formatCount(value);
  const fixed = value >= 10 ? value.toFixed(0) : value.toFixed(1);
  return fixed.endsWith(".0") ? fixed.slice(0, -2) : fixed;
}

function plural(count: number, unit: string): string {
  return `${count === 1 ? "1" : trimNumber(count)} ${unit}${count === 1 ? "" : "s"}`;
}

/**
 * A span in the largest unit that keeps the number ≥ 1: "4 days", "12 hours", "13.9 hours".
 * An upper bound is rounded `down`, so "at most 10 months" agrees with "crosses the limit after
 * 10 months" (formatAfter) for the same 10.9 months.
 */
export function formatSpan(seconds: number, rounding: "nearest" | "down" = "nearest"): string {
  if (!Number.isFinite(seconds)) return "forever";
  const spans: [number, string][] = [
    [YEAR, "year"],
    [MONTH, "month"],
    [WEEK, "week"],
    [DAY, "day"],
    [HOUR, "hour"],
    [MINUTE, "minute"],
  ];
  for (const [scale, unit] of spans) {
    // Months only from two on, weeks only when whole: "45 days" reads better than "1.5 months".
    if (unit === "month" && seconds < 2 * MONTH) continue;
    if (unit === "week" && seconds % WEEK !== 0) continue;
    if (seconds >= scale) return plural(roundSpan(seconds / scale, rounding), unit);
  }
  return plural(roundSpan(seconds, rounding), "second");
}

/** "4 days" → "4-day", "12 hours" → "12-hour": a span as it reads before a noun ("a 4-day bucket"). */
export function asAdjective(span: string): string {
  return span.replace(/^(\S+) (\w+?)s?$/, "$1-$2");
}

function roundSpan(value: number, rounding: "nearest" | "down"): number {
  if (rounding === "nearest") return round1(value);
  // A hair of float noise (2.9999999) must not drop a whole unit.
  const nudged = value * (1 + 1e-9);
  return nudged >= 10 ? Math.floor(nudged) : Math.floor(nudged * 10) / 10;
}

function round1(value: number): number {
  return value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
}

/**
 * When a growing partition crosses a limit, in whole units counted down ("after 11 months" means
 * it crosses during the twelfth): minutes under an hour, hours under two days, days under two
 * months, months under two years, then years.
 */
export function formatAfter(seconds: number): string {
  if (seconds <= 0) return "already";
  if (!Number.isFinite(seconds)) return "never";
  const steps: [number, number, string][] = [
    [HOUR, MINUTE, "minute"],
    [2 * DAY, HOUR, "hour"],
    [2 * MONTH, DAY, "day"],
    [2 * YEAR, MONTH, "month"],
    [Infinity, YEAR, "year"],
  ];
  if (seconds < MINUTE) return "after less than a minute";
  for (const [below, unit, name] of steps) {
    if (seconds < below) {
      const count = Math.floor(seconds / unit);
      return `after ${formatCount(count)} ${name}${count === 1 ? "" : "s"}`;
    }
  }
  return "never";
}

/**
 * A per-second rate in the smallest unit that gives a whole number ("100 rows/day" rather than
 * "4.2 rows/hour"), else the smallest that gives a number ≥ 1: "1 row/s", "3 rows/day".
 */
export function formatRate(perSecond: number): string {
  const { value, text, unit } = ratePerPeriod(perSecond);
  return `${text} row${value === 1 ? "" : "s"}/${unit}`;
}

/** How often something runs, chosen like formatRate: "300/s", "1/minute", "6/hour". */
export function formatFrequency(perSecond: number): string {
  const { text, unit } = ratePerPeriod(perSecond);
  return `${text}/${unit}`;
}

function ratePerPeriod(perSecond: number): { value: number; text: string; unit: string } {
  const units: [number, string][] = [
    [1, "s"],
    [MINUTE, "minute"],
    [HOUR, "hour"],
    [DAY, "day"],
    [WEEK, "week"],
    [YEAR, "year"],
  ];
  const show = (value: number, unit: string) => {
    const shown = round1(value);
    return { value: shown, text: trimNumber(shown), unit };
  };
  for (const [scale, unit] of units) {
    const value = perSecond * scale;
    if (value >= 1 && Math.abs(value - Math.round(value)) <= 1e-9 * value) return show(value, unit);
  }
  for (const [scale, unit] of units) {
    if (perSecond * scale >= 1) return show(perSecond * scale, unit);
  }
  return show(perSecond * YEAR, "year");
}
