// Wraps the stats reader's findings (src/stats/parse.ts and the review's table check): a saved
// nodetool output the review could not read, or read only in part, is said at its line.
import { reportInputFindings } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const statsInvalid: RuleModule = {
  meta: {
    id: "stats-invalid",
    category: "input",
    defaultSeverity: "warning",
    description: "A saved nodetool tablestats or tablehistograms output is cut off, garbled or of an unknown format, or measures a table the schema lacks.",
    // The reader writes the text; `input` names it for renderers and the rule tester.
    messages: { input: "{message}" },
    fixable: false,
  },
  check(context) {
    reportInputFindings(context, statsInvalid.meta.id);
  },
};

export default statsInvalid;
