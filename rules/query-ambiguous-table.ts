// An abstract access pattern should map to exactly one table (DESIGN §3). When several can serve
// it, the review has to guess which one the application reads, and the others may be dead weight.
import type { Candidate } from "../src/analysis/types.js";
import { joinWords, queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

/** Plans that answer the query without filtering or scanning. */
function serves(candidate: Candidate): boolean {
  const { verdict } = candidate.plan;
  return verdict === "single-partition" || verdict === "multi-partition" || verdict === "index";
}

const queryAmbiguousTable: RuleModule = {
  meta: {
    id: "query-ambiguous-table",
    category: "query",
    defaultSeverity: "info",
    description: "Several tables can serve the abstract access pattern; the review says which one it chose and why.",
    messages: {
      ambiguous:
        "{count} tables can serve {query}: {tables}. The review plans it on {chosen} ({because}). Write the query as `cql:` naming its table, so the model says which one the application reads.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const query of model.queries) {
      if (query.form !== "abstract") continue;
      const serving = query.candidates.filter(serves);
      if (serving.length < 2) continue;
      const chosen = serving.find((c) => c.table === query.table) ?? serving[0]!;
      context.report({
        messageId: "ambiguous",
        data: {
          query: query.id,
          count: serving.length,
          tables: joinWords(serving.map((c) => `${tableLabel(model, c.table)} (${c.plan.verdict})`)),
          chosen: tableLabel(model, chosen.table),
          because: chosen.because.trim().replace(/\.$/, ""),
        },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryAmbiguousTable;
