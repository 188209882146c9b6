// A part of cql-review failed on this input. The review goes on without it and says what is missing,
// rather than crashing or silently passing: the engine reports a rule that threw, and a stage of
// the analysis may report its own failure under this id.
import { reportInputFindings } from "../src/rule-engine/helpers.js";
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
    },
    fixable: false,
  },
  check(context) {
    reportInputFindings(context, internalError.meta.id);
  },
};

export default internalError;
