// A write that timed out may still have applied on some replica. Retrying is safe for upserts, not
// for counter increments or list appends: each retry adds again.
import { collectionOperations, isLightweightTransaction, numberedEntities, tableLabel, writeEntity, writeStatements } from "../src/rule-engine/helpers.js";
import type { Assignment } from "../src/cql/ast.js";
import type { RuleModule } from "../src/rule-engine/types.js";

function isCounterChange(assignment: Assignment): boolean {
  if (assignment.operator === "+=" || assignment.operator === "-=") return true;
  const value = assignment.value;
  return value.kind === "binary" && (value.operator === "+" || value.operator === "-");
}

const writeNonIdempotentRetried: RuleModule = {
  meta: {
    id: "write-non-idempotent-retried",
    category: "write",
    defaultSeverity: "warning",
    description: "A write path that the client retries makes a non-idempotent write (a counter update or a list append).",
    messages: {
      counter:
        "{write} changes the counter `{column}` of {table}, and the manifest says the client retries it on timeout (`retried: true`): a timed-out increment may already have applied on a replica, so each retry counts again. Mark the write path `retried: false` and accept an occasional lost count, or count idempotently (a row per event, counted on read or by a job).",
      listAppend:
        "{write} {verb} to the list `{column}` of {table}, and the manifest says the client retries it on timeout (`retried: true`): a timed-out append may already have applied, so a retry adds the element twice. Use a set (adding an element twice keeps one), a map keyed by a stable id, or mark the write path `retried: false`.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const entity = numberedEntities();
    for (const write of writeStatements(model)) {
      const path = write.write;
      const table = write.table;
      if (!path || !path.retried || !table) continue;
      // Under a condition (its own, or its batch's) a retry of an attempt that applied fails the
      // condition it changed, so the change cannot apply twice.
      if (isLightweightTransaction(write.statement) || write.batch?.statements.some(isLightweightTransaction)) continue;
      const label = tableLabel(model, table.qualifiedName);
      if (write.statement.kind === "update") {
        for (const assignment of write.statement.assignments) {
          const column = table.columns.find((c) => c.name === assignment.column.name);
          if (column?.type.kind !== "native" || column.type.name !== "counter" || !isCounterChange(assignment)) continue;
          context.report({
            messageId: "counter",
            data: { write: path.id, column: column.name, table: label },
            file: write.file,
            range: assignment.range,
            entity: entity(`${writeEntity(path.id)}:counter:${table.qualifiedName}.${column.name}`),
          });
        }
      }
      for (const operation of collectionOperations(write.statement, table)) {
        if (operation.kind !== "append" && operation.kind !== "prepend") continue;
        const column = table.columns.find((c) => c.name === operation.column);
        if (column?.type.kind !== "list") continue;
        context.report({
          messageId: "listAppend",
          data: { write: path.id, verb: operation.kind === "append" ? "appends" : "prepends", column: column.name, table: label },
          file: write.file,
          range: operation.range,
          entity: entity(`${writeEntity(path.id)}:list-append:${table.qualifiedName}.${column.name}`),
        });
      }
    }
  },
};

export default writeNonIdempotentRetried;
