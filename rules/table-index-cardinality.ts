// A legacy secondary index is a hidden table on each node, keyed by the indexed value. A value that
// is nearly unique makes every lookup ask every node for one row; a value with few possibilities
// makes a few enormous index partitions that every write to the table updates. A storage-attached
// index has no such partitions, but a lookup of one of few values still matches a large share of
// the table, which every replica set reads its part of.
import * as z from "zod";
import { formatCount } from "../src/analysis/estimator-text.js";
import { enumDistinctValues } from "../src/code/enums.js";
import { joinWords, queriesOnTable, tableLabel, volumeOf } from "../src/rule-engine/helpers.js";
import { indexLookupAdvice } from "../src/rule-engine/index-advice.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const optionsSchema = z
  .object({
    /** most distinct values a column may have to count as low-cardinality: each value then stands for at least 1/n of the table */
    maxLowCardinalityValues: z.number().int().positive().default(100),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

const UNIQUE_ISH = new Set(["uuid", "timeuuid", "timestamp"]);

const tableIndexCardinality: RuleModule<Options> = {
  meta: {
    id: "table-index-cardinality",
    category: "table",
    defaultSeverity: "warning",
    description:
      "A secondary index is on a column of very high cardinality (uuid, timeuuid, timestamp; legacy indexes) or of few distinct values (a boolean, the manifest's distinct_values, or an enum an entity of the code maps the column from; legacy and SAI indexes).",
    messages: {
      highCardinality:
        "Index {index} on `{column}` ({type}) of {table}: almost every value is unique, so a legacy index holds one index row per table row on each node, and a lookup without the partition key asks every node to find one row{readers}. {advice}",
      lowCardinality:
        "Index {index} on `{column}` ({cardinality}) of {table}: with {distinct} values, each value stands for {share} of the table{figure}, so each node's index is {distinct} huge partitions that every write to the table updates, and a query by value reads that whole share through them{readers}. Keep the rows of each value in a table of their own, or make `{column}` a clustering column under the partition key.",
      lowCardinalitySai:
        "SAI index {index} on `{column}` ({cardinality}) of {table}: with {distinct} values, each value stands for {share} of the table{figure}, so a query by value without the partition key reads the index and then that share of the rows on every replica set of the ring{readers}. Bind the partition key in the queries (SAI then searches that partition only), or keep the rows of each value in a table of their own.",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    for (const table of model.schema.tables.values()) {
      for (const index of table.indexes) {
        if ((index.implementation !== "legacy" && index.implementation !== "sai") || index.target !== "simple") continue;
        const column = table.columns.find((c) => c.name === index.column);
        if (!column || column.type.kind !== "native") continue;
        const through = queriesOnTable(model, table.qualifiedName).filter((q) => q.plan.index === index.name);
        const readers = through.length > 0 ? ` (${joinWords(through.map((q) => q.id))} ${through.length === 1 ? "reads" : "read"} through it)` : "";
        const base = {
          file: index.source.file,
          range: index.source.range,
          entity: `index:${index.keyspace}.${index.name}`,
        };
        const data = { index: index.name, column: column.name, table: tableLabel(model, table.qualifiedName), type: column.type.name, readers };
        const volume = volumeOf(model, table);
        // The manifest's figure, else the constants of the enum an entity of the code maps the column from.
        const stated = volume?.distinctValues?.[column.name] ?? (model.code ? enumDistinctValues(model.code.extraction.tables, table, column.name) : undefined);
        const declared = stated?.count;
        const distinct = column.type.name === "boolean" ? Math.min(2, declared ?? 2) : declared;
        if (distinct !== undefined && distinct <= options.maxLowCardinalityValues) {
          const rows = volume?.partitions !== undefined && volume.rowsPerPartition ? volume.partitions * volume.rowsPerPartition.avg : undefined;
          const perValue = rows === undefined ? undefined : rows / distinct;
          // A table whose rows of one value fit in one partition under the limit loses little to the index.
          if (perValue !== undefined && perValue <= model.config.limits.rowsPerPartition) continue;
          // SAI reads only the partition a query binds: with every reader binding it, the share is never scanned.
          if (index.implementation === "sai" && through.length > 0 && through.every((q) => q.plan.partitions === 1)) continue;
          const lowData = {
            ...data,
            distinct: formatCount(distinct),
            cardinality: declared === undefined ? column.type.name : stated?.source ? `${column.type.name}, ${stated.source}` : `${column.type.name}, ${formatCount(declared)} distinct values in the manifest`,
            share: distinct === 1 ? "all" : `1/${formatCount(distinct)}`,
            figure:
              perValue === undefined
                ? ""
                : ` (${formatCount(rows!)} rows / ${formatCount(distinct)} values = ${formatCount(Math.round(perValue))} rows per value, over the ${formatCount(model.config.limits.rowsPerPartition)} rows a partition should hold)`,
          };
          context.report({ ...base, messageId: index.implementation === "sai" ? "lowCardinalitySai" : "lowCardinality", data: lowData });
          continue;
        }
        if (index.implementation !== "legacy") continue;
        // With the partition key bound, the index is read on one replica set only: the cost stays small.
        if (UNIQUE_ISH.has(column.type.name) && !(through.length > 0 && through.every((q) => q.plan.partitions === 1))) {
          // With a manifest, an index that no query reads without its partition key earns nothing.
          const fanningOut = through.filter((q) => q.plan.partitions === "all");
          const advice =
            model.manifest && fanningOut.length === 0
              ? "No query of the manifest reads through it without the partition key: drop the index; a query that binds the partition key can filter that partition's rows instead (`ALLOW FILTERING` with the partition key bound reads that partition only)."
              : indexLookupAdvice(table, column.name, fanningOut);
          context.report({ ...base, messageId: "highCardinality", data: { ...data, advice } });
        }
      }
    }
  },
};

export default tableIndexCardinality;
