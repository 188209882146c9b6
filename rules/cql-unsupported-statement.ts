// Wraps the input stage's `cql-unsupported-statement` findings, so config can change their severity like any rule.
import { reportInputFindings } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const cqlUnsupportedStatement: RuleModule = {
  meta: {
    id: "cql-unsupported-statement",
    category: "input",
    defaultSeverity: "info",
    description: "A statement cql-review does not analyse (a cqlsh command or a vendor extension) was skipped.",
    // The input stage writes the text; `input` names it for renderers and the rule tester.
    messages: { input: "{message}" },
    fixable: false,
  },
  check(context) {
    reportInputFindings(context, cqlUnsupportedStatement.meta.id);
  },
};

export default cqlUnsupportedStatement;
