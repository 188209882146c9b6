// A time series whose partitions take every row for ever crosses every limit sooner or later; the
// estimator says when, and which bucket keeps partitions bounded while serving the reads.
import { asAdjective, DAY, formatCount, HOUR, MINUTE, WEEK } from "../src/analysis/estimator-text.js";
import type { BucketSuggestion, PartitionEstimate } from "../src/analysis/types.js";
import { quoteName } from "../src/cql/index.js";
import { createTableStatement, joinWords, rangeBetween, schemaFileOf, tableEntity, tableLabel, tableLocation } from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleFix, RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

/**
 * The bucket column for a suggested width, named so the estimator reads its width back
 * (`day`, `week`, `month`, …) and typed as teams usually store it.
 */
function bucketColumnFor(bucket: BucketSuggestion): { unit: string; type: string; truncate: string } {
  const seconds = bucket.widthSeconds ?? 0;
  const named: [number, string, string, string][] = [
    [MINUTE, "minute", "timestamp", "the time truncated to the minute"],
    [HOUR, "hour", "timestamp", "the time truncated to the hour"],
    [DAY, "day", "date", "the day"],
    [WEEK, "week", "date", "the first day of the week"],
    [31 * DAY, "month", "text", "'YYYY-MM'"],
    [92 * DAY, "quarter", "text", "'YYYY-Qn'"],
    [366 * DAY, "year", "int", "the year"],
  ];
  const exact = named.find(([width]) => width === seconds);
  if (exact) return { unit: exact[1], type: exact[2], truncate: exact[3] };
  return { unit: "bucket", type: "timestamp", truncate: `the start of the ${bucket.width ? asAdjective(bucket.width) : "bucket's"} window` };
}

function freeName(table: TableModel, unit: string): string {
  const taken = new Set(table.columns.map((c) => c.name));
  for (const candidate of [unit, `${unit}_bucket`, `time_${unit}`]) if (!taken.has(candidate)) return candidate;
  let n = 2;
  while (taken.has(`${unit}_bucket${n}`)) n += 1;
  return `${unit}_bucket${n}`;
}

/** Rewrites `PRIMARY KEY (…)` with the bucket in the partition key and declares the bucket column. */
function addBucketFix(model: AnalysedModel, table: TableModel, estimate: PartitionEstimate, existsAtBase: boolean): RuleFix | undefined {
  const bucket = estimate.bucket;
  if (!bucket?.width) return undefined;
  const statement = createTableStatement(table);
  const key = statement?.primaryKey;
  const lastColumn = statement?.columns[statement.columns.length - 1];
  const file = schemaFileOf(model, table.source.file);
  if (!statement || !key || !lastColumn || !file) return undefined;

  const { unit, type, truncate } = bucketColumnFor(bucket);
  const name = freeName(table, unit);
  const partition = [...key.partitionKey.map((id) => id.text), name];
  const clustering = key.clustering.map((id) => id.text);
  const clause = `PRIMARY KEY ((${partition.join(", ")})${clustering.map((c) => `, ${c}`).join("")})`;
  const lineStart = file.text.lastIndexOf("\n", lastColumn.range.start.offset - 1) + 1;
  const indent = /^[ \t]*/.exec(file.text.slice(lineStart))![0];
  const definition = `,\n${indent}${quoteName(name)} ${type}`;

  const keyStart = key.range.start.offset;
  const keyEnd = key.range.end.offset;
  const columnEnd = lastColumn.range.end.offset;
  // The PRIMARY KEY clause usually follows the columns; Cassandra also accepts it among them.
  const [start, end, replacement] =
    keyStart > columnEnd
      ? [columnEnd, keyEnd, `${definition}${file.text.slice(columnEnd, keyStart)}${clause}`]
      : [keyStart, columnEnd, `${clause}${file.text.slice(keyEnd, columnEnd)}${definition}`];
  return {
    description:
      `Add \`${name} ${type}\` (${truncate} of each row) to the partition key of ${quoteName(table.name)}. The writes must then compute it, and the reads name it (the newest rows are in the current ${unit === "bucket" ? "window" : unit}).` +
      (existsAtBase ? " The table already exists and a primary key cannot be altered: this means a new table, a backfill, and moving the reads and writes to it." : ""),
    file: file.path,
    range: rangeBetween(file.text, start, end),
    replacement,
  };
}

function crossings(estimate: PartitionEstimate): string {
  const after = estimate.crossesLimitsAfter;
  if (!after) return "";
  const parts = [
    after.values ? `the values limit ${after.values}` : "",
    after.bytes ? `the bytes limit ${after.bytes}` : "",
    after.rows ? `the rows limit ${after.rows}` : "",
  ].filter(Boolean);
  return parts.length > 0 ? ` A partition crosses ${joinWords(parts)}.` : "";
}

const tableUnboundedPartition: RuleModule = {
  meta: {
    id: "table-unbounded-partition",
    category: "table",
    defaultSeverity: "warning",
    description: "Partitions grow for ever: rows keep arriving with no TTL, retention or time bucket to bound them.",
    messages: {
      unbounded:
        "Partitions of {table} grow without bound: {basis}.{crossings} {advice}",
    },
    fixable: true,
  },
  check(context) {
    const { model } = context;
    for (const [name, estimate] of model.estimates) {
      if (!estimate.unbounded) continue;
      const table = model.schema.tables.get(name);
      if (!table) continue;
      const fix = addBucketFix(model, table, estimate, context.base?.schema.tables.has(name) ?? false);
      context.report({
        messageId: "unbounded",
        data: {
          table: tableLabel(model, name),
          basis: estimate.basisText,
          crossings: crossings(estimate),
          advice: estimate.bucket?.explanation ?? "Add a time bucket to the partition key, a TTL, or a retention the application enforces.",
          rowsAfterOneYear: formatCount(estimate.worst.rows),
        },
        ...tableLocation(table),
        entity: tableEntity(name),
        ...(fix ? { fix } : {}),
      });
    }
  },
};

export default tableUnboundedPartition;
