// A statement of the application's code uses a table that no schema file of the review defines.
// The review cannot plan it, and it cannot say Cassandra rejects it either: the table may well be
// created elsewhere (by the application at start-up, by another repository's migrations), so the
// finding says what was not reviewed and how to make it reviewable, and never fails the gate.
import type { QualifiedName } from "../src/cql/ast.js";
import { editDistance } from "../src/manifest/did-you-mean.js";
import { manifestQuery, readsUnknownTable, writeStatements } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { SourceLocation } from "../src/findings.js";

interface Use {
  entry: string;
  location: SourceLocation;
}

/** The schema's table of the same keyspace whose name is one or two edits away, if exactly one is. */
/**
 * Schema names looked at in one review for near names: thousands of unknown tables against
 * thousands of schema tables would otherwise cost millions of comparisons. Past it, no near name
 * is offered (the message without one is still true).
 */
const NEAR_NAME_BUDGET = 100_000;

function nearName(tables: Iterable<string>, keyspace: string | undefined, name: string, budget: { left: number }): string | undefined {
  const near: string[] = [];
  for (const qualified of tables) {
    if (--budget.left < 0) return undefined;
    const dot = qualified.indexOf(".");
    const [tableKeyspace, tableName] = [qualified.slice(0, dot), qualified.slice(dot + 1)];
    if (keyspace !== undefined && tableKeyspace !== keyspace) continue;
    // Names longer than Cassandra's 48 characters are not tables; the bound keeps the comparison cheap.
    if (Math.abs(tableName.length - name.length) > 2 || name.length > 48) continue;
    if (editDistance(tableName.toLowerCase(), name.toLowerCase()) <= 2) near.push(qualified);
    if (near.length > 1) return undefined;
  }
  return near[0];
}

function compareLocations(a: SourceLocation, b: SourceLocation): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column;
}

const codeTableNotInSchema: RuleModule = {
  meta: {
    id: "code-table-not-in-schema",
    category: "query",
    defaultSeverity: "info",
    description: "A statement of the application's code uses a table no schema file of the review defines, so it is not reviewed.",
    messages: {
      noSchema:
        "{entry} uses {table}, and this review read no CREATE TABLE for it ({count} of the code's statements use it), so they are not planned or checked. Add the schema files where the table is created to the review (the `schema` globs of .github/cql-review.yml), or write its CREATE TABLE in a .cql file.",
      near: "{entry} uses {table}, which no schema file of the review defines ({count} of the code's statements use it), so they are not planned or checked. The schema has {near}: if that is the table meant, Cassandra rejects the statement as written; if {table} is created elsewhere, add its CREATE TABLE to the schema files the review reads.",
      missing:
        "{entry} uses {table}, which no schema file of the review defines ({count} of the code's statements use it), so they are not planned or checked. If it is created elsewhere (by the application at start-up, or by another repository's migrations), add its CREATE TABLE to the schema files the review reads.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const code = model.code;
    const manifest = model.manifest;
    if (!code || !manifest) return;
    const codeFiles = new Set(code.extraction.files.map((file) => file.path));
    const uses = new Map<string, { written: string; keyspace: string | undefined; name: string; list: Use[] }>();
    const note = (table: QualifiedName, keyspace: string | undefined, entry: string, location: SourceLocation) => {
      const tableKeyspace = table.keyspace?.name ?? keyspace ?? manifest.keyspace;
      const written = tableKeyspace ? `${tableKeyspace}.${table.name.name}` : table.name.name;
      const key = written.toLowerCase();
      let use = uses.get(key);
      if (!use) uses.set(key, (use = { written, keyspace: tableKeyspace, name: table.name.name, list: [] }));
      use.list.push({ entry, location });
    };
    // Only entries whose text is the code's (their location is a code file): a table a manifest
    // author wrote is held against the schema by query-invalid and the write rules. The tables
    // are the ones the planner and the write rules could not find.
    for (const query of model.queries) {
      if (!query.select || !readsUnknownTable(query) || !codeFiles.has(query.location.file)) continue;
      note(query.select.table, manifestQuery(model, query.id)?.keyspace, query.id, query.location);
    }
    for (const write of writeStatements(model)) {
      if (!write.write || write.table || !codeFiles.has(write.file)) continue;
      note(write.statement.table, write.write.keyspace, write.write.id, { file: write.file, range: write.statement.range });
    }
    const hasSchema = model.schema.tables.size > 0;
    const budget = { left: NEAR_NAME_BUDGET };
    for (const [key, use] of uses) {
      // Placed at the first use in the code, wherever the entry kinds were listed.
      const first = use.list.reduce((a, b) => (compareLocations(b.location, a.location) < 0 ? b : a));
      const near = hasSchema ? nearName(model.schema.tables.keys(), use.keyspace, use.name, budget) : undefined;
      context.report({
        messageId: !hasSchema ? "noSchema" : near ? "near" : "missing",
        data: { entry: first.entry, table: use.written, count: use.list.length, near: near ?? null },
        file: first.location.file,
        range: first.location.range,
        entity: `table:${key}:not-in-schema`,
      });
    }
  },
};

export default codeTableNotInSchema;
