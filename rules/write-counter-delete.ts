// A counter's deletion is a tombstone that outranks every later increment of that counter, whatever
// its timestamp, until compaction purges it: deleting a counter that is still counted loses counts.
import { joinWords, tableLabel, writeEntity, writeStatements, type WriteStatement } from "../src/rule-engine/helpers.js";
import type { Assignment } from "../src/cql/ast.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

function counterColumns(table: TableModel): Set<string> {
  return new Set(table.columns.filter((c) => c.type.kind === "native" && c.type.name === "counter").map((c) => c.name));
}

/** `c = c + n`, `c = c - n`, `c += n`, `c -= n`: what Cassandra accepts as a counter update. */
function isCounterChange(assignment: Assignment): boolean {
  if (assignment.operator === "+=" || assignment.operator === "-=") return true;
  const value = assignment.value;
  return value.kind === "binary" && (value.operator === "+" || value.operator === "-");
}

/** The counters a DELETE removes: every counter of the rows it names, or only the counter columns it selects. */
function deletedCounters(write: WriteStatement, counters: Set<string>): string[] {
  const statement = write.statement;
  if (statement.kind !== "delete") return [];
  if (statement.selections.length === 0) return [...counters];
  return [...new Set(statement.selections.map((s) => s.column.name).filter((name) => counters.has(name)))];
}

/** The counters an UPDATE increments or decrements. */
function countedCounters(write: WriteStatement, counters: Set<string>): string[] {
  const statement = write.statement;
  if (statement.kind !== "update") return [];
  return [...new Set(statement.assignments.filter((a) => counters.has(a.column.name) && isCounterChange(a)).map((a) => a.column.name))];
}

const quoted = (names: readonly string[]) => joinWords(names.map((n) => `\`${n}\``));

const writeCounterDelete: RuleModule = {
  meta: {
    id: "write-counter-delete",
    category: "write",
    defaultSeverity: "warning",
    description: "A write deletes counters that a write path goes on incrementing, and Cassandra cannot count a deleted counter again.",
    messages: {
      deleteThenCount:
        "{write} deletes {deleted} of the counter table {table}, while {counting} {verb} {counters} there: a deleted counter cannot reliably be counted again. Its tombstone outranks every later increment of that counter whatever its timestamp, so the counter reads as deleted and those increments are lost until compaction purges the tombstone, no sooner than gc_grace_seconds (10 days by default). To reset a count, count under a new key instead (a period or generation in the primary key, so old counters are left behind or dropped with their partition), keep the count as rows (one per event, counted on read or by a job), or accept that increments after a delete may be lost.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const byTable = new Map<TableModel, WriteStatement[]>();
    for (const write of writeStatements(model)) {
      if (!write.table || (write.statement.kind !== "delete" && write.statement.kind !== "update")) continue;
      const list = byTable.get(write.table);
      if (list) list.push(write);
      else byTable.set(write.table, [write]);
    }
    const counts = new Map<string, number>();
    for (const [table, writes] of byTable) {
      const counters = counterColumns(table);
      if (counters.size === 0) continue;
      const counting = writes.map((write) => ({ write, counted: countedCounters(write, counters) })).filter((c) => c.counted.length > 0);
      if (counting.length === 0) continue;
      for (const deleting of writes) {
        const deleted = deletedCounters(deleting, counters);
        if (deleted.length === 0) continue;
        const recounted = counting.flatMap((c) => c.counted.filter((name) => deleted.includes(name)).map((name) => ({ write: c.write, name })));
        if (recounted.length === 0) continue;
        const owners = [...new Set(recounted.map(({ write }) => ownerOf(write, deleting)))];
        const ownerEntity = deleting.write ? writeEntity(deleting.write.id) : `file:${deleting.file}`;
        const base = `${ownerEntity}:counter-delete:${table.qualifiedName}`;
        const n = (counts.get(base) ?? 0) + 1;
        counts.set(base, n);
        const statement = deleting.statement;
        const whole = statement.kind === "delete" && statement.selections.length === 0;
        context.report({
          messageId: "deleteThenCount",
          data: {
            write: deleting.write ? deleting.write.id : `Seed data in ${deleting.file}`,
            deleted: whole ? "whole rows" : `the counter${deleted.length === 1 ? "" : "s"} ${quoted(deleted)}`,
            table: tableLabel(model, table.qualifiedName),
            counting: joinWords(owners),
            verb: owners.length === 1 ? "counts" : "count",
            counters: quoted([...new Set(recounted.map(({ name }) => name))]),
          },
          file: deleting.file,
          range: statement.range,
          entity: n === 1 ? base : `${base}#${n}`,
        });
      }
    }
  },
};

/** How the message names a write that counts: its write path, `W1 itself` when it is the deleting path, or the seed data's file. */
function ownerOf(write: WriteStatement, deleting: WriteStatement): string {
  if (!write.write) return `seed data in ${write.file}`;
  return deleting.write && write.write.id === deleting.write.id ? `${write.write.id} itself` : write.write.id;
}

export default writeCounterDelete;
