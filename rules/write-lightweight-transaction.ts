// A conditional write runs Paxos: prepare/promise, read, propose/accept, commit, four round trips
// between the coordinator and the replicas instead of one, and it contends with other LWTs on the partition.
import { formatFrequency } from "../src/analysis/estimator-text.js";
import { isLightweightTransaction, tableLabel, writeEntity, writeStatements, type ModificationStatement } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

function condition(statement: ModificationStatement): string {
  if (statement.kind === "insert") return "IF NOT EXISTS";
  if (statement.ifExists) return "IF EXISTS";
  return `IF ${statement.conditions.map((c) => c.column.name).join(", ")} …`;
}

const writeLightweightTransaction: RuleModule = {
  meta: {
    id: "write-lightweight-transaction",
    category: "write",
    defaultSeverity: "info",
    description: "A write is a lightweight transaction (IF NOT EXISTS, IF EXISTS, IF conditions), which costs four round trips.",
    messages: {
      lwt:
        "{owner} writes {table} with {condition}, a lightweight transaction: Paxos takes four round trips between the coordinator and the replicas (prepare, read, propose, commit) instead of one, runs at SERIAL consistency, and concurrent LWTs on the same partition contend and retry.{rate} Keep it where uniqueness or compare-and-set is required, and off the hot write paths.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const seen = new Map<string, number>();
    for (const write of writeStatements(model)) {
      if (!isLightweightTransaction(write.statement)) continue;
      const owner = write.write ? write.write.id : "The seed data";
      const entityBase = `${write.write ? writeEntity(write.write.id) : `file:${write.file}`}:lwt:${write.table?.qualifiedName ?? write.statement.table.name.name}`;
      const n = (seen.get(entityBase) ?? 0) + 1;
      seen.set(entityBase, n);
      const rate = write.write?.ratePerSecond;
      context.report({
        messageId: "lwt",
        data: {
          owner,
          table: write.table ? tableLabel(model, write.table.qualifiedName) : write.statement.table.name.name,
          condition: condition(write.statement),
          rate: rate !== undefined ? ` At ${formatFrequency(rate)} that is ${formatFrequency(rate * 4)} Paxos round trips.` : "",
        },
        file: write.file,
        range: write.statement.range,
        entity: n === 1 ? entityBase : `${entityBase}#${n}`,
      });
    }
  },
};

export default writeLightweightTransaction;
