import { describe, expect, it } from "vitest";
import {
  CALENDAR_WIDTHS,
  bucketUpperBounds,
  partitionsForWindow,
  HARD_CELL_LIMIT,
  newColumnName,
  suggestBucket,
  suggestSplitWithoutRate,
  type BucketInput,
  type SplitWithoutRate,
} from "../../src/analysis/buckets.js";
import { DEFAULT_CONFIG } from "../../src/config.js";

const DAY = 86_400;

/** The sensor of the Cassandra docs' sizing example: two doubles a row, keyed by a 10-byte id and a date. */
function sensor(overrides: Partial<BucketInput> = {}): BucketInput {
  return {
    ratePerSecond: 1,
    valuesPerRow: 2,
    bytesPerRow: 8 + 8 + 8 + 2 * 8,
    fixedValues: 0,
    fixedBytes: 10 + 4,
    limits: DEFAULT_CONFIG.limits,
    timeColumn: "reading_time",
    partitionKey: ["sensor_id"],
    rangeQuery: false,
    ...overrides,
  };
}

/** The seed article's groups: three joins a day, five values a row. */
function groups(overrides: Partial<BucketInput> = {}): BucketInput {
  return {
    ratePerSecond: 3 / DAY,
    valuesPerRow: 3,
    bytesPerRow: 16 + 16 + 16 + 4 + 3 * 8,
    fixedValues: 0,
    fixedBytes: 16,
    limits: DEFAULT_CONFIG.limits,
    read: { queryId: "Q1", limit: 10, range: false },
    timeColumn: "joined",
    partitionKey: ["groupname"],
    rangeQuery: false,
    ...overrides,
  };
}

describe("bucket bounds", () => {
  it("bounds a 1-row-a-second sensor at 2,500,000 s by bytes, and by the hard cell limit far later", () => {
    const bounds = bucketUpperBounds(sensor());
    expect(bounds.bytes).toBeCloseTo(2_500_000, -1);
    expect(bounds.values).toBeCloseTo(HARD_CELL_LIMIT / 2, -1);
    expect(bounds.max).toBe(bounds.bytes);
    expect(bounds.lifetime).toBe(Infinity);
  });

  it("subtracts the fixed bytes from the limit and sizes from the worst key's rate", () => {
    expect(bucketUpperBounds(sensor({ fixedBytes: 50_000_000 })).bytes).toBeCloseTo(1_250_000, -1);
    expect(bucketUpperBounds(sensor({ worstRatePerSecond: 100 })).bytes).toBeCloseTo(25_000, -1);
  });

  it("follows the configured bytes limit", () => {
    const limits = { ...DEFAULT_CONFIG.limits, partitionBytes: 10_000_000 };
    expect(bucketUpperBounds(sensor({ limits })).bytes).toBeCloseTo(250_000, -1);
    expect(suggestBucket(sensor({ limits })).width).toBe("2 days");
  });

  it("puts no cells bound on rows without values", () => {
    expect(bucketUpperBounds(sensor({ valuesPerRow: 0 })).values).toBe(Infinity);
  });
});

describe("bucket widths: one rule, the widest calendar width inside the bounds", () => {
  it("takes the widest width under the bytes limit", () => {
    // 2,500,000 s: two weeks fit, a 31-day month does not.
    expect(suggestBucket(sensor()).width).toBe("2 weeks");
  });

  it("stays narrower than the rows' lifetime", () => {
    expect(suggestBucket(sensor({ lifetimeSeconds: 7 * DAY })).width).toBe("6 days");
  });

  it("sizes from the worst key, so a skewed table gets a narrower bucket than its average asks", () => {
    expect(suggestBucket(sensor({ worstRatePerSecond: 100 })).width).toBe("6 hours");
    expect(suggestBucket(sensor({ worstRatePerSecond: 100 })).explanation).toContain("At 100 rows/s for the worst key a bucket holds 2,160,000 rows");
  });

  it("gives a newest-rows read and a time-range read the same width", () => {
    const newest = suggestBucket(sensor({ worstRatePerSecond: 100, read: { queryId: "Q7", limit: 500, range: false } }));
    const range = suggestBucket(sensor({ worstRatePerSecond: 100, read: { queryId: "Q7", limit: 500, range: true }, rangeQuery: true }));
    expect(newest.width).toBe(range.width);
    expect(range.explanation).toContain("⌈Q / 6 hours⌉ + 1");
    expect(range.explanation).toContain("1 day → 5");
  });

  it("sizes months by their longest instance against the limits", () => {
    // 30.5 days of bytes: a 31-day month would overflow, so two weeks; 40 days: a month.
    const perDay = (days: number) => (100_000_000 - 14) / 40 / (days * DAY);
    expect(suggestBucket(sensor({ ratePerSecond: perDay(30.5) })).width).toBe("2 weeks");
    const month = suggestBucket(sensor({ ratePerSecond: perDay(40) }));
    expect(month.width).toBe("1 month");
    expect(month.widthSeconds).toBe(31 * DAY);
  });

  it("explains the bucket: what it holds, the bounds, and why this width, naming the column apart from the table's", () => {
    const bucket = suggestBucket(groups({ ratePerSecond: 100, columns: ["groupname", "joined", "day"] }));
    expect(bucket.explanation).toMatch(/Bucket by \d+ hours?: partition by \(groupname, (hour|bucket)\)/);
    expect(bucket.explanation).toContain("Chosen: the widest calendar width inside the bounds");
    expect(bucket.explanation).toContain("Q1's newest 10 rows sit in one or two");
  });

  it("changes the width of an existing bucket instead of adding a second one", () => {
    const bucket = suggestBucket(sensor({ worstRatePerSecond: 100, partitionKey: ["sensor_id", "day"], existingBucket: { column: "day", widthSeconds: DAY } }));
    expect(bucket.explanation).toContain("Narrow the existing bucket `day` from 1 day to 6 hours of `reading_time`; the partition key stays (sensor_id, day)");
    expect(bucket.explanation).not.toMatch(/partition by \(/);
  });

  it("states the bounds rounded down, as the limits are crossed", () => {
    // 300 rows a day of 40 bytes: 100 MB after 22.8 years, so at most 22 years.
    const bucket = suggestBucket(sensor({ ratePerSecond: 300 / DAY, read: { queryId: "Q1", limit: 50, range: false } }));
    expect(bucket.explanation).toContain("(bytes 22 years)");
  });

  it("counts ⌈Q/W⌉ + 1 partitions for a window of length Q", () => {
    expect(partitionsForWindow(DAY, DAY / 2)).toBe(3);
    expect(partitionsForWindow(7 * DAY, 4 * DAY)).toBe(3);
    expect(partitionsForWindow(DAY, DAY)).toBe(2);
  });

  it("lists calendar widths smallest first, with every whole number of days to a week", () => {
    const longest = CALENDAR_WIDTHS.map((w) => w.longest);
    expect([...longest].sort((a, b) => a - b)).toEqual(longest);
    for (let days = 1; days <= 7; days++) expect(CALENDAR_WIDTHS.some((w) => w.shortest === days * DAY)).toBe(true);
  });

  it("names a new column apart from the table's own", () => {
    expect(newColumnName(["id", "bucket"], "bucket")).toBe("time_bucket");
    expect(newColumnName(["id", "day"], "day")).toBe("day_bucket");
    expect(newColumnName(["id"], "hour")).toBe("hour");
  });
});

describe("hash shards", () => {
  it("shards a key too hot for a minute's bucket and says what each read costs", () => {
    // 100 MB ÷ (1,000,000 rows/s × 40 bytes) = 2.5 s: under the smallest width.
    const bucket = suggestBucket(sensor({ ratePerSecond: 1_000_000 }));
    expect(bucket).toMatchObject({ kind: "shard", maxSeconds: 2 });
    expect(bucket.width).toBeUndefined();
    expect(bucket.shards).toBe(25);
    expect(bucket.explanation).toContain("reads 25 partitions");
    expect(bucket.explanation).toContain("a read that binds the whole primary key computes the shard and reads one");
  });

  it("offers no shard to a table with static columns or a read paged in clustering order", () => {
    expect(suggestBucket(sensor({ ratePerSecond: 1_000_000, hasStatic: true }))).toMatchObject({ kind: "none" });
    const paged = suggestBucket(sensor({ ratePerSecond: 1_000_000, pagedInOrderBy: "Q1" }));
    expect(paged.kind).toBe("none");
    expect(paged.explanation).not.toContain("Add a hash shard");
  });
});

describe("splits without a growth rate", () => {
  const base: SplitWithoutRate = {
    overLimit: 2.3,
    averageOverLimit: 1.5,
    partitionKey: ["user_id"],
    clustering: ["follower_id"],
    figures: "230,000 rows, 230 MB",
    averageFigures: "150,000 rows, 150 MB",
    alwaysBound: [],
  };

  it("shards by how far the partition is past the limit, with the read's cost", () => {
    const bucket = suggestSplitWithoutRate(base);
    expect(bucket).toMatchObject({ kind: "shard", shards: 3, minSeconds: 0, maxSeconds: 0 });
    expect(bucket.explanation).toContain("((user_id, shard)) with shard = hash(follower_id) % 3");
    expect(bucket.explanation).toContain("reads 3 partitions");
  });

  it("promotes an always-bound clustering column before any shard", () => {
    const bucket = suggestSplitWithoutRate({ ...base, alwaysBound: ["follower_id"] });
    expect(bucket.kind).toBe("promote");
    expect(bucket.explanation).toContain("PRIMARY KEY ((user_id, follower_id))");
  });

  it("leaves a rare outlier alone", () => {
    const bucket = suggestSplitWithoutRate({ ...base, averageOverLimit: 0.01 });
    expect(bucket.kind).toBe("none");
    expect(bucket.explanation).not.toMatch(/shard/i);
  });

  it("offers no shard to a table with static columns", () => {
    expect(suggestSplitWithoutRate({ ...base, hasStatic: true }).explanation).not.toContain("Add a hash shard");
  });
});
