// Query-first modeling: every table exists to answer a query. A table no declared query reads is
// either a read missing from the manifest (then it is not reviewed) or writes paid for nothing.
import { isLightweightTransaction, resolveTable, tableEntity, tableLabel, tableLocation, writesOnTable, writeStatements } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const tableUnread: RuleModule = {
  meta: {
    id: "table-unread",
    category: "table",
    defaultSeverity: "warning",
    description: "No query of the manifest reads the table (checked only when the manifest declares queries).",
    messages: {
      unread:
        "No query of the manifest reads {table}{writtenBy}. Either a read is missing from the manifest (add it, so the review plans it), or the table is dead weight that every write still pays for (drop it and the writes that fill it).",
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
    for (const table of model.schema.tables.values()) {
      if (read.has(table.qualifiedName)) continue;
      const writers = [...new Set(writesOnTable(model, table).filter((w) => w.write).map((w) => w.write!.id))];
      context.report({
        messageId: "unread",
        data: {
          table: tableLabel(model, table.qualifiedName),
          writtenBy: writers.length > 0 ? `, yet ${writers.join(", ")} ${writers.length === 1 ? "writes" : "write"} it` : "",
        },
        ...tableLocation(table),
        entity: tableEntity(table.qualifiedName),
      });
    }
  },
};

export default tableUnread;
