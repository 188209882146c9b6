import { describe, expect, it } from "vitest";
import { estimatePartition, estimateTables, timeBucketOf, UNBOUNDED_HORIZON_SECONDS, type EstimateContext } from "../../src/analysis/estimator.js";
import type { QueryAnalysis } from "../../src/analysis/types.js";
import { DEFAULT_CONFIG } from "../../src/config.js";
import type { Manifest, TableVolume } from "../../src/manifest/types.js";
import { emptySchema, type CassandraVersion, type TableModel } from "../../src/schema/model.js";
import { FILE_START } from "../../src/findings.js";
import { query, table, volume, type TableSpec } from "./estimator-helpers.js";

const DAY = 86_400;
const limits = DEFAULT_CONFIG.limits;

function estimate(spec: TableSpec, vol?: TableVolume, options: { version?: CassandraVersion; queries?: QueryAnalysis[]; writtenBy?: "insert" | "update" } = {}) {
  const context: EstimateContext = { version: options.version ?? "5.0", limits, queries: options.queries ?? [] };
  if (options.writtenBy) context.writtenBy = options.writtenBy;
  return estimatePartition(table(spec), vol, context);
}

/** Engine bytes of the worst partition before 5.0 and in 5.0. */
function engineBytes(spec: TableSpec, vol?: TableVolume) {
  return [estimate(spec, vol, { version: "4.1" }).worst.engineBytes, estimate(spec, vol, { version: "5.0" }).worst.engineBytes];
}

// Worked cases from the Cassandra data-modeling docs ("Evaluating and refining data models").
const hotelInventory: TableSpec = {
  keyspace: "hotel",
  name: "available_rooms_by_hotel_date",
  columns: { hotel_id: "text", date: "date", room_number: "smallint", is_available: "boolean" },
  partitionKey: ["hotel_id"],
  clustering: ["date", "room_number"],
};
const hotelByMonth: TableSpec = {
  keyspace: "hotel",
  name: "available_rooms_by_hotel_month",
  columns: { hotel_id: "text", month: "int", date: "date", room_number: "smallint", is_available: "boolean" },
  partitionKey: ["hotel_id", "month"],
  clustering: ["date", "room_number"],
};
const hotelByNight: TableSpec = {
  keyspace: "hotel",
  name: "available_rooms_by_hotel_night",
  columns: { hotel_id: "text", date: "date", room_number: "smallint", is_available: "boolean" },
  partitionKey: ["hotel_id", "date"],
  clustering: ["room_number"],
};
const video: TableSpec = {
  name: "video",
  columns: { video_id: "text", email: "text", name: "text", status: "tinyint", uploaded_at: "timestamp" },
  partitionKey: ["video_id"],
  clustering: ["email"],
  static: ["name"],
};
const sensorByDay: TableSpec = {
  name: "sensor_readings_by_day",
  columns: { sensor_id: "text", day: "date", reading_time: "timestamp", temperature: "double", humidity: "double" },
  partitionKey: ["sensor_id", "day"],
  clustering: ["reading_time"],
};
const hotels: TableSpec = {
  keyspace: "hotel",
  name: "hotels",
  columns: { id: "text", name: "text", phone: "text", address: "frozen<address>", pois: "set<text>" },
  partitionKey: ["id"],
  userTypes: {
    address: ["street", "city", "state_or_province", "postal_code", "country"].map((name) => ({ name, type: "text" })),
  },
};
const pageViews: TableSpec = {
  name: "page_views_by_day",
  columns: { page_id: "text", day: "date", views: "counter" },
  partitionKey: ["page_id"],
  clustering: ["day"],
};
const followers: TableSpec = {
  name: "followers",
  columns: { user_id: "uuid", follower_id: "uuid" },
  partitionKey: ["user_id"],
  clustering: ["follower_id"],
};

describe("classic estimate (the Cassandra docs' formula)", () => {
  it("sizes the docs' hotel inventory at 73,000 values and 1,095,005 bytes", () => {
    const result = estimate(hotelInventory, volume({ rows: 73_000, columns: { hotel_id: 5 } }));
    expect(result.worst).toMatchObject({ rows: 73_000, values: 73_000, cells: 73_000, bytes: 1_095_005 });
    expect(result.basis).toBe("manifest");
    expect(result.basisText).toBe("73,000 rows per partition (manifest)");
    expect(result.unbounded).toBe(false);
    expect(result.bucket).toBeUndefined();
    expect(result.defaultedColumns).toEqual([]);
  });

  it("sizes the hotel inventory bucketed by month (100 rooms × 31 days)", () => {
    const result = estimate(hotelByMonth, volume({ rows: 3_100, columns: { hotel_id: 5 } }));
    expect(result.worst).toMatchObject({ values: 3_100, bytes: 46_509 });
  });

  it("sizes the hotel inventory per night", () => {
    const result = estimate(hotelByNight, volume({ rows: 100, columns: { hotel_id: 5 } }));
    expect(result.worst).toMatchObject({ values: 100, bytes: 1_109 });
  });

  it("counts a static column once per partition", () => {
    const result = estimate(video, volume({ rows: 1_000, columns: { video_id: 30, email: 30, name: 30 } }));
    expect(result.worst).toMatchObject({ rows: 1_000, values: 2_001, bytes: 55_068 });
  });

  it("sizes average and worst partitions from a { avg, max } figure", () => {
    const result = estimate(video, volume({ rows: { avg: 300, max: 50_000 }, columns: { video_id: 30, email: 30, name: 30 } }));
    expect(result.average.values).toBe(300 * 2 + 1);
    expect(result.worst.values).toBe(50_000 * 2 + 1);
    expect(result.basisText).toBe("300 rows per partition, worst 50,000 (manifest)");
    // 100,001 values but a few MB: value counts under the hard cell limit ask for no split.
    expect(result.bucket).toBeUndefined();
  });

  it("counts a non-frozen set as one value but one cell per element", () => {
    const result = estimate(hotels, volume({ columns: { id: 5, name: 30, phone: 12, address: 85, pois: { kind: "collection", items: 5, bytesPerItem: 15 } } }));
    expect(result.basis).toBe("single-row");
    expect(result.worst).toMatchObject({ rows: 1, values: 4, cells: 8, bytes: 263 });
  });

  it("sizes counters at 8 bytes and flags them", () => {
    const result = estimate(pageViews, volume({ rows: 365, columns: { page_id: 20 } }));
    expect(result.worst).toMatchObject({ values: 365, bytes: 7_320 });
    expect(result.flags).toContain("counter");
  });

  it("gives a key-only table zero values but real bytes, and flags it", () => {
    const result = estimate(followers, volume({ rows: 1_000 }));
    expect(result.worst).toMatchObject({ rows: 1_000, values: 0, bytes: 16_016 });
    expect(result.flags).toEqual(["key-only"]);
  });

  it("flags a partition that holds only static data", () => {
    const result = estimate(video, volume({ rows: 0, columns: { video_id: 30, name: 30 } }));
    expect(result.worst).toMatchObject({ rows: 0, values: 1, bytes: 30 + 30 + 8 });
    expect(result.flags).toEqual(["static-only"]);
  });

  it("names the columns sized by default", () => {
    const result = estimate(video, volume({ rows: 10, columns: { video_id: 30 } }));
    expect(result.defaultedColumns).toEqual(["email", "name"]);
  });

  it("assumes a stated row count when the manifest says nothing", () => {
    const result = estimate(followers);
    expect(result.basis).toBe("type-default");
    expect(result.worst.rows).toBe(100);
    expect(result.basisText).toMatch(/no volume figures/);
  });
});

describe("engine-aware estimate (the 3.0+ storage format)", () => {
  it("reproduces the hotel inventory in 3.x/4.x and 5.0", () => {
    expect(engineBytes(hotelInventory, volume({ rows: 73_000, columns: { hotel_id: 5 } }))).toEqual([1_460_020, 1_460_009]);
  });

  it("reproduces the month and night buckets (composite partition keys)", () => {
    expect(engineBytes(hotelByMonth, volume({ rows: 3_100, columns: { hotel_id: 5 } }))).toEqual([62_030, 62_019]);
    expect(engineBytes(hotelByNight, volume({ rows: 100, columns: { hotel_id: 5 } }))).toEqual([1_530, 1_519]);
  });

  it("reproduces the static-column video table", () => {
    expect(engineBytes(video, volume({ rows: 1_000, columns: { video_id: 30, email: 30, name: 30 } }))).toEqual([53_087, 53_076]);
  });

  it("reproduces the sensor day bucket", () => {
    expect(engineBytes(sensorByDay, volume({ rows: 86_400, columns: { sensor_id: 10 } }))).toEqual([3_110_435, 3_110_424]);
  });

  it("reproduces the hotels row with a frozen UDT and a non-frozen set", () => {
    const vol = volume({ columns: { id: 5, name: 30, phone: 12, address: 85, pois: { kind: "collection", items: 5, bytesPerItem: 15 } } });
    expect(engineBytes(hotels, vol)).toEqual([260, 249]);
  });

  it("reproduces counters written by UPDATE (own timestamps, 36-byte contexts): about 3× the classic bytes", () => {
    const vol = volume({ rows: 365, columns: { page_id: 20 } });
    expect(engineBytes(pageViews, vol)).toEqual([19_380, 19_369]);
    const result = estimate(pageViews, vol);
    expect(result.worst.engineBytes! / result.worst.bytes).toBeGreaterThan(2.5);
  });

  it("reproduces the key-only followers table", () => {
    expect(engineBytes(followers, volume({ rows: 1_000 }))).toEqual([26_031, 26_020]);
  });

  it("labels the engine-aware figures with what they assume", () => {
    expect(estimate(pageViews, volume({ rows: 365 }), { version: "4.0" }).engineNote).toBe(
      "engine-aware estimate for Cassandra 4.0: uncompressed Data.db bytes of one fully compacted sstable; partition deletion 12 B; " +
        "rows written by UPDATE (a 6-byte timestamp delta on every cell)",
    );
    const hotelsNote = estimate(hotels, volume({})).engineNote;
    expect(hotelsNote).toContain("partition deletion 1 B");
    expect(hotelsNote).toContain("6-byte row timestamp delta");
    expect(hotelsNote).toContain("11-byte complex deletion");
  });

  it("uses the same layout for 3.11, 4.0 and 4.1", () => {
    const vol = volume({ rows: 100, columns: { hotel_id: 5 } });
    const sizes = (["3.11", "4.0", "4.1"] as const).map((version) => estimate(hotelByNight, vol, { version }).worst.engineBytes);
    expect(new Set(sizes).size).toBe(1);
  });

  it("charges every cell its own timestamp when rows are only ever UPDATEd", () => {
    const vol = volume({ rows: 100, columns: { hotel_id: 5 } });
    const inserted = estimate(hotelByNight, vol, { writtenBy: "insert" }).worst.engineBytes!;
    const updated = estimate(hotelByNight, vol, { writtenBy: "update" }).worst.engineBytes!;
    // One regular cell a row: the row timestamp moves onto the cell, same size.
    expect(updated).toBe(inserted);
    const wide = { ...sensorByDay, name: "wide" };
    const wideVol = volume({ rows: 100, columns: { sensor_id: 10 } });
    // Two regular cells a row: one more 6-byte timestamp per row.
    expect(estimate(wide, wideVol, { writtenBy: "update" }).worst.engineBytes! - estimate(wide, wideVol).worst.engineBytes!).toBe(100 * 6);
  });

  it("adds the TTL and expiration time to every row of a table with a default TTL", () => {
    const plain = estimate(followers, volume({ rows: 1_000 })).worst.engineBytes!;
    const expiring = estimate({ ...followers, ttl: 30 * DAY }, volume({ rows: 1_000 })).worst.engineBytes!;
    expect(expiring - plain).toBe(1_000 * (1 + 5));
  });
});

describe("rows per partition: basis", () => {
  const events: TableSpec = {
    name: "events_by_user",
    columns: { user_id: "uuid", created_at: "timestamp", payload: "text" },
    partitionKey: ["user_id"],
    clustering: ["created_at"],
  };

  it("derives rows from growth × retention", () => {
    const result = estimate(events, volume({ growthPerSecond: 5 / DAY, growthText: "5/day", retentionSeconds: 365 * DAY, columns: { payload: 100 } }));
    expect(result.basis).toBe("growth-retention");
    expect(result.worst.rows).toBe(1_825);
    expect(result.unbounded).toBe(false);
    expect(result.basisText).toContain("5/day");
    expect(result.basisText).toContain("1,825 rows");
  });

  it("derives rows from growth × default_time_to_live when no retention is stated", () => {
    const result = estimate({ ...events, ttl: 7 * DAY }, volume({ growthPerSecond: 100 / DAY }));
    expect(result.basis).toBe("growth-ttl");
    expect(result.worst.rows).toBe(700);
    expect(result.basisText).toBe("100 rows/day × default_time_to_live 1 week (growth × TTL) = 700 rows per partition");
  });

  it("takes the smaller of retention and TTL", () => {
    const ttlWins = estimate({ ...events, ttl: 7 * DAY }, volume({ growthPerSecond: 100 / DAY, retentionSeconds: 30 * DAY }));
    expect(ttlWins).toMatchObject({ basis: "growth-ttl", worst: { rows: 700 } });
    const retentionWins = estimate({ ...events, ttl: 7 * DAY }, volume({ growthPerSecond: 100 / DAY, retentionSeconds: 3 * DAY }));
    expect(retentionWins).toMatchObject({ basis: "growth-retention", worst: { rows: 300 } });
  });

  it("lets a TTL bound growth even when retention says forever", () => {
    const result = estimate({ ...events, ttl: 10 * DAY }, volume({ growthPerSecond: 10 / DAY, retentionSeconds: null }));
    expect(result).toMatchObject({ basis: "growth-ttl", unbounded: false, worst: { rows: 100 } });
  });

  it("bounds growth by a date bucket in the partition key", () => {
    const result = estimate(sensorByDay, volume({ growthPerSecond: 1, growthText: "1/s", columns: { sensor_id: 10 } }));
    expect(result.worst).toMatchObject({ rows: 86_400, values: 172_800, bytes: 3_456_014 });
    expect(result.unbounded).toBe(false);
    expect(result.basisText).toBe("1/s × the 1-day bucket `day` (growth × bucket width) = 86,400 rows per partition");
  });

  it("uses one row per partition when there are no clustering columns", () => {
    const result = estimate(hotels, volume({ rows: 500, growthPerSecond: 1 }));
    expect(result).toMatchObject({ basis: "single-row", unbounded: false, worst: { rows: 1 } });
  });
});

describe("unbounded growth", () => {
  const events: TableSpec = {
    name: "events_by_user",
    columns: { user_id: "uuid", created_at: "timestamp", payload: "text" },
    partitionKey: ["user_id"],
    clustering: ["created_at"],
  };

  it("reports a time series without retention or TTL as unbounded, sized at the one-year horizon", () => {
    const result = estimate(events, volume({ growthPerSecond: 20 / DAY, growthText: "20/day", columns: { payload: 100 } }));
    expect(result.unbounded).toBe(true);
    expect(result.worst.rows).toBe(Math.round((20 / DAY) * UNBOUNDED_HORIZON_SECONDS));
    expect(result.basisText).toBe("20/day with no retention or TTL (sized after one year of growth: 7,300 rows per partition)");
    expect(result.bucket).toBeDefined();
  });

  it("treats retention: forever like no retention", () => {
    const result = estimate(events, volume({ growthPerSecond: 20 / DAY, retentionSeconds: null }));
    expect(result.unbounded).toBe(true);
    expect(result.basisText).toMatch(/ kept forever \(retention: forever\) with no TTL \(sized after/);
  });

  it("says when each limit is crossed, from the growth rate", () => {
    // One value a row at 290 rows a day: 100,000 values and rows after 345 days.
    const result = estimate(events, volume({ growthPerSecond: 290 / DAY, columns: { payload: 100 } }));
    expect(result.crossesLimitsAfter).toEqual({
      values: "after 11 months",
      rows: "after 11 months",
      // 100 MB at 8 + 100 + 8 bytes a row: 862,068 rows, 8 years.
      bytes: "after 8 years",
    });
    const fast = estimate(events, volume({ growthPerSecond: 30_000 / DAY, columns: { payload: 100 } }));
    expect(fast.crossesLimitsAfter?.values).toBe("after 3 days");
  });

  it("leaves out the values limit for key-only tables and counts rows instead", () => {
    const result = estimate({ ...followers, columns: { user_id: "uuid", follower_id: "timeuuid" } }, volume({ growthPerSecond: 1 }));
    expect(result.unbounded).toBe(true);
    expect(result.crossesLimitsAfter?.values).toBeUndefined();
    expect(result.crossesLimitsAfter?.rows).toBe("after 27 hours");
  });

  it("counts growth on top of stated rows", () => {
    const result = estimate(events, volume({ rows: { avg: 10, max: 1_000 }, growthPerSecond: 10 / DAY }));
    expect(result.basis).toBe("manifest");
    expect(result.unbounded).toBe(true);
    expect(result.average.rows).toBe(10);
    expect(result.worst.rows).toBe(1_000 + 3_650);
    expect(result.crossesLimitsAfter?.rows).toBe("after 27 years");
  });

  it("does not call a bucketed table unbounded", () => {
    const result = estimate(sensorByDay, volume({ growthPerSecond: 0.001 }));
    expect(result.unbounded).toBe(false);
    expect(result.crossesLimitsAfter).toBeUndefined();
  });
});

describe("bucket suggestions", () => {
  const usersByGroup: TableSpec = {
    name: "users_by_group",
    columns: { groupname: "text", joined: "timeuuid", username: "text", email: "text", age: "int" },
    partitionKey: ["groupname"],
    clustering: ["joined"],
  };

  it("asks nothing of three joins a day: a group's partition stays small for centuries", () => {
    const queries = [query({ id: "Q1", table: "ks.users_by_group", limit: 10, rate: 50 })];
    const result = estimate(usersByGroup, volume({ growthPerSecond: 3 / DAY, growthText: "3/day" }), { queries });
    expect(result.unbounded).toBe(true);
    expect(result.crossesAfterSeconds!.bytes).toBeGreaterThan(100 * 365 * DAY);
  });

  it("narrows the table's own day bucket for a hot sensor: the widest width under 100 MB", () => {
    // 100 rows/s × 40 bytes: 100 MB (less the key) in just under 25,000 s, so 6 hours
    const result = estimate(sensorByDay, volume({ growthPerSecond: 100, columns: { sensor_id: 10 } }));
    expect(result.bucket).toMatchObject({ kind: "bucket", width: "6 hours", maxSeconds: 24_999 });
    expect(result.bucket?.explanation).toContain("Narrow the existing bucket `day` from 1 day to 6 hours of `reading_time`");
  });

  it("takes the same width for a newest-rows query and for a time-range query, and counts a range's partitions", () => {
    const newest = estimate(sensorByDay, volume({ growthPerSecond: 100, columns: { sensor_id: 10 } }), {
      queries: [query({ id: "Q7", table: "ks.sensor_readings_by_day", limit: 500 })],
    });
    const range = estimate(sensorByDay, volume({ growthPerSecond: 100, columns: { sensor_id: 10 } }), {
      queries: [query({ id: "Q7", table: "ks.sensor_readings_by_day", limit: 500, rangeOn: "reading_time" })],
    });
    expect(newest.bucket?.width).toBe("6 hours");
    expect(range.bucket?.width).toBe("6 hours");
    expect(newest.bucket?.explanation).toContain("Q7's newest 500 rows sit in one or two");
    expect(range.bucket?.explanation).toContain("1 day → 5");
  });

  it("sizes from the worst partition's rate, stated as the manifest's worst over its average", () => {
    const even = estimate(sensorByDay, volume({ rows: { avg: 8_640_000, max: 8_640_000 }, growthPerSecond: 100, columns: { sensor_id: 10 } }));
    const skewed = estimate(sensorByDay, volume({ rows: { avg: 864_000, max: 8_640_000 }, growthPerSecond: 10, columns: { sensor_id: 10 } }));
    expect(skewed.bucket?.width).toBe(even.bucket?.width);
    expect(skewed.bucket?.explanation).toContain("100 rows/s for the worst key");
  });

  it("suggests a hash shard when even a minute's bucket is too big, and says what a read costs", () => {
    const hot: TableSpec = {
      name: "ticks",
      columns: { symbol: "text", at: "timestamp", a: "int", b: "int", c: "int", d: "int", e: "int", f: "int", g: "int", h: "int", i: "int", j: "int" },
      partitionKey: ["symbol"],
      clustering: ["at"],
    };
    const result = estimate(hot, volume({ growthPerSecond: 1_000_000 }));
    expect(result.bucket?.kind).toBe("shard");
    expect(result.bucket?.width).toBeUndefined();
    expect(result.bucket?.shards).toBeGreaterThan(1);
    expect(result.bucket?.explanation).toContain(`reads ${result.bucket?.shards} partitions`);
  });

  it("offers no shard when the read pages through a partition in clustering order", () => {
    const queries = [query({ id: "Q9", table: "ks.events", limit: 5_000_000 })];
    const events: TableSpec = {
      name: "events",
      columns: { source: "text", at: "timestamp", value: "double" },
      partitionKey: ["source"],
      clustering: ["at"],
    };
    const result = estimate(events, volume({ growthPerSecond: 100 }), { queries });
    expect(result.bucket?.kind).toBe("none");
    expect(result.bucket?.explanation).toContain("Q9 pages through a partition in clustering order");
  });

  it("suggests nothing for partitions inside the limits", () => {
    expect(estimate(sensorByDay, volume({ growthPerSecond: 0.5, columns: { sensor_id: 10 } })).bucket).toBeUndefined();
  });
});

describe("time buckets in the partition key", () => {
  it("reads the width from a date column or a bucket column's name", () => {
    expect(timeBucketOf(table(sensorByDay))).toEqual({ column: "day", widthSeconds: DAY });
    expect(timeBucketOf(table(hotelByMonth))).toEqual({ column: "month", widthSeconds: 31 * DAY });
    const seed = table({ name: "g", columns: { groupname: "text", join_date: "text", joined: "timeuuid" }, partitionKey: ["groupname", "join_date"], clustering: ["joined"] });
    expect(timeBucketOf(seed)).toEqual({ column: "join_date", widthSeconds: DAY });
    const hourly = table({ name: "h", columns: { id: "uuid", hourBucket: "bigint", at: "timestamp" }, partitionKey: ["id", "hourBucket"], clustering: ["at"] });
    expect(timeBucketOf(hourly)).toEqual({ column: "hourBucket", widthSeconds: 3_600 });
  });

  it("knows a bucket of unknown width and does not guess its rows", () => {
    const spec: TableSpec = { name: "b", columns: { id: "uuid", bucket: "int", at: "timestamp" }, partitionKey: ["id", "bucket"], clustering: ["at"] };
    expect(timeBucketOf(table(spec))).toEqual({ column: "bucket", widthSeconds: null });
    const result = estimate(spec, volume({ growthPerSecond: 1 }));
    expect(result).toMatchObject({ unbounded: false, basis: "type-default" });
    expect(result.basisText).toContain("state rows_per_partition");
  });

  it("takes a bucket of unknown width for a hash or a constant when rows are kept for ever in a fixed number of partitions", () => {
    const spec: TableSpec = { name: "b", columns: { bucket: "int", at: "timestamp", data: "text" }, partitionKey: ["bucket"], clustering: ["at"] };
    const forever = { ...volume({ growthPerSecond: 1 / 60, retentionSeconds: null as unknown as number }), partitions: 1 };
    expect(estimate(spec, forever)).toMatchObject({ unbounded: true, basis: "growth-retention" });
    // without a stated partition count the bucket may be a time bucket: no claim either way
    expect(estimate(spec, volume({ growthPerSecond: 1 / 60, retentionSeconds: null as unknown as number }))).toMatchObject({ unbounded: false, basis: "type-default" });
  });

  it("finds no bucket in a plain key", () => {
    expect(timeBucketOf(table(followers))).toBeUndefined();
  });
});

describe("estimateTables", () => {
  function schemaOf(...tables: TableModel[]) {
    const schema = emptySchema();
    for (const t of tables) schema.tables.set(t.qualifiedName, t);
    return schema;
  }
  function manifest(tables: TableVolume[], extra: Partial<Manifest> = {}): Manifest {
    return { file: "access-patterns.yaml", version: 1, tables, queries: [], writes: [], ...extra };
  }
  const options = { version: "5.0" as const, limits };

  it("estimates every table, matching `ks.t`, `t` in the manifest keyspace, or `t` in its only keyspace", () => {
    const a = table({ ...followers, keyspace: "social" });
    const b = table({ ...followers, keyspace: "archive" });
    const c = table({ ...pageViews, keyspace: "web" });
    const schema = schemaOf(a, b, c);
    const estimates = estimateTables(
      schema,
      manifest([volume({ name: "archive.followers", rows: 7 }), volume({ name: "followers", rows: 5 }), volume({ name: "page_views_by_day", rows: 9 })], { keyspace: "social" }),
      [],
      options,
    );
    expect([...estimates.keys()].sort()).toEqual(["archive.followers", "social.followers", "web.page_views_by_day"]);
    expect(estimates.get("archive.followers")?.worst.rows).toBe(7);
    expect(estimates.get("social.followers")?.worst.rows).toBe(5);
    expect(estimates.get("web.page_views_by_day")?.worst.rows).toBe(9);
  });

  it("leaves a name held by two keyspaces unmatched when no keyspace says which", () => {
    const schema = schemaOf(table({ ...followers, keyspace: "social" }), table({ ...followers, keyspace: "archive" }));
    const estimates = estimateTables(schema, manifest([volume({ name: "followers", rows: 5 })]), [], options);
    expect(estimates.get("social.followers")?.basis).toBe("type-default");
    expect(estimates.get("archive.followers")?.basis).toBe("type-default");
  });

  it("prefers the options' keyspace over the manifest's and folds unquoted names", () => {
    const schema = schemaOf(table({ ...followers, keyspace: "social" }), table({ ...followers, keyspace: "archive" }));
    const estimates = estimateTables(schema, manifest([volume({ name: "Followers", rows: 5 })], { keyspace: "social" }), [], { ...options, keyspace: "archive" });
    expect(estimates.get("archive.followers")?.worst.rows).toBe(5);
  });

  it("hands each table its own queries for the bucket bounds", () => {
    const groups = table({
      name: "users_by_group",
      columns: { groupname: "text", joined: "timeuuid", username: "text" },
      partitionKey: ["groupname"],
      clustering: ["joined"],
    });
    const schema = schemaOf(groups, table(followers));
    const queries = [query({ id: "Q1", table: "ks.users_by_group", limit: 10 }), query({ id: "Q2", table: "ks.followers", limit: 1_000_000 })];
    const estimates = estimateTables(schema, manifest([volume({ name: "users_by_group", growthPerSecond: 1_000 })]), queries, options);
    expect(estimates.get("ks.users_by_group")?.bucket?.explanation).toContain("Q1's newest 10 rows");
    expect(estimates.get("ks.users_by_group")?.bucket?.explanation).not.toContain("Q2");
  });

  it("sees tables written only by UPDATE in the manifest's write paths", () => {
    const schema = schemaOf(table({ ...sensorByDay, keyspace: "iot" }));
    const tableName = { name: { name: "sensor_readings_by_day" } };
    const write = (kind: "insert" | "update") =>
      ({ id: kind, statements: [{ cql: "", statement: { kind, table: tableName }, location: { file: "m", range: FILE_START } }], retried: true, ignore: [], location: { file: "m", range: FILE_START } }) as unknown as Manifest["writes"][number];
    const vols = [volume({ name: "sensor_readings_by_day", rows: 10 })];
    const updated = estimateTables(schema, manifest(vols, { keyspace: "iot", writes: [write("update")] }), [], options).get("iot.sensor_readings_by_day")!;
    const mixed = estimateTables(schema, manifest(vols, { keyspace: "iot", writes: [write("update"), write("insert")] }), [], options).get("iot.sensor_readings_by_day")!;
    expect(updated.worst.engineBytes! - mixed.worst.engineBytes!).toBe(10 * 6);
  });

  it("is linear in tables: 2,000 tables estimate in one pass", () => {
    const tables: TableModel[] = [];
    const volumes: TableVolume[] = [];
    for (let i = 0; i < 2_000; i++) {
      tables.push(table({ ...sensorByDay, name: `t${i}` }));
      volumes.push(volume({ name: `t${i}`, growthPerSecond: (i % 7) + 0.5 }));
    }
    const estimates = estimateTables(schemaOf(...tables), manifest(volumes, { keyspace: "ks" }), [], options);
    expect(estimates.size).toBe(2_000);
    expect([...estimates.values()].every((e) => e.worst.rows > 0)).toBe(true);
  });
});

describe("bad figures", () => {
  it("treats a limit that is not a positive number as no limit", () => {
    const broken = { ...limits, partitionValues: 0, rowsPerPartition: Number.NaN };
    const result = estimatePartition(
      table({ name: "e", columns: { id: "uuid", at: "timestamp", v: "int" }, partitionKey: ["id"], clustering: ["at"] }),
      volume({ growthPerSecond: 1 }),
      { version: "5.0", limits: broken, queries: [] },
    );
    // (100 MB − 16 B key) ÷ 20 B a row at 1 row/s: 5,000,000 s.
    expect(result.crossesLimitsAfter).toEqual({ bytes: "after 57 days" });
    expect(result.bucket?.width).toBe("1 month");
  });

  it("ignores growth and rows that are not positive numbers", () => {
    const spec: TableSpec = { name: "e", columns: { id: "uuid", at: "timestamp", v: "int" }, partitionKey: ["id"], clustering: ["at"] };
    expect(estimate(spec, volume({ growthPerSecond: -3 })).basis).toBe("type-default");
    expect(estimate(spec, volume({ growthPerSecond: Number.NaN, rows: Number.POSITIVE_INFINITY })).basis).toBe("type-default");
  });
});
