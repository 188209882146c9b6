// Writes that delete: a literal null in an INSERT or UPDATE writes a tombstone for that cell, and
// setting or inserting a whole non-frozen collection first deletes what it held (a collection tombstone). At a high
// rate they pile up in the partitions reads must scan.
import { formatCount } from "../src/analysis/estimator-text.js";
import type { Term } from "../src/cql/ast.js";
import { isNonFrozenCollection, numberedEntities, tableLabel, writeEntity, writeStatements } from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

const isNull = (term: Term | undefined) => term?.kind === "literal" && term.type === "null";

/** cassandra.yaml's default tombstone_warn_threshold, the count a read must pass to be warned about. */
const TOMBSTONE_WARN_THRESHOLD = 1_000;

/**
 * The most null tombstones one partition of the table can hold: a null is the cell's value, so a
 * later null to the same cell replaces it, and a partition holds at most one per row and nulled
 * column. Undefined when the manifest does not size the partition (a table without clustering
 * columns has one row per partition).
 */
function nullBound(model: AnalysedModel, table: TableModel, nulledColumns: number): { rows: number; bound: number } | undefined {
  let rows: number | undefined;
  if (table.clustering.length === 0) rows = 1;
  else {
    const estimate = model.estimates.get(table.qualifiedName);
    if (estimate && (estimate.basis === "manifest" || estimate.basis === "growth-retention" || estimate.basis === "growth-ttl")) rows = estimate.worst.rows;
  }
  return rows === undefined ? undefined : { rows, bound: rows * nulledColumns };
}

/** The columns the write paths of a table set to a literal null. */
function nulledColumnsOf(model: AnalysedModel, table: TableModel): number {
  const columns = new Set<string>();
  for (const write of writeStatements(model)) {
    if (write.table?.qualifiedName !== table.qualifiedName || !write.write) continue;
    const statement = write.statement;
    if (statement.kind === "insert") statement.columns.forEach((column, index) => isNull(statement.values[index]) && columns.add(column.name));
    else if (statement.kind === "update") for (const a of statement.assignments) if (a.operator === "=" && !a.key && !a.field && isNull(a.value)) columns.add(a.column.name);
  }
  return columns.size;
}

const writeTombstones: RuleModule = {
  meta: {
    id: "write-tombstones",
    category: "write",
    defaultSeverity: "warning",
    description: "A write path writes tombstones: literal nulls, or whole non-frozen collections overwritten.",
    messages: {
      nullsBounded:
        "{write} writes null to {columns} of {table}: each null is a tombstone, not an empty cell{rate}. A null replaces the cell's value, so the largest partition holds at most {bound} of them ({rows} × {count}), under tombstone_warn_threshold (1,000): no read of one partition is warned about them, though each is stored and merged until gc_grace_seconds (10 days by default) has passed. Leave the column out of the statement (or bind it unset) instead of writing null.",
      nulls:
        "{write} writes null to {columns} of {table}: each null is a tombstone, not an empty cell{rate}. Reads scan tombstones until gc_grace_seconds (10 days by default) and compaction drop them; a read meeting more than tombstone_warn_threshold (1,000) logs a warning, more than tombstone_failure_threshold (100,000) fails with TombstoneOverwhelmingException. Leave the column out of the statement (or bind it unset) instead of writing null.",
      insertCollection:
        "{write} inserts the non-frozen {collections} {columns} of {table}: an INSERT first deletes what a collection held, one collection tombstone per collection and row written, even on a new row{rate}. It is stored and merged with the row on every read until compaction drops it after gc_grace_seconds, though it is not counted against tombstone_warn_threshold. Declare the collection frozen if it is always written whole, or write its elements with `UPDATE … SET c = c + ?`, which deletes nothing.",
      overwrite:
        "{write} sets the whole non-frozen collection {columns} of {table}: Cassandra first deletes what it held, one range tombstone per collection and write{rate}. Add or remove elements (`+`/`-`) instead, or declare the collection frozen if it is always written whole.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const entity = numberedEntities();
    for (const write of writeStatements(model)) {
      const path = write.write;
      const table = write.table;
      const statement = write.statement;
      if (!path || !table || statement.kind === "delete") continue;
      const nulls: string[] = [];
      const overwritten: string[] = [];
      const isCollection = (name: string) => {
        const column = table.columns.find((c) => c.name === name);
        return column !== undefined && isNonFrozenCollection(column.type);
      };
      const inserted: string[] = [];
      if (statement.kind === "insert") {
        // An INSERT of a non-frozen collection deletes the collection first (Cassandra cannot tell
        // a new row from an existing one), so every INSERT of it writes a collection tombstone.
        statement.columns.forEach((column, index) => {
          if (isNull(statement.values[index])) nulls.push(column.name);
          else if (isCollection(column.name)) inserted.push(column.name);
        });
      } else {
        for (const assignment of statement.assignments) {
          if (assignment.operator !== "=" || assignment.key || assignment.field) continue;
          if (isNull(assignment.value)) nulls.push(assignment.column.name);
          else if (isCollection(assignment.column.name) && assignment.value.kind !== "binary") overwritten.push(assignment.column.name);
        }
      }
      const rate = path.ratePerSecond;
      const perSecond = (cells: number) =>
        rate === undefined || !Number.isFinite(rate) || rate * cells < 1 ? "" : `; at ${formatCount(Number((rate * cells).toPrecision(2)))} ${Number((rate * cells).toPrecision(2)) === 1 ? "tombstone" : "tombstones"} a second from this write path`;
      const code = (names: string[]) => names.map((n) => `\`${n}\``).join(", ");
      const label = tableLabel(model, table.qualifiedName);
      // Every column any write path of the table nulls: a partition can hold a tombstone in each.
      const nulledColumns = nulls.length > 0 ? nulledColumnsOf(model, table) : 0;
      const bounded = nulls.length > 0 ? nullBound(model, table, nulledColumns) : undefined;
      if (bounded && bounded.bound < TOMBSTONE_WARN_THRESHOLD) {
        context.report({
          messageId: "nullsBounded",
          data: {
            write: path.id,
            columns: code(nulls),
            table: label,
            rate: perSecond(nulls.length),
            bound: formatCount(bounded.bound),
            rows: bounded.rows === 1 ? "one row" : `${formatCount(bounded.rows)} rows`,
            count: nulledColumns === 1 ? "one column written null" : `${nulledColumns} columns written null`,
          },
          file: write.file,
          range: statement.range,
          entity: entity(`${writeEntity(path.id)}:null-tombstones:${table.qualifiedName}`),
          // Too few to reach the read thresholds: a note, not a warning.
          severityCap: "info",
        });
      } else if (nulls.length > 0) {
        context.report({
          messageId: "nulls",
          data: { write: path.id, columns: code(nulls), table: label, rate: perSecond(nulls.length) },
          file: write.file,
          range: statement.range,
          entity: entity(`${writeEntity(path.id)}:null-tombstones:${table.qualifiedName}`),
        });
      }
      if (inserted.length > 0) {
        context.report({
          messageId: "insertCollection",
          data: { write: path.id, collections: inserted.length === 1 ? "collection" : "collections", columns: code(inserted), table: label, rate: perSecond(inserted.length) },
          file: write.file,
          range: statement.range,
          entity: entity(`${writeEntity(path.id)}:insert-collection-tombstones:${table.qualifiedName}`),
          // Not counted by the read thresholds, and often accepted: a note, not a warning.
          severityCap: "info",
        });
      }
      if (overwritten.length > 0) {
        context.report({
          messageId: "overwrite",
          data: { write: path.id, columns: code(overwritten), table: label, rate: perSecond(overwritten.length) },
          file: write.file,
          range: statement.range,
          entity: entity(`${writeEntity(path.id)}:collection-tombstones:${table.qualifiedName}`),
          // A range tombstone per write is often accepted (TTL data, TWCS): a note, not a warning.
          severityCap: "info",
        });
      }
    }
  },
};

export default writeTombstones;
