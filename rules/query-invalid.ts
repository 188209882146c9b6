// A query Cassandra rejects fails on every call: the application cannot have meant it.
import { isPlannerFailure, queryEntity } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const queryInvalid: RuleModule = {
  meta: {
    id: "query-invalid",
    category: "query",
    defaultSeverity: "error",
    description: "Cassandra rejects the query as written, with or without ALLOW FILTERING.",
    messages: {
      rejected: "Cassandra rejects {query}: {gist}. {reason}",
      rejectedNoGist: "Cassandra rejects {query}: {reason}",
    },
    fixable: false,
  },
  check(context) {
    for (const query of context.model.queries) {
      // A plan the planner could not make is cql-review's failure, reported by internal-error.
      if (query.plan.verdict !== "invalid" || isPlannerFailure(query.plan)) continue;
      const gist = query.plan.errorGist?.trim().replace(/\.$/, "");
      context.report({
        messageId: gist ? "rejected" : "rejectedNoGist",
        data: { query: query.id, reason: query.plan.reason, gist: gist ?? null, version: context.model.version },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryInvalid;
