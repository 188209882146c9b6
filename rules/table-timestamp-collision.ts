// A clustering key ending in a millisecond timestamp makes two writes of the same partition in the
// same millisecond the same row: Cassandra upserts, so one silently replaces the other.
import * as z from "zod";
import { formatCount, formatRate } from "../src/analysis/estimator-text.js";
import { createTableStatement, joinWords, rangeBetween, schemaFileOf, columnEntity, tableLabel, volumeOf, writePathsOf } from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleFix, RuleModule } from "../src/rule-engine/types.js";
import type { ColumnModel, TableModel } from "../src/schema/model.js";

const optionsSchema = z
  .object({
    /** per-partition write rate from which same-millisecond writes are expected often enough to matter */
    minWritesPerSecondPerPartition: z.number().positive().default(0.1),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

/** Rows a second each partition takes: the manifest's growth, else the write paths' rates over the partitions. */
function partitionWriteRate(model: AnalysedModel, table: TableModel): { rate: number; basis: string } | undefined {
  const volume = volumeOf(model, table);
  if (volume?.growthPerSecond !== undefined && volume.growthPerSecond > 0) {
    return { rate: volume.growthPerSecond, basis: `growth ${volume.growthText ?? ""}`.trim() };
  }
  const { writes, ratePerSecond } = writePathsOf(model, table);
  if (ratePerSecond !== undefined && volume?.partitions !== undefined && volume.partitions > 0) {
    return { rate: ratePerSecond / volume.partitions, basis: `${joinWords(writes.map((w) => w.id))} over ${volume.partitions} partitions` };
  }
  return undefined;
}

function toTimeuuidFix(model: AnalysedModel, table: TableModel, column: ColumnModel, existsAtBase: boolean): RuleFix | undefined {
  const statement = createTableStatement(table);
  const file = schemaFileOf(model, table.source.file);
  const definition = statement?.columns.find((c) => c.name.name === column.name);
  if (!definition || !file || definition.type.kind !== "native") return undefined;
  const { start, end } = definition.type.range;
  return {
    description:
      `Declare \`${column.name}\` as timeuuid: unique even within a millisecond, and still ordered by time. Writes then pass now() or a client-made time-based UUID, and time ranges read with minTimeuuid()/maxTimeuuid().` +
      (existsAtBase ? " The table already exists and a column's type cannot be changed: this means a new table and a copy." : ""),
    file: file.path,
    range: rangeBetween(file.text, start.offset, end.offset),
    replacement: "timeuuid",
  };
}

const tableTimestampCollision: RuleModule<Options> = {
  meta: {
    id: "table-timestamp-collision",
    category: "table",
    defaultSeverity: "warning",
    description: "The last clustering column is a timestamp, so two writes of a partition in the same millisecond overwrite each other.",
    messages: {
      frequent:
        "Rows of {table} are told apart by `{column}`, a millisecond timestamp, and its partitions take about {rate} ({basis}): about 1 write in {oneIn} shares its millisecond with another of the same partition, becomes the same row, and silently replaces it. Use a timeuuid (or add a unique column after `{column}`).",
      unknownRate:
        "Rows of {table} are told apart by `{column}`, a millisecond timestamp: two writers (app servers, devices, a retry) writing the same partition in the same millisecond produce one primary key, and Cassandra's upsert keeps only the last. Nothing in the manifest says how often a partition is written; use a timeuuid (or add a unique column after `{column}`), or state the partition's `growth` in the manifest.",
    },
    options: optionsSchema,
    fixable: true,
  },
  check(context) {
    const { model, options } = context;
    for (const table of model.schema.tables.values()) {
      // A view's rows are its base table's rows: a collision is fixed, and reported, on the base table.
      if (table.kind !== "table") continue;
      const last = table.clustering[table.clustering.length - 1];
      if (!last || last.type.kind !== "native" || last.type.name !== "timestamp") continue;
      // An earlier unique clustering column (a uuid) already tells rows of one millisecond apart.
      if (table.clustering.slice(0, -1).some((c) => c.type.kind === "native" && (c.type.name === "uuid" || c.type.name === "timeuuid"))) continue;
      // A partition the manifest says holds one row at most takes one write per key: no two rows to confuse.
      const rows = volumeOf(model, table)?.rowsPerPartition;
      if (rows !== undefined && rows.max <= 1) continue;
      const figures = partitionWriteRate(model, table);
      if (figures && figures.rate < options.minWritesPerSecondPerPartition) continue;
      const existsAtBase = context.base?.schema.tables.has(table.qualifiedName) ?? false;
      const fix = toTimeuuidFix(model, table, last, existsAtBase);
      const base = {
        file: last.source.file,
        range: last.source.range,
        entity: columnEntity(table.qualifiedName, last.name),
        ...(fix ? { fix } : {}),
      };
      const label = tableLabel(model, table.qualifiedName);
      if (!figures) {
        context.report({ ...base, messageId: "unknownRate", data: { table: label, column: last.name } });
        continue;
      }
      // Poisson arrivals: the chance another write of the partition falls in the same millisecond.
      const chance = 1 - Math.exp(-figures.rate / 1000);
      context.report({
        ...base,
        messageId: "frequent",
        data: {
          table: label,
          column: last.name,
          rate: formatRate(figures.rate),
          basis: figures.basis,
          oneIn: formatCount(Number((1 / chance).toPrecision(2))),
        },
      });
    }
  },
};

export default tableTimestampCollision;
