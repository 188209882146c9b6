// A legacy secondary index is a hidden table on each node, keyed by the indexed value. A value that
// is nearly unique makes every lookup ask every node for one row; a value with two possibilities
// makes two enormous index partitions that every write to the table updates.
import { joinWords, queriesOnTable, tableLabel } from "../src/rule-engine/helpers.js";
import { indexLookupAdvice } from "../src/rule-engine/index-advice.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const UNIQUE_ISH = new Set(["uuid", "timeuuid", "timestamp"]);

const tableIndexCardinality: RuleModule = {
  meta: {
    id: "table-index-cardinality",
    category: "table",
    defaultSeverity: "warning",
    description: "A legacy secondary index is on a column of very high cardinality (uuid, timeuuid, timestamp) or very low cardinality (boolean).",
    messages: {
      highCardinality:
        "Index {index} on `{column}` ({type}) of {table}: almost every value is unique, so a legacy index holds one index row per table row on each node, and a lookup without the partition key asks every node to find one row{readers}. {advice}",
      lowCardinality:
        "Index {index} on `{column}` (boolean) of {table}: with two values, each node's index is two huge partitions that every write to the table updates, and a query by value reads half the table through them{readers}. Keep the rows of each value in a table of their own, or make `{column}` a clustering column under the partition key.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const table of model.schema.tables.values()) {
      for (const index of table.indexes) {
        if (index.implementation !== "legacy" || index.target !== "simple") continue;
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
        if (column.type.name === "boolean") {
          context.report({ ...base, messageId: "lowCardinality", data });
          continue;
        }
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
