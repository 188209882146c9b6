// An abstract access pattern should map to exactly one table. When several can serve
// it, the review has to guess which one the application reads, and the others may be dead weight.
import type { Candidate, QueryPlan } from "../src/analysis/types.js";
import { abstractQueryColumns, joinWords, manifestQuery, queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";

/** Plans that answer the query without filtering or scanning. */
function serves(candidate: Candidate): boolean {
  const { verdict } = candidate.plan;
  return verdict === "single-partition" || verdict === "multi-partition" || verdict === "index";
}

function partitionsRead(partitions: QueryPlan["partitions"]): string {
  if (partitions === "all") return "every partition";
  if (partitions === null) return "an unknown number of partitions";
  return `${partitions} partition${partitions === 1 ? "" : "s"}`;
}

/** Why the matcher ranked `chosen` above `next`, in the order it compares them (src/analysis/matcher.ts). */
function whyChosen(model: AnalysedModel, queryId: string, chosen: Candidate, next: Candidate): string {
  const [a, b] = [chosen.plan, next.plan];
  const other = tableLabel(model, next.table);
  if (a.verdict !== b.verdict) return `its verdict, ${a.verdict}, ranks above ${other}'s ${b.verdict}`;
  if (a.partitions !== b.partitions) return `it reads ${partitionsRead(a.partitions)}, ${other} ${partitionsRead(b.partitions)}`;
  if (a.direction !== b.direction && a.direction === "forward") return `it reads in its clustering order, ${other} backwards`;
  const query = manifestQuery(model, queryId);
  const wanted = query?.form === "abstract" ? abstractQueryColumns(query).length : 0;
  const extra = (c: Candidate) => (model.schema.tables.get(c.table)?.columns.length ?? wanted) - wanted;
  const [mine, theirs] = [extra(chosen), extra(next)];
  if (mine !== theirs) return `it holds fewer columns the query does not read (${mine === 0 ? "none" : mine}, ${other} ${theirs})`;
  return "the tables tie, and its name comes first";
}

const queryAmbiguousTable: RuleModule = {
  meta: {
    id: "query-ambiguous-table",
    category: "query",
    defaultSeverity: "info",
    description: "Several tables can serve the abstract access pattern; the review says which one it chose and why.",
    messages: {
      ambiguous:
        "{count} tables can serve {query}: {tables}. The review plans it on {chosen}: {because}. Write the query as `cql:` naming its table, so the model says which one the application reads.",
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
      const next = serving.find((c) => c !== chosen)!;
      context.report({
        messageId: "ambiguous",
        data: {
          query: query.id,
          count: serving.length,
          tables: joinWords(serving.map((c) => `${tableLabel(model, c.table)} (${c.plan.verdict})`)),
          chosen: tableLabel(model, chosen.table),
          because: whyChosen(model, query.id, chosen, next),
        },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryAmbiguousTable;
