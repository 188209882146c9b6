// A query Cassandra rejects fails on every call: the application cannot have meant it.
import { reasonWithoutRuleCodes } from "../src/analysis/planner.js";
import { isPlannerFailure, manifestQuery, queryEntity, readsUnknownTable } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const queryInvalid: RuleModule = {
  meta: {
    id: "query-invalid",
    category: "query",
    defaultSeverity: "error",
    description: "Cassandra rejects the query as written, with or without ALLOW FILTERING.",
    messages: {
      rejected: "Cassandra rejects {query}{always}: {gist} ({explanation}).",
      rejectedNoGist: "Cassandra rejects {query}{always}: {explanation}.",
    },
    fixable: false,
  },
  check(context) {
    const codeFiles = new Set(context.model.code?.extraction.files.map((file) => file.path));
    for (const query of context.model.queries) {
      // A plan the planner could not make is cql-review's failure, reported by internal-error.
      if (query.plan.verdict !== "invalid" || isPlannerFailure(query.plan)) continue;
      // A query that does not parse is cql-syntax-error's, at the place it breaks: one finding.
      const written = manifestQuery(context.model, query.id);
      if (written?.form === "cql" && !written.statement) continue;
      // A table missing from the schema is evidence against the manifest's author, not against
      // code: the application may create the table elsewhere (code-table-not-in-schema says so).
      if (readsUnknownTable(query) && codeFiles.has(query.location.file)) continue;
      const gist = query.plan.errorGist?.trim().replace(/\.$/, "");
      // The planner's reason ends by saying Cassandra rejects the query; the message opens with it.
      const reason = reasonWithoutRuleCodes(query.plan.reason);
      const tail = /; Cassandra rejects the query( even with ALLOW FILTERING)?$/.exec(reason);
      context.report({
        messageId: gist ? "rejected" : "rejectedNoGist",
        data: {
          query: query.id,
          reason: query.plan.reason,
          explanation: tail ? reason.slice(0, tail.index) : reason,
          always: tail?.[1] ? " even with ALLOW FILTERING" : "",
          gist: gist ?? null,
          version: context.model.version,
        },
        file: query.location.file,
        // An unknown table is pointed at where its name stands in the `cql:` value.
        range: query.table === null && query.select ? query.select.table.range : query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryInvalid;
