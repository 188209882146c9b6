// CPU time of this process spent in a call, for the tests that guard against a hang on hostile
// input. Not wall time: on a loaded machine a process waits for a core, and a wall-time bound
// fails there though nothing became slower. These bounds are guards, far above what the call
// takes, never speed targets (npm run bench measures those).

/** Runs `run`; its result and the CPU milliseconds (user + system) this process spent meanwhile. */
export function withCpuTime<T>(run: () => T): { result: T; cpuMs: number } {
  const before = process.cpuUsage();
  const result = run();
  const used = process.cpuUsage(before);
  return { result, cpuMs: (used.user + used.system) / 1000 };
}
