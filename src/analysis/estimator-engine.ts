// The engine-aware partition size (the storage format of Cassandra 3.0+): uncompressed bytes one partition takes
// in a Data.db file of the 3.0+ storage engine, built from the serializers in apache/cassandra
// (ColumnIndex / SortedTableWriter for the partition, UnfilteredSerializer for rows, Cell.Serializer
// for cells, ClusteringPrefix for clustering values, SerializationHeader for delta-encoded times).
import type { CassandraVersion } from "../schema/model.js";
import { vintSize, type SizedValue } from "./type-sizes.js";

/**
 * What the estimate assumes about times, stated so a reader can weigh it. Timestamps, TTLs and
 * deletion times are written as vint deltas from the sstable's minimum (EncodingStats).
 */
export const ENGINE_ASSUMPTIONS = {
  /** a write timestamp's delta in microseconds: 6 bytes spans 9.5 hours to 51 days, an sstable of weeks */
  timestampDeltaBytes: 6,
  /**
   * a local deletion (or expiration) time's delta in seconds: 5 bytes, the width of a delta taken from
   * the 2015 encoding epoch; an sstable whose minimum deletion time is recent needs 3–4
   */
  localDeletionTimeDeltaBytes: 5,
  /** every row of a table shares its default TTL, so its delta from the minimum TTL is 0 */
  ttlDeltaBytes: 1,
} as const;

/** The partition-level deletion: a fixed 12-byte DeletionTime before 5.0, one flag byte when live in 5.0. */
export function partitionDeletionBytes(version: CassandraVersion): number {
  return version === "5.0" ? 1 : 12;
}

/** A label for the engine-aware figures: which layout they model and what they assume. */
export function describeEngineEstimate(table: EngineTable, version: CassandraVersion): string {
  const assume = ENGINE_ASSUMPTIONS;
  const parts = [
    `engine-aware estimate for Cassandra ${version}: uncompressed Data.db bytes of one fully compacted sstable`,
    `partition deletion ${partitionDeletionBytes(version)} B`,
    table.writtenBy === "insert"
      ? `rows written by INSERT (a ${assume.timestampDeltaBytes}-byte row timestamp delta the cells share)`
      : `rows written by UPDATE (a ${assume.timestampDeltaBytes}-byte timestamp delta on every cell)`,
  ];
  if (table.expiring) parts.push(`TTL fields ${assume.ttlDeltaBytes + assume.localDeletionTimeDeltaBytes} B a row`);
  if (table.regular.some((c) => c.engine.kind === "complex") && table.writtenBy === "insert") {
    parts.push(`a ${assume.timestampDeltaBytes + assume.localDeletionTimeDeltaBytes}-byte complex deletion before each non-frozen collection`);
  }
  return parts.join("; ");
}

export interface EngineTable {
  partitionKey: SizedValue[];
  clustering: SizedValue[];
  static: SizedValue[];
  regular: SizedValue[];
  /** rows expire through `default_time_to_live` */
  expiring: boolean;
  /**
   * INSERT gives a row its own timestamp (liveness info) that cells share, and overwrites non-frozen
   * collections with a complex deletion; UPDATE (always, for counters) gives every cell its own timestamp.
   */
  writtenBy: "insert" | "update";
}

/** Uncompressed serialized bytes of one partition of `rows` rows. */
export function enginePartitionBytes(table: EngineTable, rows: number, version: CassandraVersion): number {
  const header = 2 + partitionKeyBytes(table.partitionKey) + partitionDeletionBytes(version) + staticRowBytes(table);
  const endOfPartition = 1;
  let total = header + endOfPartition;
  let remaining = Math.max(0, Math.round(rows));
  // Each row records the size of the one before it (the first, the partition header's); the sizes
  // settle after a row or two, so the rest are counted by multiplication.
  let previous = header;
  while (remaining > 0) {
    const size = rowBytes(table, previous);
    total += size;
    remaining -= 1;
    if (size === previous) {
      total += remaining * size;
      break;
    }
    previous = size;
  }
  return total;
}

/** The key as written with a 2-byte length; a composite key is (2-byte length, bytes, end-of-component byte) per part. */
function partitionKeyBytes(parts: SizedValue[]): number {
  if (parts.length === 1) return Math.round(parts[0]!.classicBytes);
  return parts.reduce((sum, part) => sum + 2 + Math.round(part.classicBytes) + 1, 0);
}

function staticRowBytes(table: EngineTable): number {
  if (table.static.length === 0) return 0;
  // The static row never carries row liveness: its cells keep their own timestamps, even under INSERT.
  const body = cellsBytes(table.static, table, false);
  const flags = 2; // flags + extended flags (IS_STATIC)
  const previousSize = 0;
  return flags + vintSize(body + vintSize(previousSize)) + vintSize(previousSize) + body;
}

function rowBytes(table: EngineTable, previousSize: number): number {
  const rowLiveness = table.writtenBy === "insert";
  const assume = ENGINE_ASSUMPTIONS;
  let body = 0;
  if (rowLiveness) {
    body += assume.timestampDeltaBytes;
    if (table.expiring) body += assume.ttlDeltaBytes + assume.localDeletionTimeDeltaBytes;
  }
  body += cellsBytes(table.regular, table, rowLiveness);
  return 1 + clusteringBytes(table.clustering) + vintSize(body + vintSize(previousSize)) + vintSize(previousSize) + body;
}

/** One header vint per 32 clustering values (null/empty bits), then each value encoded. */
function clusteringBytes(values: SizedValue[]): number {
  if (values.length === 0) return 0;
  const headers = Math.ceil(values.length / 32);
  return headers + values.reduce((sum, v) => sum + (v.engine.kind === "simple" ? v.engine.valueBytes : v.classicBytes), 0);
}

function cellsBytes(columns: SizedValue[], table: EngineTable, rowLiveness: boolean): number {
  const assume = ENGINE_ASSUMPTIONS;
  // A cell shares the row's timestamp (and TTL) when the row has liveness info; otherwise it carries its own.
  let perCell = 1;
  if (!rowLiveness) {
    perCell += assume.timestampDeltaBytes;
    if (table.expiring) perCell += assume.localDeletionTimeDeltaBytes + assume.ttlDeltaBytes;
  }
  let total = 0;
  for (const column of columns) {
    const engine = column.engine;
    if (engine.kind === "simple") {
      total += perCell + engine.valueBytes;
      continue;
    }
    // An INSERT overwrites the whole collection: a complex deletion (timestamp + deletion time) precedes the cells.
    if (table.writtenBy === "insert") total += assume.timestampDeltaBytes + assume.localDeletionTimeDeltaBytes;
    const count = engine.cells.reduce((sum, group) => sum + group.count, 0);
    total += vintSize(count);
    for (const group of engine.cells) total += group.count * (perCell + group.pathBytes + group.valueBytes);
  }
  return total;
}
