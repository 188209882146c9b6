// Partition-size estimates (Apache Cassandra docs, "Evaluating and refining
// data models", https://cassandra.apache.org/doc/latest/cassandra/developing/data-modeling/data-modeling_refining.html): for every table, how many rows, values and bytes
// its average and worst partitions hold, where the row count comes from, whether partitions grow
// without bound, and the bucket that would keep them under the limits.
//
// Classic method (§2):  Nv = Nr × (Nc − Npk − Ns) + Ns
//                       St = Σ key + Σ static + Nr × (Σ clustering + Σ regular) + 8 × Nv
// Engine-aware bytes (§6) come from estimator-engine.ts; thresholds are held against the classic
// numbers. Pure: no clock, no I/O; bad figures give a weaker estimate, never an exception.
import type { SelectStatement } from "../cql/ast.js";
import { quoteName } from "../cql/print.js";
import type { ColumnSize, Manifest, TableVolume } from "../manifest/types.js";
import type { CassandraVersion, ColumnModel, ColumnType, SchemaModel, TableModel } from "../schema/model.js";
import { statedCells } from "./cells.js";
import { HARD_CELL_LIMIT, suggestBucket, suggestSplitWithoutRate, type BucketRead } from "./buckets.js";
import { describeEngineEstimate, enginePartitionBytes, type EngineTable } from "./estimator-engine.js";
import { DAY, HOUR, MINUTE, WEEK, YEAR, asAdjective, formatAfter, formatBytes, formatCount, formatRate, formatSpan } from "./estimator-text.js";
import { sizeValue, type SizedValue } from "./type-sizes.js";
import { computedText, constantKeyColumns, constantText, timeKeyColumns } from "./key-constants.js";
import type { BucketSuggestion, ConstantKeyColumn, EstimateBasis, PartitionEstimate, PartitionFigures, QueryAnalysis, TimeKeyColumn } from "./types.js";
import type { PartitionLimits } from "./limits.js";

export interface EstimateContext {
  version: CassandraVersion;
  limits: PartitionLimits;
  /** partition-key columns every write path sets to the same literal (key-constants.ts) */
  constantKey?: ConstantKeyColumn[];
  /** partition-key columns every write path binds from the current time (key-constants.ts): the table's time bucket */
  timeKey?: TimeKeyColumn[];
  /** the queries this table serves, for the LIMIT and time-range bounds of a bucket */
  queries: QueryAnalysis[];
  /**
   * How rows reach the table, from the manifest's write paths: `update` when every write is an
   * UPDATE (cells then carry their own timestamps). Default `insert`; counters are always `update`.
   */
  writtenBy?: "insert" | "update";
}

/** Unbounded partitions are sized after this much growth: a year is the horizon teams plan capacity for. */
export const UNBOUNDED_HORIZON_SECONDS = YEAR;

/** Rows assumed for a clustered table with no figures: wide enough to notice, small enough not to alarm. */
export const DEFAULT_ROWS_PER_PARTITION = 100;

/** Classic bytes of metadata (timestamp etc.) per value. */
const BYTES_PER_VALUE = 8;

const TIME_TYPES = new Set(["timestamp", "timeuuid", "date", "time"]);

interface SizedTable {
  partitionKey: SizedValue[];
  clustering: SizedValue[];
  static: SizedValue[];
  regular: SizedValue[];
  keyBytes: number;
  staticBytes: number;
  /** classic bytes of a row's clustering and regular values */
  rowBytes: number;
  staticValues: number;
  regularValues: number;
  staticCells: number;
  regularCells: number;
  defaultedColumns: string[];
}

/** A time bucket the partition key already has, as the bucket suggestion reuses it (buckets.ts). */
type ExistingBucket = NonNullable<Parameters<typeof suggestBucket>[0]["existingBucket"]>;

/** A time bucket found in the key: declared, computed from time by the writes, named so, or read from the figures. */
type FoundBucket = { column: string; widthSeconds: number | null; foundBy?: "figures" | "writes"; computedIn?: string };

interface RowCounts {
  avg: number;
  max: number;
  basis: EstimateBasis;
  basisText: string;
  unbounded: boolean;
  /** rows a second per partition key, when known */
  rate?: number;
  /** rows a partition already holds when growth starts counting (manifest figures) */
  startRows: number;
  existingBucket?: ExistingBucket;
  /** the worst key's rows a second: the average rate scaled by the manifest's worst over average partition */
  worstRate?: number;
  /** how long a row lives (TTL, retention), when bounded */
  lifetimeSeconds?: number;
}

/** Estimates one table's partitions from its manifest volume figures (if any). */
export function estimatePartition(table: TableModel, volume: TableVolume | undefined, context: EstimateContext): PartitionEstimate {
  const limits = usableLimits(context.limits);
  const sized = sizeTable(table, volume);
  const counts = rowCounts(table, volume, context.constantKey ?? [], context.timeKey ?? []);
  const counter = table.columns.some((c) => c.type.kind === "native" && c.type.name === "counter");
  const engineTable: EngineTable = {
    partitionKey: sized.partitionKey,
    clustering: sized.clustering,
    static: sized.static,
    regular: sized.regular,
    expiring: table.defaultTtlSeconds > 0 && !counter,
    writtenBy: counter ? "update" : (context.writtenBy ?? "insert"),
  };
  const figures = (rows: number): PartitionFigures => {
    const values = rows * sized.regularValues + sized.staticValues;
    return {
      rows,
      values,
      cells: rows * sized.regularCells + sized.staticCells,
      bytes: Math.round(sized.keyBytes + sized.staticBytes + rows * sized.rowBytes + values * BYTES_PER_VALUE),
      engineBytes: enginePartitionBytes(engineTable, rows, context.version),
    };
  };
  const average = figures(counts.avg);
  const worst = figures(counts.max);

  const flags: PartitionEstimate["flags"] = [];
  if (counter) flags.push("counter");
  if (sized.regularValues === 0 && sized.staticValues === 0) flags.push("key-only");
  if (sized.staticValues > 0 && worst.rows === 0) flags.push("static-only");

  const estimate: PartitionEstimate = {
    table: table.qualifiedName,
    basis: counts.basis,
    basisText: counts.basisText,
    average,
    worst,
    unbounded: counts.unbounded,
    flags,
    defaultedColumns: sized.defaultedColumns,
    engineNote: describeEngineEstimate(engineTable, context.version),
  };
  const cells = statedCells(table, volume);
  if (cells.length > 0) estimate.cells = cells;
  if (context.constantKey && context.constantKey.length > 0) estimate.constantKey = context.constantKey;
  if (context.timeKey && context.timeKey.length > 0) estimate.timeKey = context.timeKey;
  if (counts.unbounded && counts.rate) {
    estimate.crossesLimitsAfter = crossingTimes(sized, counts.rate, counts.startRows, limits);
    estimate.crossesAfterSeconds = crossingSeconds(sized, counts.rate, counts.startRows, limits);
  }
  const bucket = bucketFor(table, sized, counts, average, worst, { ...context, limits });
  if (bucket) estimate.bucket = bucket;
  return estimate;
}

/** Estimates every table (views included), matching the manifest's `tables` entries to them. */
export function estimateTables(
  schema: SchemaModel,
  manifest: Manifest | undefined,
  queries: QueryAnalysis[],
  options: { version: CassandraVersion; limits: PartitionLimits; keyspace?: string },
): Map<string, PartitionEstimate> {
  const keyspace = options.keyspace ?? manifest?.keyspace;
  const volumes = matchVolumes(schema, manifest?.tables ?? [], keyspace);
  const writers = writersByTable(schema, manifest, keyspace);
  const constants = constantKeyColumns(schema, manifest, keyspace);
  const timeKeys = timeKeyColumns(schema, manifest, keyspace);
  const queriesByTable = new Map<string, QueryAnalysis[]>();
  for (const query of queries) {
    if (query.table === null) continue;
    const list = queriesByTable.get(query.table);
    if (list) list.push(query);
    else queriesByTable.set(query.table, [query]);
  }
  const estimates = new Map<string, PartitionEstimate>();
  for (const table of schema.tables.values()) {
    const context: EstimateContext = {
      version: options.version,
      limits: options.limits,
      queries: queriesByTable.get(table.qualifiedName) ?? [],
    };
    const writtenBy = writers.get(table.qualifiedName);
    if (writtenBy) context.writtenBy = writtenBy;
    const constantKey = constants.get(table.qualifiedName);
    if (constantKey) context.constantKey = constantKey;
    const timeKey = timeKeys.get(table.qualifiedName);
    if (timeKey) context.timeKey = timeKey;
    estimates.set(table.qualifiedName, estimatePartition(table, volumes.get(table.qualifiedName), context));
  }
  return estimates;
}

// ---------------------------------------------------------------------------------------------
// Column sizes

function sizeTable(table: TableModel, volume: TableVolume | undefined): SizedTable {
  const defaultedColumns: string[] = [];
  const size = (column: ColumnModel): SizedValue => {
    const sized = sizeValue(column.type, manifestSize(volume, column.name));
    if (sized.defaulted) defaultedColumns.push(column.name);
    return sized;
  };
  const partitionKey = table.partitionKey.map(size);
  const clustering = table.clustering.map(size);
  const statics = table.static.map(size);
  const regular = table.regular.map(size);
  const sum = (values: SizedValue[], pick: (v: SizedValue) => number) => values.reduce((total, v) => total + pick(v), 0);
  return {
    partitionKey,
    clustering,
    static: statics,
    regular,
    keyBytes: sum(partitionKey, (v) => v.classicBytes),
    staticBytes: sum(statics, (v) => v.classicBytes),
    rowBytes: sum(clustering, (v) => v.classicBytes) + sum(regular, (v) => v.classicBytes),
    staticValues: statics.length,
    regularValues: regular.length,
    staticCells: sum(statics, (v) => v.cells),
    regularCells: sum(regular, (v) => v.cells),
    defaultedColumns,
  };
}

// Most columns have no size in the manifest, and each such lookup compared every sized column:
// the sizes by lower-cased name are made once per table volume (the first such name wins, as the
// scan in entry order did).
const sizesByLowerName = new WeakMap<TableVolume, Map<string, ColumnSize>>();

function manifestSize(volume: TableVolume | undefined, column: string): ColumnSize | undefined {
  if (!volume) return undefined;
  const exact = volume.columns[column];
  if (exact) return exact;
  let byLowerName = sizesByLowerName.get(volume);
  if (!byLowerName) {
    byLowerName = new Map();
    for (const [name, size] of Object.entries(volume.columns)) {
      const lower = name.toLowerCase();
      if (!byLowerName.has(lower)) byLowerName.set(lower, size);
    }
    sizesByLowerName.set(volume, byLowerName);
  }
  return byLowerName.get(column.toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// Rows per partition

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

function wholeRows(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.max(1, Math.round(value)) : 0;
}

function rowsText(avg: number, max: number): string {
  return avg === max ? `${formatCount(max)} rows per partition` : `${formatCount(avg)} rows per partition, worst ${formatCount(max)}`;
}

/** Why nothing removes the rows of a growing partition; the callers' sentences say it is unbounded. */
function keptText(volume: TableVolume | undefined): string {
  return volume?.retentionSeconds === null ? "kept forever (retention: forever) with no TTL" : "with no retention or TTL";
}

/** What the constant key columns do to the table's partitions, in words, and to its row counts. */
function constantKeyText(table: TableModel, constantKey: readonly ConstantKeyColumn[]): string {
  const set = constantKey.map(constantText).join(", ");
  const writes = [...new Set(constantKey.flatMap((c) => c.writes))].join(", ");
  if (table.partitionKey.every((c) => constantKey.some((k) => k.column === c.name))) {
    return `every write sets the whole partition key to one value (${set} in ${writes}), so the table is one partition`;
  }
  return `every write sets ${set} (in ${writes}), so ${constantKey.length === 1 ? "that column splits" : "those columns split"} nothing`;
}

function rowCounts(table: TableModel, volume: TableVolume | undefined, constantKey: readonly ConstantKeyColumn[] = [], timeKey: readonly TimeKeyColumn[] = []): RowCounts {
  const counts = rowCountsOf(table, volume, constantKey, timeKey);
  if (constantKey.length === 0) return counts;
  const found = foundBucket(table, volume, timeKey);
  const constantBucket = found ? constantKey.find((c) => c.column === found.column) : placeholderBucket(table, constantKey);
  // The fix for a constant bucket reuses it: computed from time, not added beside it.
  if (constantBucket) counts.existingBucket = { column: constantBucket.column, widthSeconds: Infinity, constant: constantText(constantBucket).replace(/^`[^`]*` = /, "") };
  // Stated rows that assume the bucket closes partitions are too few: a partition keeps growing
  // for the rows' whole lifetime.
  const lifetime = counts.lifetimeSeconds;
  if (constantBucket && counts.rate && lifetime !== undefined && Number.isFinite(lifetime) && counts.basis === "manifest" && counts.rate * lifetime > counts.max) {
    const rows = wholeRows(counts.rate * lifetime);
    return {
      ...counts,
      avg: Math.max(counts.avg, rows),
      max: rows,
      basisText: `${constantKeyText(table, constantKey)}: a partition keeps its rows for their whole ${formatSpan(lifetime)} lifetime, ${volume?.growthText ?? formatRate(counts.rate)} × ${formatSpan(lifetime)} = ${formatCount(rows)} rows (the manifest's ${rowsText(counts.avg, counts.max)} assume the bucket closes partitions)`,
    };
  }
  const wholeTable = table.partitionKey.every((c) => constantKey.some((k) => k.column === c.name));
  const partitions = volume?.partitions;
  // The manifest's partitions are the table's spread as it thought it was: one partition holds them all.
  if (wholeTable && partitions !== undefined && partitions > 1 && counts.basis === "manifest" && !counts.unbounded) {
    const rows = wholeRows(partitions * counts.avg);
    return {
      ...counts,
      avg: rows,
      max: rows,
      basisText: `${constantKeyText(table, constantKey)}: ${formatCount(partitions)} partitions × ${formatCount(counts.avg)} rows stated = ${formatCount(rows)} rows in it`,
      ...(counts.rate ? { rate: counts.rate * partitions } : {}),
    };
  }
  return { ...counts, basisText: `${constantKeyText(table, constantKey)}; ${counts.basisText}` };
}

function rowCountsOf(table: TableModel, volume: TableVolume | undefined, constantKey: readonly ConstantKeyColumn[], timeKey: readonly TimeKeyColumn[]): RowCounts {
  if (table.clustering.length === 0) {
    return { avg: 1, max: 1, basis: "single-row", basisText: "1 row per partition (no clustering columns)", unbounded: false, startRows: 0 };
  }
  const rate = positive(volume?.growthPerSecond);
  const growth = rate ? (volume?.growthText ?? formatRate(rate)) : undefined;
  const retention = positive(volume?.retentionSeconds ?? undefined);
  const ttl = positive(table.defaultTtlSeconds);
  // A "bucket" every write sets to the same literal bounds nothing: the fix computes it from time.
  const found = foundBucket(table, volume, timeKey);
  const constantBucket = found ? constantKey.find((c) => c.column === found.column) : undefined;
  // A bucket the writes compute from the clock is one, whatever the figures say.
  const bucket: FoundBucket | undefined = constantBucket ? undefined : found?.foundBy === "writes" ? found : bucketThatBounds(found, volume);
  const origin = bucket?.foundBy ? { foundBy: bucket.foundBy, ...(bucket.computedIn ? { computedIn: bucket.computedIn } : {}) } : {};
  const knownBucket = bucket?.widthSeconds ? { column: bucket.column, widthSeconds: bucket.widthSeconds, ...origin } : undefined;
  const stated = volume?.rowsPerPartition;

  if (stated && Number.isFinite(stated.avg) && Number.isFinite(stated.max)) {
    const avg = Math.max(0, Math.round(stated.avg));
    const max = Math.max(avg, Math.round(stated.max));
    const text = `${rowsText(avg, max)} (manifest)`;
    if (rate && !retention && !ttl && !bucket) {
      // Stated rows are today's; growth with nothing to remove rows adds to them for ever.
      const atHorizon = wholeRows(max + rate * UNBOUNDED_HORIZON_SECONDS);
      return {
        avg,
        max: atHorizon,
        basis: "manifest",
        basisText: `${text}, growing ${growth} ${keptText(volume)} (worst sized after one year of growth: ${formatCount(atHorizon)} rows)`,
        unbounded: true,
        rate,
        startRows: max,
        // The worst key grows as much faster as it is larger: a bucket sized from the average would still hold it.
        ...(avg > 0 && max > avg ? { worstRate: rate * (max / avg) } : {}),
      };
    }
    const lifetime = Math.min(retention ?? Infinity, ttl ?? Infinity);
    const counts: RowCounts = { avg, max, basis: "manifest", basisText: text, unbounded: false, rate, startRows: max };
    const existing = knownBucket ?? inferredBucket(bucket, avg, rate, lifetime);
    if (existing) counts.existingBucket = { ...existing, ...origin };
    if (rate && avg > 0 && max > avg) counts.worstRate = rate * (max / avg);
    if (Number.isFinite(lifetime)) counts.lifetimeSeconds = lifetime;
    return counts;
  }

  // A bucket the writes compute from the clock closes partitions at a width the code does not show:
  // growth × lifetime would overstate a partition, so no figure is claimed (below).
  const unsizedWrittenBucket = bucket?.foundBy === "writes" && !knownBucket;
  if (rate && !unsizedWrittenBucket) {
    // The tightest of retention, TTL and a time bucket in the partition key bounds a partition's rows.
    const bounds: { seconds: number; basis: EstimateBasis; text: string }[] = [];
    if (retention) bounds.push({ seconds: retention, basis: "growth-retention", text: `${volume?.retentionText ?? formatSpan(retention)} retention (growth × retention)` });
    if (ttl) bounds.push({ seconds: ttl, basis: "growth-ttl", text: `default_time_to_live ${formatSpan(ttl)} (growth × TTL)` });
    if (knownBucket) {
      bounds.push({
        seconds: knownBucket.widthSeconds,
        basis: "growth-retention",
        text: `the ${asAdjective(formatSpan(knownBucket.widthSeconds))} bucket \`${knownBucket.column}\` (growth × bucket width)`,
      });
    }
    const tightest = bounds.reduce<(typeof bounds)[number] | undefined>((best, b) => (!best || b.seconds < best.seconds ? b : best), undefined);
    if (tightest) {
      const rows = wholeRows(rate * tightest.seconds);
      return {
        avg: rows,
        max: rows,
        basis: tightest.basis,
        basisText: `${growth} × ${tightest.text} = ${formatCount(rows)} rows per partition`,
        unbounded: false,
        rate,
        startRows: 0,
        ...(knownBucket ? { existingBucket: knownBucket } : {}),
        ...(retention || ttl ? { lifetimeSeconds: Math.min(retention ?? Infinity, ttl ?? Infinity) } : {}),
      };
    }
  }
  if (rate) {
    if (bucket) {
      return {
        avg: DEFAULT_ROWS_PER_PARTITION,
        max: DEFAULT_ROWS_PER_PARTITION,
        basis: "type-default",
        basisText:
          `growth ${growth}, but the partition key's time bucket \`${bucket.column}\`${bucket.computedIn ? ` (computed from the current time in ${bucket.computedIn})` : ""} has no width the estimator can read: ` +
          `assumed ${formatCount(DEFAULT_ROWS_PER_PARTITION)} rows per partition; state rows_per_partition in the manifest`,
        unbounded: false,
        startRows: 0,
      };
    }
    const rows = wholeRows(rate * UNBOUNDED_HORIZON_SECONDS);
    return {
      avg: rows,
      max: rows,
      basis: "growth-retention",
      basisText: `${growth} ${keptText(volume)} (sized after one year of growth: ${formatCount(rows)} rows per partition)`,
      unbounded: true,
      rate,
      startRows: 0,
    };
  }

  return {
    avg: DEFAULT_ROWS_PER_PARTITION,
    max: DEFAULT_ROWS_PER_PARTITION,
    basis: "type-default",
    basisText: `no volume figures: assumed ${formatCount(DEFAULT_ROWS_PER_PARTITION)} rows per partition; state rows_per_partition or growth in the manifest`,
    unbounded: false,
    startRows: 0,
  };
}

/**
 * A bucket of unreadable width (`bucket int`) bounds nothing when the manifest keeps rows for ever
 * and states a fixed number of partitions: a time bucket would add partitions as time passes, so
 * this one is a hash or a constant, and each partition takes its share of the rows for ever.
 */
function bucketThatBounds<B extends { column: string; widthSeconds: number | null }>(bucket: B | undefined, volume: TableVolume | undefined): B | undefined {
  if (!bucket || bucket.widthSeconds !== null) return bucket;
  const fixedPartitions = volume?.partitions !== undefined && Number.isFinite(volume.partitions) && volume.partitions > 0;
  return fixedPartitions && volume?.retentionSeconds === null && volume.growthPerSecond ? undefined : bucket;
}

/**
 * The width of a bucket whose name does not tell it (`bucket int`), read from the manifest: a
 * partition's rows over the rate they arrive at. A "bucket" whose partitions hold the rows' whole
 * lifetime is no time bucket (a hash bucket, or a constant), so it gives none.
 */
function inferredBucket(
  bucket: { column: string; widthSeconds: number | null } | undefined,
  avgRows: number,
  rate: number | undefined,
  lifetime: number,
): { column: string; widthSeconds: number; inferred: true } | undefined {
  if (!bucket || bucket.widthSeconds !== null || !rate || avgRows <= 0) return undefined;
  const width = avgRows / rate;
  if (!(width > 0) || width >= 0.9 * lifetime) return undefined;
  return { column: bucket.column, widthSeconds: width, inferred: true };
}

/**
 * A constant partition-key column that can hold a time bucket (a number or a date) beside columns
 * that do vary: a place kept for a bucket (`dpart = 0`), which a fix fills from time rather than
 * adding another column beside it.
 */
function placeholderBucket(table: TableModel, constantKey: readonly ConstantKeyColumn[]): ConstantKeyColumn | undefined {
  if (table.partitionKey.every((c) => constantKey.some((k) => k.column === c.name))) return undefined;
  return constantKey.find((k) => {
    const type = table.partitionKey.find((c) => c.name === k.column)?.type;
    return type?.kind === "native" && type.name !== "timeuuid" && UNNAMED_BUCKET_TYPES.has(type.name);
  });
}

/** The table's time bucket: the manifest's declaration, a column the writes compute from the clock, a name that says so, or the figures. */
function foundBucket(table: TableModel, volume: TableVolume | undefined, timeKey: readonly TimeKeyColumn[]): FoundBucket | undefined {
  return declaredBucket(table, volume) ?? writtenBucket(table, timeKey) ?? timeBucketOf(table) ?? bucketByFigures(table, volume);
}

/**
 * A partition-key column every write binds from the current time, as if the manifest declared it
 * `time_bucket`; its width is what its name or type tells (`day`, a `date`), else unknown.
 */
function writtenBucket(table: TableModel, timeKey: readonly TimeKeyColumn[]): FoundBucket | undefined {
  const column = table.partitionKey.find((c) => timeKey.some((k) => k.column === c.name));
  const written = column && timeKey.find((k) => k.column === column.name);
  if (!column || !written) return undefined;
  const named = timeBucketOf({ ...table, partitionKey: [column] });
  return { column: column.name, widthSeconds: named?.widthSeconds ?? null, foundBy: "writes", computedIn: computedText(written) };
}

/** The manifest's `time_bucket` of the table, when it names a partition-key column. */
function declaredBucket(table: TableModel, volume: TableVolume | undefined): { column: string; widthSeconds: number | null } | undefined {
  const declared = volume?.timeBucket;
  if (!declared || !table.partitionKey.some((c) => c.name === declared.column)) return undefined;
  return { column: declared.column, widthSeconds: declared.widthSeconds ?? null };
}

/** Types a column can hold a time bucket in without a name saying so: a number, or a time. */
const UNNAMED_BUCKET_TYPES = new Set(["int", "bigint", "smallint", "date", "timestamp", "timeuuid"]);

/**
 * A time bucket found by what the manifest says is written rather than by its name (`partition
 * int`, `shard_id bigint`): when a partition's stated rows are at most half of growth × the rows'
 * lifetime, something in the partition key closes partitions as time passes. The one partition-key
 * column of a numeric or time type is then that bucket; with none or several, nothing is assumed.
 */
function bucketByFigures(table: TableModel, volume: TableVolume | undefined): { column: string; widthSeconds: null; foundBy: "figures" } | undefined {
  const rate = positive(volume?.growthPerSecond);
  const avg = volume?.rowsPerPartition?.avg;
  const lifetime = Math.min(positive(volume?.retentionSeconds ?? undefined) ?? Infinity, positive(table.defaultTtlSeconds) ?? Infinity);
  if (!rate || avg === undefined || !(avg > 0) || !Number.isFinite(lifetime) || avg / rate > lifetime / 2) return undefined;
  const candidates = table.partitionKey.filter((c) => c.type.kind === "native" && UNNAMED_BUCKET_TYPES.has(c.type.name));
  return candidates.length === 1 ? { column: candidates[0]!.name, widthSeconds: null, foundBy: "figures" } : undefined;
}

/** Units a bucket column's name gives away (`day`, `join_date`, `yyyymm`, `hour_bucket`). */
const BUCKET_NAME_UNITS: [RegExp, number][] = [
  [/^(minutes?|min)$/, MINUTE],
  [/^(hours?|hr|hh)$/, HOUR],
  [/^(days?|date|dt|yyyymmdd|ymd)$/, DAY],
  [/^(weeks?|wk|yyyyww)$/, WEEK],
  [/^(months?|mon|yyyymm|ym)$/, 31 * DAY],
  [/^(quarters?|qtr)$/, 92 * DAY],
  [/^(years?|yr|yyyy)$/, 366 * DAY],
];
const BUCKET_WORDS = /^(bucket|period|window|slot|epoch)$/;
const BUCKET_TYPES = new Set(["date", "timestamp", "timeuuid", "int", "bigint", "smallint", "tinyint", "text", "varchar", "ascii"]);

/**
 * A time bucket in the partition key: a `date` column, or a column whose name says it is one.
 * `widthSeconds` is null when the name does not tell the width (`bucket int`, `ts timestamp`).
 */
export function timeBucketOf(table: TableModel): { column: string; widthSeconds: number | null } | undefined {
  for (const column of table.partitionKey) {
    if (column.type.kind !== "native" || !BUCKET_TYPES.has(column.type.name)) continue;
    const words = column.name
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
    for (const [pattern, seconds] of BUCKET_NAME_UNITS) {
      if (words.some((w) => pattern.test(w))) return { column: column.name, widthSeconds: seconds };
    }
    if (column.type.name === "date") return { column: column.name, widthSeconds: DAY };
    if (TIME_TYPES.has(column.type.name) || words.some((w) => BUCKET_WORDS.test(w))) return { column: column.name, widthSeconds: null };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Limits over time

/** A limit that is not a positive number (a broken config) holds nothing back rather than everything. */
function usableLimits(limits: PartitionLimits): PartitionLimits {
  const usable = (value: number) => (Number.isFinite(value) && value > 0 ? value : Infinity);
  return {
    partitionValues: usable(limits.partitionValues),
    partitionBytes: usable(limits.partitionBytes),
    partitionsPerQuery: limits.partitionsPerQuery,
    rowsPerPartition: usable(limits.rowsPerPartition),
  };
}

/** Values each row adds, counting a non-frozen collection's elements when that is more. */
function valuesPerRow(sized: SizedTable): number {
  return Math.max(sized.regularValues, sized.regularCells);
}

function fixedValues(sized: SizedTable): number {
  return Math.max(sized.staticValues, sized.staticCells);
}

function bytesPerRow(sized: SizedTable): number {
  return sized.rowBytes + BYTES_PER_VALUE * sized.regularValues;
}

function fixedBytes(sized: SizedTable): number {
  return sized.keyBytes + sized.staticBytes + BYTES_PER_VALUE * sized.staticValues;
}

function crossingTimes(sized: SizedTable, rate: number, startRows: number, limits: PartitionLimits): NonNullable<PartitionEstimate["crossesLimitsAfter"]> {
  const crossings: NonNullable<PartitionEstimate["crossesLimitsAfter"]> = {};
  const perRowValues = valuesPerRow(sized);
  if (perRowValues > 0 && Number.isFinite(limits.partitionValues)) {
    const rowsAtLimit = (limits.partitionValues - fixedValues(sized)) / perRowValues;
    crossings.values = formatAfter((rowsAtLimit - startRows) / rate);
  }
  const perRowBytes = bytesPerRow(sized);
  if (perRowBytes > 0 && Number.isFinite(limits.partitionBytes)) {
    const rowsAtLimit = (limits.partitionBytes - fixedBytes(sized)) / perRowBytes;
    crossings.bytes = formatAfter((rowsAtLimit - startRows) / rate);
  }
  if (Number.isFinite(limits.rowsPerPartition)) crossings.rows = formatAfter((limits.rowsPerPartition - startRows) / rate);
  return crossings;
}

/** Seconds until a growing partition crosses the bytes limit and the hard cell limit (0 when it already has). */
function crossingSeconds(sized: SizedTable, rate: number, startRows: number, limits: PartitionLimits): { bytes: number; cells: number } {
  const after = (limit: number, fixed: number, perRow: number) =>
    perRow > 0 && Number.isFinite(limit) ? Math.max(0, ((limit - fixed) / perRow - startRows) / rate) : Infinity;
  return {
    bytes: after(limits.partitionBytes, fixedBytes(sized), bytesPerRow(sized)),
    cells: after(HARD_CELL_LIMIT, fixedValues(sized), valuesPerRow(sized)),
  };
}

/**
 * How far a partition is past the limits that call for a split (≤ 1: within them): the bytes limit
 * and Cassandra's hard cell limit. Value and row counts under the hard limit are informational.
 */
function overLimit(figures: PartitionFigures, limits: PartitionLimits): number {
  return Math.max(Math.max(figures.values, figures.cells) / HARD_CELL_LIMIT, figures.bytes / limits.partitionBytes);
}

function bucketFor(
  table: TableModel,
  sized: SizedTable,
  counts: RowCounts,
  average: PartitionFigures,
  worst: PartitionFigures,
  context: EstimateContext,
): BucketSuggestion | undefined {
  const over = overLimit(worst, context.limits);
  if (!counts.unbounded && over <= 1) return undefined;
  // Names as CQL writes them ("Sensor"), since the suggestion is meant to be written into a table.
  const partitionKey = table.partitionKey.map((c) => quoteName(c.name));
  const clustering = table.clustering.map((c) => quoteName(c.name));
  const columns = table.columns.map((c) => quoteName(c.name));
  const hasStatic = table.static.length > 0;
  const pagedInOrderBy = orderedPartitionRead(table, context.queries);
  if (!counts.rate) {
    const describe = (f: PartitionFigures) => `${formatCount(f.rows)} rows, ${formatCount(Math.max(f.values, f.cells))} values, ${formatBytes(f.bytes)}`;
    return suggestSplitWithoutRate({
      overLimit: over,
      averageOverLimit: overLimit(average, context.limits),
      partitionKey,
      clustering,
      figures: describe(worst),
      averageFigures: describe(average),
      alwaysBound: alwaysBoundClustering(table, context.queries).map(quoteName),
      hasStatic,
      ...(pagedInOrderBy ? { pagedInOrderBy } : {}),
      columns,
    });
  }
  const timeColumn = table.clustering.find((c) => isTimeType(c.type));
  const read = commonRead(table, context.queries);
  return suggestBucket({
    ratePerSecond: counts.rate,
    ...(counts.worstRate ? { worstRatePerSecond: counts.worstRate } : {}),
    ...(counts.lifetimeSeconds ? { lifetimeSeconds: counts.lifetimeSeconds } : {}),
    columns,
    hasStatic,
    ...(pagedInOrderBy ? { pagedInOrderBy } : {}),
    valuesPerRow: valuesPerRow(sized),
    bytesPerRow: bytesPerRow(sized),
    fixedValues: fixedValues(sized),
    fixedBytes: fixedBytes(sized),
    limits: context.limits,
    read,
    timeColumn: timeColumn ? quoteName(timeColumn.name) : undefined,
    shardSource: `hash(${clustering.join(", ")})`,
    partitionKey,
    ...(counts.existingBucket ? { existingBucket: { ...counts.existingBucket, column: quoteName(counts.existingBucket.column) } } : {}),
    rangeQuery: context.queries.some((q) => readsClusteringRange(table, q.select)),
  });
}

// ---------------------------------------------------------------------------------------------
// Queries

/** The table's common query (the highest stated rate, else the first) as a bound on bucket width. */
function commonRead(table: TableModel, queries: QueryAnalysis[]): BucketRead | undefined {
  let common: QueryAnalysis | undefined;
  for (const query of queries) {
    if (!common) common = query;
    else if ((query.ratePerSecond ?? -1) > (common.ratePerSecond ?? -1)) common = query;
  }
  if (!common) return undefined;
  const read: BucketRead = { queryId: common.id, range: readsClusteringRange(table, common.select) };
  const limit = queryLimit(common);
  if (limit !== undefined) read.limit = limit;
  return read;
}

/** The clustering prefix every query of the table binds with `=` (none when no query reads it). */
function alwaysBoundClustering(table: TableModel, queries: QueryAnalysis[]): string[] {
  const selects = queries.map((q) => q.select).filter((s): s is SelectStatement => s !== undefined);
  if (selects.length === 0) return [];
  const bound: string[] = [];
  for (const column of table.clustering) {
    const everywhere = selects.every((select) =>
      (select.where?.relations ?? []).some((r) => r.kind === "column" && r.operator === "=" && r.column.name === column.name),
    );
    if (!everywhere) break;
    bound.push(column.name);
  }
  return bound;
}

/** A query that reads a partition's rows in clustering order (ORDER BY or LIMIT without the whole primary key). */
function orderedPartitionRead(table: TableModel, queries: QueryAnalysis[]): string | undefined {
  for (const query of queries) {
    const select = query.select;
    if (!select || query.plan.verdict !== "single-partition") continue;
    if ((select.orderBy?.length ?? 0) === 0 && queryLimit(query) === undefined) continue;
    const equal = new Set((select.where?.relations ?? []).flatMap((r) => (r.kind === "column" && r.operator === "=" ? [r.column.name] : [])));
    if (table.clustering.every((c) => equal.has(c.name))) continue;
    return query.id;
  }
  return undefined;
}

function queryLimit(query: QueryAnalysis): number | undefined {
  if (query.limit !== undefined && Number.isFinite(query.limit) && query.limit > 0) return query.limit;
  const term = query.select?.limit;
  if (term?.kind === "literal" && term.type === "integer") {
    const value = Number.parseInt(term.value, 10);
    if (Number.isFinite(value) && value > 0) return value;
  }
  return undefined;
}

const RANGE_OPERATORS = new Set(["<", "<=", ">", ">=", "BETWEEN"]);

/** Whether a SELECT restricts a clustering column to a range: a time window when the column is a time. */
function readsClusteringRange(table: TableModel, select: SelectStatement | undefined): boolean {
  const clustering = new Set(table.clustering.map((c) => c.name));
  for (const relation of select?.where?.relations ?? []) {
    if (!RANGE_OPERATORS.has(relation.kind === "custom-index-expression" ? "" : relation.operator)) continue;
    if (relation.kind === "column" && clustering.has(relation.column.name)) return true;
    if (relation.kind === "multi-column" && relation.columns.some((c) => clustering.has(c.name))) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Manifest matching

function folded(name: string): string {
  return name.length >= 2 && name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name.toLowerCase();
}

/**
 * The table a manifest entry names: `ks.t` exactly; `t` in the manifest keyspace, else in the only
 * keyspace that has a table of that name. The first entry for a table wins.
 */
export function matchVolumes(schema: SchemaModel, volumes: readonly TableVolume[], keyspace: string | undefined): Map<string, TableVolume> {
  const byName = new Map<string, TableModel[]>();
  for (const table of schema.tables.values()) {
    const list = byName.get(table.name);
    if (list) list.push(table);
    else byName.set(table.name, [table]);
  }
  const matched = new Map<string, TableVolume>();
  for (const volume of volumes) {
    const table = resolveTable(schema, byName, volume.name, volume.keyspace ?? keyspace);
    if (table && !matched.has(table.qualifiedName)) matched.set(table.qualifiedName, volume);
  }
  return matched;
}

function resolveTable(schema: SchemaModel, byName: Map<string, TableModel[]>, written: string, keyspace: string | undefined): TableModel | undefined {
  const dot = splitQualified(written);
  if (dot) return schema.tables.get(`${folded(dot.keyspace)}.${folded(dot.name)}`) ?? schema.tables.get(`${dot.keyspace}.${dot.name}`);
  const name = folded(written);
  const candidates = byName.get(name) ?? byName.get(written) ?? [];
  if (keyspace) {
    const inKeyspace = candidates.find((t) => t.keyspace === folded(keyspace) || t.keyspace === keyspace);
    if (inKeyspace) return inKeyspace;
  }
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** `ks.t` → { ks, t }, respecting a quoted name that holds a dot. */
function splitQualified(written: string): { keyspace: string; name: string } | undefined {
  const match = /^("(?:[^"]|"")*"|[^."]+)\.("(?:[^"]|"")*"|[^."]+)$/.exec(written.trim());
  return match ? { keyspace: match[1]!, name: match[2]! } : undefined;
}

/** `update` for tables that the manifest's write paths only ever UPDATE; `insert` once any INSERT reaches them. */
function writersByTable(schema: SchemaModel, manifest: Manifest | undefined, keyspace: string | undefined): Map<string, "insert" | "update"> {
  const writers = new Map<string, "insert" | "update">();
  if (!manifest) return writers;
  const tableOf = (name: { keyspace?: { name: string }; name: { name: string } }, defaultKeyspace: string | undefined): string | undefined => {
    const ks = name.keyspace?.name ?? defaultKeyspace;
    return ks ? schema.tables.get(`${ks}.${name.name.name}`)?.qualifiedName : undefined;
  };
  const record = (table: string | undefined, kind: "insert" | "update") => {
    if (!table) return;
    if (kind === "insert" || !writers.has(table)) writers.set(table, kind);
  };
  for (const write of manifest.writes) {
    const writeKeyspace = write.keyspace ?? keyspace;
    for (const { statement } of write.statements) {
      if (!statement) continue;
      const statements = statement.kind === "batch" ? statement.statements : [statement];
      for (const s of statements) {
        if (s.kind === "insert") record(tableOf(s.table, writeKeyspace), "insert");
        else if (s.kind === "update") record(tableOf(s.table, writeKeyspace), "update");
      }
    }
  }
  return writers;
}

/** Whether a type is time-ordered (for bucketing by a clustering column). */
export function isTimeType(type: ColumnType): boolean {
  return type.kind === "native" && TIME_TYPES.has(type.name);
}
