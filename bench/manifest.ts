// Benchmark section: reading a manifest and reviewing the repository that holds it, for the
// example (examples/iot) and for a hand-written-style manifest of 2,000 queries, measured three
// ways: loadManifest() alone, review() in a warm process (a server or Lambda reviewing pull
// request after pull request), and `cql-review check` as a whole new process, which is what a
// developer waits for at the terminal. Run after `npm run build`: node dist/bench/manifest.js
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadManifest } from "../src/manifest/load.js";
import { review, type Review } from "../src/review.js";
import type { SourceFile } from "../src/source-file.js";
import { generateModel } from "./generate-model.js";
import { assertWholeReview, cpuPressure, formatMs, median, spread, timeRuns } from "./measure.js";
import type { BenchRow } from "./run.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Queries of the large manifest: 80 domains of five tables, 25 queries a domain. */
export const LARGE_MANIFEST_TABLES = 400;

function filesUnder(dir: string, base = dir): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, base);
    return [{ path: relative(base, path), content: readFileSync(path, "utf8") }];
  });
}

/** Wall time of `cql-review check <dir>` as a new Node process, median of `runs`. */
function timeCli(dir: string, runs: number): number[] {
  const bin = join(ROOT, "bin/cql-review.js");
  return Array.from({ length: runs }, () => {
    const start = performance.now();
    const result = spawnSync(process.execPath, [bin, "check", dir, "--format", "json"], { stdio: ["ignore", "ignore", "pipe"] });
    const ms = performance.now() - start;
    // Exit 1 is a failing gate (the large model has deliberate mistakes); 2 would be a usage error.
    if (result.status === 2 || result.status === null) throw new Error(`cql-review check failed: ${result.stderr.toString().slice(0, 200)}`);
    return ms;
  });
}

function rowsFor(name: string, files: SourceFile[], manifestPath: string, runs: { load: number; review: number; cli: number }, dir: string): BenchRow[] {
  const manifest = files.find((file) => file.path === manifestPath)!;
  const loaded = loadManifest(manifest);
  const queries = loaded.manifest?.queries.length ?? 0;
  const loadTimes = timeRuns(() => loadManifest(manifest), runs.load, 3);
  let firstFindings: Review["findings"] = [];
  const first = timeRuns(() => (firstFindings = review({ files }).findings), 1, 0)[0]!;
  // Checked after the first review is timed, so that it stays the first of these files.
  assertWholeReview(firstFindings, name);
  const findings = firstFindings.length;
  const reviewTimes = timeRuns(() => review({ files }), runs.review, 2);
  const cliTimes = timeCli(dir, runs.cli);
  const size = `${(Buffer.byteLength(manifest.content) / 1024).toFixed(1)} KiB`;
  return [
    {
      section: "manifest",
      metric: `load ${name} manifest`,
      value: formatMs(median(loadTimes)),
      note: `${size}, ${queries.toLocaleString("en-US")} queries, ${loaded.findings.length} manifest findings; median of ${spread(loadTimes)}`,
    },
    {
      section: "manifest",
      metric: `review() of ${name}`,
      value: formatMs(median(reviewTimes)),
      note: `${files.length} files, ${findings} findings; median of ${spread(reviewTimes)} in a warm process; first review ${formatMs(first)}${cpuPressure()}`,
    },
    {
      section: "manifest",
      metric: `cql-review check ${name}`,
      value: formatMs(median(cliTimes)),
      note: `a new Node process, start to exit (what a developer waits for); median of ${spread(cliTimes)}`,
    },
  ];
}

export async function benchManifest(): Promise<BenchRow[]> {
  const example = join(ROOT, "examples/iot");
  const exampleFiles = filesUnder(example);
  const rows = rowsFor("examples/iot", exampleFiles, "access-patterns.yaml", { load: 200, review: 30, cli: 5 }, example);

  const model = generateModel(LARGE_MANIFEST_TABLES, { handWritten: true });
  const dir = mkdtempSync(join(tmpdir(), "cql-review-bench-"));
  try {
    for (const file of model.files) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
    }
    rows.push(...rowsFor(`${model.queries.toLocaleString("en-US")}-query`, model.files, "access-patterns.yaml", { load: 20, review: 5, cli: 3 }, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchManifest()) process.stdout.write(`${row.metric}: ${row.value} (${row.note ?? ""})\n`);
}
