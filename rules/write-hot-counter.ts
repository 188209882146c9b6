// Every counter update is a read before write on the replica that leads it, and updates of one
// counter wait for each other on its lock: a counter partition updated many times a second is a
// hot spot that an ordinary table of the same rate is not.
import * as z from "zod";
import { formatCount } from "../src/analysis/estimator-text.js";
import type { Assignment, ColumnRelation, Term, WhereClause } from "../src/cql/ast.js";
import { tableLabel, volumeOf, writeEntity, writeStatements } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

const optionsSchema = z
  .object({
    /** counter updates a second one partition may take before the rule warns */
    maxUpdatesPerSecondPerPartition: z.number().positive().default(100),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

/** `c = c + n`, `c = c - n`, `c += n`, `c -= n` on a counter column. */
function isCounterChange(table: TableModel, assignment: Assignment): boolean {
  const column = table.columns.find((c) => c.name === assignment.column.name);
  if (column?.type.kind !== "native" || column.type.name !== "counter") return false;
  if (assignment.operator === "+=" || assignment.operator === "-=") return true;
  return assignment.value.kind === "binary" && (assignment.value.operator === "+" || assignment.value.operator === "-");
}

const isLiteral = (term: Term | undefined) => term?.kind === "literal";

/**
 * Whether the WHERE clause names its partitions with literals only (`= 'global'`, `IN ('a', 'b')`):
 * every execution then updates the same partitions. Undefined when a partition key column is not
 * restricted at all (the statement is invalid; another rule says so).
 */
function literalPartitions(table: TableModel, where: WhereClause): boolean | undefined {
  for (const key of table.partitionKey) {
    const relation = where.relations.find((r): r is ColumnRelation => r.kind === "column" && r.column.name === key.name);
    if (!relation || (relation.operator !== "=" && relation.operator !== "IN")) return undefined;
    const literal = relation.values ? relation.values.length > 0 && relation.values.every(isLiteral) : isLiteral(relation.value);
    if (!literal) return false;
  }
  return true;
}

function perSecond(rate: number): string {
  return rate >= 10 ? formatCount(Math.round(rate)) : String(Math.round(rate * 100) / 100);
}

const writeHotCounter: RuleModule<Options> = {
  meta: {
    id: "write-hot-counter",
    category: "write",
    defaultSeverity: "warning",
    description: "A write path updates counters of one partition more often a second than a counter partition can take.",
    messages: {
      fixedKey:
        "{write} updates the counters {counters} of {table} at {rate}/s, always in the same partition (its partition key is a literal): all {rate} updates a second land on one replica set, over the {limit}/s a counter partition should take. Each counter update is a read before write on the replica that leads it, and updates of one counter wait for each other on its lock, so latency and timeouts climb with the rate. Split the counter into N rows (a `shard` clustering or key column chosen at random on write, the N rows summed on read), or aggregate in the application and flush one increment every few seconds.",
      spread:
        "{write} updates the counters {counters} of {table} at {rate}/s over the {partitions} partitions the manifest states for it: at least {perPartition} updates a second on the busiest partition (the average; any skew makes it worse), over the {limit}/s a counter partition should take. Each counter update is a read before write on the replica that leads it, and updates of one counter wait for each other on its lock, so latency and timeouts climb with the rate. Split the counter into N rows (a `shard` clustering or key column chosen at random on write, the N rows summed on read), or aggregate in the application and flush one increment every few seconds.",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    const counts = new Map<string, number>();
    for (const write of writeStatements(model)) {
      const path = write.write;
      const table = write.table;
      const statement = write.statement;
      if (!path || !table || statement.kind !== "update") continue;
      const rate = path.ratePerSecond;
      if (rate === undefined || !Number.isFinite(rate) || rate <= 0) continue;
      const counters = [...new Set(statement.assignments.filter((a) => isCounterChange(table, a)).map((a) => a.column.name))];
      if (counters.length === 0) continue;
      const literal = literalPartitions(table, statement.where);
      if (literal === undefined) continue;
      // With bound keys the figures only say how the rate spreads when the manifest states the
      // partitions; the even spread is the best case, so the average is a floor for the busiest one.
      const partitions = literal ? 1 : volumeOf(model, table)?.partitions;
      if (partitions === undefined || !Number.isFinite(partitions) || partitions < 1) continue;
      const perPartition = rate / partitions;
      if (perPartition < options.maxUpdatesPerSecondPerPartition) continue;
      const base = `${writeEntity(path.id)}:hot-counter:${table.qualifiedName}`;
      const n = (counts.get(base) ?? 0) + 1;
      counts.set(base, n);
      context.report({
        messageId: literal ? "fixedKey" : "spread",
        data: {
          write: path.id,
          counters: counters.map((c) => `\`${c}\``).join(", "),
          table: tableLabel(model, table.qualifiedName),
          rate: perSecond(rate),
          partitions: formatCount(partitions),
          perPartition: perSecond(perPartition),
          limit: formatCount(options.maxUpdatesPerSecondPerPartition),
        },
        file: write.file,
        range: statement.range,
        entity: n === 1 ? base : `${base}#${n}`,
      });
    }
  },
};

export default writeHotCounter;
