// An INSERT in Cassandra is an upsert: it never fails because the row exists, it overwrites it
// (last write wins by timestamp). Checking that a key is free with a read and then inserting it
// plainly is a race: two clients both read "absent" and both write, and the first claim is lost
// with no error. Only INSERT … IF NOT EXISTS (a Paxos round) decides between them.
// Evidence, strongest first: the read of the row and the plain INSERT run in one function of the
// application's code; or the table is a lookup keyed by nothing but a natural value that points at
// one row of another table the same write path creates (a second owner of the value overwrites the
// first's entry): weaker, so it is reported at info.
import type { SelectStatement } from "../src/cql/ast.js";
import type { QueryAnalysis } from "../src/analysis/types.js";
import { operations } from "../src/rule-engine/flows.js";
import {
  isLightweightTransaction,
  joinWords,
  primaryKeyNames,
  queriesOnTable,
  sameColumnType,
  tableLabel,
  writeEntity,
  writesOnTable,
  type WriteStatement,
} from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { ColumnType, TableModel } from "../src/schema/model.js";

/** Types of values people choose and must not share (a name, an e-mail, a number): never generated like a uuid or a timestamp. */
const NATURAL_VALUE_TYPES = new Set(["text", "varchar", "ascii", "blob", "int", "bigint", "varint", "smallint", "inet"]);

function isNaturalValue(type: ColumnType): boolean {
  return type.kind === "native" && NATURAL_VALUE_TYPES.has(type.name);
}

/** The columns a SELECT restricts with `=`. */
function equalityColumns(select: SelectStatement | undefined): Set<string> {
  const columns = new Set<string>();
  for (const relation of select?.where?.relations ?? []) if (relation.kind === "column" && relation.operator === "=" && !relation.key && !relation.field) columns.add(relation.column.name);
  return columns;
}

/** Whether a query reads one row of the table by its whole primary key: the existence check of a key. */
function readsRowByKey(query: QueryAnalysis, table: TableModel): boolean {
  const restricted = equalityColumns(query.select);
  return primaryKeyNames(table).every((c) => restricted.has(c));
}

/** A plain INSERT: no IF NOT EXISTS, not inside a conditional batch (which is one Paxos transaction). */
function isPlainInsert(write: WriteStatement): boolean {
  if (write.statement.kind !== "insert" || write.statement.ifNotExists) return false;
  return !(write.batch?.statements.some(isLightweightTransaction) ?? false);
}

const writeUniquenessRace: RuleModule = {
  meta: {
    id: "write-uniqueness-race",
    category: "write",
    defaultSeverity: "warning",
    description: "A key is checked by a read and then claimed by a plain INSERT (no IF NOT EXISTS), so concurrent clients both win and one claim is silently lost.",
    messages: {
      readThenInsert:
        "{operation} reads {table} by its primary key ({query}) and then writes the same key with a plain INSERT ({write}). An INSERT never fails on an existing row, it overwrites it (last write wins), so two clients that run {operation} at once both read no row, both insert, and the first claim of {key} is lost with no error. Drop the read and claim the key with `INSERT … IF NOT EXISTS`, then check `[applied]` (a read at QUORUM does not close the race).",
      lookup:
        "{table} is keyed by {key} alone and holds one {target} of {owner}, which {writes} {verb} with a plain INSERT beside {owner}. Cassandra's INSERT overwrites an existing row, so a second {owner} with the same {key} replaces the first's entry with no error. If {key} must be unique, claim it with `INSERT … IF NOT EXISTS` and check `[applied]` before writing {owner}; if it need not be, add {target} to the primary key as a clustering column so each owner keeps its entry.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const reported = new Set<WriteStatement>();
    for (const operation of operations(model)) {
      if (operation.kind !== "code") continue;
      for (const write of operation.writes) {
        const table = write.table;
        if (!table || table.kind !== "table" || reported.has(write) || !isPlainInsert(write)) continue;
        // A table written with conditions elsewhere is write-mixed-lwt's.
        if (writesOnTable(model, table).some((w) => isLightweightTransaction(w.statement))) continue;
        const read = operation.queries.find((q) => q.table === table.qualifiedName && readsRowByKey(q, table));
        if (!read) continue;
        reported.add(write);
        context.report({
          messageId: "readThenInsert",
          data: {
            operation: operation.name,
            table: tableLabel(model, table.qualifiedName),
            query: read.id,
            write: write.write!.id,
            key: joinWords(primaryKeyNames(table).map((c) => `\`${c}\``)),
          },
          file: write.file,
          range: write.statement.range,
          entity: `${writeEntity(write.write!.id)}:uniqueness:${table.qualifiedName}`,
        });
      }
    }
    reportLookups(context, model, reported);
  },
};

/**
 * A lookup table whose whole primary key is one natural value and whose one other column is the key
 * of another table that the same write path creates, which holds the value too: `usernames
 * (username PRIMARY KEY, user_id)` written with `users (user_id PRIMARY KEY, username)`. Reported at info: the value may be unique by construction elsewhere.
 */
function reportLookups(context: Parameters<RuleModule["check"]>[0], model: AnalysedModel, reported: Set<WriteStatement>): void {
  for (const table of model.schema.tables.values()) {
    if (table.kind !== "table" || table.clustering.length > 0 || !table.partitionKey.every((c) => isNaturalValue(c.type))) continue;
    const regular = table.columns.filter((c) => c.kind === "regular" || c.kind === "static");
    if (regular.length === 0) continue;
    const writes = writesOnTable(model, table);
    if (writes.some((w) => isLightweightTransaction(w.statement))) continue;
    const inserts = writes.filter((w) => w.write && isPlainInsert(w) && !reported.has(w));
    if (inserts.length === 0) continue;
    // Only a lookup the application reads by its key: otherwise nothing looks the value up.
    if (!queriesOnTable(model, table.qualifiedName).some((q) => readsRowByKey(q, table))) continue;
    for (const insert of inserts) {
      const owner = ownerTable(model, table, regular.map((c) => c.name), insert);
      if (!owner) continue;
      const paths = [...new Set(inserts.map((w) => w.write!.id))];
      context.report({
        messageId: "lookup",
        data: {
          table: tableLabel(model, table.qualifiedName),
          key: joinWords(table.partitionKey.map((c) => `\`${c.name}\``)),
          target: `\`${owner.column}\``,
          owner: tableLabel(model, owner.table.qualifiedName),
          writes: joinWords(paths),
          verb: paths.length === 1 ? "writes" : "write",
        },
        file: insert.file,
        range: insert.statement.range,
        entity: `${writeEntity(insert.write!.id)}:uniqueness:${table.qualifiedName}`,
        severityCap: "info",
      });
      break;
    }
  }
}

/**
 * The table a lookup points into: another table that the insert's own write path INSERTs, whose
 * whole partition key is one column the lookup holds (same name and type), and which holds the
 * lookup's key as one of its own columns.
 */
function ownerTable(model: AnalysedModel, lookup: TableModel, columns: string[], insert: WriteStatement): { table: TableModel; column: string } | undefined {
  for (const other of operationWrites(model, insert)) {
    const table = other.table;
    if (!table || table === lookup || other.statement.kind !== "insert" || table.partitionKey.length !== 1) continue;
    const key = table.partitionKey[0]!;
    const mine = lookup.columns.find((c) => c.name === key.name);
    if (!mine || !columns.includes(key.name) || !sameColumnType(mine, key)) continue;
    // The lookup indexes an attribute of its owner (users.username): a value someone chose, not a
    // random code issued for the row (a verification code is unique by chance, not by claim).
    const indexed = lookup.partitionKey.every((k) => table.columns.some((c) => c.name === k.name && c.kind !== "partition" && sameColumnType(c, k)));
    if (!indexed) continue;
    return { table, column: key.name };
  }
  return undefined;
}


/** The other writes of the write path (or code function) an insert belongs to. */
function operationWrites(model: AnalysedModel, insert: WriteStatement): WriteStatement[] {
  return operations(model).find((o) => o.writes.includes(insert))?.writes ?? [];
}

export default writeUniquenessRace;
