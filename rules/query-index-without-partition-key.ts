// A secondary index (legacy or SAI) is local to each node: without a partition key, the coordinator
// must ask every token range of the ring, so one read becomes a fan-out to the whole cluster.
import { formatCount, formatFrequency } from "../src/analysis/estimator-text.js";
import { queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import { indexLookupAdvice } from "../src/rule-engine/index-advice.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import { planSelect } from "../src/analysis/planner.js";
import type { QueryAnalysis, RowsReadEstimate } from "../src/analysis/types.js";
import type { SelectStatement } from "../src/cql/ast.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { IndexModel, TableModel } from "../src/schema/model.js";

/** How many other tables of the keyspace are tried as a home for the query; a schema has far fewer. */
const MAX_OTHER_TABLES = 500;

/** The columns the WHERE clause binds by `=` or `IN`: only they can name a partition. */
function boundColumns(select: SelectStatement): Set<string> {
  const bound = new Set<string>();
  for (const relation of select.where?.relations ?? []) {
    if (relation.kind === "custom-index-expression" || (relation.operator !== "=" && relation.operator !== "IN")) continue;
    if (relation.kind === "column" && !relation.key && !relation.field) bound.add(relation.column.name);
    else if (relation.kind === "multi-column") for (const column of relation.columns) bound.add(column.name);
  }
  return bound;
}

/** Another table of the keyspace that answers the same SELECT from one partition (or a few), if any. */
function tableThatServes(model: AnalysedModel, query: QueryAnalysis, table: TableModel): TableModel | undefined {
  if (!query.select) return undefined;
  // Planned only where the query binds the whole partition key: no other table can serve it.
  const bound = boundColumns(query.select);
  let tried = 0;
  for (const other of model.schema.tables.values()) {
    if (other === table || other.keyspace !== table.keyspace) continue;
    if (!other.partitionKey.every((column) => bound.has(column.name))) continue;
    if (++tried > MAX_OTHER_TABLES) return undefined;
    const plan = planSelect(query.select, other, model.version);
    if (plan.verdict === "single-partition" || (plan.verdict === "multi-partition" && typeof plan.partitions === "number")) return other;
  }
  return undefined;
}

function rowsWord(rows: number): string {
  return `${formatCount(rows)} ${Math.round(rows) === 1 ? "entry" : "entries"}`;
}

/**
 * What the read scans, by the manifest's rows and the column's distinct values: the index
 * partition of one value is spread over every node, and each node reads its share.
 */
function scanText(rows: RowsReadEstimate | undefined, query: QueryAnalysis): string {
  const scan = rows?.index;
  if (!rows || !scan || !scan.fanOut) return "";
  const most = scan.worstEntries > scan.entries ? `, ${formatCount(scan.worstEntries)} for the most common one` : "";
  const size = `For one \`${scan.column}\` value the index holds about ${rowsWord(scan.entries)}${most} (${scan.basis}), spread over every node`;
  const filtered = scan.postFiltered.map((c) => `\`${c}\``).join(", ");
  const returned = rows.returned === undefined ? "" : rows.returned === 1 ? " to return one" : ` to return at most ${formatCount(rows.returned)}`;
  const rate = query.ratePerSecond !== undefined ? ` (up to ${formatCount(Math.round(rows.perCall * query.ratePerSecond))} rows a second at its rate)` : "";
  switch (rows.because) {
    case "filtering":
      return ` ${size}: the read scans up to ${rowsWord(rows.worstPerCall)} and their rows, filtering ${filtered} row by row,${returned || " to return the matches"}${rate}.`;
    case "aggregate":
      return ` ${size}: the aggregate reads up to ${rowsWord(rows.worstPerCall)} and their rows${returned}${rate}.`;
    case "unbounded":
      return ` ${size}: with no LIMIT the read returns all of them, up to ${formatCount(rows.worstPerCall)} rows${rate}.`;
    default:
      return ` ${size}; the LIMIT stops the read at ${formatCount(rows.worstPerCall)} rows, though finding them may take round after round of token ranges.`;
  }
}

/** What a table serving the lookup by key would be partitioned by: the column, or what of a collection is indexed. */
function lookupKey(index: IndexModel | undefined): string {
  if (!index) return "the indexed column";
  const column = `\`${index.column}\``;
  switch (index.target) {
    case "keys":
      return `the keys of ${column}`;
    case "values":
      return `the elements of ${column}`;
    case "entries":
      return `the entries of ${column} (key and value)`;
    default:
      return column;
  }
}

const queryIndexWithoutPartitionKey: RuleModule = {
  meta: {
    id: "query-index-without-partition-key",
    category: "query",
    defaultSeverity: "warning",
    description: "The query is served by a secondary index without a partition key, so it fans out to every node.",
    messages: {
      fanOut:
        "{query} is served by index {index} on {table} without a partition key: indexes are local to each node, so the coordinator queries every token range of the cluster{rate}.{scan} Bind the partition key too if the query can. {advice}",
    },
    fixable: false,
  },
  check(context) {
    for (const query of context.model.queries) {
      const { plan } = query;
      if (plan.verdict !== "index" || plan.partitions !== "all") continue;
      const table = query.table ? context.model.schema.tables.get(query.table) : undefined;
      const index = table?.indexes.find((i) => i.name === plan.index);
      const servedBy = table ? tableThatServes(context.model, query, table) : undefined;
      context.report({
        messageId: "fanOut",
        data: {
          query: query.id,
          index: plan.index ?? "an index",
          table: query.table ? tableLabel(context.model, query.table) : "its table",
          columns: index ? index.column : "the indexed column",
          advice: servedBy
            ? `${tableLabel(context.model, servedBy.qualifiedName)} already answers the same query from its partition key: read it there, and drop the index if no other query needs it.`
            : index && table && index.target === "simple"
              ? indexLookupAdvice(table, index.column, [query])
              : `Serve the query from a table partitioned by ${lookupKey(index)}.`,
          rate: query.ratePerSecond !== undefined ? ` (${formatFrequency(query.ratePerSecond)}, each one to every node)` : "",
          scan: scanText(plan.rowsEstimate, query),
        },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryIndexWithoutPartitionKey;
