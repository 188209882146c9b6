// What a read through a secondary index scans. A legacy index (2i) is a hidden table on each node,
// partitioned by the indexed value: the index partition for one value holds an entry for every
// local row with that value, so across the cluster it holds (table rows ÷ distinct values) entries,
// and the most common value more. Without a partition key the coordinator asks every token range
// and each node reads its share of that partition, then each base row, and filters the rest of the
// WHERE clause row by row (CassandraIndex and its searcher, SecondaryIndexManager in
// apache/cassandra). SAI reads the matching row ids from each SSTable's index on the replicas it
// asks, intersects several indexed predicates, and post-filters the non-indexed ones the same way.
// The figures come from the manifest: rows (partitions × rows per partition) and the column's
// distinct values (or, where it states none, the constants of the enum an entity maps the column
// from: src/code/enums.ts); without them there is no estimate.
import type { Relation, SelectStatement } from "../cql/ast.js";
import type { TableVolume } from "../manifest/types.js";
import type { IndexModel, TableModel } from "../schema/model.js";
import { formatCount } from "./estimator-text.js";
import type { IndexScanEstimate, PartitionEstimate } from "./types.js";

/** Columns whose type fixes their distinct values: a boolean has two. */
function typeDistinctValues(table: TableModel, column: string): number | undefined {
  const type = table.columns.find((c) => c.name === column)?.type;
  return type?.kind === "native" && type.name === "boolean" ? 2 : undefined;
}

/** The single-column `=` relations of the WHERE clause, by column. */
function equalities(select: SelectStatement): Map<string, Relation> {
  const found = new Map<string, Relation>();
  for (const relation of select.where?.relations ?? []) {
    if (relation.kind === "column" && !relation.key && !relation.field && relation.operator === "=") found.set(relation.column.name, relation);
  }
  return found;
}

/** Columns the WHERE clause restricts, other than the partition key (bound or not) and the served ones. */
function restrictedColumns(select: SelectStatement): string[] {
  const columns: string[] = [];
  for (const relation of select.where?.relations ?? []) {
    if (relation.kind === "column") columns.push(relation.column.name);
    else if (relation.kind === "multi-column") for (const column of relation.columns) columns.push(column.name);
  }
  return [...new Set(columns)];
}

interface ValueFigures {
  column: string;
  /** rows of the whole table holding one value, on average and for the most common value */
  rows: number;
  worstRows: number;
  text: string;
}

/** Rows of the table holding one value of `column`, from the manifest (or the type), when stated. */
function valueFigures(table: TableModel, volume: TableVolume | undefined, column: string, tableRows: number, rowsText: string): ValueFigures | undefined {
  const stated = volume?.distinctValues?.[column];
  const count = stated?.count ?? typeDistinctValues(table, column);
  if (count === undefined || !(count >= 1)) return undefined;
  const rows = tableRows / count;
  const maxRows = stated?.maxRows !== undefined ? Math.min(tableRows, Math.max(rows, stated.maxRows)) : rows;
  const source = stated ? (stated.source ?? "the manifest") : `its type`;
  return { column, rows, worstRows: maxRows, text: `${rowsText} ÷ ${formatCount(count)} distinct values, from ${source}` };
}

/**
 * The entries an index read scans for one value, or undefined when the manifest lacks the figures:
 * an equality on a plain (not collection) indexed column, the table's rows from `partitions` and
 * the partition estimate, and the column's distinct values.
 */
export function estimateIndexScan(
  select: SelectStatement,
  table: TableModel,
  index: IndexModel,
  volume: TableVolume | undefined,
  estimate: PartitionEstimate,
  fanOut: boolean,
): IndexScanEstimate | undefined {
  if (index.target !== "simple" && index.target !== "full") return undefined;
  if (index.implementation !== "legacy" && index.implementation !== "sai") return undefined;
  const partitions = volume?.partitions;
  if (partitions === undefined || !(partitions > 0) || !Number.isFinite(estimate.average.rows)) return undefined;
  const tableRows = partitions * estimate.average.rows;
  if (!(tableRows > 0)) return undefined;
  const rowsText = `${formatCount(partitions)} partitions × ${formatCount(estimate.average.rows)} ${estimate.average.rows === 1 ? "row" : "rows"}`;
  const equal = equalities(select);
  // The columns the index lookup answers: the one legacy index; for SAI every SAI-indexed
  // equality, intersected (the smallest bounds the intersection).
  const served =
    index.implementation === "sai"
      ? table.indexes.filter((i) => i.implementation === "sai" && (i.target === "simple" || i.target === "full") && equal.has(i.column)).map((i) => i.column)
      : equal.has(index.column)
        ? [index.column]
        : [];
  if (served.length === 0) return undefined;
  const figures = served.map((column) => valueFigures(table, volume, column, tableRows, rowsText));
  const known = figures.filter((f): f is ValueFigures => f !== undefined);
  // An intersection is bounded by its most selective predicate; a predicate with no figure might
  // be that one, so with any unknown the bound is only the known ones' smallest, which is still an upper bound.
  const chosen = known.reduce<ValueFigures | undefined>((best, f) => (!best || f.worstRows < best.worstRows ? f : best), undefined);
  if (!chosen) return undefined;
  const partitionKey = new Set(table.partitionKey.map((c) => c.name));
  const clustering = new Set(table.clustering.map((c) => c.name));
  // What the lookup does not answer is filtered row by row: regular columns always, key columns
  // too when no partition key is bound (the read is a token-range read through the index, E3).
  const postFiltered = restrictedColumns(select).filter((c) => !served.includes(c) && (fanOut || (!partitionKey.has(c) && !clustering.has(c))));
  let entries: number;
  let worstEntries: number;
  let basis: string;
  if (fanOut) {
    entries = chosen.rows;
    worstEntries = chosen.worstRows;
    basis = chosen.text;
  } else {
    // Within one partition the value's share of the table is its share of the partition.
    entries = estimate.average.rows * (chosen.rows / tableRows);
    worstEntries = estimate.worst.rows * (chosen.worstRows / tableRows);
    basis = `one partition of ${formatCount(estimate.average.rows)} rows, worst ${formatCount(estimate.worst.rows)}, times one \`${chosen.column}\` value's share of the table: ${chosen.text}`;
  }
  return {
    index: index.name,
    implementation: index.implementation,
    column: chosen.column,
    entries,
    worstEntries,
    fanOut,
    postFiltered,
    basis,
  };
}
