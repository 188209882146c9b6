// A read that touches one partition can still read thousands of rows: ALLOW FILTERING inside the
// partition, a clustering range with no LIMIT, an aggregate over the partition. The manifest's
// rows per partition and rate say how many rows each call and each second cost.
import * as z from "zod";
import { formatCount } from "../src/analysis/estimator-text.js";
import { queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { RowsReadEstimate } from "../src/analysis/types.js";
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

const SKEW_ADVICE = "Only the largest partitions are this large: cap what one call returns (LIMIT, and page with the driver's fetch size), or keep values that most rows share out of the partition key, since a bucket cannot split a key every row lands in.";

/** What the call returns of what it scans: all of it, at most its LIMIT, or an unknown part. */
function returnedText(rows: RowsReadEstimate): string {
  if (rows.returned === undefined) return rows.because === "unbounded" ? " and returns them all" : "";
  return rows.returned === 1 ? " to return one" : ` to return at most ${formatCount(rows.returned)}`;
}

const queryRowsRead: RuleModule<Options> = {
  meta: {
    id: "query-rows-read",
    category: "query",
    defaultSeverity: "warning",
    description: "The query reads many rows per call or per second, by the manifest's rows per partition and rate.",
    messages: {
      many: "{query} reads {about} {perCall} rows of {table} per call{partitionsRead}{returned} ({basis}): {because}.{perSecond} {advice}",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    for (const query of model.queries) {
      const rows = query.plan.rowsEstimate;
      // Scans are query-full-scan's and query-allow-filtering-scan's: their cost is the table. An
      // index read without a partition key is query-index-without-partition-key's, which gives its figure.
      if (!rows || !query.table || query.plan.verdict === "scan" || rows.index?.fanOut) continue;
      // Rows the caller asked for (a LIMIT it returns) are the answer, not waste; a slice with no
      // LIMIT may be any part of the partition, too weak a figure to warn on.
      if (rows.because === "limit" || (rows.because === "unbounded" && rows.slice)) continue;
      // Judged on the worst partition the read can hit: an average hides the key that fails.
      const scanned = Math.round(rows.worstPerCall);
      const skewed = scanned > rows.perCall;
      const overCall = scanned >= options.maxRowsPerCall;
      // Rows a read returns are the workload itself; only rows it reads and throws away (filtering,
      // aggregation) count against the rate, and the rate is spread over average partitions.
      const overSecond = rows.because !== "unbounded" && rows.perSecond !== undefined && rows.perSecond >= options.maxRowsPerSecond;
      if (!overCall && !overSecond) continue;
      context.report({
        messageId: "many",
        data: {
          query: query.id,
          table: tableLabel(model, query.table),
          about: rows.slice || skewed ? "up to" : "about",
          perCall: formatCount(scanned),
          partitionsRead: skewed ? " on its largest partitions" : "",
          returned: returnedText(rows),
          basis: skewed ? `about ${formatCount(Math.round(rows.perCall))} on average; ${rows.basis}` : rows.basis,
          because: rows.index && rows.because === "filtering" ? `the index ${rows.index.index} returns every row of the partition with that \`${rows.index.column}\` value, and ${rows.index.postFiltered.map((c) => `\`${c}\``).join(", ")} ${rows.index.postFiltered.length === 1 ? "is" : "are"} filtered row by row` : (BECAUSE[rows.because] ?? ""),
          perSecond:
            rows.perSecond !== undefined && query.ratePerSecond !== undefined
              ? ` At its rate that is ${rows.slice ? "up to" : "about"} ${formatCount(Math.round(rows.perSecond))} rows a second${overSecond ? ` (threshold ${formatCount(options.maxRowsPerSecond)})` : ""}.`
              : "",
          advice: skewed && overCall && rows.perCall < options.maxRowsPerCall && rows.because === "unbounded" ? SKEW_ADVICE : (ADVICE[rows.because] ?? ""),
        },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryRowsRead;
