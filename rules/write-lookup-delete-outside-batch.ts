// A lookup table keyed by a value of another table (users_by_email for users.email) moves its
// entry when the value changes: INSERT the new key, DELETE the old one, and change the base row.
// Run as separate statements, or in an UNLOGGED batch, the three can half-apply when the client or
// the coordinator fails between them: the old entry stays and still points at the row (two keys
// find it), or the new one is missing. A LOGGED batch goes through the batchlog, which replays it
// until every statement is applied.
import { joinWords, sameColumnType, tableLabel, writeEntity, type WriteStatement } from "../src/rule-engine/helpers.js";
import { operations, type Operation } from "../src/rule-engine/flows.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

/** Whether two tables share a column of the same name and type: the lookup's pointer, or the value it is keyed by. */
function related(lookup: TableModel, base: TableModel): string | undefined {
  const key = new Set(lookup.partitionKey.map((c) => c.name));
  // The base holds the lookup's key value (users.email for users_by_email), and the lookup holds the base's key.
  const holdsValue = base.columns.find((c) => key.has(c.name) && c.kind !== "partition" && sameColumnType(c, lookup.columns.find((l) => l.name === c.name)!));
  const pointsAt = base.partitionKey.every((c) => lookup.columns.some((l) => l.name === c.name && l.kind !== "partition" && sameColumnType(l, c)));
  return holdsValue && pointsAt ? holdsValue.name : undefined;
}


/** Whether every statement given runs in one LOGGED batch. */
function inOneLoggedBatch(statements: WriteStatement[]): boolean {
  const batch = statements[0]?.batch;
  return batch !== undefined && batch.batchType === "logged" && statements.every((s) => s.batch === batch);
}

/** Where the DELETE runs, in words, against the write of the new entry. */
function placement(remove: WriteStatement, others: WriteStatement[]): string {
  if (remove.batch?.batchType === "unlogged") return "in an UNLOGGED batch, which Cassandra does not make atomic across partitions";
  if (remove.batch) return "in a batch without the other writes";
  if (others.some((o) => o.batch?.batchType === "logged")) return "outside the logged batch that writes the new entry";
  return "as a statement of its own";
}

const writeLookupDeleteOutsideBatch: RuleModule = {
  meta: {
    id: "write-lookup-delete-outside-batch",
    category: "write",
    defaultSeverity: "warning",
    description: "A write path moves a lookup table's entry (INSERT the new key, DELETE the old) outside one logged batch with the base table's write, so the change can half-apply.",
    messages: {
      split:
        "{operation} moves the entry of {lookup} (INSERT of the new {value}, DELETE of the old) and writes {base}, but the DELETE runs {where}. If the client or the coordinator fails between the statements, the old entry stays and the old {value} still finds the {base} row, or the new entry is missing. Put the INSERT, the DELETE and the write of {base} in one logged batch (`BEGIN BATCH … APPLY BATCH`): the batchlog replays it until every statement is applied.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const operation of operations(model)) reportOperation(context, operation);
  },
};

function reportOperation(context: Parameters<RuleModule["check"]>[0], operation: Operation): void {
  const { model } = context;
  // A statement the code runs only inside a batch is there as that batch's member too: judge the batch.
  const writes = operation.writes.filter((w) => !w.write?.insideBatch);
  for (const remove of writes) {
    const lookup = remove.table;
    // A whole-row delete of the old key: deleting a column is not moving the entry.
    if (!lookup || lookup.kind !== "table" || remove.statement.kind !== "delete" || remove.statement.selections.length > 0) continue;
    const insert = writes.find((w) => w.table === lookup && w !== remove && (w.statement.kind === "insert" || w.statement.kind === "update"));
    if (!insert) continue;
    const bases = writes.filter((w) => w.table && w.table !== lookup && w.statement.kind !== "delete" && related(lookup, w.table));
    if (bases.length === 0) continue;
    if (inOneLoggedBatch([remove, insert, ...bases])) continue;
    const baseTables = [...new Set(bases.map((b) => b.table!))];
    context.report({
      messageId: "split",
      data: {
        operation: operation.name,
        lookup: tableLabel(model, lookup.qualifiedName),
        value: `\`${related(lookup, baseTables[0]!)!}\``,
        base: joinWords(baseTables.map((t) => tableLabel(model, t.qualifiedName))),
        where: placement(remove, [insert, ...bases]),
      },
      file: remove.file,
      range: remove.statement.range,
      entity: `${remove.write ? writeEntity(remove.write.id) : `file:${remove.file}`}:lookup-delete:${lookup.qualifiedName}`,
    });
  }
}

export default writeLookupDeleteOutsideBatch;
