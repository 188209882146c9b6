// ALLOW FILTERING written on a query that does not pin a partition turns it into a read of the
// whole table: every node reads every partition and drops what does not match. On a table the
// manifest sizes at a few hundred partitions that costs little, so it is a note, not a failed gate.
import * as z from "zod";
import { formatCount } from "../src/analysis/estimator-text.js";
import { scanExtent } from "../src/analysis/queries.js";
import { queryEntity, tableLabel, volumeOf } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const optionsSchema = z
  .object({
    /** a table the manifest sizes at this many partitions or fewer is small: its filtered scan is reported as info */
    smallTablePartitions: z.number().int().nonnegative().default(1000),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

const queryAllowFilteringScan: RuleModule<Options> = {
  meta: {
    id: "query-allow-filtering-scan",
    category: "query",
    defaultSeverity: "error",
    description: "The query says ALLOW FILTERING without restricting the partition key, so it scans the whole table.",
    messages: {
      scan: "{query} uses ALLOW FILTERING without pinning a partition of {table}: Cassandra reads every partition on every node and discards the rows that do not match. Serve it from a table partitioned by what the query filters on.",
      smallTable:
        "{query} uses ALLOW FILTERING without pinning a partition of {table}: every call reads all {partitions} partitions the manifest states and discards the rows that do not match. Cheap at that size; if the table grows, serve the query from a table partitioned by what it filters on.",
      limited:
        "{query} uses ALLOW FILTERING on {table} but filters nothing, so its LIMIT stops the scan after {rows} rows. Drop ALLOW FILTERING; a page of the whole table needs a table whose partition key the query can bind.",
      tokenRange: "{query} uses ALLOW FILTERING over a token range of {table}: every partition in the range is read and filtered. Fine for a batch job walking the ring, not for a request path.",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    for (const query of model.queries) {
      const { plan } = query;
      if (plan.verdict !== "scan" || !plan.allowFilteringWritten) continue;
      const table = query.table ? model.schema.tables.get(query.table) : undefined;
      const extent = scanExtent(plan, table ? volumeOf(model, table)?.partitions : undefined, options.smallTablePartitions);
      const location = { file: query.location.file, range: query.location.range, entity: queryEntity(query.id) };
      const data = { query: query.id, table: query.table ? tableLabel(model, query.table) : "its table", partitions: plan.partitions };
      if (plan.partitions !== "all") {
        context.report({ ...location, messageId: "tokenRange", data });
      } else if (extent.kind === "limited") {
        context.report({ ...location, messageId: "limited", data: { ...data, rows: formatCount(extent.rows) }, severityCap: "info" });
      } else if (extent.kind === "small") {
        context.report({ ...location, messageId: "smallTable", data: { ...data, partitions: formatCount(extent.partitions) }, severityCap: "info" });
      } else {
        context.report({ ...location, messageId: "scan", data });
      }
    }
  },
};

export default queryAllowFilteringScan;
