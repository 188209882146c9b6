// Rows are spread over the cluster by a hash of the partition key: a key with few values, or one
// that is only the current time bucket, sends every write of the moment to the same replicas.
import * as z from "zod";
import { timeBucketOf } from "../src/analysis/estimator.js";
import { formatBytes, formatCount } from "../src/analysis/estimator-text.js";
import { constantText } from "../src/analysis/key-constants.js";
import { joinWords, tableEntity, tableLabel, tableLocation, volumeOf, writePathsOf } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { ColumnModel, TableModel } from "../src/schema/model.js";

const optionsSchema = z
  .object({
    /** writes a second one partition may take before its replicas become the cluster's hot spot */
    maxWritesPerSecondPerPartition: z.number().positive().default(100),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

function writesPerSecond(rate: number): string {
  return `${rate >= 10 ? formatCount(rate) : String(Math.round(rate * 100) / 100)} writes/s`;
}

const BUCKET_WORD = /(^|_)(bucket|period|window|slot|epoch)(_|$)/i;

/** A column that holds only a time bucket (`day date`, `hour timestamp`, `bucket int`): the same value for every write of the moment. */
function isTimeBucket(column: ColumnModel, table: TableModel): boolean {
  if (column.type.kind !== "native" || column.type.name === "timeuuid") return false;
  const bucket = timeBucketOf({ ...table, partitionKey: [column] });
  if (!bucket) return false;
  return bucket.widthSeconds !== null || BUCKET_WORD.test(column.name);
}

const tableHotPartitionKey: RuleModule<Options> = {
  meta: {
    id: "table-hot-partition-key",
    category: "table",
    defaultSeverity: "warning",
    description:
      "The partition key sends most writes to a few partitions: a low-cardinality key, a key that is only a time bucket, a key every write sets to the same constant, or too few partitions for the write rate.",
    messages: {
      lowCardinality:
        "The partition key of {table} is only {columns} (boolean): the table can never have more than {count} partitions, so all its data and traffic sit on at most {count} replica sets whatever the cluster's size. Lead the partition key with a column of many values (an id) and move {columns} into the clustering columns.",
      timeBucketOnly:
        "The partition key of {table} is only the time bucket {columns}: every write of the current bucket goes to one partition, on one replica set, while the rest of the cluster idles; the hot spot moves with time but never goes away. Add the entity the rows belong to (a source, device or user id) to the partition key.",
      constantKey:
        "Every write to {table} sets its partition key to one value ({set}, in {writes}): the whole table is one partition{size}, on one replica set however large the cluster, and it takes every write{rate}. {advice}",
      fewPartitions:
        "{table} has {partitions} partitions for {rate} of writes ({writes}): {perPartition} per partition, over the {limit} a partition should take. A partition lives on one replica set, so those nodes take the load while the others idle. Add a column of the rows' own with more values to the partition key; a hash shard only when none exists, and then every read of a key touches all its shards.",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    for (const table of model.schema.tables.values()) {
      if (table.kind !== "table") continue;
      const key = table.partitionKey;
      if (key.length === 0) continue;
      // Most tables pass: their names and location are written out only for a finding.
      const names = () => joinWords(key.map((c) => `\`${c.name}\``));
      const base = () => ({ ...tableLocation(table), entity: tableEntity(table.qualifiedName) });
      const label = () => tableLabel(model, table.qualifiedName);
      if (key.every((c) => c.type.kind === "native" && c.type.name === "boolean")) {
        context.report({ ...base(), messageId: "lowCardinality", data: { table: label(), columns: names(), count: 2 ** key.length } });
        continue;
      }
      const constant = model.estimates.get(table.qualifiedName)?.constantKey ?? [];
      const { writes, ratePerSecond } = writePathsOf(model, table);
      if (key.every((c) => constant.some((k) => k.column === c.name))) {
        const estimate = model.estimates.get(table.qualifiedName)!;
        const figures = estimate.basis === "manifest" || estimate.basis === "growth-retention" || estimate.basis === "growth-ttl";
        // A small table read and written rarely may be one partition by design (a config row, a
        // short registry): it matters when its writes or its size are more than one partition takes.
        const hot = ratePerSecond !== undefined && ratePerSecond > options.maxWritesPerSecondPerPartition;
        const large = figures && model.config.limits.partitionBytes > 0 && estimate.worst.bytes > model.config.limits.partitionBytes;
        if (!hot && !large) continue;
        const bucket = constant.find((k) => isTimeBucket(key.find((c) => c.name === k.column)!, table));
        context.report({
          ...base(),
          messageId: "constantKey",
          data: {
            table: label(),
            set: constant.map(constantText).join(", "),
            writes: joinWords([...new Set(constant.flatMap((k) => k.writes))]),
            rate: ratePerSecond !== undefined ? ` (${writesPerSecond(ratePerSecond)})` : "",
            size: figures ? ` of ${formatCount(estimate.worst.rows)} rows and ${formatBytes(estimate.worst.bytes)} by the manifest's figures` : "",
            advice: bucket
              ? `Compute \`${bucket.column}\` from the time each row is written (a day or an hour of it), and lead the key with a column of the rows' own with many values where one exists.`
              : "Lead the partition key with a column of the rows' own with many values (an id), so rows spread over the cluster.",
          },
        });
        continue;
      }
      if (key.every((c) => isTimeBucket(c, table))) {
        // Every write of the moment goes to the current bucket: its rate is the table's whole rate.
        if (ratePerSecond === undefined || ratePerSecond > options.maxWritesPerSecondPerPartition) {
          context.report({ ...base(), messageId: "timeBucketOnly", data: { table: label(), columns: names() } });
        }
        continue;
      }
      const partitions = volumeOf(model, table)?.partitions;
      if (partitions === undefined || partitions <= 0 || ratePerSecond === undefined) continue;
      const perPartition = ratePerSecond / partitions;
      if (perPartition <= options.maxWritesPerSecondPerPartition) continue;
      context.report({
        ...base(),
        messageId: "fewPartitions",
        data: {
          table: label(),
          partitions: formatCount(partitions),
          rate: writesPerSecond(ratePerSecond),
          writes: joinWords(writes.map((w) => w.id)),
          perPartition: writesPerSecond(perPartition),
          limit: writesPerSecond(options.maxWritesPerSecondPerPartition),
        },
      });
    }
  },
};

export default tableHotPartitionKey;
