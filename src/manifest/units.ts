// The figures people write in the manifest and the config, as text: counts with `_` separators,
// rates (`300/s`, `5/day`), durations (`365d`, `6mo`, `forever`) and byte sizes (`100MB`, `64MiB`).
// Each pattern is also the `pattern` of the JSON Schema, so it sticks to the regex syntax that
// JSON Schema validators share with JavaScript (no flags, no lookbehind).

const SECOND = 1;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
// Calendar periods are fixed lengths so every figure is exact and reproducible: a month is 30 days
// and a year 365 days (so `12mo` is 360 days and `1y` equals `365d`).
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/** A number as written in YAML text: digits with optional `_` separators and an optional fraction. */
const NUMBER_TEXT = "\\d+(?:_\\d+)*(?:\\.\\d+)?";
const WHOLE_NUMBER_TEXT = "\\d+(?:_\\d+)*";

/** `2_000_000` (YAML 1.2 reads it as text; YAML 1.1 as a number). */
export const WHOLE_NUMBER_PATTERN = new RegExp(`^${WHOLE_NUMBER_TEXT}$`);
export const NUMBER_PATTERN = new RegExp(`^${NUMBER_TEXT}$`);

/** Seconds per period of a rate: `/s`, `/min`, `/hour`, `/day`, `/week`, `/month`, `/year`. */
export const RATE_PERIODS: Readonly<Record<string, number>> = {
  s: SECOND,
  sec: SECOND,
  second: SECOND,
  min: MINUTE,
  minute: MINUTE,
  h: HOUR,
  hour: HOUR,
  d: DAY,
  day: DAY,
  w: WEEK,
  week: WEEK,
  month: MONTH,
  y: YEAR,
  year: YEAR,
};

/** Seconds per unit of a duration: `90s`, `30m` (minutes), `12h`, `365d`, `2w`, `6mo`, `1y`. */
export const DURATION_UNITS: Readonly<Record<string, number>> = {
  s: SECOND,
  m: MINUTE,
  min: MINUTE,
  h: HOUR,
  d: DAY,
  w: WEEK,
  mo: MONTH,
  y: YEAR,
};

/** Bytes per unit of a size: decimal (`KB`, `MB`, `GB`) and binary (`KiB`, `MiB`, `GiB`). */
export const SIZE_UNITS: Readonly<Record<string, number>> = {
  B: 1,
  KB: 1_000,
  MB: 1_000_000,
  GB: 1_000_000_000,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
};

function alternatives(units: Readonly<Record<string, number>>): string {
  // Longest first so `min` is tried before `m` and `month` before `mo`.
  return Object.keys(units)
    .sort((a, b) => b.length - a.length)
    .join("|");
}

export const RATE_PATTERN = new RegExp(`^(${NUMBER_TEXT}) ?/ ?(${alternatives(RATE_PERIODS)})$`);
export const DURATION_PATTERN = new RegExp(`^(?:(${WHOLE_NUMBER_TEXT}) ?(${alternatives(DURATION_UNITS)})|forever)$`);
export const SIZE_PATTERN = new RegExp(`^(${NUMBER_TEXT}) ?(${alternatives(SIZE_UNITS)})$`);

/** `2_000_000` → 2000000; numbers pass through. NaN when the text is not a number. */
export function parseNumberText(value: number | string): number {
  if (typeof value === "number") return value;
  return NUMBER_PATTERN.test(value) ? Number(value.replaceAll("_", "")) : Number.NaN;
}

/** `300/s` → 300, `5/day` → 5/86400 (events per second). NaN when the text is not a rate. */
export function parseRatePerSecond(text: string): number {
  const match = RATE_PATTERN.exec(text.trim());
  if (!match) return Number.NaN;
  return parseNumberText(match[1]!) / RATE_PERIODS[match[2]!]!;
}

/** `365d` → 31536000; `forever` → null. NaN when the text is not a duration. */
export function parseDurationSeconds(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "forever") return null;
  const match = DURATION_PATTERN.exec(trimmed);
  if (!match || match[1] === undefined) return Number.NaN;
  return parseNumberText(match[1]) * DURATION_UNITS[match[2]!]!;
}

/** `100MB` → 100000000, `64MiB` → 67108864; numbers are bytes. NaN when the text is not a size. */
export function parseByteSize(value: number | string): number {
  if (typeof value === "number") return value;
  const match = SIZE_PATTERN.exec(value.trim());
  if (!match) return Number.NaN;
  return Math.round(parseNumberText(match[1]!) * SIZE_UNITS[match[2]!]!);
}
