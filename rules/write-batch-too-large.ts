// Cassandra measures every batch: past batch_size_warn_threshold (5 KiB) it logs a warning, past
// batch_size_fail_threshold (50 KiB) it rejects the batch. The coordinator holds all of it in memory.
// A batch of one mutation (one keyspace, one partition key) is exempt from both (CASSANDRA-10876).
import * as z from "zod";
import { formatBytes } from "../src/analysis/estimator-text.js";
import { sizeValue } from "../src/analysis/type-sizes.js";
import type { Term } from "../src/cql/ast.js";
import { joinWords, tableLabel, volumeOf, writeBatches, writeEntity, type WriteStatement } from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { ColumnModel, TableModel } from "../src/schema/model.js";

const optionsSchema = z
  .object({
    /** cassandra.yaml `batch_size_warn_threshold`, in KiB */
    warnKiB: z.number().positive().default(5),
    /** cassandra.yaml `batch_size_fail_threshold`, in KiB */
    failKiB: z.number().positive().default(50),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

const utf8 = new TextEncoder();

/** Bytes of a value written to a column: a literal's own size, else the manifest's (or the type's default) size. */
function valueBytes(model: AnalysedModel, table: TableModel, column: ColumnModel, term: Term | undefined): number {
  if (term?.kind === "literal") {
    if (term.type === "string") return utf8.encode(term.value).length;
    if (term.type === "blob") return Math.max(0, (term.value.length - 2) / 2);
    if (term.type === "null") return 0;
  }
  return sizeValue(column.type, volumeOf(model, table)?.columns[column.name]).classicBytes;
}

/** The bytes one statement adds to its mutation: the partition and clustering key, and the values it writes. */
function statementBytes(model: AnalysedModel, write: WriteStatement): number {
  const table = write.table;
  if (!table) return 0;
  const statement = write.statement;
  const column = (name: string) => table.columns.find((c) => c.name === name);
  let bytes = 0;
  if (statement.kind === "insert") {
    statement.columns.forEach((id, i) => {
      const c = column(id.name);
      if (c) bytes += valueBytes(model, table, c, statement.values[i]);
    });
    return bytes;
  }
  for (const relation of statement.where.relations) {
    if (relation.kind !== "column") continue;
    const c = column(relation.column.name);
    if (c) bytes += valueBytes(model, table, c, relation.value);
  }
  if (statement.kind === "update") {
    for (const assignment of statement.assignments) {
      const c = column(assignment.column.name);
      if (c) bytes += valueBytes(model, table, c, assignment.value.kind === "binary" ? undefined : assignment.value);
    }
  }
  return bytes;
}

function kib(value: number): string {
  return `${Number.isInteger(value) ? value : value.toFixed(1)} KiB`;
}

/** How a term names a partition-key value: a literal or a named marker, or undefined when it cannot be told. */
function knownValue(term: Term | undefined): string | undefined {
  if (term?.kind === "literal") return `${term.type}:${term.value}`;
  if (term?.kind === "bind" && term.name !== undefined) return `:${term.name}`;
  return undefined;
}

/** The partition key a statement writes, as its values in key order; undefined when any is unknown or an IN list. */
function partitionKeyValues(write: WriteStatement): string | undefined {
  const table = write.table;
  if (!table) return undefined;
  const statement = write.statement;
  const values: string[] = [];
  for (const column of table.partitionKey) {
    let term: Term | undefined;
    if (statement.kind === "insert") {
      const at = statement.columns.findIndex((c) => c.name === column.name);
      term = at < 0 ? undefined : statement.values[at];
    } else {
      const relation = statement.where.relations.find((r) => r.kind === "column" && r.column.name === column.name && !r.key);
      if (relation?.kind === "column" && relation.operator === "=") term = relation.value;
    }
    const value = knownValue(term);
    if (value === undefined) return undefined;
    values.push(value);
  }
  return `${table.keyspace}|${values.join("|")}`;
}

/**
 * Whether every statement of a batch provably writes one partition: one keyspace and the same
 * partition-key values (equal literals or named markers). Cassandra groups a batch into one
 * mutation per keyspace and partition key and skips the size check for a single mutation
 * (BatchStatement.verifyBatchSize). Positional markers cannot be told apart, so they prove nothing.
 */
function singlePartition(statements: readonly WriteStatement[]): boolean {
  const keys = statements.map(partitionKeyValues);
  return keys.length > 0 && keys.every((k) => k !== undefined && k === keys[0]);
}

const writeBatchTooLarge: RuleModule<Options> = {
  meta: {
    id: "write-batch-too-large",
    category: "write",
    defaultSeverity: "warning",
    description: "A batch is estimated over Cassandra's batch size warning (5 KiB) or failure (50 KiB) threshold.",
    messages: {
      overWarn:
        "{owner}'s batch is about {bytes} ({statements} statements on {tables}), over batch_size_warn_threshold ({threshold}): Cassandra logs a warning for every such batch, and the coordinator holds it whole while it waits for each partition. Split it, or write the statements separately and asynchronously.",
      overFail:
        "{owner}'s batch is about {bytes} ({statements} statements on {tables}), over batch_size_fail_threshold ({threshold}): Cassandra rejects it with \"Batch too large\". Split it, or write the statements separately and asynchronously.",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    for (const batch of writeBatches(model)) {
      if (singlePartition(batch.statements)) continue;
      const bytes = batch.statements.reduce((sum, s) => sum + statementBytes(model, s), 0);
      const over = bytes > options.failKiB * 1024 ? "overFail" : bytes > options.warnKiB * 1024 ? "overWarn" : undefined;
      if (!over) continue;
      const tables = [...new Set(batch.statements.flatMap((s) => (s.table ? [tableLabel(model, s.table.qualifiedName)] : [])))];
      context.report({
        messageId: over,
        data: {
          owner: batch.write ? batch.write.id : "The seed data",
          bytes: formatBytes(bytes),
          statements: batch.statements.length,
          tables: joinWords(tables),
          threshold: kib(over === "overFail" ? options.failKiB : options.warnKiB),
          estimatedBytes: Math.round(bytes),
        },
        file: batch.file,
        range: batch.batch.range,
        entity: `${batch.write ? writeEntity(batch.write.id) : `file:${batch.file}`}:batch:${batch.index}:size`,
      });
    }
  },
};

export default writeBatchTooLarge;
