import { describe, expect, it } from "vitest";
import {
  CALENDAR_WIDTHS,
  bucketUpperBounds,
  partitionsForWindow,
  suggestBucket,
  suggestShardsWithoutRate,
  type BucketInput,
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
  it("bounds a 1-row-a-second sensor at 50,000 s by values and 2,500,000 s by bytes", () => {
    const bounds = bucketUpperBounds(sensor());
    expect(bounds.values).toBe(50_000);
    expect(bounds.bytes).toBeCloseTo(2_500_000, -1);
    expect(bounds.rows).toBe(100_000);
    expect(bounds.max).toBe(50_000);
  });

  it("subtracts the static values and fixed bytes from the limits", () => {
    const bounds = bucketUpperBounds(sensor({ fixedValues: 1_000, fixedBytes: 50_000_000 }));
    expect(bounds.values).toBe(49_500);
    expect(bounds.bytes).toBeCloseTo(1_250_000, -1);
  });

  it("follows configured limits", () => {
    const bounds = bucketUpperBounds(sensor({ limits: { ...DEFAULT_CONFIG.limits, partitionValues: 10_000 } }));
    expect(bounds.max).toBe(5_000);
    expect(suggestBucket(sensor({ limits: { ...DEFAULT_CONFIG.limits, partitionValues: 10_000 } })).width).toBe("1 hour");
  });

  it("puts no values bound on rows without values", () => {
    expect(bucketUpperBounds(sensor({ valuesPerRow: 0 })).values).toBe(Infinity);
  });
});

describe("bucket widths", () => {
  it("gives the seed article's answer: ten newest users at three joins a day → 4 days", () => {
    const bucket = suggestBucket(groups());
    expect(bucket.width).toBe("4 days");
    expect(bucket.widthSeconds).toBe(4 * DAY);
    expect(bucket.shards).toBeUndefined();
  });

  it("takes an exact natural width when the read bound lands on one", () => {
    expect(suggestBucket(groups({ read: { queryId: "Q1", limit: 3, range: false } })).width).toBe("1 day");
    expect(suggestBucket(groups({ read: { queryId: "Q1", limit: 21, range: false } })).width).toBe("1 week");
  });

  it("takes the largest width inside the limits when nothing reads the newest rows", () => {
    expect(suggestBucket(sensor()).width).toBe("12 hours");
    expect(suggestBucket(groups({ read: undefined })).width).toBe("1 year");
  });

  it("sizes months by their longest instance against the limits", () => {
    // 100,000 rows ÷ 2,500 rows a day = 40 days: a month fits, three do not.
    const bucket = suggestBucket(sensor({ ratePerSecond: 2_500 / DAY, valuesPerRow: 1 }));
    expect(bucket.width).toBe("1 month");
    expect(bucket.widthSeconds).toBe(31 * DAY);
    // 30.5 days: a 31-day month would overflow, so two weeks.
    expect(suggestBucket(sensor({ ratePerSecond: 100_000 / (30.5 * DAY), valuesPerRow: 1 })).width).toBe("2 weeks");
  });

  it("prefers the largest width for a time-range read and counts the partitions a window touches", () => {
    const bucket = suggestBucket(sensor({ read: { queryId: "Q7", limit: 500, range: true }, rangeQuery: true }));
    expect(bucket.width).toBe("12 hours");
    expect(bucket.explanation).toContain("⌈Q / 12 hours⌉ + 1");
    expect(bucket.explanation).toContain("1 day → 3");
    expect(bucket.explanation).toContain("1 week → 15");
  });

  it("explains the bucket: what it holds, the bounds, and why this width", () => {
    const bucket = suggestBucket(groups());
    expect(bucket.explanation).toContain("partition by (groupname, bucket) with bucket = a 4-day bucket of `joined`");
    expect(bucket.explanation).toContain("At 3 rows/day per key a bucket holds 12 rows, 36 values");
    expect(bucket.explanation).toContain("Q1 reads the newest 10 rows, which takes at least 3.3 days");
    expect(bucket.explanation).toContain("smallest calendar width");
  });

  it("states the bounds rounded down, as the limits are crossed: 333 days of rows is at most 10 months, not 11", () => {
    // 300 rows a day, one value a row: the rows and values limits are reached after 333.3 days (10.95 months).
    const bucket = suggestBucket(sensor({ ratePerSecond: 300 / DAY, valuesPerRow: 1, read: { queryId: "Q1", limit: 50, range: false } }));
    expect(bucket.explanation).toContain("the limits allow at most 10 months of rows per partition (values 10 months; bytes ");
    expect(bucket.explanation).toContain("; rows 10 months)");
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
});

describe("hash shards", () => {
  it("shards a key too hot for a minute's bucket so each shard fits the limits", () => {
    // 100,000 values ÷ (1,000 rows/s × 2 values) = 50 s: under the smallest width.
    const bucket = suggestBucket(sensor({ ratePerSecond: 1_000 }));
    expect(bucket.width).toBeUndefined();
    expect(bucket.shards).toBe(2);
    expect(bucket.maxSeconds).toBe(50);
    expect(bucket.explanation).toContain("1,000 rows/s ÷ 2 shards");
  });

  it("shards when the read wants more rows than a partition may hold", () => {
    const bucket = suggestBucket(sensor({ read: { queryId: "Q1", limit: 120_000, range: false } }));
    // The read needs 120,000 s of rows; the smallest width above is 2 days; 2 days ÷ 50,000 s → 4 shards.
    expect(bucket).toMatchObject({ shards: 4, minSeconds: 120_000, maxSeconds: 50_000 });
    expect(bucket.explanation).toContain("bucket each shard by a 2-day bucket of `reading_time`");
  });

  it("shards a partition with no growth rate by how far it is past the limit", () => {
    const bucket = suggestShardsWithoutRate(2.3, { partition: ["user_id"], clustering: ["follower_id"] }, "230,000 rows");
    expect(bucket).toMatchObject({ shards: 3, minSeconds: 0, maxSeconds: 0 });
    expect(bucket.explanation).toContain("((user_id, shard)) with shard = hash(follower_id) % 3");
  });
});
