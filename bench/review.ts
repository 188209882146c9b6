// Benchmark: the compute time of `review()` (the pure core: parse, model, plans, estimates, rules)
// on generated repositories of 100, 500 and 1,000 tables with about five queries each (1,000 tables
// carry 5,000 queries, the most one review accepts), and how the
// cost grows with the model. Run after `npm run build`: node dist/bench/review.js
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { review, type Review } from "../src/review.js";
import { generateModel } from "./generate-model.js";
import { assertWholeReview, cpuPressure, formatMs, median, spread, time } from "./measure.js";
import type { BenchRow } from "./run.js";

export const REVIEW_SIZES = [100, 500, 1_000] as const;

export interface ReviewTiming {
  tables: number;
  queries: number;
  files: number;
  findings: number;
  /** the first review of this model in the process (which has already reviewed smaller ones) */
  firstMs: number;
  /** median of the timed runs, after the warm-up */
  ms: number;
  times: number[];
  /** median of the timed runs' main-thread CPU time, where /proc gives it */
  cpuMs: number | undefined;
  /** the machine's 1-minute load average when the runs ended: a busy machine shows */
  loadAverage: number;
}

/**
 * Enough runs that a median stands against a shared host's slow moments; fewer for the largest
 * model keep the whole bench within a couple of minutes on two cores.
 */
function runsFor(tables: number): number {
  return tables >= 1_000 ? 7 : tables >= 500 ? 11 : 15;
}

/**
 * Reviews that follow the first one of a model: a server reviews pull request after pull request,
 * and its first reviews of a large model are slower while V8 grows its heap and optimises.
 */
const WARM_UP = 2;

export function timeReview(tables: number, runs = runsFor(tables)): ReviewTiming {
  const model = generateModel(tables);
  const input = { files: model.files };
  let firstFindings: Review["findings"] = [];
  const first = time(() => (firstFindings = review(input).findings));
  // Checked after the first review is timed, so that it stays the first of this model.
  assertWholeReview(firstFindings, `model of ${tables} tables`);
  const findings = firstFindings.length;
  for (let i = 0; i < WARM_UP; i++) review(input);
  const timings = Array.from({ length: runs }, () => time(() => review(input)));
  const times = timings.map((t) => t.wallMs);
  const cpuTimes = timings.map((t) => t.cpuMs).filter((ms): ms is number => ms !== undefined);
  return {
    tables: model.tables,
    queries: model.queries,
    files: model.files.length,
    findings,
    firstMs: first.wallMs,
    ms: median(times),
    times,
    cpuMs: cpuTimes.length === runs ? median(cpuTimes) : undefined,
    loadAverage: loadavg()[0]!,
  };
}

/** Growth of the cost per table from one size to the next: 1.0 is linear, 2.0 doubles per table. */
export function growthRatio(smaller: ReviewTiming, larger: ReviewTiming): number {
  return larger.ms / larger.tables / (smaller.ms / smaller.tables);
}

export async function benchReview(): Promise<BenchRow[]> {
  // One untimed review first, so the first size does not pay for module and parser warm-up.
  review({ files: generateModel(50).files });
  const timings = REVIEW_SIZES.map((tables) => timeReview(tables));
  const rows: BenchRow[] = timings.map((timing) => ({
    section: "review",
    metric: `review() of ${timing.tables.toLocaleString("en-US")} tables`,
    value: formatMs(timing.ms),
    note:
      `${(timing.ms / timing.tables).toFixed(2)} ms/table; ${timing.queries.toLocaleString("en-US")} queries, ${timing.files} files, ${timing.findings} findings; ` +
      `median of ${spread(timing.times)} after ${WARM_UP} warm-up reviews; first review ${formatMs(timing.firstMs)}` +
      `${timing.cpuMs !== undefined ? `; main-thread CPU ${formatMs(timing.cpuMs)}` : ""}; load average ${timing.loadAverage.toFixed(1)}${cpuPressure()}`,
  }));
  for (let i = 1; i < timings.length; i++) {
    const [smaller, larger] = [timings[i - 1]!, timings[i]!];
    rows.push({
      section: "review",
      metric: `growth ${smaller.tables.toLocaleString("en-US")} → ${larger.tables.toLocaleString("en-US")} tables`,
      value: `×${(larger.ms / smaller.ms).toFixed(2)} time for ×${(larger.tables / smaller.tables).toFixed(0)} tables`,
      note: `cost per table ×${growthRatio(smaller, larger).toFixed(2)} (1.00 = linear)`,
    });
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchReview()) process.stdout.write(`${row.metric}: ${row.value} (${row.note ?? ""})\n`);
}
