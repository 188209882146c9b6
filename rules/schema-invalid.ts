// Wraps the input stage's `schema-invalid` findings, so config can change their severity like any rule.
import { reportInputFindings } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const schemaInvalid: RuleModule = {
  meta: {
    id: "schema-invalid",
    category: "input",
    defaultSeverity: "error",
    description: "The schema declares something Cassandra would reject (unknown type, bad primary key, duplicate, …).",
    // The input stage writes the text; `input` names it for renderers and the rule tester.
    messages: { input: "{message}" },
    fixable: false,
  },
  check(context) {
    reportInputFindings(context, schemaInvalid.meta.id);
  },
};

export default schemaInvalid;
