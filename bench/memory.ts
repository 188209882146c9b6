// Benchmark: the memory high-water mark of reviewing the 2,000-table model. Each measurement runs in
// a fresh child process, because `maxRSS` never goes down: in the bench's own process it would
// report whatever ran before. Run after `npm run build`: node dist/bench/memory.js
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { review } from "../src/review.js";
import { generateModel } from "./generate-model.js";
import { assertWholeReview, formatMiB, median } from "./measure.js";
import type { BenchRow } from "./run.js";

const CHILD_FLAG = "--measure-review-memory";

interface ChildReport {
  /** bytes of resident memory, high-water mark, before the review (modules loaded, model generated) */
  baselineMaxRss: number;
  /** the same after the review */
  maxRss: number;
  tables: number;
  findings: number;
}

/** In the child: generate, note the high-water mark, review, note it again. */
function measureInChild(tables: number): ChildReport {
  const model = generateModel(tables);
  // resourceUsage().maxRSS is in kilobytes
  const baselineMaxRss = process.resourceUsage().maxRSS * 1024;
  const result = review({ files: model.files });
  const maxRss = process.resourceUsage().maxRSS * 1024;
  assertWholeReview(result.findings, `model of ${tables} tables`);
  return { baselineMaxRss, maxRss, tables: model.tables, findings: result.findings.length };
}

function spawnMeasurement(tables: number): ChildReport {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), CHILD_FLAG, String(tables)], { encoding: "utf8", timeout: 300_000 });
  if (child.status !== 0) throw new Error(`memory child failed (${child.status ?? child.signal}): ${child.stderr.slice(0, 2_000)}`);
  return JSON.parse(child.stdout) as ChildReport;
}

export async function benchMemory(tables = 1_000, runs = 3): Promise<BenchRow[]> {
  const reports = Array.from({ length: runs }, () => spawnMeasurement(tables));
  const peak = median(reports.map((r) => r.maxRss));
  const baseline = median(reports.map((r) => r.baselineMaxRss));
  return [
    {
      section: "memory",
      metric: `peak RSS, review() of ${tables.toLocaleString("en-US")} tables`,
      value: formatMiB(peak),
      note: `child process maxRSS, median of ${runs}; ${formatMiB(baseline)} before the review (Node, modules, generated files)`,
    },
  ];
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain && process.argv[2] === CHILD_FLAG) {
  process.stdout.write(JSON.stringify(measureInChild(Number(process.argv[3]))));
} else if (isMain) {
  for (const row of await benchMemory()) process.stdout.write(`${row.metric}: ${row.value} (${row.note ?? ""})\n`);
}
