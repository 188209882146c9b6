// Each partition may live on a different replica set: a query over N partitions costs N reads,
// and its latency is the slowest of them.
import { queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const queryTooManyPartitions: RuleModule = {
  meta: {
    id: "query-too-many-partitions",
    category: "query",
    defaultSeverity: "warning",
    description: "The query reads more partitions than `limits.partitions_per_query` allows.",
    messages: {
      tooMany:
        "{query} reads {partitions} partitions of {table} (limit {limit}): each may sit on a different node, so the read costs {partitions} lookups and waits for the slowest. Shape a table whose partition holds the whole answer, or raise `limits.partitions_per_query` if the fan-out is intended.",
    },
    fixable: false,
  },
  check(context) {
    const limit = context.model.config.limits.partitionsPerQuery;
    for (const query of context.model.queries) {
      const { plan } = query;
      // Rejected queries are reported by their own rules; "all" is a scan, reported as one.
      if (plan.verdict !== "single-partition" && plan.verdict !== "multi-partition" && plan.verdict !== "index") continue;
      if (typeof plan.partitions !== "number" || plan.partitions <= limit) continue;
      context.report({
        messageId: "tooMany",
        data: {
          query: query.id,
          partitions: plan.partitions,
          limit,
          table: query.table ? tableLabel(context.model, query.table) : "its table",
        },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryTooManyPartitions;
