// A partition lives whole on one replica set and is compacted, repaired and streamed as a unit:
// past the limits (Apache Cassandra docs, "Evaluating and refining data models") reads slow down, heaps fill and repairs stall.
import { formatBytes, formatCount } from "../src/analysis/estimator-text.js";
import { joinWords, tableEntity, tableLabel, tableLocation } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const tablePartitionTooLarge: RuleModule = {
  meta: {
    id: "table-partition-too-large",
    category: "table",
    defaultSeverity: "warning",
    description: "The table's worst partition is estimated past the configured limits on values, bytes or rows.",
    messages: {
      tooLarge:
        "The worst partition of {table} is estimated at {crossed}. Basis: {basis}. Cassandra keeps a partition whole on one replica set, so reads, compaction and repair of it slow down as it grows. {advice}",
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
      const values = Math.max(worst.values, worst.cells);
      const crossed: string[] = [];
      if (limits.partitionValues > 0 && values > limits.partitionValues) {
        const cellsNote = worst.cells > worst.values ? "each collection element counted as a cell; " : "";
        crossed.push(`${formatCount(values)} values (${cellsNote}limit ${formatCount(limits.partitionValues)})`);
      }
      if (limits.partitionBytes > 0 && worst.bytes > limits.partitionBytes) {
        crossed.push(`${formatBytes(worst.bytes)} (limit ${formatBytes(limits.partitionBytes)})`);
      }
      if (limits.rowsPerPartition > 0 && worst.rows > limits.rowsPerPartition) {
        crossed.push(`${formatCount(worst.rows)} rows (limit ${formatCount(limits.rowsPerPartition)})`);
      }
      if (crossed.length === 0) continue;
      context.report({
        messageId: "tooLarge",
        data: {
          table: tableLabel(model, name),
          crossed: joinWords(crossed),
          basis: estimate.basisText,
          rows: worst.rows,
          values,
          bytes: worst.bytes,
          advice: estimate.bucket?.explanation ?? "Split the partition: add a bucket or a shard to the partition key.",
        },
        ...tableLocation(table),
        entity: tableEntity(name),
      });
    }
  },
};

export default tablePartitionTooLarge;
