// Benchmark: `cql-review check examples/iot` as a developer's pre-commit hook runs it, a new Node
// process each time: the shipped entry (bin/cql-review.js, which runs the one-file bundle
// dist/cli/cql-review.mjs) against the modules of dist/src that it ran before the bundle existed,
// in the same run. Wall time is what the developer waits; CPU time (the child's own, reported at
// its exit) shows how much of it is the command's rather than the machine's load.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cpuPressure, formatMs, median } from "./measure.js";
import type { BenchRow } from "./run.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RUNS = 7;
const MARKER = "cli-start-cpu:";
const ARGUMENTS = ["check", "examples/iot"];

/** Preloaded into the child: reports its CPU time on exit, on stderr. */
const CPU_PROBE = `data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("${MARKER}"+(u.user+u.system)/1000+"\\n")})`;

const ENTRIES = {
  // today: bin/cql-review.js, the bundle
  bundle: [`${ROOT}bin/cql-review.js`],
  // before: what bin/cql-review.js ran until the bundle, dist/src/cli.js and its modules
  modules: ["--input-type=module", "-e", `const { main } = await import(${JSON.stringify(pathToFileURL(`${ROOT}dist/src/cli.js`).href)}); process.exitCode = await main(process.argv.slice(1));`],
} as const;

function runOnce(entry: readonly string[]): { wallMs: number; cpuMs: number } {
  const started = performance.now();
  const child = spawnSync(process.execPath, ["--import", CPU_PROBE, ...entry, ...ARGUMENTS], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  const wallMs = performance.now() - started;
  // 0 or 1 (the example's gate): anything else is a broken command, not a figure.
  if (child.status !== 0 && child.status !== 1) throw new Error(`check exited ${child.status}: ${child.stderr}`);
  const cpu = child.stderr.split("\n").find((line) => line.startsWith(MARKER));
  if (!cpu) throw new Error(`no CPU figure from the child: ${child.stderr}`);
  return { wallMs, cpuMs: Number(cpu.slice(MARKER.length)) };
}

export async function benchCliStart(): Promise<BenchRow[]> {
  if (!existsSync(`${ROOT}dist/cli/cql-review.mjs`)) throw new Error("dist/cli/cql-review.mjs is missing: run `npm run build`");
  const rows: BenchRow[] = [];
  const load = cpuPressure();
  // Interleaved, so both see the same load; the first run of each warms the compile cache and the disk.
  const figures = { bundle: [] as { wallMs: number; cpuMs: number }[], modules: [] as { wallMs: number; cpuMs: number }[] };
  for (let run = 0; run <= RUNS; run++) {
    for (const name of ["modules", "bundle"] as const) {
      const result = runOnce(ENTRIES[name]);
      if (run > 0) figures[name].push(result);
    }
  }
  for (const name of ["modules", "bundle"] as const) {
    const label = name === "bundle" ? "bin/cql-review.js (bundle)" : "dist/src/cli.js (modules, before)";
    rows.push({ section: "cli", metric: `check examples/iot, new process: ${label}, wall`, value: formatMs(median(figures[name].map((f) => f.wallMs))), note: `median of ${RUNS}${load}` });
    rows.push({ section: "cli", metric: `check examples/iot, new process: ${label}, CPU`, value: formatMs(median(figures[name].map((f) => f.cpuMs))), note: "user + system of the child" });
  }
  return rows;
}
