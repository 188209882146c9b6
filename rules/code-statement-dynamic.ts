// A driver call whose statement is computed at run time: cql-review cannot know the statement, so
// it says so instead of guessing. A fixed statement that another engine answers (DSE Search) is
// listed the same way, with that reason.
import type { RuleModule } from "../src/rule-engine/types.js";

const codeStatementDynamic: RuleModule = {
  meta: {
    id: "code-statement-dynamic",
    category: "query",
    defaultSeverity: "info",
    description: "The application builds a CQL statement at run time, so cql-review cannot review it.",
    messages: {
      dynamic:
        "{api} runs a statement starting `{start}` that is built at run time ({reason}), so it is not reviewed. If its shape is fixed, describe it in the manifest with its CQL, or build it from constants only.",
      answeredElsewhere: "{api} runs a statement starting `{start}` that is not reviewed: {reason}.",
    },
    fixable: false,
  },
  check(context) {
    for (const statement of context.model.code?.extraction.dynamic ?? []) {
      context.report({
        messageId: statement.answeredElsewhere ? "answeredElsewhere" : "dynamic",
        data: { api: statement.api, start: statement.start, reason: statement.reason, id: statement.id },
        file: statement.file,
        range: statement.range,
        entity: `code:${statement.id}`,
      });
    }
  },
};

export default codeStatementDynamic;
