// Cassandra refuses a query that would have to read and discard rows it cannot locate by key;
// ALLOW FILTERING only makes it accept the cost. Either way the model does not serve the read.
import { queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { QueryPlan } from "../src/analysis/types.js";
import type { RuleModule } from "../src/rule-engine/types.js";

/** What the query would read once ALLOW FILTERING is added (StatementRestrictions in apache/cassandra). */
function scopeWithFiltering(partitions: QueryPlan["partitions"]): string {
  if (partitions === "all") return "read every partition of the table and discard the rows that do not match";
  if (partitions === 1) return "read the whole partition and discard the rows that do not match";
  if (typeof partitions === "number") return `read ${partitions} whole partitions and discard the rows that do not match`;
  return "read a range of partitions and discard the rows that do not match";
}

/** Cassandra's filtering message goes on to explain ALLOW FILTERING; the message says that itself. */
function firstSentence(text: string): string {
  const trimmed = text.trim();
  const end = trimmed.search(/\.(\s|$)/);
  return end === -1 ? trimmed : trimmed.slice(0, end);
}

const queryNeedsAllowFiltering: RuleModule = {
  meta: {
    id: "query-needs-allow-filtering",
    category: "query",
    defaultSeverity: "error",
    description: "Cassandra rejects the query unless ALLOW FILTERING is added, which would make it read rows only to throw them away.",
    messages: {
      needsFiltering:
        "Cassandra rejects {query} on {table} as written ({gist}). Adding ALLOW FILTERING would make it {scope}: serve it from a table whose primary key matches its WHERE clause instead.",
    },
    fixable: false,
  },
  check(context) {
    for (const query of context.model.queries) {
      const { plan } = query;
      if (plan.verdict !== "needs-allow-filtering") continue;
      context.report({
        messageId: "needsFiltering",
        data: {
          query: query.id,
          table: query.table ? tableLabel(context.model, query.table) : "its table",
          gist: firstSentence(plan.errorGist ?? plan.reason),
          scope: scopeWithFiltering(plan.partitions),
          partitions: plan.partitions,
        },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryNeedsAllowFiltering;
