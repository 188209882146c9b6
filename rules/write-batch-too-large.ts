// Cassandra measures every batch: past batch_size_warn_threshold (5 KiB) it logs a warning, past
// batch_size_fail_threshold (50 KiB) it rejects the batch. The coordinator holds all of it in memory.
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
