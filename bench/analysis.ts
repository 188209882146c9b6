// Benchmark: the analysis core alone (query planning and partition estimates) on a generated model
// of 1,000 tables and 5,000 queries, parsed and loaded once beforehand.
// Run after `npm run build`: node dist/bench/analysis.js
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { estimateTables } from "../src/analysis/estimator.js";
import { analyseQueries } from "../src/analysis/queries.js";
import { analyse } from "../src/review.js";
import { generateModel } from "./generate-model.js";
import { assertWholeReview, formatMs, median, spread, timeRuns } from "./measure.js";
import type { BenchRow } from "./run.js";

export async function benchAnalysis(tables = 1_000, runs = 7): Promise<BenchRow[]> {
  const model = analyse({ files: generateModel(tables).files });
  const { schema, manifest, version, config } = model;
  const keyspace = manifest?.keyspace;
  assertWholeReview(model.inputFindings, `model of ${tables} tables`);
  const queries = analyseQueries(manifest, schema, { version, keyspace });
  const planTimes = timeRuns(() => analyseQueries(manifest, schema, { version, keyspace }), runs);
  const estimateTimes = timeRuns(() => estimateTables(schema, manifest, queries, { version, limits: config.limits, keyspace }), runs);
  const load = `load average ${loadavg()[0]!.toFixed(1)}`;
  const size = `${schema.tables.size.toLocaleString("en-US")} tables, ${queries.length.toLocaleString("en-US")} queries`;
  return [
    { section: "analysis", metric: "plan every query (planner + matcher)", value: formatMs(median(planTimes)), note: `${size}; ${spread(planTimes)}; ${load}` },
    { section: "analysis", metric: "estimate every table's partitions", value: formatMs(median(estimateTimes)), note: `${size}; ${spread(estimateTimes)}; ${load}` },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchAnalysis()) process.stdout.write(`${row.metric}: ${row.value} (${row.note ?? ""})\n`);
}
