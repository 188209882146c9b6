// Benchmark: the command line as a developer's pre-commit hook runs it, a new Node process each
// time: `check examples/iot` and `--help`, through bin/cql-review.js (the CLI bundle, run with its
// code cache), against the same commands of a baseline bundle built in this run from an earlier commit
// (CLI_BASELINE_REF, by default main before the start-up work of 28 November, afternoon), and
// `node -e 0`, the floor no command can go under. Wall time is what the developer waits; CPU time
// (the child's own, reported at its exit) shows how much of it is the command's rather than the
// machine's load. Each row is the median of CLI_RUNS runs (7 unless set), with the goal beside it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cpuPressure, formatMs, median } from "./measure.js";
import type { BenchRow } from "./run.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RUNS = Number(process.env.CLI_RUNS) || 7;
const MARKER = "cli-start-cpu:";
/** 28 November 2026, afternoon: main before the lazy lookahead (the lazy chunks and the compile cache were in). */
const DEFAULT_BASELINE_REF = "c0e8995";
/** Inside the clone, so the baseline's build finds this clone's node_modules by walking up. */
const BASELINE_DIR = join(ROOT, "dist", "bench-cli-baseline");

const COMMANDS: Record<string, string[]> = {
  "check examples/iot": ["check", "examples/iot"],
  "--help": ["--help"],
};

/** The goal a command's wall time is held to, on a quiet host, on Node 24 (issue 31). */
const GOAL_MS: Record<string, number> = { "check examples/iot": 300 };

/** Preloaded into the child: reports its CPU time on exit, on stderr. */
const CPU_PROBE = `data:text/javascript,process.on("exit",()=>{const u=process.cpuUsage();process.stderr.write("${MARKER}"+(u.user+u.system)/1000+"\\n")})`;

interface Figure {
  wallMs: number;
  cpuMs: number;
}

/** `bin` undefined: Node alone (`node -e 0`), with the same probe. */
function runOnce(bin: string | undefined, args: readonly string[]): Figure {
  const started = performance.now();
  const child = spawnSync(process.execPath, ["--import", CPU_PROBE, ...(bin === undefined ? ["-e", "0"] : [bin, ...args])], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  const wallMs = performance.now() - started;
  // 0 or 1 (the example's gate): anything else is a broken command, not a figure.
  if (child.status !== 0 && child.status !== 1) throw new Error(`${bin} ${args.join(" ")} exited ${child.status}: ${child.stderr}`);
  const cpu = child.stderr.split("\n").find((line) => line.startsWith(MARKER));
  if (!cpu) throw new Error(`no CPU figure from the child: ${child.stderr}`);
  return { wallMs, cpuMs: Number(cpu.slice(MARKER.length)) };
}

function cliRow(metric: string, runs: readonly Figure[], note: string): BenchRow {
  const cpu = median(runs.map((figure) => figure.cpuMs));
  const wall = median(runs.map((figure) => figure.wallMs));
  return { section: "cli", metric, value: `${formatMs(cpu)} CPU`, note: `wall ${formatMs(wall)}; medians of ${runs.length}, user + system of the child; ${note}` };
}

/**
 * The baseline's bin/cql-review.js, its bundle built from `ref` with its own build script (the
 * sources from `git archive`, the dependencies of this clone); the compiled grammars module it
 * imports is this clone's. Undefined, with the reason, when the ref cannot be built here.
 */
function buildBaseline(ref: string): { bin: string } | { failed: string } {
  rmSync(BASELINE_DIR, { recursive: true, force: true });
  mkdirSync(join(BASELINE_DIR, "dist"), { recursive: true });
  const archive = spawnSync("sh", ["-c", `git archive --format=tar "$0" bin src rules scripts package.json | tar -x -C "$1"`, ref, BASELINE_DIR], { cwd: ROOT, encoding: "utf8" });
  if (archive.status !== 0) return { failed: `git archive ${ref}: ${archive.stderr.trim()}` };
  symlinkSync(join(ROOT, "dist", "src"), join(BASELINE_DIR, "dist", "src"));
  const build = spawnSync(process.execPath, ["scripts/build-lambda.mjs", "cli"], { cwd: BASELINE_DIR, encoding: "utf8", timeout: 120_000 });
  if (build.status !== 0) return { failed: `building the CLI of ${ref}: ${build.stderr.trim()}` };
  return { bin: join(BASELINE_DIR, "bin", "cql-review.js") };
}

export async function benchCliStart(): Promise<BenchRow[]> {
  if (!existsSync(`${ROOT}dist/cli/cql-review.cjs`)) throw new Error("dist/cli/cql-review.cjs is missing: run `npm run build`");
  const ref = process.env.CLI_BASELINE_REF || DEFAULT_BASELINE_REF;
  const baseline = buildBaseline(ref);
  const entries: Record<string, string> = { today: join(ROOT, "bin", "cql-review.js"), ...("bin" in baseline ? { [`baseline ${ref}`]: baseline.bin } : {}) };
  const rows: BenchRow[] = [];
  if ("failed" in baseline) rows.push({ section: "cli", metric: `baseline ${ref}`, value: "not built", note: baseline.failed });
  for (const [command, args] of Object.entries(COMMANDS)) {
    const load = `load average ${loadavg()[0]!.toFixed(1)}${cpuPressure()}`;
    const figures = new Map<string, Figure[]>(Object.keys(entries).map((name) => [name, []]));
    // Interleaved, so each sees the same load; the first run of each warms the code caches and the disk.
    for (let run = 0; run <= RUNS; run++) {
      for (const [name, bin] of Object.entries(entries)) {
        const figure = runOnce(bin, args);
        if (run > 0) figures.get(name)!.push(figure);
      }
    }
    const goal = GOAL_MS[command];
    for (const [name, runs] of figures) {
      rows.push(cliRow(`${command}, new process, ${name}`, runs, `${goal === undefined ? "" : `goal ${formatMs(goal)} wall on a quiet host; `}${load}`));
    }
  }
  const alone: Figure[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const figure = runOnce(undefined, []);
    if (run > 0) alone.push(figure);
  }
  rows.push(cliRow("node -e 0, new process (Node's own start)", alone, `load average ${loadavg()[0]!.toFixed(1)}${cpuPressure()}`));
  rmSync(BASELINE_DIR, { recursive: true, force: true });
  return rows;
}
