// What should serve the lookups that go through a secondary index, in words. Rules about indexes
// share it, so their advice cannot disagree. A table partitioned by the indexed column serves an
// equality lookup only: a range on the column makes it a clustering column, a text search (LIKE)
// is served by no key at all, a vector search needs an index, and a lookup that also reads a time
// range needs a time bucket beside the column, or one value's partition grows for ever.
import type { QueryAnalysis } from "../analysis/types.js";
import type { Relation, SelectStatement } from "../cql/ast.js";
import type { TableModel } from "../schema/model.js";

const RANGE_OPERATORS = new Set(["<", "<=", ">", ">=", "BETWEEN"]);
const TIME_TYPES = new Set(["timestamp", "timeuuid", "date", "time"]);

type LookupShape =
  | { kind: "search" }
  | { kind: "range" }
  | { kind: "equality"; rangedColumns: string[]; searchedColumns: string[] };

function columnRelations(select: SelectStatement | undefined): { column: string; operator: string }[] {
  const relations: Relation[] = select?.where?.relations ?? [];
  const found: { column: string; operator: string }[] = [];
  for (const relation of relations) {
    if (relation.kind === "column") found.push({ column: relation.column.name, operator: relation.operator });
  }
  return found;
}

/** How one query looks the column up; undefined when it does not restrict the column. */
function shapeOf(query: QueryAnalysis, column: string): LookupShape | undefined {
  const relations = columnRelations(query.select);
  const onColumn = relations.filter((relation) => relation.column === column);
  if (onColumn.length === 0) return undefined;
  if (onColumn.some((relation) => relation.operator === "LIKE")) return { kind: "search" };
  if (onColumn.some((relation) => RANGE_OPERATORS.has(relation.operator))) return { kind: "range" };
  const others = relations.filter((relation) => relation.column !== column);
  return {
    kind: "equality",
    rangedColumns: [...new Set(others.filter((relation) => RANGE_OPERATORS.has(relation.operator)).map((relation) => relation.column))],
    searchedColumns: [...new Set(others.filter((relation) => relation.operator === "LIKE").map((relation) => relation.column))],
  };
}

const code = (name: string): string => `\`${name}\``;

/** Whether the lookups search text: no index of Cassandra's own, SAI included, serves `LIKE` then. */
export function searchesText(column: string, lookups: readonly QueryAnalysis[]): boolean {
  return lookups.some((query) => shapeOf(query, column)?.kind === "search");
}

/**
 * One sentence (capitalised, ending in a full stop) saying what should serve the lookups of
 * `lookups` by `column` of `table` instead of the index. The strictest shape among the lookups
 * decides: a search beats a range, which beats an equality lookup.
 */
export function indexLookupAdvice(table: TableModel, column: string, lookups: readonly QueryAnalysis[]): string {
  const type = table.columns.find((c) => c.name === column)?.type;
  if (type?.kind === "vector") {
    return `A vector search is served by a storage-attached index (\`USING 'sai'\`, Cassandra 5.0), never by a partition key.`;
  }
  const shapes = lookups.map((query) => shapeOf(query, column)).filter((shape): shape is LookupShape => shape !== undefined);
  if (searchesText(column, lookups)) {
    return `A text search (\`LIKE\`) is served by no partition key, and storage-attached indexes have no \`LIKE\`: keep a table of the searched terms (one row per term and time bucket) that the application writes beside ${table.name}, or an external search index.`;
  }
  // Without a query to go by, a time is read by range far more often than looked up by its value.
  const timeLike = type?.kind === "native" && TIME_TYPES.has(type.name);
  if (shapes.some((shape) => shape.kind === "range") || (shapes.length === 0 && timeLike)) {
    return `A range on ${code(column)} makes it a clustering column, not a partition key: serve the lookup from a table partitioned by what the query binds with \`=\` and clustered by ${code(column)}.`;
  }
  const ranged = [...new Set(shapes.flatMap((shape) => (shape.kind === "equality" ? shape.rangedColumns : [])))];
  const searched = [...new Set(shapes.flatMap((shape) => (shape.kind === "equality" ? shape.searchedColumns : [])))];
  const searchNote =
    searched.length > 0 ? ` The text search on ${searched.map(code).join(" and ")} still needs a table of terms or an external search index.` : "";
  if (ranged.length > 0) {
    return `Serve the lookup from a table partitioned by ${code(column)} and a time bucket, clustered by ${ranged.map(code).join(", ")}, so that one value's rows stay bounded.${searchNote}`;
  }
  return `Serve the lookup from a table partitioned by ${code(column)}.${searchNote}`;
}
