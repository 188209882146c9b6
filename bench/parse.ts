// The CQL front-end's throughput: lex + parse + AST (parseCql) over a generated schema of several
// megabytes, the median of several runs after a warm-up; and the cost of loading the parser, whose
// grammar self-analysis runs once when the module loads.
//
// Wall-clock figures depend on what else the machine runs. On Linux the main thread's own CPU time
// is reported too (/proc/self/task/<pid>/stat): it leaves out waiting for a CPU and the garbage
// collector's helper threads, so it moves less when the machine is shared.
import { loadavg } from "node:os";
import { generateCql } from "./generate-cql.js";
import { cpuPressure, median, time } from "./measure.js";
import type { BenchRow } from "./run.js";

const TARGET_BYTES = 8_000_000;
const RUNS = 9;

const megabytesPerSecond = (bytes: number, ms: number) => `${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;

export async function benchParse(): Promise<BenchRow[]> {
  // Loaded here, not at the top, so the first load (grammar self-analysis included) can be timed.
  const loadStart = performance.now();
  const { parseCql } = await import("../src/cql/index.js");
  const loadMs = performance.now() - loadStart;
  const { CqlScanner } = await import("../src/cql/lexer.js");

  const schema = generateCql(TARGET_BYTES);
  const bytes = Buffer.byteLength(schema.text, "utf8");
  const warmUp = parseCql(schema.text);
  const errors = warmUp.diagnostics.filter((d) => d.severity === "error").length;

  const scanAll = () => {
    const scanner = new CqlScanner(schema.text);
    while (scanner.next() !== undefined);
  };
  const lexTimes = Array.from({ length: RUNS }, () => time(scanAll));
  const parseTimes = Array.from({ length: RUNS }, () => time(() => parseCql(schema.text)));
  const wallMedian = median(parseTimes.map((t) => t.wallMs));
  const cpuTimes = parseTimes.map((t) => t.cpuMs).filter((ms): ms is number => ms !== undefined);
  const spread = `${Math.min(...parseTimes.map((t) => t.wallMs)).toFixed(0)}–${Math.max(...parseTimes.map((t) => t.wallMs)).toFixed(0)} ms`;
  const load = loadavg()[0]!.toFixed(1);

  const rows: BenchRow[] = [
    {
      section: "parse",
      metric: "input",
      value: `${(bytes / 1e6).toFixed(1)} MB`,
      note: `${schema.tables} tables, ${warmUp.statements.length} statements parsed, ${errors} syntax errors`,
    },
    {
      section: "parse",
      metric: "lex + parse + AST",
      value: megabytesPerSecond(bytes, wallMedian),
      note: `wall clock, median of ${RUNS} runs of parseCql (${spread}); load average ${load}${cpuPressure()}; target ≥ 10 MB/s`,
    },
  ];
  if (cpuTimes.length === RUNS) {
    rows.push({
      section: "parse",
      metric: "lex + parse + AST (CPU)",
      value: megabytesPerSecond(bytes, median(cpuTimes)),
      note: "per second of the main thread's CPU time, median",
    });
  }
  rows.push(
    { section: "parse", metric: "statements per second", value: Math.round(warmUp.statements.length / (wallMedian / 1000)).toLocaleString("en-US") },
    { section: "parse", metric: "lex only", value: megabytesPerSecond(bytes, median(lexTimes.map((t) => t.wallMs))), note: `wall clock, median of ${RUNS} scans` },
    { section: "parse", metric: "parser load", value: `${loadMs.toFixed(0)} ms`, note: "first import: grammar self-analysis, once per process" },
  );
  return rows;
}
