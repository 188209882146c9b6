// A logged batch over several partitions goes through the batchlog: the coordinator first writes
// the whole batch to two other nodes, then applies it, then deletes the batchlog entry.
import type { Term } from "../src/cql/ast.js";
import { joinWords, tableLabel, writeBatches, writeEntity, type WriteStatement } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

/** How a term names a value: equal literals and equal named markers name the same value; positional markers are unknown, so alike. */
function termKey(term: Term | undefined): string {
  if (!term) return "?";
  if (term.kind === "literal") return `${term.type}:${term.value}`;
  if (term.kind === "bind") return term.name !== undefined ? `:${term.name}` : "?";
  return "?";
}

/** The partitions one statement writes, as keys: several for `pk IN (…)`. */
function partitionKeys(write: WriteStatement): string[] {
  const table = write.table;
  if (!table) return [];
  const statement = write.statement;
  let keys = [""];
  for (const column of table.partitionKey) {
    let values: string[] = ["?"];
    if (statement.kind === "insert") {
      const i = statement.columns.findIndex((c) => c.name === column.name);
      values = [termKey(statement.values[i])];
    } else {
      const relation = statement.where.relations.find((r) => r.kind === "column" && r.column.name === column.name && !r.key);
      if (relation && relation.kind === "column") {
        values = relation.operator === "IN" && relation.values ? [...new Set(relation.values.map(termKey))] : [termKey(relation.value)];
      }
    }
    keys = keys.flatMap((k) => values.map((v) => `${k}|${v}`));
  }
  return keys.map((k) => `${table.qualifiedName}${k}`);
}

const writeLoggedBatchMultiPartition: RuleModule = {
  meta: {
    id: "write-logged-batch-multi-partition",
    category: "write",
    defaultSeverity: "info",
    description: "A logged batch writes several partitions, so every run goes through the batchlog.",
    messages: {
      acrossPartitions:
        "{owner}'s logged batch writes {partitions} partitions ({tables}): Cassandra first stores the whole batch in the batchlog on two other nodes, then applies it, then deletes the entry, about twice the writes of the statements alone, and the coordinator holds the batch until every partition answers. That buys atomicity (all or none, eventually), not isolation or speed: keep it for copies that must not diverge{sameTable}.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const batch of writeBatches(model)) {
      if (batch.batch.batchType !== "logged") continue;
      const keys = new Set(batch.statements.flatMap(partitionKeys));
      if (keys.size < 2) continue;
      const tables = [...new Set(batch.statements.flatMap((s) => (s.table ? [s.table.qualifiedName] : [])))];
      const perTable = new Map<string, number>();
      for (const key of keys) {
        const table = key.slice(0, key.indexOf("|"));
        perTable.set(table, (perTable.get(table) ?? 0) + 1);
      }
      const bulk = [...perTable].filter(([, n]) => n > 1).map(([t]) => tableLabel(model, t));
      const owner = batch.write ? batch.write.id : "The seed data";
      context.report({
        messageId: "acrossPartitions",
        data: {
          owner,
          partitions: keys.size,
          tables: joinWords(tables.map((t) => tableLabel(model, t))),
          sameTable:
            bulk.length > 0
              ? `; several partitions of ${joinWords(bulk)} in one batch is bulk loading, which is faster and lighter as separate asynchronous writes (or an UNLOGGED batch per partition)`
              : "; otherwise issue the writes separately and asynchronously",
        },
        file: batch.file,
        range: batch.batch.range,
        entity: `${batch.write ? writeEntity(batch.write.id) : `file:${batch.file}`}:batch:${batch.index}`,
      });
    }
  },
};

export default writeLoggedBatchMultiPartition;
