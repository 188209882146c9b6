// A query with no partition key restriction reads every partition of the table: the cost grows
// with the table, not with the answer. (With ALLOW FILTERING written, query-allow-filtering-scan reports it.)
// How loud it is follows the evidence: a LIMIT that stops the scan, or a table the manifest sizes
// at a few hundred partitions, is worth a note, not a failed gate.
import * as z from "zod";
import { reportScan } from "../src/rule-engine/scan-findings.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const optionsSchema = z
  .object({
    /** a table the manifest sizes at this many partitions or fewer is small: its scan is reported as info */
    smallTablePartitions: z.number().int().nonnegative().default(1000),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

const queryFullScan: RuleModule<Options> = {
  meta: {
    id: "query-full-scan",
    category: "query",
    defaultSeverity: "error",
    description: "The query restricts no partition key, so Cassandra reads every partition of the table.",
    messages: {
      // The plan's reason would only say the same again ("no partition key restriction, so every partition is read").
      scan: "{query} restricts no partition key column of {table}, so it reads every partition: the coordinator walks the whole token ring, and the cost grows with the table. Give the query a table whose partition key it can bind.",
      smallTable:
        "{query} restricts no partition key column of {table}, so it reads all {partitions} partitions the manifest states: cheap at that size, but the cost grows with the table. Keep the table small, or give the query a table whose partition key it can bind if it grows.",
      limited:
        "{query} restricts no partition key column of {table}, but nothing filters its rows, so its LIMIT stops the scan after {rows} rows (whichever partitions come first in token order). Fine for a sample; a page of the whole table needs a table whose partition key the query can bind.",
      tokenRange: "{query} reads a token range of {table}: every partition in the range, across nodes. Fine for a batch job walking the ring, not for a request path.",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    for (const query of context.model.queries) {
      if (query.plan.verdict === "scan" && !query.plan.allowFilteringWritten) reportScan(context, query);
    }
  },
};

export default queryFullScan;
