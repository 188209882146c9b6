// Tombstones a read walks before it returns, from the manifest's write paths, rates and volumes.
//
// Cassandra counts, per partition read (ReadCommand's metrics recording, apache/cassandra
// src/java/org/apache/cassandra/db/ReadCommand.java): every dead cell (a null written, a deleted
// column, an expired TTL cell), every deleted row, and every range-tombstone bound. It skips
// tombstones older than gc_grace_seconds (they are purgeable), so the count a read meets is what the
// writes deleted in the region it reads during the last gc_grace_seconds:
//
//   tombstones ≈ Σ (deleting statements a second into that partition) × gc_grace_seconds × tombstones each
//
// A partition takes its share of a write path's deletes in proportion to its rows (the worst
// partition: max rows / (avg rows × partitions)). Only reads that walk the region the deletes land in
// are estimated: a whole partition (no clustering restriction, no LIMIT, or ALLOW FILTERING), and
// a read from the partition's start with a LIMIT when the table's rows are deleted one by one (the
// queue pattern: consumers delete what they read, so the deleted rows lie ahead of the live ones).
// A slice (`ck > ?`) may start past the deleted rows; its count is unknown and not estimated.
// Nulls are different: each row carries the nulls of the statement that wrote it, so a read of a
// known number of rows (a LIMIT, also on a slice) walks them row by row, wherever it starts.
// Pure: no clock, no I/O.
import type { DeleteStatement, InsertStatement, QualifiedName, Relation, Statement, Term, UpdateStatement } from "../cql/ast.js";
import type { Manifest, TableVolume } from "../manifest/types.js";
import { numberOf } from "../schema/options.js";
import type { SchemaModel, TableModel } from "../schema/model.js";
import type { PartitionEstimate, QueryAnalysis, TombstoneSource, TombstonesEstimate } from "./types.js";

/** Cassandra's default gc_grace_seconds (10 days). */
export const DEFAULT_GC_GRACE_SECONDS = 864_000;

type Modification = InsertStatement | UpdateStatement | DeleteStatement;

interface TableWrite {
  write: string;
  ratePerSecond: number;
  statement: Modification;
}

/** The gc_grace_seconds a table states, else Cassandra's default. */
export function gcGraceSeconds(table: TableModel): number {
  const stated = numberOf(table.options.gc_grace_seconds);
  return stated !== undefined && Number.isFinite(stated) && stated >= 0 ? stated : DEFAULT_GC_GRACE_SECONDS;
}

const isNull = (term: Term | undefined) => term?.kind === "literal" && term.type === "null";

/** Columns restricted by `=` or `IN` in a WHERE clause, and whether any column is restricted by a range. */
function restricted(relations: readonly Relation[]): { equal: Set<string>; range: boolean } {
  const equal = new Set<string>();
  let range = false;
  for (const relation of relations) {
    if (relation.kind === "column") {
      if (relation.operator === "=" || relation.operator === "IN") equal.add(relation.column.name);
      else range = true;
    } else if (relation.kind === "multi-column") {
      range = true;
    }
  }
  return { equal, range };
}

/**
 * The tombstones one statement writes into the rows a read of its partition meets, by kind:
 * a row delete is one, a range delete two bounds, a column delete or a literal null one per cell.
 * A partition delete is left out: a read meets at most one, the latest.
 */
function tombstonesOf(statement: Modification, table: TableModel): { kind: TombstoneSource["kind"]; each: number } | undefined {
  if (statement.kind === "delete") {
    if (statement.selections.length > 0) return { kind: "cell-delete", each: statement.selections.length };
    const { equal, range } = restricted(statement.where.relations);
    const clusteringBound = table.clustering.filter((c) => equal.has(c.name)).length;
    if (table.clustering.length === 0) return undefined;
    if (clusteringBound === table.clustering.length) return { kind: "row-delete", each: 1 };
    if (clusteringBound > 0 || range) return { kind: "range-delete", each: 2 };
    return undefined;
  }
  const nulls =
    statement.kind === "insert"
      ? statement.values.filter(isNull).length
      : statement.assignments.filter((a) => a.operator === "=" && !a.key && !a.field && isNull(a.value)).length;
  return nulls > 0 ? { kind: "null", each: nulls } : undefined;
}

function qualify(schema: SchemaModel, name: QualifiedName, keyspace: string | undefined): TableModel | undefined {
  const space = name.keyspace?.name ?? keyspace;
  return space === undefined ? undefined : schema.tables.get(`${space}.${name.name.name}`);
}

/** Every INSERT, UPDATE and DELETE of the manifest's write paths that states a rate, by qualified table. */
function writesByTable(schema: SchemaModel, manifest: Manifest): Map<string, TableWrite[]> {
  const byTable = new Map<string, TableWrite[]>();
  for (const write of manifest.writes) {
    const rate = write.ratePerSecond;
    if (rate === undefined || !Number.isFinite(rate) || rate <= 0) continue;
    for (const { statement } of write.statements) {
      for (const s of modificationsOf(statement)) {
        const table = qualify(schema, s.table, write.keyspace ?? manifest.keyspace);
        if (!table) continue;
        const list = byTable.get(table.qualifiedName) ?? [];
        list.push({ write: write.id, ratePerSecond: rate, statement: s });
        byTable.set(table.qualifiedName, list);
      }
    }
  }
  return byTable;
}

function modificationsOf(statement: Statement | undefined): Modification[] {
  if (!statement) return [];
  if (statement.kind === "batch") return statement.statements;
  return statement.kind === "insert" || statement.kind === "update" || statement.kind === "delete" ? [statement] : [];
}

/** TTL seconds a write sets, when it is a literal (`USING TTL 86400`); 0 for none; undefined when bound. */
function writeTtl(statement: Modification): number | undefined {
  const ttl = statement.using?.ttl;
  if (!ttl) return 0;
  return ttl.kind === "literal" && ttl.type === "integer" ? Number(ttl.value) : undefined;
}

/** How the read meets the partition's tombstones, or undefined when the figures cannot say. */
function regionOf(query: QueryAnalysis, table: TableModel, deletesRows: boolean, nullsInRows: boolean): TombstonesEstimate["region"] | undefined {
  const { plan, select } = query;
  if (!select || table.clustering.length === 0) return undefined;
  if (plan.verdict !== "single-partition" && plan.verdict !== "multi-partition") return undefined;
  const slice = plan.steps.some((s) => s.topic === "clustering");
  if (!slice && (plan.allowFilteringWritten || !select.limit)) return "partition";
  if (!slice && deletesRows && readsOldestFirst(query, table)) return "queue";
  // Nulls are written with the rows: any read of a known number of rows walks its share of them,
  // wherever it starts. A slice may begin past deleted rows (a cursor), so deletes are not counted.
  return nullsInRows && plan.rowsRead !== null && plan.rowsRead > 1 ? "rows" : undefined;
}

const SEQUENCE_TYPES = new Set(["timeuuid", "timestamp", "date", "bigint", "int", "varint"]);

/**
 * Whether a read from the partition's start meets the oldest rows first: the first clustering
 * column orders rows by time or by a sequence number, and the read goes in that ascending order.
 * Consumers that delete what they read then leave the deleted rows ahead of the live ones (FIFO);
 * deletes by an arbitrary key (a text name) are spread through the partition instead.
 */
function readsOldestFirst(query: QueryAnalysis, table: TableModel): boolean {
  return readOrder(query, table) === "oldest-first";
}

/** Whether a read meets a time- or sequence-ordered partition oldest or newest rows first; undefined for other orders. */
function readOrder(query: QueryAnalysis, table: TableModel): "oldest-first" | "newest-first" | undefined {
  const first = table.clustering[0];
  if (!first || first.type.kind !== "native" || !SEQUENCE_TYPES.has(first.type.name)) return undefined;
  const ascending = (first.order ?? "asc") === "asc";
  return (query.plan.direction === "reverse" ? !ascending : ascending) ? "oldest-first" : "newest-first";
}

/** The tombstones one call of a query walks in the partitions it reads, or undefined when the figures cannot say. */
export function estimateTombstones(query: QueryAnalysis, writes: readonly TableWrite[], table: TableModel, estimate: PartitionEstimate | undefined, volume: TableVolume | undefined): TombstonesEstimate | undefined {
  if (!estimate || estimate.basis === "type-default" || estimate.basis === "single-row") return undefined;
  const partitions = volume?.partitions;
  const avgRows = estimate.average.rows;
  const worstRows = estimate.worst.rows;
  if (partitions === undefined || !(partitions > 0) || !(avgRows > 0)) return undefined;
  const totalRows = avgRows * partitions;
  // The share of a table's deletes one partition takes: in proportion to its rows.
  const averageShare = 1 / partitions;
  const worstShare = Math.min(1, worstRows / totalRows);
  const gcGrace = gcGraceSeconds(table);
  const sources: TombstoneSource[] = [];
  let deletesRows = false;
  for (const { write, ratePerSecond, statement } of writes) {
    const made = tombstonesOf(statement, table);
    if (!made) continue;
    if (made.kind === "row-delete" || made.kind === "range-delete") deletesRows = true;
    const inWindow = (share: number, rows: number) => {
      const count = ratePerSecond * share * gcGrace * made.each;
      // A null is the cell's current value: a partition holds at most one per cell.
      return made.kind === "null" ? Math.min(count, rows * made.each) : count;
    };
    sources.push({ write, kind: made.kind, perRead: inWindow(averageShare, avgRows), worstPerRead: inWindow(worstShare, worstRows) });
  }
  const ttlSource = expirySource(writes, table, estimate, volume, gcGrace);
  if (ttlSource) sources.push(ttlSource);
  if (sources.length === 0) return undefined;
  const nullsInRows = sources.some((s) => s.kind === "null");
  const region = regionOf(query, table, deletesRows, nullsInRows);
  if (!region) return undefined;
  if (region === "rows") {
    const counted = nullsInScannedRows(query, table, writes, estimate, partitions, gcGrace);
    if (counted.length === 0) return undefined;
    const sum = (pick: (s: TombstoneSource) => number) => Math.round(counted.reduce((total, s) => total + pick(s), 0));
    return { perRead: sum((s) => s.perRead), worstPerRead: sum((s) => s.worstPerRead), gcGraceSeconds: gcGrace, region, sources: counted };
  }
  // From the start with a LIMIT, only the deleted rows lie ahead of the live ones; nulls and
  // expired cells are spread through the partition.
  const counted = region === "queue" ? sources.filter((s) => s.kind === "row-delete" || s.kind === "range-delete") : sources;
  const sum = (pick: (s: TombstoneSource) => number) => Math.round(counted.reduce((total, s) => total + pick(s), 0));
  return { perRead: sum((s) => s.perRead), worstPerRead: sum((s) => s.worstPerRead), gcGraceSeconds: gcGrace, region, sources: counted };
}

/**
 * The nulls a read of a known number of rows (a LIMIT, or a slice with one) walks: each row carries
 * the nulls of the statement that wrote it, so a write path's share of the rows written carries its
 * nulls (the rate-weighted nulls per row). Cassandra counts a null only while it is younger than
 * gc_grace_seconds: a partition holds the rows written into it during gc_grace_seconds as young rows
 * (its share of the table's row writes), and a read newest first on a time- or sequence-ordered
 * partition meets those first; any other read meets them in proportion. Every row-writing statement
 * of the table needs a rate, else nothing is said.
 */
function nullsInScannedRows(query: QueryAnalysis, table: TableModel, writes: readonly TableWrite[], estimate: PartitionEstimate, partitions: number, gcGrace: number): TombstoneSource[] {
  const scanned = query.plan.rowsRead;
  if (scanned === null) return [];
  const upserts = writes.filter((w) => w.statement.kind !== "delete");
  const rowWrites = upserts.reduce((total, w) => total + w.ratePerSecond, 0);
  if (!(rowWrites > 0)) return [];
  const newestFirst = readOrder(query, table) === "newest-first";
  const walked = (partitionRows: number) => {
    const rows = Math.min(scanned, partitionRows);
    const youngRows = Math.min(partitionRows, (rowWrites / partitions) * gcGrace * (partitionRows / estimate.average.rows));
    return newestFirst ? Math.min(rows, youngRows) : rows * (youngRows / partitionRows);
  };
  const sources: TombstoneSource[] = [];
  for (const { write, ratePerSecond, statement } of upserts) {
    const made = tombstonesOf(statement, table);
    if (made?.kind !== "null") continue;
    const perRow = (ratePerSecond / rowWrites) * made.each;
    sources.push({ write, kind: "null", perRead: walked(estimate.average.rows) * perRow, worstPerRead: walked(estimate.worst.rows) * perRow });
  }
  return sources;
}

/**
 * Cells that expire inside the partition a read walks: rows added at the manifest's growth rate and
 * written with a TTL (default_time_to_live or USING TTL on every write) expire at that rate, and
 * stay countable for gc_grace_seconds after they expire. Only for partitions that outlive their
 * rows (sized by growth over the TTL or retention), where the expired rows are inside the partition.
 */
function expirySource(writes: readonly TableWrite[], table: TableModel, estimate: PartitionEstimate, volume: TableVolume | undefined, gcGrace: number): TombstoneSource | undefined {
  const growth = volume?.growthPerSecond;
  if (growth === undefined || !(growth > 0)) return undefined;
  if (estimate.basis !== "growth-ttl" && estimate.basis !== "growth-retention") return undefined;
  const upserts = writes.filter((w) => w.statement.kind !== "delete");
  if (upserts.length === 0) return undefined;
  const expiring = table.defaultTtlSeconds > 0 || upserts.every((w) => writeTtl(w.statement) !== 0);
  if (!expiring) return undefined;
  const cellsPerRow = Math.max(1, table.regular.length);
  const perRead = growth * gcGrace * cellsPerRow;
  const worst = estimate.average.rows > 0 ? perRead * (estimate.worst.rows / estimate.average.rows) : perRead;
  return { write: upserts[0]!.write, kind: "ttl-expiry", perRead, worstPerRead: worst };
}

/** Sets each planned query's `plan.tombstonesEstimate` where the figures allow (after the partition estimates). */
export function attachTombstoneEstimates(queries: readonly QueryAnalysis[], schema: SchemaModel, manifest: Manifest | undefined, estimates: ReadonlyMap<string, PartitionEstimate>): void {
  if (!manifest || manifest.writes.length === 0) return;
  const writes = writesByTable(schema, manifest);
  for (const query of queries) {
    if (!query.table) continue;
    const tableWrites = writes.get(query.table);
    const table = schema.tables.get(query.table);
    if (!tableWrites || !table) continue;
    const volume = volumeOf(manifest, table);
    const tombstones = estimateTombstones(query, tableWrites, table, estimates.get(query.table), volume);
    if (tombstones) query.plan.tombstonesEstimate = tombstones;
  }
}

function volumeOf(manifest: Manifest, table: TableModel): TableVolume | undefined {
  return manifest.tables.find((t) => t.name === table.qualifiedName || (t.name === table.name && (t.keyspace ?? manifest.keyspace) === table.keyspace));
}
