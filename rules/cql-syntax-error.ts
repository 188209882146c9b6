// Wraps the input stage's `cql-syntax-error` findings, so config can change their severity like any rule.
import { reportInputFindings } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const cqlSyntaxError: RuleModule = {
  meta: {
    id: "cql-syntax-error",
    category: "input",
    defaultSeverity: "error",
    description: "A schema file does not parse as CQL; the statements the error breaks are not reviewed.",
    // The input stage writes the text; `input` names it for renderers and the rule tester.
    messages: { input: "{message}" },
    fixable: false,
  },
  check(context) {
    reportInputFindings(context, cqlSyntaxError.meta.id);
  },
};

export default cqlSyntaxError;
