// A time series whose partitions take every row for ever crosses the limits sooner or later; the
// estimator says when, and which bucket keeps partitions bounded while serving the reads. A limit
// crossed only after the horizon (default 3 years) is left unsaid: the manifest's rates are
// today's, and a data model is revisited well before then.
import * as z from "zod";
import { bucketColumnFor, newColumnName } from "../src/analysis/buckets.js";
import { formatSpan, YEAR } from "../src/analysis/estimator-text.js";
import type { PartitionEstimate } from "../src/analysis/types.js";
import { quoteName } from "../src/cql/index.js";
import {
  createTableStatement,

  rangeBetween,
  schemaFileOf,
  tableEntity,
  tableLabel,
  tableLocation,
  transactionScopeAdvice,
} from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleFix, RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

const optionsSchema = z
  .object({
    /** warn only when a limit is crossed within this many years of growth */
    horizon_years: z.number().positive().max(100).default(3),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

/**
 * Rewrites `PRIMARY KEY (…)` with the bucket in the partition key and declares the bucket column on
 * a line of its own just before it, so that nothing else of the file moves (a trailing comment
 * stays with its column).
 */
export function addBucketFix(model: AnalysedModel, table: TableModel, estimate: PartitionEstimate, existsAtBase: boolean): RuleFix | undefined {
  const bucket = estimate.bucket;
  if (bucket?.kind !== "bucket" || !bucket.width || bucket.widthSeconds === undefined) return undefined;
  const statement = createTableStatement(table);
  const key = statement?.primaryKey;
  const file = schemaFileOf(model, table.source.file);
  if (!statement || !key || !file) return undefined;

  const { unit, type, truncate } = bucketColumnFor(bucket.widthSeconds, bucket.width);
  const name = newColumnName(
    table.columns.map((c) => c.name),
    unit,
  );
  const partition = [...key.partitionKey.map((id) => id.text), quoteName(name)];
  const clustering = key.clustering.map((id) => id.text);
  const clause = `PRIMARY KEY ((${partition.join(", ")})${clustering.map((c) => `, ${c}`).join("")})`;
  const definition = `${quoteName(name)} ${type},`;

  const text = file.text;
  const keyStart = key.range.start.offset;
  const keyEnd = key.range.end.offset;
  const lineStart = text.lastIndexOf("\n", keyStart - 1) + 1;
  const before = text.slice(lineStart, keyStart);
  // PRIMARY KEY at the start of its line: the column goes on a new line above it, indented alike;
  // otherwise it goes just before the clause on the same line.
  const ownLine = /^[ \t]*$/.test(before);
  const eol = lineStart >= 2 && text[lineStart - 2] === "\r" ? "\r\n" : "\n";
  const [start, replacement] = ownLine ? [lineStart, `${before}${definition}${eol}${before}${clause}`] : [keyStart, `${definition} ${clause}`];
  return {
    description:
      `Add \`${name} ${type}\` (${truncate} of each row) to the partition key of ${quoteName(table.name)}. The writes must then compute it, and the reads name it (the newest rows are in the current ${unit === "bucket" ? "window" : unit}).` +
      (existsAtBase ? " The table already exists and a primary key cannot be altered: this means a new table, a backfill, and moving the reads and writes to it." : ""),
    file: file.path,
    range: rangeBetween(text, start, keyEnd),
    replacement,
  };
}

function crossings(estimate: PartitionEstimate): string {
  const after = estimate.crossesLimitsAfter;
  if (!after?.bytes) return "";
  return ` A partition crosses the bytes limit ${after.bytes}.`;
}

/** The first limit (bytes, or the hard cell limit) the worst partition crosses, in seconds; Infinity when none. */
function firstCrossing(estimate: PartitionEstimate): number {
  const after = estimate.crossesAfterSeconds;
  return after ? Math.min(after.bytes, after.cells) : Infinity;
}

const tableUnboundedPartition: RuleModule<Options> = {
  meta: {
    id: "table-unbounded-partition",
    category: "table",
    defaultSeverity: "warning",
    description: "Partitions grow for ever, with no TTL, retention or time bucket to bound them, and cross a limit within the horizon.",
    messages: {
      unbounded: "Partitions of {table} grow without bound: {basis}.{crossings} {advice}",
    },
    fixable: true,
    options: optionsSchema,
  },
  check(context) {
    const { model } = context;
    const horizonSeconds = (context.options.horizon_years ?? 3) * YEAR;
    for (const [name, estimate] of model.estimates) {
      if (!estimate.unbounded) continue;
      const table = model.schema.tables.get(name);
      if (!table) continue;
      // A limit decades away is no finding: the rates will have changed long before.
      if (firstCrossing(estimate) > horizonSeconds) continue;
      const scope = transactionScopeAdvice(model, table);
      const fix = scope ? undefined : addBucketFix(model, table, estimate, context.base?.schema.tables.has(name) ?? false);
      context.report({
        messageId: "unbounded",
        data: {
          table: tableLabel(model, name),
          basis: estimate.basisText,
          crossings: crossings(estimate),
          advice: scope ?? estimate.bucket?.explanation ?? "Add a time bucket to the partition key, a TTL, or a retention the application enforces.",
          crossesAfter: formatSpan(firstCrossing(estimate)),
        },
        ...tableLocation(table),
        entity: tableEntity(name),
        ...(fix ? { fix } : {}),
      });
    }
  },
};

export default tableUnboundedPartition;
