// Wraps the input stage's `manifest-invalid` findings, so config can change their severity like any rule.
import { reportInputFindings } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const manifestInvalid: RuleModule = {
  meta: {
    id: "manifest-invalid",
    category: "input",
    defaultSeverity: "error",
    description: "The access-patterns manifest is not valid YAML, breaks its schema, or names tables and columns the schema does not have.",
    // The input stage writes the text; `input` names it for renderers and the rule tester.
    messages: { input: "{message}" },
    fixable: false,
  },
  check(context) {
    reportInputFindings(context, manifestInvalid.meta.id);
  },
};

export default manifestInvalid;
