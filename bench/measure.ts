// Small helpers shared by the review, memory and Lambda benchmarks: repeated timing with a median,
// and the figures' formatting.
import { performance } from "node:perf_hooks";

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds of each of `runs` calls of `work`, after `warmUp` untimed calls. */
export function timeRuns(work: () => unknown, runs: number, warmUp = 1): number[] {
  for (let i = 0; i < warmUp; i++) work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return times;
}

export function formatMs(ms: number): string {
  return ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`;
}

export function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MiB`;
}

/** The spread of the runs, so a reader can tell a quiet machine from a busy one. */
export function spread(times: readonly number[]): string {
  return `${times.length} runs, ${formatMs(Math.min(...times))}–${formatMs(Math.max(...times))}`;
}
