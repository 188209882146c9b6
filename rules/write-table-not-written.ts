// Denormalised tables are filled by the application's write paths, never by Cassandra: a table the
// queries read and no write path writes answers every query with nothing.
import { joinWords, resolveTable, tableEntity, tableLabel, tableLocation, writeStatements } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const writeTableNotWritten: RuleModule = {
  meta: {
    id: "write-table-not-written",
    category: "write",
    defaultSeverity: "warning",
    description: "Queries read the table but no write path of the manifest writes it (checked only when the manifest declares writes).",
    messages: {
      notWritten:
        "{queries} {verb} {table}, but no write path of the manifest writes it: a denormalised table is only as complete as the writes that fill it. Add its INSERT to the write path that creates the data (the same path as the tables it copies), or declare the write path that fills it.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const manifest = model.manifest;
    if (!manifest || manifest.writes.length === 0) return;
    const written = new Set(writeStatements(model).flatMap((w) => (w.table && w.statement.kind !== "delete" ? [w.table.qualifiedName] : [])));
    const readers = new Map<string, string[]>();
    // Only tables no write path writes are reported: the readers of the others are not listed.
    const addReader = (table: string, id: string) => {
      if (written.has(table)) return;
      const list = readers.get(table);
      if (!list) readers.set(table, [id]);
      else if (!list.includes(id)) list.push(id);
    };
    for (const query of model.queries) if (query.table) addReader(query.table, query.id);
    for (const query of manifest.queries) {
      if (query.form !== "cql" || !query.statement) continue;
      const table = resolveTable(model, query.statement.table, query.keyspace);
      if (table) addReader(table.qualifiedName, query.id);
    }
    for (const [name, queries] of readers) {
      const table = model.schema.tables.get(name);
      // Cassandra maintains views; written tables are what this rule is about.
      if (!table || table.kind === "view") continue;
      context.report({
        messageId: "notWritten",
        data: { queries: joinWords(queries), verb: queries.length === 1 ? "reads" : "read", table: tableLabel(model, name) },
        ...tableLocation(table),
        entity: tableEntity(name),
      });
    }
  },
};

export default writeTableNotWritten;
