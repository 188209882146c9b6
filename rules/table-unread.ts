// Query-first modeling: every table exists to answer a query. A table no declared query reads is
// either a read missing from the manifest (then it is not reviewed) or writes paid for nothing.
import { isLightweightTransaction, resolveTable, tableEntity, tableLabel, tableLocation, writesOnTable, writeStatements } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import { findTable } from "../src/schema/resolve.js";

const tableUnread: RuleModule = {
  meta: {
    id: "table-unread",
    category: "table",
    defaultSeverity: "warning",
    description: "No query of the manifest reads the table (checked only when the manifest declares queries).",
    messages: {
      unread:
        "No query of the manifest reads {table}{writtenBy}. Either a read is missing from the manifest (add it, so the review plans it), or the table is dead weight that every write still pays for (drop it and the writes that fill it).",
      unreadRepository:
        "No query of the manifest and no statement of the code reads {table}{writtenBy}, but Spring Data entity {entity} maps it, and the built-in methods of its repositories (findById, findAll, existsById) run CQL that is not read from code. If the application reads it that way, add the read to the manifest so the review plans it; if nothing does, the table is dead weight that every write still pays for.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const manifest = model.manifest;
    if (!manifest || manifest.queries.length === 0) return;
    const read = new Set<string>();
    for (const query of model.queries) if (query.table) read.add(query.table);
    // A query the planner rejected still names the table it means to read.
    for (const query of manifest.queries) {
      if (query.form !== "cql" || !query.statement) continue;
      const table = resolveTable(model, query.statement.table, query.keyspace);
      if (table) read.add(table.qualifiedName);
    }
    const writes = writeStatements(model);
    // A conditional write reads the row it checks (Paxos reads before it proposes).
    for (const write of writes) if (write.table && isLightweightTransaction(write.statement)) read.add(write.table.qualifiedName);
    // Spring Data repositories read their entity's table through built-in methods no code spells
    // out: for such a table, the absence of a read is weak evidence.
    const springEntities = new Map<string, string>();
    for (const entity of model.code?.extraction.tables ?? []) {
      if (entity.framework !== "spring-data") continue;
      const table = findTable(model.schema, entity.name, entity.keyspace);
      if (table) springEntities.set(table.qualifiedName, entity.entity);
    }
    for (const table of model.schema.tables.values()) {
      if (read.has(table.qualifiedName)) continue;
      const writers = [...new Set(writesOnTable(model, table).filter((w) => w.write).map((w) => w.write!.id))];
      const entity = springEntities.get(table.qualifiedName);
      context.report({
        messageId: entity ? "unreadRepository" : "unread",
        data: {
          table: tableLabel(model, table.qualifiedName),
          writtenBy: writers.length > 0 ? `, yet ${writers.join(", ")} ${writers.length === 1 ? "writes" : "write"} it` : "",
          ...(entity ? { entity } : {}),
        },
        ...(entity ? { severityCap: "info" as const } : {}),
        ...tableLocation(table),
        entity: tableEntity(table.qualifiedName),
      });
    }
  },
};

export default tableUnread;
