// A TTL belongs to the cells a write writes, not to the row. An INSERT also writes the row's
// primary-key liveness (the "row marker", UpdateStatement.addUpdateForKey in apache/cassandra, only
// for INSERT since CASSANDRA-6782); an UPDATE does not. So when the UPDATEs of a table carry a TTL
// and an INSERT of the same rows does not, the INSERT's marker and cells never expire: once the
// UPDATE's cells are gone, the row is still there, returned with nulls, for ever.
import type { Term } from "../src/cql/ast.js";
import { joinWords, primaryKeyNames, rowKeyColumns, tableLabel, writeEntity, writesOnTable, writtenColumns, type WriteStatement } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

/** The TTL a write gives its cells: its own `USING TTL`, else its batch's; a literal 0 is no TTL. */
function ttlOf(write: WriteStatement): Term | undefined {
  const ttl = write.statement.using?.ttl ?? write.batch?.using?.ttl;
  if (!ttl || (ttl.kind === "literal" && Number(ttl.value) === 0)) return undefined;
  return ttl;
}

/** Whether a write names whole rows of the table (every primary key column), as an INSERT does. */
function writesRows(write: WriteStatement, table: TableModel): boolean {
  const key = rowKeyColumns(write.statement, table);
  return primaryKeyNames(table).every((c) => key.includes(c));
}

const writeTtlRowMarker: RuleModule = {
  meta: {
    id: "write-ttl-row-marker",
    category: "write",
    defaultSeverity: "warning",
    description: "Some writes of a table set a TTL but an INSERT of the same rows does not, so the row marker and the INSERT's cells never expire.",
    messages: {
      insertWithoutTtl:
        "{insert} creates rows of {table} with no TTL, while {ttlWrites} {verb} them with one ({ttl}). A TTL applies only to the cells a write writes: the INSERT's {what} never {expire}, so when the TTL'd cells are gone the row stays, returned with nulls, and the table keeps every row ever created. Give the INSERT the same TTL (`USING TTL …`), or set `default_time_to_live` on the table.",
      columnWithoutTtl:
        "{write} sets {columns} of {table} with no TTL, while {ttlWrites} {verb} {them} with one ({ttl}): the value this write leaves never expires, and it keeps the row alive after the other cells are gone. Give this write the same TTL, or set `default_time_to_live` on the table.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const table of model.schema.tables.values()) {
      if (table.kind !== "table" || table.defaultTtlSeconds > 0) continue;
      const writes = writesOnTable(model, table).filter((w) => w.write && w.statement.kind !== "delete");
      const expiring = writes.filter((w) => ttlOf(w) && writesRows(w, table));
      if (expiring.length === 0) continue;
      const ttlText = [...new Set(expiring.map((w) => `USING TTL ${termText(ttlOf(w)!)}`))].join(", ");
      const expiringColumns = new Map<string, string[]>();
      for (const w of expiring) for (const c of writtenColumns(w.statement)) expiringColumns.set(c, [...new Set([...(expiringColumns.get(c) ?? []), w.write!.id])]);
      // A table whose INSERTs come with and without a TTL holds rows of both lifetimes by design
      // (sticky and expiring task lists): its TTL'd rows may be the ones a TTL'd INSERT created.
      const inserts = writes.filter((w) => w.statement.kind === "insert");
      const expiringInsert = inserts.some((w) => ttlOf(w));
      const plainInsert = inserts.some((w) => !ttlOf(w));
      for (const write of writes) {
        // `USING TTL 0` says the write is meant to last.
        if (ttlOf(write) || write.statement.using?.ttl || write.batch?.using?.ttl) continue;
        const statement = write.statement;
        // INSERT JSON names no columns; its marker is written all the same.
        const persistent = writtenColumns(statement).filter((c) => expiringColumns.has(c));
        if (statement.kind === "insert") {
          // Two INSERTs, one with a TTL and one without, may well write different rows on purpose;
          // an UPDATE with a TTL of the rows an INSERT creates is the mistake.
          const others = [...new Set(expiring.filter((w) => w.statement.kind === "update").map((w) => w.write!.id))];
          if (others.length === 0 || expiringInsert) continue;
          const cells = writtenColumns(statement).filter((c) => !primaryKeyNames(table).includes(c));
          context.report({
            messageId: "insertWithoutTtl",
            data: {
              insert: write.write!.id,
              table: tableLabel(model, table.qualifiedName),
              ttlWrites: joinWords(others),
              verb: others.length === 1 ? "writes" : "write",
              ttl: ttlText,
              what: cells.length > 0 ? `row marker and its ${joinWords(cells.map((c) => `\`${c}\``))} cells` : "row marker",
              expire: cells.length > 0 ? "expire" : "expires",
            },
            file: write.file,
            range: statement.range,
            entity: `${writeEntity(write.write!.id)}:ttl-marker:${table.qualifiedName}`,
          });
        } else if (persistent.length > 0 && !plainInsert && writesRows(write, table) && !hasTwinWithTtl(write, expiring)) {
          const sharing = [...new Set(persistent.flatMap((c) => expiringColumns.get(c)!))].filter((id) => id !== write.write!.id);
          if (sharing.length === 0) continue;
          // A column deliberately kept (a status) is a choice: said at info, never a gate failure.
          context.report({
            messageId: "columnWithoutTtl",
            data: {
              write: write.write!.id,
              columns: joinWords(persistent.map((c) => `\`${c}\``)),
              table: tableLabel(model, table.qualifiedName),
              ttlWrites: joinWords(sharing),
              verb: sharing.length === 1 ? "writes" : "write",
              them: persistent.length === 1 ? "it" : "them",
              ttl: ttlText,
            },
            file: write.file,
            range: statement.range,
            entity: `${writeEntity(write.write!.id)}:ttl-column:${table.qualifiedName}`,
            severityCap: "info",
          });
        }
      }
    }
  },
};

/**
 * Whether a TTL'd write sets exactly the columns this one sets: the same write offered with and
 * without a TTL (a DAO's `save(entity)` and `save(entity, ttl)`), a lifetime chosen per row, not a
 * TTL forgotten on one column.
 */
function hasTwinWithTtl(write: WriteStatement, expiring: WriteStatement[]): boolean {
  const columns = new Set(writtenColumns(write.statement));
  return expiring.some((w) => {
    const other = writtenColumns(w.statement);
    return other.length === columns.size && other.every((c) => columns.has(c));
  });
}

/** A TTL as written: the number, `?` or `:name`. */
function termText(term: Term): string {
  if (term.kind === "literal") return term.value;
  if (term.kind === "bind") return term.name ? `:${term.name}` : "?";
  return "…";
}

export default writeTtlRowMarker;
