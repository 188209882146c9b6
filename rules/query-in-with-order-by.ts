// With IN on the partition key, ORDER BY is done on the coordinator after reading every listed
// partition, so Cassandra refuses to page it (SelectStatement in apache/cassandra). Drivers page by default:
// the query prepares fine and fails when it runs.
import type { SelectStatement } from "../src/cql/ast.js";
import { queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { TableModel } from "../src/schema/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";

/** The partition key column restricted by an IN of more than one value (`IN ?` counts: its list is unknown). */
function partitionKeyIn(select: SelectStatement, table: TableModel): string | undefined {
  const keyColumns = new Set(table.partitionKey.map((c) => c.name));
  for (const relation of select.where?.relations ?? []) {
    if (relation.kind !== "column" || relation.operator !== "IN" || !keyColumns.has(relation.column.name)) continue;
    // `IN (x)` is turned into `=` by Cassandra (A8); every other IN stays one.
    if (relation.values && relation.values.length === 1) continue;
    return relation.column.name;
  }
  return undefined;
}

const queryInWithOrderBy: RuleModule = {
  meta: {
    id: "query-in-with-order-by",
    category: "query",
    defaultSeverity: "warning",
    description: "IN on the partition key together with ORDER BY: Cassandra refuses to page it, so it fails under drivers' default paging.",
    messages: {
      inWithOrderBy:
        "{query} combines IN on partition key column {column} with ORDER BY: Cassandra sorts the rows of every listed partition on the coordinator and refuses to page such a query, so it fails with the drivers' default paging (a LIMIT does not help). Query each partition separately and merge in the application, or disable paging for this statement knowing every row is read at once.",
    },
    fixable: false,
  },
  check(context) {
    for (const query of context.model.queries) {
      const { plan, select } = query;
      if (!select || select.orderBy.length === 0 || select.orderBy.some((o) => o.ann)) continue;
      if (plan.verdict !== "single-partition" && plan.verdict !== "multi-partition") continue;
      const table = query.table ? context.model.schema.tables.get(query.table) : undefined;
      if (!table) continue;
      const column = partitionKeyIn(select, table);
      if (!column) continue;
      context.report({
        messageId: "inWithOrderBy",
        data: { query: query.id, column, table: tableLabel(context.model, table.qualifiedName), partitions: plan.partitions },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryInWithOrderBy;
