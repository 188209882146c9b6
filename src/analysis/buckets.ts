// How to split a partition that grows past the limits: a time bucket, a promoted clustering
// column, or, last, a hash shard; and when not to split at all.
//
// One rule picks a bucket's width. With λw the worst key's rows a second (the manifest's worst
// partition, not the average), `b` bytes per row and the bytes limit B, a bucket of width W holds
// λw·W rows; the width is the WIDEST calendar width with
//   λw·W·b ≤ B                 (the worst partition stays under the bytes limit),
//   λw·W·v ≤ 2³¹ cells          (Cassandra's hard limit on cells per partition),
//   W < the rows' lifetime      (a bucket as wide as the TTL or retention bounds nothing),
//   W ≥ k / λ                   (the common read's LIMIT k: the typical key's newest k rows are
//                                in the current bucket and the one before it).
// The widest, because the limits already keep partitions small enough and every read (a LIMIT
// read, or a time range of length Q, which touches ⌈Q/W⌉ + 1 partitions) then touches the fewest
// partitions. Value and row counts below the hard limit are informational: a partition of a
// million 30-byte rows is 30 MB, which compacts and streams well (Apache Cassandra, "Data
// modeling: evaluating and refining", https://cassandra.apache.org/doc/latest/cassandra/developing/data-modeling/data-modeling_refining.html).
//
// Before a bucket or a shard, a clustering column that every query binds with `=` moves into the
// partition key (it splits the partition for free); a hash shard comes last, and never for tables
// with static columns (each shard would hold its own copy) or reads that page through a partition
// in clustering order (every page would merge N partitions). A partition that is large only for a
// rare key, with no growth to bucket, is not split: every read would pay for the outlier.
import type { BucketSuggestion } from "./types.js";
import { DAY, HOUR, MINUTE, WEEK, YEAR, asAdjective, formatBytes, formatCount, formatRate, formatSpan } from "./estimator-text.js";
import type { PartitionLimits } from "./limits.js";

/** Cassandra's hard limit on cells in one partition (2³¹, "CQL limits" in the Apache Cassandra docs). */
export const HARD_CELL_LIMIT = 2 ** 31;

/** A width people bucket by, with its shortest and longest instance (months and years vary). */
export interface CalendarWidth {
  label: string;
  shortest: number;
  longest: number;
}

function fixed(label: string, seconds: number): CalendarWidth {
  return { label, shortest: seconds, longest: seconds };
}

/** The calendar-friendly widths, smallest first. Any whole number of days up to a week counts. */
export const CALENDAR_WIDTHS: readonly CalendarWidth[] = [
  fixed("1 minute", MINUTE),
  fixed("5 minutes", 5 * MINUTE),
  fixed("10 minutes", 10 * MINUTE),
  fixed("15 minutes", 15 * MINUTE),
  fixed("30 minutes", 30 * MINUTE),
  fixed("1 hour", HOUR),
  fixed("2 hours", 2 * HOUR),
  fixed("3 hours", 3 * HOUR),
  fixed("4 hours", 4 * HOUR),
  fixed("6 hours", 6 * HOUR),
  fixed("12 hours", 12 * HOUR),
  fixed("1 day", DAY),
  fixed("2 days", 2 * DAY),
  fixed("3 days", 3 * DAY),
  fixed("4 days", 4 * DAY),
  fixed("5 days", 5 * DAY),
  fixed("6 days", 6 * DAY),
  fixed("1 week", WEEK),
  fixed("2 weeks", 2 * WEEK),
  { label: "1 month", shortest: 28 * DAY, longest: 31 * DAY },
  { label: "3 months", shortest: 89 * DAY, longest: 92 * DAY },
  { label: "6 months", shortest: 181 * DAY, longest: 184 * DAY },
  { label: "1 year", shortest: YEAR, longest: 366 * DAY },
];

/** The read that bounds the width from below: the table's common query. */
export interface BucketRead {
  queryId: string;
  /** its LIMIT: it wants the newest (or oldest) k rows */
  limit?: number;
  /** it restricts the clustering columns to a range (a time window) */
  range: boolean;
}

export interface BucketInput {
  /** λ: rows added a second per partition key, on average */
  ratePerSecond: number;
  /** λw: rows added a second to the worst partition (the manifest's worst over its average); defaults to λ */
  worstRatePerSecond?: number;
  /** values (cells, if more) each row adds */
  valuesPerRow: number;
  /** classic bytes each row adds, 8 bytes of metadata per value included */
  bytesPerRow: number;
  /** values a partition holds whatever its rows: the static columns */
  fixedValues: number;
  /** bytes a partition holds whatever its rows: key, static columns and their metadata */
  fixedBytes: number;
  limits: PartitionLimits;
  read?: BucketRead;
  /** the clustering column to truncate into the bucket, when there is a time-ordered one */
  timeColumn?: string;
  /** what to hash into a shard, e.g. `hash(reading_id)`; defaults to the clustering key */
  shardSource?: string;
  /** the partition key as it is, for the sentence */
  partitionKey: string[];
  /** every column of the table, so a new bucket column gets a name the table does not use */
  columns?: readonly string[];
  /**
   * an existing time bucket in the partition key, whose width the suggestion changes; `inferred`
   * when the width comes from the manifest's rows per partition over its growth
   */
  existingBucket?: {
    column: string;
    widthSeconds: number;
    inferred?: boolean;
    /** how it was found when the manifest does not declare it: from the figures, or from what the writes bind */
    foundBy?: "figures" | "writes";
    /** the functions that compute it from the current time (`foundBy: "writes"`) */
    computedIn?: string;
    /** the value every write sets it to, when that is one constant */
    constant?: string;
  };
  /** whether some query on the table reads a time range, to count the partitions it touches */
  rangeQuery: boolean;
  /** how long a row lives (TTL or retention), when it does: a bucket must be narrower */
  lifetimeSeconds?: number;
  /** the table has static columns: a shard would give each shard its own copy */
  hasStatic?: boolean;
  /** a query that pages through a partition in clustering order: a shard would merge N partitions per page */
  pagedInOrderBy?: string;
}

/** The widest bucket, in seconds, each bound allows; `max` the tightest of them. */
export interface UpperBounds {
  /** Cassandra's hard cell limit */
  values: number;
  bytes: number;
  /** the rows' lifetime (TTL or retention): a bucket must be narrower to bound anything */
  lifetime: number;
  max: number;
}

export function bucketUpperBounds(input: BucketInput): UpperBounds {
  const rate = worstRate(input);
  const values = input.valuesPerRow > 0 ? (HARD_CELL_LIMIT - input.fixedValues) / (rate * input.valuesPerRow) : Infinity;
  const bytes = input.bytesPerRow > 0 ? (input.limits.partitionBytes - input.fixedBytes) / (rate * input.bytesPerRow) : Infinity;
  const lifetime = input.lifetimeSeconds !== undefined && input.lifetimeSeconds > 0 ? input.lifetimeSeconds : Infinity;
  return { values, bytes, lifetime, max: Math.max(0, Math.min(values, bytes)) };
}

function worstRate(input: BucketInput): number {
  const worst = input.worstRatePerSecond;
  return worst !== undefined && Number.isFinite(worst) && worst > input.ratePerSecond ? worst : input.ratePerSecond;
}

/** Bounds in whole seconds, rounded inwards (past float noise such as 50,000.0000001). */
function wholeSeconds(seconds: number, direction: "up" | "down"): number {
  if (!Number.isFinite(seconds)) return seconds;
  return direction === "up" ? Math.ceil(seconds - 1e-6) : Math.floor(seconds + 1e-6);
}

/** The widest calendar width inside the bounds (see the file's header), or undefined when none fits. */
export function chooseWidth(bounds: UpperBounds, minSeconds: number): CalendarWidth | undefined {
  const fits = CALENDAR_WIDTHS.filter((w) => w.longest <= bounds.max && w.longest < bounds.lifetime && w.shortest >= minSeconds);
  return fits[fits.length - 1];
}

/** The bucket width (or hash shard count) that keeps partitions of a growing table under the limits. */
export function suggestBucket(input: BucketInput): BucketSuggestion {
  const bounds = bucketUpperBounds(input);
  const limit = input.read?.limit;
  const minSeconds = limit !== undefined && limit > 0 ? limit / input.ratePerSecond : 0;
  const width = chooseWidth(bounds, minSeconds);
  if (width) {
    return {
      kind: "bucket",
      width: width.label,
      widthSeconds: width.longest,
      minSeconds: wholeSeconds(minSeconds, "up"),
      maxSeconds: wholeSeconds(Math.min(bounds.max, bounds.lifetime), "down"),
      explanation: explainWidth(input, width, bounds, minSeconds),
    };
  }
  const noShard = shardObstacle(input);
  if (noShard) {
    return {
      kind: "none",
      minSeconds: wholeSeconds(minSeconds, "up"),
      maxSeconds: wholeSeconds(bounds.max, "down"),
      explanation:
        `No time bucket fits: ${boundsSentence(input, bounds, minSeconds)} A hash shard is no fix here: ${noShard} ` +
        "Keep rows a shorter time (a TTL), or make the key finer so that one key receives fewer rows.",
    };
  }
  return suggestShards(input, bounds, minSeconds);
}

/** Why a hash shard would hurt more than it helps, or undefined when it may be offered. */
function shardObstacle(input: { hasStatic?: boolean; pagedInOrderBy?: string }): string | undefined {
  if (input.hasStatic) return "the table has static columns, which are stored once per partition, so every shard would hold (and every write keep in step) its own copy.";
  if (input.pagedInOrderBy) {
    return `${input.pagedInOrderBy} pages through a partition in clustering order, so every page would merge the rows of every shard on the coordinator.`;
  }
  return undefined;
}

function suggestShards(input: BucketInput, bounds: UpperBounds, minSeconds: number): BucketSuggestion {
  // Each shard's bucket must still hold the read's rows in total across the shards, so the width
  // stays the smallest that serves the read; the shard count then brings each shard under the limits.
  const target = CALENDAR_WIDTHS.find((w) => w.shortest >= Math.max(minSeconds, MINUTE)) ?? CALENDAR_WIDTHS[CALENDAR_WIDTHS.length - 1]!;
  const rate = worstRate(input);
  const shards = Math.max(2, Math.ceil(target.longest / Math.max(bounds.max, Number.MIN_VALUE)));
  const perShard = rate / shards;
  const rows = perShard * target.longest;
  const bucketName = newColumnName(input.columns ?? input.partitionKey, "bucket");
  const shardName = newColumnName(input.columns ?? input.partitionKey, "shard");
  const sentences = [
    `No time bucket fits: ${boundsSentence(input, bounds, minSeconds)}`,
    `Add a hash shard to the partition key, ((${[...input.partitionKey, shardName].join(", ")})) with ${shardName} = ${input.shardSource ?? "a hash of each row's clustering key"} % ${shards}, ` +
      `and bucket each shard by a ${asAdjective(target.label)} \`${bucketName}\` of ${input.timeColumn ? `\`${input.timeColumn}\`` : "the time each row is written"}: ` +
      `${formatRate(rate)} ÷ ${shards} shards = ${formatRate(perShard)} per shard, ` +
      `so a bucket holds ${bucketContents(input, rows)}.`,
    `Cost: a read of one key's rows in a bucket reads ${shards} partitions (one per shard, issued in parallel, so it waits for the slowest); ` +
      "a read that binds the whole primary key computes the shard and reads one.",
  ];
  return {
    kind: "shard",
    shards,
    minSeconds: wholeSeconds(minSeconds, "up"),
    maxSeconds: wholeSeconds(bounds.max, "down"),
    explanation: sentences.join(" "),
  };
}

/** What the estimator knows of a partition that is too large but has no growth rate to bucket by. */
export interface SplitWithoutRate {
  /** the largest ratio of a worst-partition figure to its limit */
  overLimit: number;
  /** the same for the average partition: ≤ 1 when only a rare key is past the limits */
  averageOverLimit: number;
  partitionKey: string[];
  clustering: string[];
  /** the worst partition's figures, in words */
  figures: string;
  /** the average partition's figures, in words */
  averageFigures: string;
  /** clustering columns (a prefix) that every query binds with `=`: they can move into the partition key */
  alwaysBound: string[];
  hasStatic?: boolean;
  pagedInOrderBy?: string;
  columns?: readonly string[];
}

/**
 * The split for a partition that is too large but has no growth rate to bucket by time: promote
 * always-bound clustering columns, leave a rare outlier alone, and shard only when nothing else fits.
 */
export function suggestSplitWithoutRate(input: SplitWithoutRate): BucketSuggestion {
  const over = `The worst partition (${input.figures}) is ${trimRatio(input.overLimit)}× the limit.`;
  if (input.alwaysBound.length > 0) {
    const promoted = [...input.partitionKey, ...input.alwaysBound];
    const rest = input.clustering.filter((c) => !input.alwaysBound.includes(c));
    return {
      kind: "promote",
      minSeconds: 0,
      maxSeconds: 0,
      explanation:
        `${over} Every query binds ${input.alwaysBound.map((c) => `\`${c}\``).join(" and ")} with =, so ${input.alwaysBound.length === 1 ? "it belongs" : "they belong"} in the partition key: ` +
        `PRIMARY KEY ((${promoted.join(", ")})${rest.map((c) => `, ${c}`).join("")}). Each read still touches one partition, and a partition then holds only the rows of one such value.`,
    };
  }
  if (input.averageOverLimit <= 1) {
    return {
      kind: "none",
      minSeconds: 0,
      maxSeconds: 0,
      explanation:
        `${over} The average partition (${input.averageFigures}) is well within it: only rare keys are this large. ` +
        "Splitting every partition would make each read of a key touch several partitions to guard against an outlier; " +
        "bound the outlier instead (cap the rows the application writes for one key, as a trace store caps spans per trace), and watch the largest partitions (nodetool tablehistograms).",
    };
  }
  const noShard = shardObstacle(input);
  if (noShard) {
    return {
      kind: "none",
      minSeconds: 0,
      maxSeconds: 0,
      explanation: `${over} No growth rate is stated to bucket it by time, and a hash shard is no fix here: ${noShard} Make the key finer, so that one key holds fewer rows, or keep rows a shorter time.`,
    };
  }
  const shards = Math.max(2, Math.ceil(input.overLimit));
  const shardName = newColumnName(input.columns ?? input.partitionKey, "shard");
  const source = input.clustering.length > 0 ? `hash(${input.clustering.join(", ")})` : "a hash of each row's key";
  return {
    kind: "shard",
    shards,
    minSeconds: 0,
    maxSeconds: 0,
    explanation:
      `${over} No growth rate is stated to bucket it by time. ` +
      `Add a hash shard to the partition key, ((${[...input.partitionKey, shardName].join(", ")})) with ${shardName} = ${source} % ${shards}: ` +
      `each shard then holds about 1/${shards} of the rows. Cost: a read of one key's rows reads ${shards} partitions (in parallel, waiting for the slowest); ` +
      "a read that binds the whole primary key computes the shard and reads one.",
  };
}

/**
 * The bucket column for a width, named so the estimator reads its width back (`day`, `week`,
 * `month`, …) and typed as teams usually store it.
 */
export function bucketColumnFor(widthSeconds: number, width?: string): { unit: string; type: string; truncate: string } {
  const named: [number, string, string, string][] = [
    [MINUTE, "minute", "timestamp", "the time truncated to the minute"],
    [HOUR, "hour", "timestamp", "the time truncated to the hour"],
    [DAY, "day", "date", "the day"],
    [WEEK, "week", "date", "the first day of the week"],
    [31 * DAY, "month", "text", "'YYYY-MM'"],
    [92 * DAY, "quarter", "text", "'YYYY-Qn'"],
    [366 * DAY, "year", "int", "the year"],
  ];
  const exact = named.find(([seconds]) => seconds === widthSeconds);
  if (exact) return { unit: exact[1], type: exact[2], truncate: exact[3] };
  return { unit: "bucket", type: "timestamp", truncate: `the start of the ${width ? asAdjective(width) : "bucket's"} window` };
}

/** A column name for `unit` that the table does not use yet (`day`, else `day_bucket`, `time_day`, …). */
export function newColumnName(taken: readonly string[], unit: string): string {
  const used = new Set(taken.map((c) => c.toLowerCase()));
  const candidates = unit === "bucket" || unit === "shard" ? [unit, `time_${unit}`, `${unit}_id`] : [unit, `${unit}_bucket`, `time_${unit}`];
  for (const candidate of candidates) if (!used.has(candidate)) return candidate;
  let n = 2;
  while (used.has(`${unit}_${n}`)) n += 1;
  return `${unit}_${n}`;
}

function trimRatio(value: number): string {
  return value >= 10 ? formatCount(value) : (Math.round(value * 10) / 10).toString();
}

function newest(limit: number): string {
  return limit === 1 ? "row" : `${formatCount(limit)} rows`;
}

function rowsWord(rows: number): string {
  return `${formatCount(rows)} ${Math.round(rows) === 1 ? "row" : "rows"}`;
}

function bucketContents(input: BucketInput, rows: number): string {
  const values = input.fixedValues + rows * input.valuesPerRow;
  const bytes = input.fixedBytes + rows * input.bytesPerRow;
  return `${rowsWord(rows)}, ${formatCount(values)} values, ${formatBytes(bytes)}`;
}

function boundsSentence(input: BucketInput, bounds: UpperBounds, minSeconds: number): string {
  const parts: string[] = [];
  // Upper bounds, so rounded down: "at most 11 months" for 10.9 would already be over the limit.
  if (Number.isFinite(bounds.bytes)) parts.push(`bytes ${formatSpan(bounds.bytes, "down")}`);
  // The hard cell limit is worth a word only where it binds before the bytes do.
  if (Number.isFinite(bounds.values) && bounds.values <= bounds.bytes) parts.push(`cells ${formatSpan(bounds.values, "down")}`);
  if (Number.isFinite(bounds.lifetime)) parts.push(`narrower than the rows' ${formatSpan(bounds.lifetime)} lifetime`);
  const rate = worstRate(input);
  const who = rate > input.ratePerSecond ? "the worst key's" : "a key's";
  const limits = `at ${who} ${formatRate(rate)} the limits allow at most ${formatSpan(Math.min(bounds.max, bounds.lifetime), "down")} of rows per partition (${parts.join("; ")})`;
  if (minSeconds <= 0 || !input.read) return `${limits}.`;
  return `${limits}, while ${input.read.queryId} reads the newest ${newest(input.read.limit ?? 0)}, which takes at least ${formatSpan(minSeconds)} of rows.`;
}

function explainWidth(input: BucketInput, width: CalendarWidth, bounds: UpperBounds, minSeconds: number): string {
  const rate = worstRate(input);
  const rows = rate * width.longest;
  const source = input.timeColumn ? `\`${input.timeColumn}\`` : "the time each row is written";
  const sentences: string[] = [];
  const existing = input.existingBucket;
  if (existing?.constant !== undefined) {
    sentences.push(
      `Compute the existing bucket \`${existing.column}\` from time: every write sets it to ${existing.constant}, so it splits nothing; make it a ${asAdjective(width.label)} bucket of ${source} instead. ` +
        `The partition key stays (${input.partitionKey.join(", ")}), with no second bucket beside it; reads then bind the bucket of the time they want.`,
    );
  } else if (existing) {
    const was = `${existing.inferred ? "about " : ""}${formatSpan(existing.widthSeconds)}`;
    const verb = width.longest < existing.widthSeconds ? "Narrow" : "Change";
    const found =
      existing.foundBy === "figures"
        ? ` (taken as the partition key's time bucket: a partition holds far fewer rows than growth × the rows' lifetime, so a column of the key already closes partitions as time passes; if another column does, narrow that one, or declare it as time_bucket in the manifest)`
        : existing.foundBy === "writes" && existing.computedIn
          ? ` (computed from the current time in ${existing.computedIn})`
          : "";
    sentences.push(
      `${verb} the existing bucket \`${existing.column}\`${found} from ${was} to ${width.label} of ${source}${existing.inferred ? " (its width read from the manifest's rows per partition over its growth)" : ""}; ` +
        `the partition key stays (${input.partitionKey.join(", ")}), with no second bucket beside it. Rows already written keep the old width: apply the new one to new data only (a new table or key prefix, or once the old rows have expired).`,
    );
  } else {
    const { unit } = bucketColumnFor(width.longest, width.label);
    const name = newColumnName(input.columns ?? input.partitionKey, unit);
    sentences.push(`Bucket by ${width.label}: partition by (${[...input.partitionKey, name].join(", ")}) with \`${name}\` = a ${asAdjective(width.label)} bucket of ${source}.`);
  }
  const worst = input.worstRatePerSecond !== undefined && input.worstRatePerSecond > input.ratePerSecond;
  sentences.push(`At ${formatRate(rate)} ${worst ? "for the worst key" : "per key"} a bucket holds ${bucketContents(input, rows)}.`);
  sentences.push(`Bounds: ${boundsSentence(input, bounds, minSeconds)}`);
  sentences.push(
    "Chosen: the widest calendar width inside the bounds, so every read touches the fewest partitions" +
      (input.read?.limit ? ` (${input.read.queryId}'s newest ${newest(input.read.limit)} ${input.read.limit === 1 ? "sits" : "sit"} in one or two).` : "."),
  );
  if (input.rangeQuery) sentences.push(rangeSentence(width));
  return sentences.join(" ");
}

/** How many partitions a time-range query touches: ⌈Q/W⌉ + 1 (the range rarely starts on a bucket edge). */
export function partitionsForWindow(windowSeconds: number, widthSeconds: number): number {
  return Math.ceil(windowSeconds / widthSeconds) + 1;
}

function rangeSentence(width: CalendarWidth): string {
  const windows: [number, string][] = [
    [HOUR, "1 hour"],
    [DAY, "1 day"],
    [WEEK, "1 week"],
    [30 * DAY, "30 days"],
    [YEAR, "1 year"],
  ];
  const shown = windows.filter(([seconds]) => seconds >= width.shortest).slice(0, 2);
  const examples = (shown.length > 0 ? shown : windows.slice(-1)).map(
    ([seconds, label]) => `${label} → ${partitionsForWindow(seconds, width.shortest)}`,
  );
  return `A time-range query spanning Q touches ⌈Q / ${width.label}⌉ + 1 partitions (${examples.join(", ")}).`;
}
