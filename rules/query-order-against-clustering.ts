// Rows of a partition are stored in clustering order; ORDER BY against it makes Cassandra read
// the partition backwards, which costs more than reading it forwards. When every query of the
// table reads it backwards, declaring the opposite clustering order serves them all forwards.
import type { QueryAnalysis } from "../src/analysis/types.js";
import type { CreateMaterializedViewStatement, CreateTableStatement } from "../src/cql/ast.js";
import { joinWords, queriesOnTable, queryEntity, rangeBetween, schemaFileOf, tableLabel } from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleFix, RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

type TableStatement = CreateTableStatement | CreateMaterializedViewStatement;

/** `CLUSTERING ORDER BY (a DESC, b ASC)` with every clustering column's order flipped. */
function reversedClause(table: TableModel, statement: TableStatement): string {
  const written = new Map((statement.primaryKey?.clustering ?? []).map((id) => [id.name, id.text]));
  const columns = table.clustering.map((c) => `${written.get(c.name) ?? c.name} ${(c.order ?? "asc") === "asc" ? "DESC" : "ASC"}`);
  return `CLUSTERING ORDER BY (${columns.join(", ")})`;
}

/** The fix that declares the reversed clustering order, or undefined when the statement cannot be located. */
function reverseOrderFix(model: AnalysedModel, table: TableModel, existsAtBase: boolean): RuleFix | undefined {
  const statement = table.statement;
  if (statement.kind !== "create-table" && statement.kind !== "create-materialized-view") return undefined;
  const file = schemaFileOf(model, table.source.file);
  if (!file) return undefined;
  const clause = reversedClause(table, statement);
  const description = existsAtBase
    ? `Declare ${clause} on ${table.name}. The table already exists: the clustering order cannot be altered, so this means a new table and a data migration.`
    : `Declare ${clause} on ${table.name}, so its queries read forwards.`;
  if (statement.clusteringOrderRange) {
    const { start, end } = statement.clusteringOrderRange;
    return { description, file: file.path, range: rangeBetween(file.text, start.offset, end.offset), replacement: clause };
  }
  if (statement.withRange) {
    // Put the clause first among the options: `WITH <clause> AND <existing options>`.
    const withStart = statement.withRange.start.offset;
    const keyword = /^WITH\s+/i.exec(file.text.slice(withStart));
    if (!keyword) return undefined;
    const at = withStart + keyword[0].length;
    return { description, file: file.path, range: rangeBetween(file.text, at, at), replacement: `${clause} AND ` };
  }
  const statementEnd = statement.range.start.offset + statement.text.trimEnd().length;
  if (file.text.slice(statement.range.start.offset, statementEnd) !== statement.text.trimEnd()) return undefined;
  return { description, file: file.path, range: rangeBetween(file.text, statementEnd, statementEnd), replacement: ` WITH ${clause}` };
}

/**
 * Whether a query that is not reversed depends on the declared order: rejected queries read
 * nothing, and a query binding every clustering column by `=` reads single rows in any order.
 */
function readsInDeclaredOrder(query: QueryAnalysis, table: TableModel): boolean {
  if (query.plan.direction === "forward") return true;
  if (query.plan.verdict === "invalid" || query.plan.verdict === "unserved" || query.plan.verdict === "needs-allow-filtering") return false;
  const relations = query.select?.where?.relations;
  if (!relations) return table.clustering.length > 0;
  // Asked for every query: the relations are searched in place, without a set of names per query.
  const boundByEquality = (name: string) => relations.some((r) => r.kind === "column" && r.operator === "=" && !r.key && r.column.name === name);
  return !table.clustering.every((c) => boundByEquality(c.name));
}

const queryOrderAgainstClustering: RuleModule = {
  meta: {
    id: "query-order-against-clustering",
    category: "query",
    defaultSeverity: "info",
    description: "ORDER BY reads the partition against the table's clustering order, which is slower than reading it in order.",
    messages: {
      allReverse:
        "{query} orders {table} against its clustering order, so Cassandra reads each partition backwards. Every query of {table} reads it this way: declaring the opposite clustering order lets them all read forwards.",
      someReverse:
        "{query} orders {table} against its clustering order, so Cassandra reads each partition backwards. {forward} read it in the declared order, so reversing the table would only move the cost; if {query} is the hot path, give it its own table.",
    },
    fixable: true,
  },
  check(context) {
    const { model } = context;
    for (const query of model.queries) {
      if (query.plan.direction !== "reverse" || !query.table) continue;
      const table = model.schema.tables.get(query.table);
      if (!table) continue;
      const others = queriesOnTable(model, table.qualifiedName);
      const forward = others.filter((q) => q.plan.direction !== "reverse" && readsInDeclaredOrder(q, table)).map((q) => q.id);
      const base = { file: query.location.file, range: query.location.range, entity: queryEntity(query.id) };
      const label = tableLabel(model, table.qualifiedName);
      if (forward.length > 0) {
        context.report({ ...base, messageId: "someReverse", data: { query: query.id, table: label, forward: joinWords(forward) } });
        continue;
      }
      const fix = reverseOrderFix(model, table, context.base?.schema.tables.has(table.qualifiedName) ?? false);
      context.report({ ...base, messageId: "allReverse", data: { query: query.id, table: label }, ...(fix ? { fix } : {}) });
    }
  },
};

export default queryOrderAgainstClustering;
