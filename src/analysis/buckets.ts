// Time buckets and hash shards for partitions that grow past the limits (Apache Cassandra docs,
// "Evaluating and refining data models", https://cassandra.apache.org/doc/latest/cassandra/developing/data-modeling/data-modeling_refining.html).
//
// With λ rows a second per partition key, `v` values and `b` classic bytes per row, a bucket of
// width W holds λ·W rows, so the limits give upper bounds on W; a query that reads the newest k rows
// gives a lower bound W ≥ k/λ, so that the current bucket and the one before it hold them.
//
// Which width inside the bounds: the doc says "the largest", the seed article (ten newest users,
// three joins a day → four-day ranges) takes the smallest that serves the read. Both are right for
// their reads, so the choice follows the table's common query:
// - it wants the newest k rows and has no time range: the smallest calendar width ≥ k/λ. The read
//   touches one or two partitions whatever the width, so smaller partitions (cheaper compaction,
//   repair and streaming, writes spread over more replicas as time passes) cost nothing;
// - it reads a time range, or no query bounds the width: the largest calendar width inside the
//   limits, since a range of length Q touches ⌈Q/W⌉ + 1 partitions and a larger W means fewer.
// When no width fits (the read needs more rows than a partition may hold, or a key is too hot for
// even a minute's bucket), a hash shard in the partition key divides the rate.
import type { BucketSuggestion } from "./types.js";
import { DAY, HOUR, MINUTE, WEEK, YEAR, asAdjective, formatBytes, formatCount, formatRate, formatSpan } from "./estimator-text.js";
import type { PartitionLimits } from "./limits.js";

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
  /** λ: rows added a second per partition key */
  ratePerSecond: number;
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
  /** an existing time bucket in the partition key, which the suggestion replaces */
  existingBucket?: { column: string; widthSeconds: number };
  /** whether some query on the table reads a time range, to count the partitions it touches */
  rangeQuery: boolean;
}

/** The widest bucket, in seconds, each limit allows; `max` the tightest of them. */
export interface UpperBounds {
  values: number;
  bytes: number;
  rows: number;
  max: number;
}

export function bucketUpperBounds(input: BucketInput): UpperBounds {
  const rate = input.ratePerSecond;
  const { partitionValues, partitionBytes, rowsPerPartition } = input.limits;
  const values = input.valuesPerRow > 0 ? (partitionValues - input.fixedValues) / (rate * input.valuesPerRow) : Infinity;
  const bytes = input.bytesPerRow > 0 ? (partitionBytes - input.fixedBytes) / (rate * input.bytesPerRow) : Infinity;
  const rows = rowsPerPartition / rate;
  return { values, bytes, rows, max: Math.max(0, Math.min(values, bytes, rows)) };
}

/** Bounds in whole seconds, rounded inwards (past float noise such as 50,000.0000001). */
function wholeSeconds(seconds: number, direction: "up" | "down"): number {
  if (!Number.isFinite(seconds)) return seconds;
  return direction === "up" ? Math.ceil(seconds - 1e-6) : Math.floor(seconds + 1e-6);
}

/** The bucket width (or hash shard count) that keeps partitions of a growing table under the limits. */
export function suggestBucket(input: BucketInput): BucketSuggestion {
  const rate = input.ratePerSecond;
  const bounds = bucketUpperBounds(input);
  const limit = input.read?.limit;
  const minSeconds = limit !== undefined && limit > 0 ? limit / rate : 0;
  const fits = CALENDAR_WIDTHS.filter((w) => w.longest <= bounds.max && w.shortest >= minSeconds);
  const preferSmallest = limit !== undefined && limit > 0 && !input.read?.range;

  if (fits.length > 0) {
    const width = preferSmallest ? fits[0]! : fits[fits.length - 1]!;
    return {
      width: width.label,
      widthSeconds: width.longest,
      minSeconds: wholeSeconds(minSeconds, "up"),
      maxSeconds: wholeSeconds(bounds.max, "down"),
      explanation: explainWidth(input, width, bounds, minSeconds, preferSmallest),
    };
  }
  return suggestShards(input, bounds, minSeconds);
}

function suggestShards(input: BucketInput, bounds: UpperBounds, minSeconds: number): BucketSuggestion {
  // Each shard's bucket must still hold the read's rows in total across the shards, so the width
  // stays the smallest that serves the read; the shard count then brings each shard under the limits.
  const target = CALENDAR_WIDTHS.find((w) => w.shortest >= Math.max(minSeconds, MINUTE)) ?? CALENDAR_WIDTHS[CALENDAR_WIDTHS.length - 1]!;
  const shards = Math.max(2, Math.ceil(target.longest / Math.max(bounds.max, Number.MIN_VALUE)));
  const perShard = input.ratePerSecond / shards;
  const rows = perShard * target.longest;
  const sentences = [
    `No time bucket fits: ${boundsSentence(input, bounds, minSeconds)}`,
    `Add a hash shard to the partition key, ((${[...input.partitionKey, "shard"].join(", ")})) with shard = ${input.shardSource ?? "a hash of each row's clustering key"} % ${shards}, ` +
      `and bucket each shard by a ${asAdjective(target.label)} bucket of ${input.timeColumn ? `\`${input.timeColumn}\`` : "the time each row is written"}: ` +
      `${formatRate(input.ratePerSecond)} ÷ ${shards} shards = ${formatRate(perShard)} per shard, ` +
      `so a bucket holds ${bucketContents(input, rows)}.`,
    `Reads fan out to ${shards} partitions per bucket (one per shard), issued in parallel.`,
  ];
  return {
    shards,
    minSeconds: wholeSeconds(minSeconds, "up"),
    maxSeconds: wholeSeconds(bounds.max, "down"),
    explanation: sentences.join(" "),
  };
}

/**
 * Shards for a partition that is too large but has no growth rate to bucket by time:
 * `overLimit` is the largest ratio of a figure to its limit.
 */
export function suggestShardsWithoutRate(overLimit: number, key: { partition: string[]; clustering: string[] }, figures: string): BucketSuggestion {
  const shards = Math.max(2, Math.ceil(overLimit));
  const source = key.clustering.length > 0 ? `hash(${key.clustering.join(", ")})` : "a hash of each row's key";
  return {
    shards,
    minSeconds: 0,
    maxSeconds: 0,
    explanation:
      `The worst partition (${figures}) is ${trimRatio(overLimit)}× the limit and no growth rate is stated to bucket it by time. ` +
      `Add a hash shard to the partition key, ((${[...key.partition, "shard"].join(", ")})) with shard = ${source} % ${shards}: ` +
      `each shard then holds about 1/${shards} of the rows; a read of one logical partition fans out to ${shards} partitions.`,
  };
}

function trimRatio(value: number): string {
  return value >= 10 ? formatCount(value) : (Math.round(value * 10) / 10).toString();
}

function bucketContents(input: BucketInput, rows: number): string {
  const values = input.fixedValues + rows * input.valuesPerRow;
  const bytes = input.fixedBytes + rows * input.bytesPerRow;
  return `${formatCount(rows)} rows, ${formatCount(values)} values, ${formatBytes(bytes)}`;
}

function boundsSentence(input: BucketInput, bounds: UpperBounds, minSeconds: number): string {
  const parts: string[] = [];
  // Upper bounds, so rounded down: "at most 11 months" for 10.9 would already be over the limit.
  if (Number.isFinite(bounds.values)) parts.push(`values ${formatSpan(bounds.values, "down")}`);
  if (Number.isFinite(bounds.bytes)) parts.push(`bytes ${formatSpan(bounds.bytes, "down")}`);
  parts.push(`rows ${formatSpan(bounds.rows, "down")}`);
  const limits = `the limits allow at most ${formatSpan(bounds.max, "down")} of rows per partition (${parts.join("; ")})`;
  if (minSeconds <= 0 || !input.read) return `${limits}.`;
  return `${limits}, while ${input.read.queryId} reads the newest ${formatCount(input.read.limit ?? 0)} rows, which takes at least ${formatSpan(minSeconds)} of rows.`;
}

function explainWidth(input: BucketInput, width: CalendarWidth, bounds: UpperBounds, minSeconds: number, preferSmallest: boolean): string {
  const rows = input.ratePerSecond * width.longest;
  const key = input.partitionKey.filter((c) => c !== input.existingBucket?.column);
  const bucketOf = `${asAdjective(width.label)} bucket of ${input.timeColumn ? `\`${input.timeColumn}\`` : "the time each row is written"}`;
  const sentences: string[] = [];
  if (input.existingBucket) {
    sentences.push(
      `Replace the ${asAdjective(formatSpan(input.existingBucket.widthSeconds))} bucket \`${input.existingBucket.column}\` with a ${bucketOf}: partition by (${[...key, "bucket"].join(", ")}).`,
    );
  } else {
    sentences.push(`Bucket by ${width.label}: partition by (${[...key, "bucket"].join(", ")}) with bucket = a ${bucketOf}.`);
  }
  sentences.push(`At ${formatRate(input.ratePerSecond)} per key a bucket holds ${bucketContents(input, rows)}.`);
  sentences.push(`Bounds: ${boundsSentence(input, bounds, minSeconds)}`);
  if (preferSmallest) {
    sentences.push(
      `Chosen: the smallest calendar width that holds those ${formatCount(input.read?.limit ?? 0)} rows, so the read touches one or two partitions while partitions stay small.`,
    );
  } else if (input.read?.range) {
    sentences.push(`Chosen: the largest calendar width inside the limits, since ${input.read.queryId} reads a time range and wider buckets mean fewer partitions per range.`);
  } else {
    sentences.push("Chosen: the largest calendar width inside the limits, since no query needs a smaller one.");
  }
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
