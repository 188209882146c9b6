// A part of cql-review failed on this input. The review goes on without it and says what is missing,
// rather than crashing or silently passing: the engine reports a rule that threw, this rule reports
// queries the planner could not plan, and a stage of the analysis may report its own failure here.
import { isPlannerFailure, queryEntity, reportInputFindings } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const internalError: RuleModule = {
  meta: {
    id: "internal-error",
    category: "input",
    defaultSeverity: "info",
    description: "A rule or an analysis stage of cql-review failed on this input; its findings are missing from the review.",
    messages: {
      input: "{message}",
      ruleFailed: "Rule {rule} failed on this model and was skipped, so its findings are missing from this review ({error}). Please report it with the schema and manifest that trigger it.",
      plannerFailed: "cql-review could not plan {query}: {reason} Its verdict and the query rules' findings on it are missing from this review. Please report it with the query and its table.",
    },
    fixable: false,
  },
  check(context) {
    reportInputFindings(context, internalError.meta.id);
    for (const query of context.model.queries) {
      if (!isPlannerFailure(query.plan)) continue;
      context.report({
        messageId: "plannerFailed",
        data: { query: query.id, reason: query.plan.reason },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default internalError;
