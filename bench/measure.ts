// Small helpers shared by the review, memory and Lambda benchmarks: repeated timing with a median,
// and the figures' formatting.
import { readFileSync } from "node:fs";
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

/** CPU milliseconds of the main thread so far, or undefined where /proc is not available. */
export function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, in clock ticks (100 per second on Linux)
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

export interface Timing {
  wallMs: number;
  /** the main thread's own CPU time: it leaves out waiting for a CPU and the collector's helper threads */
  cpuMs: number | undefined;
}

export function time(work: () => unknown): Timing {
  const cpuStart = mainThreadCpuMs();
  const start = performance.now();
  work();
  const wallMs = performance.now() - start;
  const cpuEnd = mainThreadCpuMs();
  return { wallMs, cpuMs: cpuStart === undefined || cpuEnd === undefined ? undefined : cpuEnd - cpuStart };
}

/**
 * How much of the last 10 s runnable work waited for a CPU (Linux pressure stall information),
 * as "; CPU pressure N %": on a shared VM this shows when the host, not the code, was slow.
 */
export function cpuPressure(): string {
  try {
    const some = /some avg10=([\d.]+)/.exec(readFileSync("/proc/pressure/cpu", "utf8"));
    return some ? `; CPU pressure ${Number(some[1]).toFixed(0)} %` : "";
  } catch {
    return "";
  }
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

/**
 * Throws unless the review did all its work: a review stopped by a limit (or failing inside) is
 * quick, and timing it would report the refusal's speed as the review's.
 */
export function assertWholeReview(findings: readonly { rule: string; message: string }[], what: string): void {
  const stopped = findings.find((finding) => finding.rule === "input-limit-exceeded" || finding.rule === "internal-error");
  if (stopped) throw new Error(`the benchmark's ${what} was not reviewed whole: ${stopped.message}`);
}
