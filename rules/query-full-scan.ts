// A query with no partition key restriction reads every partition of the table: the cost grows
// with the table, not with the answer. (With ALLOW FILTERING written, query-allow-filtering-scan reports it.)
import { queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const queryFullScan: RuleModule = {
  meta: {
    id: "query-full-scan",
    category: "query",
    defaultSeverity: "error",
    description: "The query restricts no partition key, so Cassandra reads every partition of the table.",
    messages: {
      // The plan's reason would only say the same again ("no partition key restriction, so every partition is read").
      scan: "{query} restricts no partition key column of {table}, so it reads every partition: the coordinator walks the whole token ring, and the cost grows with the table. Give the query a table whose partition key it can bind.",
      tokenRange: "{query} reads a token range of {table}: every partition in the range, across nodes. Fine for a batch job walking the ring, not for a request path.",
    },
    fixable: false,
  },
  check(context) {
    for (const query of context.model.queries) {
      const { plan } = query;
      if (plan.verdict !== "scan" || plan.allowFilteringWritten) continue;
      context.report({
        messageId: plan.partitions === "all" ? "scan" : "tokenRange",
        data: {
          query: query.id,
          table: query.table ? tableLabel(context.model, query.table) : "its table",
          reason: plan.reason.trim().replace(/\.$/, ""),
          partitions: plan.partitions,
        },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryFullScan;
