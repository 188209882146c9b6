// ALLOW FILTERING written on a query that does not pin a partition turns it into a read of the
// whole table: every node reads every partition and drops what does not match. On a table the
// manifest sizes at a few hundred partitions that costs little, so it is a note, not a failed gate.
import * as z from "zod";
import { reportScan } from "../src/rule-engine/scan-findings.js";
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
    for (const query of context.model.queries) {
      if (query.plan.verdict === "scan" && query.plan.allowFilteringWritten) reportScan(context, query);
    }
  },
};

export default queryAllowFilteringScan;
