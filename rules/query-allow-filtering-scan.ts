// ALLOW FILTERING written on a query that does not pin a partition turns it into a read of the
// whole table: every node reads every partition and drops what does not match.
import { queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const queryAllowFilteringScan: RuleModule = {
  meta: {
    id: "query-allow-filtering-scan",
    category: "query",
    defaultSeverity: "error",
    description: "The query says ALLOW FILTERING without restricting the partition key, so it scans the whole table.",
    messages: {
      scan: "{query} uses ALLOW FILTERING without pinning a partition of {table}: Cassandra reads every partition on every node and discards the rows that do not match. Serve it from a table partitioned by what the query filters on.",
      tokenRange: "{query} uses ALLOW FILTERING over a token range of {table}: every partition in the range is read and filtered. Fine for a batch job walking the ring, not for a request path.",
    },
    fixable: false,
  },
  check(context) {
    for (const query of context.model.queries) {
      const { plan } = query;
      if (plan.verdict !== "scan" || !plan.allowFilteringWritten) continue;
      context.report({
        messageId: plan.partitions === "all" ? "scan" : "tokenRange",
        data: { query: query.id, table: query.table ? tableLabel(context.model, query.table) : "its table", partitions: plan.partitions },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryAllowFilteringScan;
