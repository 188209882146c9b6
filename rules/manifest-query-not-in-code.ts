// A manifest entry that the application's code no longer runs: its `code:` reference names no
// statement, or (when code was read) no statement of the code has its CQL.
import type { RuleModule } from "../src/rule-engine/types.js";

const manifestQueryNotInCode: RuleModule = {
  meta: {
    id: "manifest-query-not-in-code",
    category: "query",
    defaultSeverity: "info",
    description: "A manifest entry describes a statement that the application's code does not run.",
    messages: {
      unresolved: "{entry} refers to {ref}, but the code read has no statement there (renamed, moved or deleted?); the entry is reviewed without the code's CQL.",
      notInCode: "No statement of the application's code has the CQL of {entry}: if the code no longer runs it, remove the entry; if it does, point the entry at it with `code:`.",
    },
    fixable: false,
  },
  check(context) {
    const code = context.model.code;
    if (!code) return;
    for (const entry of code.unresolved) {
      context.report({ messageId: "unresolved", data: { entry: entry.entry, ref: entry.ref }, file: entry.location.file, range: entry.location.range, entity: `entry:${entry.entry}` });
    }
    for (const entry of code.notInCode) {
      context.report({ messageId: "notInCode", data: { entry: entry.entry }, file: entry.location.file, range: entry.location.range, entity: `entry:${entry.entry}` });
    }
  },
};

export default manifestQueryNotInCode;
