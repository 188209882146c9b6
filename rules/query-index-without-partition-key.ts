// A secondary index (legacy or SAI) is local to each node: without a partition key, the coordinator
// must ask every token range of the ring, so one read becomes a fan-out to the whole cluster.
import { formatFrequency } from "../src/analysis/estimator-text.js";
import { queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import { indexLookupAdvice } from "../src/rule-engine/index-advice.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { IndexModel } from "../src/schema/model.js";

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
        "{query} is served by index {index} on {table} without a partition key: indexes are local to each node, so the coordinator queries every token range of the cluster{rate}. Bind the partition key too if the query can. {advice}",
    },
    fixable: false,
  },
  check(context) {
    for (const query of context.model.queries) {
      const { plan } = query;
      if (plan.verdict !== "index" || plan.partitions !== "all") continue;
      const table = query.table ? context.model.schema.tables.get(query.table) : undefined;
      const index = table?.indexes.find((i) => i.name === plan.index);
      context.report({
        messageId: "fanOut",
        data: {
          query: query.id,
          index: plan.index ?? "an index",
          table: query.table ? tableLabel(context.model, query.table) : "its table",
          columns: index ? index.column : "the indexed column",
          advice:
            index && table && index.target === "simple"
              ? indexLookupAdvice(table, index.column, [query])
              : `Serve the query from a table partitioned by ${lookupKey(index)}.`,
          rate: query.ratePerSecond !== undefined ? ` (${formatFrequency(query.ratePerSecond)}, each one to every node)` : "",
        },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryIndexWithoutPartitionKey;
