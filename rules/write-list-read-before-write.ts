// Setting a list element by index, or removing elements by index or value, makes the replica read
// the whole list before it writes: the write is no longer blind, and concurrent ones race.
import { collectionOperations, tableLabel, writeEntity, writeStatements, type CollectionOperationKind } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const READING: Partial<Record<CollectionOperationKind, string>> = {
  "set-element": "sets an element by index (`l[i] = v`)",
  "remove-element": "deletes an element by index (`DELETE l[i]`)",
  remove: "removes elements by value (`l = l - [v]`)",
};

const writeListReadBeforeWrite: RuleModule = {
  meta: {
    id: "write-list-read-before-write",
    category: "write",
    defaultSeverity: "warning",
    description: "A write sets or removes list elements by index or value, which makes Cassandra read the list before writing.",
    messages: {
      readBeforeWrite:
        "{owner} {operation} on `{column}` of {table}: Cassandra reads the whole list on the replica before it can write, so this write costs a read, and two such writes at once can hit the wrong element (indexes shift when another write removes one). Cassandra 4.1+ can refuse it (guardrail `read_before_write_list_operations_enabled`). Use a set when order does not matter, a map keyed by a stable id, or rows of a table clustered by position.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const counts = new Map<string, number>();
    for (const write of writeStatements(model)) {
      const table = write.table;
      if (!table) continue;
      for (const operation of collectionOperations(write.statement, table)) {
        const column = table.columns.find((c) => c.name === operation.column);
        const described = READING[operation.kind];
        if (column?.type.kind !== "list" || !described) continue;
        const base = `${write.write ? writeEntity(write.write.id) : `file:${write.file}`}:list:${table.qualifiedName}.${column.name}:${operation.kind}`;
        const n = (counts.get(base) ?? 0) + 1;
        counts.set(base, n);
        context.report({
          messageId: "readBeforeWrite",
          data: { owner: write.write ? write.write.id : "Seed data", operation: described, column: column.name, table: tableLabel(model, table.qualifiedName) },
          file: write.file,
          range: operation.range,
          entity: n === 1 ? base : `${base}#${n}`,
        });
      }
    }
  },
};

export default writeListReadBeforeWrite;
