// With IN on the partition key, ORDER BY is done on the coordinator after reading every listed
// partition, so Cassandra refuses to page it (SelectStatement in apache/cassandra). Drivers page by default:
// the query prepares fine and fails when it runs, unless its LIMIT fits in one page: Cassandra
// then runs it unpaged (SelectStatement checks the limit against the page size before refusing).
import type { SelectStatement } from "../src/cql/ast.js";
import { formatCount } from "../src/analysis/estimator-text.js";
import { integerLiteral } from "../src/analysis/planner-terms.js";
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

/** The drivers' default page size (fetch size) of the DataStax drivers. */
const DEFAULT_PAGE_SIZE = 5000;

const queryInWithOrderBy: RuleModule = {
  meta: {
    id: "query-in-with-order-by",
    category: "query",
    defaultSeverity: "warning",
    description: "IN on the partition key together with ORDER BY: Cassandra refuses to page it, so it fails under drivers' default paging.",
    messages: {
      inWithOrderBy:
        "{query} combines IN on partition key column {column} with ORDER BY: Cassandra sorts the rows of every listed partition on the coordinator and refuses to page such a query, so without a LIMIT it fails with the drivers' default paging. Query each partition separately and merge in the application, add a LIMIT no larger than the page size, or disable paging for this statement knowing every row is read at once.",
      overPage:
        "{query} combines IN on partition key column {column} with ORDER BY and LIMIT {limit}, more than the drivers' default page size ({pageSize} rows): Cassandra refuses to page a query it sorts on the coordinator, so it fails unless the statement's page size is raised above the LIMIT or paging is off. Query each partition separately and merge in the application, or lower the LIMIT.",
      limitWithinPage:
        "{query} combines IN on partition key column {column} with ORDER BY: the coordinator reads the listed partitions and sorts their rows itself. Its LIMIT {limit} fits in one page of the drivers' default size ({pageSize} rows), so Cassandra runs it unpaged; keep the LIMIT at most the statement's page size.",
      limitBound:
        "{query} combines IN on partition key column {column} with ORDER BY: the coordinator reads the listed partitions and sorts their rows itself, and Cassandra runs the query only unpaged. It does so while the bound LIMIT is at most the statement's page size ({pageSize} rows by default) or paging is off; a larger LIMIT fails the query.",
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
      const base = {
        data: { query: query.id, column, table: tableLabel(context.model, table.qualifiedName), partitions: plan.partitions, pageSize: formatCount(DEFAULT_PAGE_SIZE) },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      };
      const limit = integerLiteral(select.limit);
      if (!select.limit) {
        context.report({ ...base, messageId: "inWithOrderBy" });
      } else if (limit === null) {
        context.report({ ...base, messageId: "limitBound", severityCap: "info" });
      } else if (limit <= DEFAULT_PAGE_SIZE) {
        context.report({ ...base, data: { ...base.data, limit: formatCount(limit) }, messageId: "limitWithinPage", severityCap: "info" });
      } else {
        context.report({ ...base, data: { ...base.data, limit: formatCount(limit) }, messageId: "overPage" });
      }
    }
  },
};

export default queryInWithOrderBy;
