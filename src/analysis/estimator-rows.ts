// Rows a query reads per call and per second, from the plan and the partition estimates: a read
// that touches one partition can still read thousands of rows (ALLOW FILTERING inside it, a range
// without LIMIT, an aggregate), and the rate multiplies them.
import type { SelectStatement, Term } from "../cql/ast.js";
import type { Manifest } from "../manifest/types.js";
import type { SchemaModel, TableModel } from "../schema/model.js";
import type { TableVolume } from "../manifest/types.js";
import { estimateIndexScan } from "./estimator-index.js";
import { formatBytes, formatCount } from "./estimator-text.js";
import { integerLiteral } from "./planner-terms.js";
import type { PartitionEstimate, QueryAnalysis, RowsReadEstimate } from "./types.js";

const AGGREGATES = new Set(["count", "sum", "avg", "min", "max"]);

function isAggregate(term: Term): boolean {
  if (term.kind === "function") return (!term.name.keyspace && AGGREGATES.has(term.name.name.name.toLowerCase())) || term.args.some(isAggregate);
  return false;
}

/** Why a read returns fewer rows than it reads, or reads more than a page: the first reason that applies. */
function whyMany(select: SelectStatement, allowFiltering: boolean): RowsReadEstimate["because"] {
  if (select.selectors.some((s) => isAggregate(s.expression))) return "aggregate";
  if (allowFiltering) return "filtering";
  if (!select.limit) return "unbounded";
  return "limit";
}

/** Rows a filtering or aggregating call returns at most, when the statement says: fewer than it scans. */
function rowsReturned(select: SelectStatement, because: RowsReadEstimate["because"]): number | undefined {
  if (because === "aggregate" && select.groupBy.length === 0) return 1;
  if (because !== "filtering") return undefined;
  const limit = integerLiteral(select.limit);
  return limit !== null && limit > 0 ? limit : undefined;
}

/** Whether the WHERE clause restricts a clustering column (a slice of the partition, of unknown size). */
function restrictsClustering(query: QueryAnalysis): boolean {
  return query.plan.steps.some((s) => s.topic === "clustering");
}

/**
 * Figures an estimate of a read needs: the manifest's sizes, or a table with no clustering columns,
 * whose partitions hold one row each by the schema (its rows are then the manifest's `partitions`).
 */
function hasManifestFigures(estimate: PartitionEstimate | undefined): estimate is PartitionEstimate {
  return estimate !== undefined && (estimate.basis === "manifest" || estimate.basis === "growth-retention" || estimate.basis === "growth-ttl" || estimate.basis === "single-row");
}

/**
 * The rows a read through a legacy or SAI index scans: the index entries for the value (and as
 * many base rows), across the cluster without a partition key, within the partition with one.
 */
function estimateIndexRowsRead(query: QueryAnalysis, select: SelectStatement, table: TableModel, volume: TableVolume | undefined, estimate: PartitionEstimate | undefined): RowsReadEstimate | undefined {
  const { plan } = query;
  const index = table.indexes.find((i) => i.name === plan.index);
  if (!index || !hasManifestFigures(estimate) || (plan.partitions !== 1 && plan.partitions !== "all")) return undefined;
  const scan = estimateIndexScan(select, table, index, volume, estimate, plan.partitions === "all");
  if (!scan) return undefined;
  const aggregate = select.selectors.some((s) => isAggregate(s.expression));
  const because: RowsReadEstimate["because"] = aggregate ? "aggregate" : scan.postFiltered.length > 0 ? "filtering" : select.limit ? "limit" : "unbounded";
  const limit = integerLiteral(select.limit);
  // A read that returns every match stops at its LIMIT; one that filters or aggregates reads on.
  const cap = because === "limit" ? (limit !== null && limit > 0 ? limit : undefined) : undefined;
  if (because === "limit" && cap === undefined) return undefined;
  const perCall = cap === undefined ? scan.entries : Math.min(cap, scan.entries);
  const worstPerCall = cap === undefined ? scan.worstEntries : Math.min(cap, scan.worstEntries);
  const result: RowsReadEstimate = { perCall, worstPerCall, because, basis: scan.basis, slice: false, index: scan };
  const returned = aggregate && select.groupBy.length === 0 ? 1 : because === "filtering" && limit !== null && limit > 0 ? limit : undefined;
  if (returned !== undefined && returned < worstPerCall) result.returned = returned;
  if (query.ratePerSecond !== undefined && Number.isFinite(query.ratePerSecond)) result.perSecond = perCall * query.ratePerSecond;
  return result;
}

/**
 * The rows a planned query reads, or undefined when the figures are too weak to say: a rejected
 * query, an unknown number of partitions, or no manifest figures for the table.
 */
export function estimateRowsRead(
  query: QueryAnalysis,
  estimate: PartitionEstimate | undefined,
  tablePartitions: number | undefined,
  table?: TableModel,
  volume?: TableVolume,
): RowsReadEstimate | undefined {
  const { plan, select } = query;
  if (!select || !query.table) return undefined;
  if (plan.verdict === "index") return table ? estimateIndexRowsRead(query, select, table, volume, estimate) : undefined;
  const because = whyMany(select, plan.allowFilteringWritten);
  let partitions: number | undefined;
  if (plan.verdict === "single-partition") partitions = 1;
  else if (plan.verdict === "multi-partition" && typeof plan.partitions === "number") partitions = plan.partitions;
  else if (plan.verdict === "scan" && plan.partitions === "all" && tablePartitions !== undefined) partitions = tablePartitions;
  else return undefined;
  let perCall: number;
  let worstPerCall: number;
  let basis: string;
  // A bound LIMIT (`LIMIT ?`) stops a read that returns every row it reads: its size is unknown.
  if (plan.rowsRead === null && because === "limit") return undefined;
  if (plan.rowsRead !== null) {
    perCall = worstPerCall = plan.rowsRead;
    basis = select.limit ? "the LIMIT" : "the primary key";
  } else {
    // Without figures from the manifest, the estimator's defaults are a guess: say nothing.
    if (!hasManifestFigures(estimate)) return undefined;
    perCall = partitions * estimate.average.rows;
    // One call meets the worst partition, not all of them at once: the rest are average.
    worstPerCall = (partitions - 1) * estimate.average.rows + estimate.worst.rows;
    const source =
      estimate.basis === "manifest"
        ? "the manifest's rows per partition"
        : estimate.basis === "growth-ttl"
          ? "the manifest's growth over the TTL"
          : estimate.basis === "single-row"
            ? "the schema (no clustering columns)"
            : "the manifest's growth over the retention";
    // formatCount, not toLocaleString: the first locale call loads ICU's data (about 30 ms of CPU).
    // The worst partition's bytes say what a read of many wide rows weighs, beyond their count.
    const worstBytes = Number.isFinite(estimate.worst.bytes) && estimate.worst.rows > 1 ? ` rows and ${formatBytes(estimate.worst.bytes)}` : "";
    const each = `${formatCount(estimate.average.rows)} rows, worst ${formatCount(estimate.worst.rows)}${worstBytes}`;
    basis = `${partitions === 1 ? "one partition" : `${formatCount(partitions)} partitions`} of ${each}, from ${source}`;
  }
  const result: RowsReadEstimate = { perCall, worstPerCall, because, basis, slice: plan.rowsRead === null && restrictsClustering(query) };
  const returned = rowsReturned(select, because);
  if (returned !== undefined && returned < worstPerCall) result.returned = returned;
  if (query.ratePerSecond !== undefined && Number.isFinite(query.ratePerSecond)) result.perSecond = perCall * query.ratePerSecond;
  return result;
}

/** Sets each planned query's `plan.rowsEstimate` where the figures allow (after the partition estimates). */
export function attachRowsEstimates(
  queries: readonly QueryAnalysis[],
  estimates: ReadonlyMap<string, PartitionEstimate>,
  manifest: Manifest | undefined,
  schema?: SchemaModel,
): void {
  for (const query of queries) {
    if (!query.table) continue;
    const [keyspace, name] = splitQualified(query.table);
    const volume = manifest?.tables.find((t) => t.name === query.table || (t.name === name && (t.keyspace ?? manifest.keyspace) === keyspace));
    const rows = estimateRowsRead(query, estimates.get(query.table), volume?.partitions, schema?.tables.get(query.table), volume);
    if (rows) query.plan.rowsEstimate = rows;
  }
}

function splitQualified(qualified: string): [string, string] {
  const dot = qualified.indexOf(".");
  return dot < 0 ? ["", qualified] : [qualified.slice(0, dot), qualified.slice(dot + 1)];
}
