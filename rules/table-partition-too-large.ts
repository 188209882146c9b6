// A partition lives whole on one replica set and is compacted, repaired and streamed as a unit:
// past the bytes limit reads slow down, heaps fill and repairs stall. Bytes lead; value and row
// counts are informational until they near Cassandra's hard limit of 2³¹ cells per partition.
import { HARD_CELL_LIMIT } from "../src/analysis/buckets.js";
import { formatBytes, formatCount } from "../src/analysis/estimator-text.js";
import { joinWords, tableEntity, tableLabel, tableLocation, transactionScopeAdvice } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";


const tablePartitionTooLarge: RuleModule = {
  meta: {
    id: "table-partition-too-large",
    category: "table",
    defaultSeverity: "warning",
    description: "The table's worst partition is estimated past the bytes limit, or near Cassandra's hard limit on cells.",
    messages: {
      tooLarge:
        "The worst partition of {table} is estimated at {crossed}{counts}. Basis: {basis}. Cassandra keeps a partition whole on one replica set, so reads, compaction and repair of it slow down as it grows. {advice}",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const { limits } = model.config;
    for (const [name, estimate] of model.estimates) {
      // Growth without a bound is table-unbounded-partition's finding, with the time each limit is crossed.
      if (estimate.unbounded) continue;
      const table = model.schema.tables.get(name);
      if (!table) continue;
      const { worst } = estimate;
      const cells = Math.max(worst.values, worst.cells);
      const crossed: string[] = [];
      if (limits.partitionBytes > 0 && worst.bytes > limits.partitionBytes) {
        crossed.push(`${formatBytes(worst.bytes)} (limit ${formatBytes(limits.partitionBytes)})`);
      }
      if (cells > HARD_CELL_LIMIT) crossed.push(`${formatCount(cells)} cells (Cassandra's hard limit is 2³¹, about 2.1 billion)`);
      if (crossed.length === 0) continue;
      const counts = cells <= HARD_CELL_LIMIT ? `, ${formatCount(worst.rows)} rows and ${formatCount(cells)} values` : "";
      context.report({
        messageId: "tooLarge",
        data: {
          table: tableLabel(model, name),
          crossed: joinWords(crossed),
          counts,
          basis: estimate.basisText,
          rows: worst.rows,
          values: cells,
          bytes: worst.bytes,
          advice:
            transactionScopeAdvice(model, table) ??
            estimate.bucket?.explanation ??
            "Split the partition: make the partition key finer, or add a time bucket to it.",
        },
        ...tableLocation(table),
        entity: tableEntity(name),
      });
    }
  },
};

export default tablePartitionTooLarge;
