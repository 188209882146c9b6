// Each partition may live on a different replica set: a query over N partitions costs N reads,
// and its latency is the slowest of them.
import type { SelectStatement } from "../src/cql/ast.js";
import { formatFrequency } from "../src/analysis/estimator-text.js";
import { queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

/** Calls a second from which a bound IN list on the partition key is worth a warning, not a note. */
const BOUND_LIST_WARN_RATE = 100;

/** The partition key column a query restricts with a bound list (`k IN ?`), if any. */
function boundListColumn(query: { select?: SelectStatement }, partitionKey: readonly string[]): string | undefined {
  for (const relation of query.select?.where?.relations ?? []) {
    if (relation.kind === "column" && relation.operator === "IN" && !relation.values && partitionKey.includes(relation.column.name)) return relation.column.name;
  }
  return undefined;
}

const queryTooManyPartitions: RuleModule = {
  meta: {
    id: "query-too-many-partitions",
    category: "query",
    defaultSeverity: "warning",
    description: "The query reads more partitions than `limits.partitions_per_query` allows.",
    messages: {
      tooMany:
        "{query} reads {partitions} partitions of {table} (limit {limit}): each may sit on a different node, so the read costs {partitions} lookups and waits for the slowest. Shape a table whose partition holds the whole answer, or raise `limits.partitions_per_query` if the fan-out is intended.",
      boundList:
        "{query} reads one partition of {table} per key bound to `{column} IN ?`{rate}: the coordinator asks the replicas of every key, holds the whole answer, and waits for the slowest, so the cost and the latency grow with the list. Read each key with its own single-partition query, run asynchronously in parallel (token-aware, one slow partition does not hold up the others), or shape a table whose partition holds the whole answer.",
    },
    fixable: false,
  },
  check(context) {
    const limit = context.model.config.limits.partitionsPerQuery;
    for (const query of context.model.queries) {
      const { plan } = query;
      // Rejected queries are reported by their own rules; "all" is a scan, reported as one.
      if (plan.verdict !== "single-partition" && plan.verdict !== "multi-partition" && plan.verdict !== "index") continue;
      if (plan.verdict === "multi-partition" && plan.partitions === null && query.table) {
        const table = context.model.schema.tables.get(query.table);
        const column = table ? boundListColumn(query, table.partitionKey.map((c) => c.name)) : undefined;
        if (column) {
          const rate = query.ratePerSecond;
          context.report({
            messageId: "boundList",
            data: { query: query.id, table: tableLabel(context.model, query.table), column, rate: rate === undefined ? "" : `, ${formatFrequency(rate)}` },
            file: query.location.file,
            range: query.location.range,
            entity: queryEntity(query.id),
            // A short list read now and then costs little; a list read hundreds of times a second is the fan-out to fix.
            ...(rate !== undefined && rate >= BOUND_LIST_WARN_RATE ? {} : { severityCap: "info" as const }),
          });
        }
        continue;
      }
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
