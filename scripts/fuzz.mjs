#!/usr/bin/env node
// `npm run fuzz`: the fuzz targets of test/fuzz/properties.ts with many more inputs than the test
// suite runs. Bundles the worker (test/fuzz/run.ts) with esbuild, splits the inputs over worker
// processes, and prints the count, time and failures per target. A worker that reports nothing for
// --stall-seconds is stopped and its chunk reported as a hang.
//
//   npm run fuzz                               one million inputs over all targets, 2 workers
//   npm run fuzz -- --total 50000              fewer inputs
//   npm run fuzz -- --target parser --runs 200000 --seed 42 --jobs 1
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: {
    total: { type: "string", default: "1000000" },
    runs: { type: "string" },
    target: { type: "string", multiple: true },
    seed: { type: "string" },
    jobs: { type: "string", default: "2" },
    chunk: { type: "string", default: "2000" },
    "stall-seconds": { type: "string", default: "120" },
  },
});

const worker = "dist/fuzz/run.mjs";
await build({
  absWorkingDir: root,
  entryPoints: ["test/fuzz/run.ts"],
  outfile: worker,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  logLevel: "warning",
});
// The worker runs on import, so the target list (names and weights) comes from its own small bundle.
const listing = "dist/fuzz/targets.mjs";
await build({
  absWorkingDir: root,
  stdin: { contents: 'export { FUZZ_TARGETS } from "./test/fuzz/properties.ts";', resolveDir: root, loader: "ts" },
  outfile: listing,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  logLevel: "warning",
});
const targets = (await import(new URL(`../${listing}`, import.meta.url).href)).FUZZ_TARGETS;

const selected = values.target ? targets.filter((target) => values.target.includes(target.name)) : targets;
if (selected.length === 0) {
  process.stderr.write(`no such target; known: ${targets.map((target) => target.name).join(", ")}\n`);
  process.exit(2);
}
const jobs = Math.max(1, Number(values.jobs));
const totalWeight = selected.reduce((sum, target) => sum + target.weight, 0);
const runsOf = (target) => (values.runs ? Number(values.runs) : Math.round((Number(values.total) * target.weight) / totalWeight));
const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2_147_483_647;
process.stdout.write(`fuzz: seed ${seed}, ${jobs} worker${jobs === 1 ? "" : "s"}, ${selected.map((t) => `${t.name} ${runsOf(t).toLocaleString("en-US")}`).join(", ")}\n`);

const totals = new Map(selected.map((target) => [target.name, { inputs: 0, ms: 0, failures: [] }]));
const started = Date.now();

function runWorker(job) {
  // Each worker takes an equal share of every target, with its own seeds.
  const plan = selected.map((target) => `${target.name}:${Math.floor(runsOf(target) / jobs) + (job < runsOf(target) % jobs ? 1 : 0)}`).join(",");
  const child = spawn(process.execPath, [worker, "--plan", plan, "--seed", String(seed + job * 1_000_003), "--chunk", values.chunk], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve) => {
    let pending = "";
    let current = "(starting)";
    let timer;
    const watchdog = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        totals.get(current.split(" ")[0])?.failures.push(`hang: no progress for ${values["stall-seconds"]} s in ${current}`);
        child.kill("SIGKILL");
      }, Number(values["stall-seconds"]) * 1000);
    };
    watchdog();
    child.stdout.on("data", (data) => {
      pending += data;
      let newline;
      while ((newline = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        const report = JSON.parse(line);
        watchdog();
        if (report.starting) {
          current = `${report.starting} (chunk seed ${report.seed}, ${report.inputs} inputs)`;
          continue;
        }
        const total = totals.get(report.target);
        total.inputs += report.inputs;
        total.ms += report.ms;
        if (report.failure) total.failures.push(`seed ${report.seed}:\n${report.failure}`);
      }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0 && signal !== "SIGKILL") totals.get(current.split(" ")[0])?.failures.push(`worker exited with ${code ?? signal} in ${current}`);
      resolve();
    });
  });
}

const progress = setInterval(() => {
  const done = [...totals.values()].reduce((sum, total) => sum + total.inputs, 0);
  process.stdout.write(`  … ${done.toLocaleString("en-US")} inputs in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}, 60_000);
await Promise.all(Array.from({ length: jobs }, (_, job) => runWorker(job)));
clearInterval(progress);

let inputs = 0;
let failures = 0;
process.stdout.write(`\n${"target".padEnd(12)} ${"inputs".padStart(11)} ${"cpu time".padStart(10)} ${"µs/input".padStart(9)}  failures\n`);
for (const target of selected) {
  const total = totals.get(target.name);
  inputs += total.inputs;
  failures += total.failures.length;
  const perInput = total.inputs > 0 ? ((total.ms * 1000) / total.inputs).toFixed(0) : "-";
  process.stdout.write(
    `${target.name.padEnd(12)} ${total.inputs.toLocaleString("en-US").padStart(11)} ${`${(total.ms / 1000).toFixed(1)} s`.padStart(10)} ${perInput.padStart(9)}  ${total.failures.length}\n`,
  );
}
process.stdout.write(`${"total".padEnd(12)} ${inputs.toLocaleString("en-US").padStart(11)}  wall ${((Date.now() - started) / 1000).toFixed(1)} s, ${failures} failure${failures === 1 ? "" : "s"}\n`);
for (const [name, total] of totals) for (const failure of total.failures) process.stdout.write(`\n${name} FAILED (${failure})\n`);
process.exit(failures > 0 ? 1 : 0);
