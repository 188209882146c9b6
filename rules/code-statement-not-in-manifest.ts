// A statement the application's code runs that the manifest does not describe: it is reviewed
// anyway (as an implicit entry), but without a rate, so the manifest has drifted from the code.
import type { Statement } from "../src/cql/ast.js";
import { parseCql } from "../src/cql/index.js";
import { readsUnknownTable, writeStatements } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

// TRUNCATE deletes a table's data: a write, never a schema change.
const DML = new Set<Statement["kind"]>(["select", "insert", "update", "delete", "batch", "truncate"]);

/** A manifest entry to paste, on one line (messages are shown as one paragraph): the id, the code reference and a rate to set. */
function pasteEntry(id: string, kind: "queries" | "writes", index: number): string {
  const short = `${kind === "queries" ? "Q" : "W"}-code-${index}`;
  return `${kind}: [{ id: ${short}, code: ${id}, rate: 1/s }]`;
}

const codeStatementNotInManifest: RuleModule = {
  meta: {
    id: "code-statement-not-in-manifest",
    category: "query",
    defaultSeverity: "info",
    description: "The application's code runs a CQL statement that the manifest does not describe.",
    messages: {
      query: "{api} runs this {verb} ({id}), which the manifest does not describe. It is reviewed as it stands, without a rate; to give it one, add to the manifest (with its real rate): {entry}",
      write: "{api} runs this {verb} ({id}), which the manifest does not describe. It is reviewed as it stands, without a rate; to give it one, add to the manifest (with its real rate): {entry}",
      unplanned:
        "{api} runs this {verb} ({id}), which the manifest does not describe. To give it a rate, add to the manifest (with its real rate): {entry}",
      truncate:
        "{api} runs this TRUNCATE ({id}), a write that deletes every row of the table on every node, which the manifest does not describe. To give it a rate, add to the manifest (with its real rate): {entry}",
      other: "{api} runs this {verb} from the application's code ({id}). Only queries and writes are planned; a schema change is reviewed from the .cql files only, so keep it there as well.",
    },
    fixable: false,
  },
  check(context) {
    const code = context.model.code;
    if (!code) return;
    let queries = 0;
    let writes = 0;
    // A statement no entry describes is reviewed as an implicit entry of its own id.
    const unplanned = new Set<string>();
    for (const query of context.model.queries) if (readsUnknownTable(query)) unplanned.add(query.id);
    for (const write of writeStatements(context.model)) if (write.write && !write.table) unplanned.add(write.write.id);
    for (const statement of code.extraction.statements) {
      if (code.described.has(statement.id)) continue;
      const parsed = parseCql(statement.cql).statements[0];
      const kind = parsed?.kind;
      const verb = statement.cql.trim().split(/\s+/, 1)[0]!.toUpperCase();
      const isDml = kind !== undefined && DML.has(kind);
      const messageId = !isDml ? "other" : kind === "select" ? "query" : "write";
      const entry = messageId === "query" ? pasteEntry(statement.id, "queries", ++queries) : messageId === "write" ? pasteEntry(statement.id, "writes", ++writes) : "";
      context.report({
        // On a table the schema lacks it is not planned (code-table-not-in-schema says so): claim no review.
        messageId: kind === "truncate" ? "truncate" : isDml && unplanned.has(statement.id) ? "unplanned" : messageId,
        data: { id: statement.id, api: statement.api, verb, entry },
        file: statement.file,
        range: statement.range,
        entity: `code:${statement.id}`,
      });
    }
  },
};

export default codeStatementNotInManifest;
