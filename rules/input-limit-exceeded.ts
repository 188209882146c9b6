// Wraps the input stage's `input-limit-exceeded` findings, so config can change their severity like any rule.
import { reportInputFindings } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const inputLimitExceeded: RuleModule = {
  meta: {
    id: "input-limit-exceeded",
    category: "input",
    defaultSeverity: "warning",
    description: "A file was too large, binary or truncated, or the review was past a limit or out of time; what is past the limit was not reviewed.",
    // The input stage writes the text; `input` names it for renderers and the rule tester.
    messages: { input: "{message}" },
    fixable: false,
  },
  check(context) {
    reportInputFindings(context, inputLimitExceeded.meta.id);
  },
};

export default inputLimitExceeded;
