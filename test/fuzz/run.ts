// The worker behind `npm run fuzz` (scripts/fuzz.mjs bundles and starts it): runs the properties of
// properties.ts for the inputs it is given, in chunks, and prints one JSON line per chunk so the
// parent can add up counts and times and notice a hang. Arguments: --plan NAME:RUNS[,NAME:RUNS…]
// --seed S [--chunk N].
import fc from "fast-check";
import { performance } from "node:perf_hooks";
import { FUZZ_TARGETS } from "./properties.js";

export interface ChunkReport {
  target: string;
  seed: number;
  inputs: number;
  ms: number;
  /** fast-check's report of the failing input, shrunk */
  failure?: string;
}

function argument(name: string, fallback?: string): string {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? process.argv[index + 1] : fallback;
  if (value === undefined) throw new Error(`missing --${name}`);
  return value;
}

const plan = argument("plan")
  .split(",")
  .map((entry) => {
    const [name, runs] = entry.split(":");
    const target = FUZZ_TARGETS.find((candidate) => candidate.name === name);
    if (!target) throw new Error(`unknown target ${name}; known: ${FUZZ_TARGETS.map((t) => t.name).join(", ")}`);
    return { target, runs: Number(runs) };
  });
const seed = Number(argument("seed"));
const chunk = Number(argument("chunk", "2000"));

for (const { target, runs } of plan) {
  const property = target.property();
  for (let done = 0, index = 0; done < runs; index++) {
    const inputs = Math.min(chunk, runs - done);
    const chunkSeed = (seed + index * 7_919) | 0;
    // Announced before running, so a parent that sees no report for too long knows which chunk hangs.
    process.stdout.write(`${JSON.stringify({ starting: target.name, seed: chunkSeed, inputs })}\n`);
    const started = performance.now();
    const details = fc.check(property, { seed: chunkSeed, numRuns: inputs });
    const report: ChunkReport = { target: target.name, seed: chunkSeed, inputs: details.numRuns, ms: performance.now() - started };
    if (details.failed) {
      const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      report.failure = `${cause}\n${fc.defaultReportMessage(details) ?? ""}`;
    }
    process.stdout.write(`${JSON.stringify(report)}\n`);
    done += inputs;
    if (details.failed) break; // one shrunk counterexample per target is enough to act on
  }
}
