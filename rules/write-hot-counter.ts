// Every counter update is a read before write on the replica that leads it, and updates of one
// counter wait for each other on its lock: a counter partition updated many times a second is a
// hot spot that an ordinary table of the same rate is not.
import * as z from "zod";
import { formatCount } from "../src/analysis/estimator-text.js";
import type { Assignment, ColumnRelation, Term, WhereClause } from "../src/cql/ast.js";
import type { TableVolume } from "../src/manifest/types.js";
import { joinWords, tableLabel, volumeOf, writeEntity, writeStatements } from "../src/rule-engine/helpers.js";
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

/** CQL's functions of the current time (Apache Cassandra docs, CQL › Functions › Time conversion). */
const NOW_FUNCTIONS = new Set(["now", "currenttimestamp", "currentdate", "currenttime", "currenttimeuuid"]);

/** Whether a term is computed from the time of the write alone (`toDate(now())`): the same for every write of the moment. */
function isNowDerived(term: Term): boolean {
  if (term.kind !== "function") return false;
  if (NOW_FUNCTIONS.has(term.name.name.name.toLowerCase()) && term.args.length === 0) return true;
  return term.args.length > 0 && term.args.every((arg) => isNowDerived(arg) || arg.kind === "literal");
}

/**
 * How many partitions of its key a counter UPDATE spreads over at one moment, column by column: a
 * literal always names the same ones, each taking every update; the current time bucket (a value computed from now(), or the
 * column the manifest declares the table's `time_bucket`, which the writes fill with the time of
 * the write) one; a bound column of few values (a boolean, the manifest's `distinct_values`) at most
 * that many. `open` when a bound column's values are not known; undefined when a partition-key
 * column is not restricted by = or IN (the statement is invalid; another rule says so).
 */
interface Reach {
  /** partitions at most, over the columns whose values are known */
  partitions: number;
  /** some partition-key column is bound and its values are unknown */
  open: boolean;
  /** some column is the current time bucket */
  current: string[];
  /** columns bound to few values, with their counts */
  few: { column: string; values: number }[];
}

function reachOf(table: TableModel, where: WhereClause, volume: TableVolume | undefined): Reach | undefined {
  const reach: Reach = { partitions: 1, open: false, current: [], few: [] };
  for (const key of table.partitionKey) {
    const relation = where.relations.find((r): r is ColumnRelation => r.kind === "column" && r.column.name === key.name);
    if (!relation || (relation.operator !== "=" && relation.operator !== "IN")) return undefined;
    const terms = relation.values ?? (relation.value ? [relation.value] : []);
    // Literals name the same partitions on every call: each of them takes every update.
    if (terms.length > 0 && terms.every(isLiteral)) continue;
    if (terms.length > 0 && terms.every(isNowDerived)) {
      reach.current.push(key.name);
      continue;
    }
    if (volume?.timeBucket?.column === key.name && relation.operator === "=") {
      reach.current.push(key.name);
      continue;
    }
    const values = key.type.kind === "native" && key.type.name === "boolean" ? Math.min(2, volume?.distinctValues?.[key.name]?.count ?? 2) : volume?.distinctValues?.[key.name]?.count;
    if (values === undefined) {
      reach.open = true;
      continue;
    }
    reach.partitions *= values;
    reach.few.push({ column: key.name, values });
  }
  return reach;
}

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
      currentBucket:
        "{write} updates the counters {counters} of {table} at {rate}/s, always in the partition of the current time bucket ({bucket}): all {rate} updates a second land on one partition, on one replica set, over the {limit}/s a counter partition should take. Each counter update is a read before write on the replica that leads it, and updates of one counter wait for each other on its lock, so latency and timeouts climb with the rate. Split the counter into at least {shards} rows ({rate}/s ÷ {limit}/s: a `shard` key column chosen at random on write, the rows summed on read), or aggregate in the application and flush one increment every few seconds.",
      fewValues:
        "{write} updates the counters {counters} of {table} at {rate}/s, and its partition key takes at most {partitions} values at a time ({why}): at least {perPartition} updates a second on the busiest partition (the average; any skew makes it worse), over the {limit}/s a counter partition should take. Each counter update is a read before write on the replica that leads it, and updates of one counter wait for each other on its lock, so latency and timeouts climb with the rate. Split each counter into at least {shards} rows ({perPartition}/s ÷ {limit}/s: a `shard` key column chosen at random on write, the rows summed on read), or aggregate in the application and flush one increment every few seconds.",
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
      const volume = volumeOf(model, table);
      const reach = literal ? undefined : reachOf(table, statement.where, volume);
      // A key whose every column is fixed at the moment (literals, the current bucket) or of few
      // values bounds the partitions by itself; otherwise the figures only say how the rate spreads
      // when the manifest states the partitions. The even spread is the best case, so the average is
      // a floor for the busiest partition.
      const bounded = reach !== undefined && !reach.open;
      const partitions = literal ? 1 : bounded ? reach.partitions : volume?.partitions;
      if (partitions === undefined || !Number.isFinite(partitions) || partitions < 1) continue;
      const perPartition = rate / partitions;
      if (perPartition < options.maxUpdatesPerSecondPerPartition) continue;
      const messageId = literal ? "fixedKey" : !bounded ? "spread" : reach.few.length > 0 ? "fewValues" : "currentBucket";
      const why = bounded
        ? joinWords([
            ...reach.current.map((c) => `\`${c}\` is the current time bucket`),
            ...reach.few.map((f) => `\`${f.column}\` has ${formatCount(f.values)} values`),
          ])
        : "";
      const base = `${writeEntity(path.id)}:hot-counter:${table.qualifiedName}`;
      const n = (counts.get(base) ?? 0) + 1;
      counts.set(base, n);
      context.report({
        messageId,
        data: {
          write: path.id,
          counters: counters.map((c) => `\`${c}\``).join(", "),
          table: tableLabel(model, table.qualifiedName),
          rate: perSecond(rate),
          partitions: formatCount(partitions),
          perPartition: perSecond(perPartition),
          limit: formatCount(options.maxUpdatesPerSecondPerPartition),
          bucket: bounded ? joinWords(reach.current.map((c) => `\`${c}\``)) : "",
          why,
          shards: formatCount(Math.ceil(perPartition / options.maxUpdatesPerSecondPerPartition)),
        },
        file: write.file,
        range: statement.range,
        entity: n === 1 ? base : `${base}#${n}`,
      });
    }
  },
};

export default writeHotCounter;
