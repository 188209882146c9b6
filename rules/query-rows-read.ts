// A read that touches one partition can still read thousands of rows: ALLOW FILTERING inside the
// partition, a clustering range with no LIMIT, an aggregate over the partition. The manifest's
// rows per partition and rate say how many rows each call and each second cost.
import * as z from "zod";
import { formatCount } from "../src/analysis/estimator-text.js";
import { queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const optionsSchema = z
  .object({
    /** rows one call may read before the rule warns */
    maxRowsPerCall: z.number().int().positive().default(10_000),
    /** rows a second the query may read, all calls together, before the rule warns */
    maxRowsPerSecond: z.number().positive().default(100_000),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

const BECAUSE: Record<string, string> = {
  aggregate: "an aggregate reads every row it aggregates, whatever the LIMIT",
  filtering: "ALLOW FILTERING reads every row of the partitions it touches and drops those that do not match",
  unbounded: "no LIMIT bounds the read",
};

const ADVICE: Record<string, string> = {
  aggregate: "Keep a running total instead (a counter, or a rollup table written with the data), or bound the range the aggregate covers.",
  filtering: "Give the filtered column its own table (or a clustering column, so the read is a slice), so the read touches only the rows it returns.",
  unbounded: "Add a LIMIT and page, or narrow the clustering range.",
};

const queryRowsRead: RuleModule<Options> = {
  meta: {
    id: "query-rows-read",
    category: "query",
    defaultSeverity: "warning",
    description: "The query reads many rows per call or per second, by the manifest's rows per partition and rate.",
    messages: {
      many: "{query} reads {about} {perCall} rows of {table} per call{worst} ({basis}): {because}.{perSecond} {advice}",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    for (const query of model.queries) {
      const rows = query.plan.rowsEstimate;
      // Scans are query-full-scan's and query-allow-filtering-scan's: their cost is the table.
      if (!rows || !query.table || query.plan.verdict === "scan") continue;
      // Rows the caller asked for (a LIMIT it returns) are the answer, not waste; a slice with no
      // LIMIT may be any part of the partition, too weak a figure to warn on.
      if (rows.because === "limit" || (rows.because === "unbounded" && rows.slice)) continue;
      const overCall = rows.perCall >= options.maxRowsPerCall;
      // Rows a read returns are the workload itself; only rows it reads and throws away (filtering,
      // aggregation) count against the rate.
      const overSecond = rows.because !== "unbounded" && rows.perSecond !== undefined && rows.perSecond >= options.maxRowsPerSecond;
      if (!overCall && !overSecond) continue;
      context.report({
        messageId: "many",
        data: {
          query: query.id,
          table: tableLabel(model, query.table),
          about: rows.slice ? "up to" : "about",
          perCall: formatCount(Math.round(rows.perCall)),
          worst: rows.worstPerCall > rows.perCall ? `, up to ${formatCount(Math.round(rows.worstPerCall))} on the largest partitions` : "",
          basis: rows.basis,
          because: BECAUSE[rows.because] ?? "",
          perSecond:
            rows.perSecond !== undefined && query.ratePerSecond !== undefined
              ? ` At its rate that is ${rows.slice ? "up to" : "about"} ${formatCount(Math.round(rows.perSecond))} rows a second${overSecond ? ` (threshold ${formatCount(options.maxRowsPerSecond)})` : ""}.`
              : "",
          advice: ADVICE[rows.because] ?? "",
        },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryRowsRead;
