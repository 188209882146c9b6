// Cassandra has no `SET c = c + ?` for ordinary numbers (only counters add on the server), so an
// application that keeps a total in an int or a decimal reads it, adds, and writes it back. Two
// clients doing that at once both read the same old value and the later write wins: one change is
// lost with no error. Only a compare-and-set (`… IF c = <old>`) or a counter makes it safe.
// Evidence: the read of the column and the UPDATE of the same row run in one function of the
// application's code (warning); a manifest query that reads the column of the row a write path sets
// is only a hint that the new value may come from the old one (info).
import type { SelectStatement } from "../src/cql/ast.js";
import type { QueryAnalysis } from "../src/analysis/types.js";
import { operations } from "../src/rule-engine/flows.js";
import { isLightweightTransaction, queriesOnTable, rowKeyColumns, tableLabel, writeEntity, writeStatements, type WriteStatement } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { ColumnModel, TableModel } from "../src/schema/model.js";

const NUMERIC = new Set(["tinyint", "smallint", "int", "bigint", "varint", "decimal", "float", "double"]);

/** The numeric regular or static columns an UPDATE sets to a value computed by the client (`c = ?`, not a literal). */
function totalsSet(write: WriteStatement, table: TableModel): ColumnModel[] {
  if (write.statement.kind !== "update" || isLightweightTransaction(write.statement)) return [];
  if (write.batch?.statements.some(isLightweightTransaction)) return [];
  const columns: ColumnModel[] = [];
  for (const assignment of write.statement.assignments) {
    if (assignment.operator !== "=" || assignment.key || assignment.field || assignment.value.kind === "literal") continue;
    const column = table.columns.find((c) => c.name === assignment.column.name);
    if (column && (column.kind === "regular" || column.kind === "static") && column.type.kind === "native" && NUMERIC.has(column.type.name)) columns.push(column);
  }
  return columns;
}

function selects(select: SelectStatement, column: string): boolean {
  return select.star || select.selectors.some((s) => s.expression.kind === "column" && s.expression.name.name === column);
}

/** Whether a query reads the column of the rows the UPDATE sets: it selects it and fixes every key column the UPDATE names with `=`. */
function readsSameValue(query: QueryAnalysis, write: WriteStatement, column: string): boolean {
  const select = query.select;
  if (!select || !selects(select, column)) return false;
  const fixed = new Set((select.where?.relations ?? []).flatMap((r) => (r.kind === "column" && r.operator === "=" && !r.key ? [r.column.name] : [])));
  return rowKeyColumns(write.statement, write.table).every((c) => fixed.has(c));
}

const writeReadModifyWrite: RuleModule = {
  meta: {
    id: "write-read-modify-write",
    category: "write",
    defaultSeverity: "warning",
    description: "A numeric column is read and then written back with `SET c = ?` without a condition, so concurrent updates of the total are lost.",
    messages: {
      inOperation:
        "{operation} reads `{column}` of {table} ({query}) and writes it back with `SET {column} = ?` ({write}) without a condition. Two clients that run it at once read the same old value and the later write wins, so one change to `{column}` is lost with no error. Keep the total in a counter table (`UPDATE … SET {column} = {column} + ?`, counters only add) or make the write a compare-and-set: `UPDATE … SET {column} = ? WHERE … IF {column} = <the value read>`, retried when `[applied]` is false.",
      manifestOnly:
        "{query} reads `{column}` of the rows {write} sets with `SET {column} = ?` and no condition. If the new value is computed from the one read (a total, a balance, a stock level), two clients that do it at once lose one change, as the later write wins. Then keep it in a counter table, or write `UPDATE … SET {column} = ? … IF {column} = <the value read>`.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const reported = new Set<string>();
    for (const operation of operations(model)) {
      if (operation.kind !== "code") continue;
      for (const write of operation.writes) {
        const table = write.table;
        if (!table || table.kind !== "table" || !write.write) continue;
        for (const column of totalsSet(write, table)) {
          const read = operation.queries.find((q) => q.table === table.qualifiedName && readsSameValue(q, write, column.name));
          const entity = `${writeEntity(write.write.id)}:read-modify-write:${table.qualifiedName}.${column.name}`;
          if (!read || reported.has(entity)) continue;
          reported.add(entity);
          context.report({
            messageId: "inOperation",
            data: { operation: operation.name, column: column.name, table: tableLabel(model, table.qualifiedName), query: read.id, write: write.write.id },
            file: write.file,
            range: write.statement.range,
            entity,
          });
        }
      }
    }
    // From the manifest alone, nothing says the write follows the read: a hint, at info, and only
    // for an UPDATE of nothing but totals read by name (not a form saving every field, not SELECT *).
    for (const write of writeStatements(model)) {
      const table = write.table;
      if (!table || table.kind !== "table" || !write.write || write.statement.kind !== "update" || model.code?.extraction.statements.some((s) => s.id === write.write!.id)) continue;
      const totals = totalsSet(write, table);
      if (totals.length === 0 || totals.length !== new Set(write.statement.assignments.map((a) => a.column.name)).size) continue;
      for (const column of totals) {
        const entity = `${writeEntity(write.write.id)}:read-modify-write:${table.qualifiedName}.${column.name}`;
        if (reported.has(entity)) continue;
        const read = queriesOnTable(model, table.qualifiedName).find((q) => q.select && !q.select.star && readsSameValue(q, write, column.name));
        if (!read) continue;
        reported.add(entity);
        context.report({
          messageId: "manifestOnly",
          data: { column: column.name, query: read.id, write: write.write.id },
          file: write.file,
          range: write.statement.range,
          entity,
          severityCap: "info",
        });
      }
    }
  },
};

export default writeReadModifyWrite;
