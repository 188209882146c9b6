// The CQL front-end's throughput: lex + parse + AST (parseCql) over a generated schema of several
// megabytes, the median of several runs after a warm-up; and the cost of loading the parser, whose
// grammar self-analysis runs once when the module loads.
import { performance } from "node:perf_hooks";
import { generateCql } from "./generate-cql.js";
import type { BenchRow } from "./run.js";

const TARGET_BYTES = 8_000_000;
const RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function time(work: () => unknown): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

const megabytesPerSecond = (bytes: number, ms: number) => `${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;

export async function benchParse(): Promise<BenchRow[]> {
  // Loaded here, not at the top, so the first load (grammar self-analysis included) can be timed.
  const loadStart = performance.now();
  const { parseCql } = await import("../src/cql/index.js");
  const loadMs = performance.now() - loadStart;
  const { lexCql } = await import("../src/cql/lexer.js");

  const schema = generateCql(TARGET_BYTES);
  const bytes = Buffer.byteLength(schema.text, "utf8");
  const warmUp = parseCql(schema.text);
  const errors = warmUp.diagnostics.filter((d) => d.severity === "error").length;

  const lexTimes = Array.from({ length: RUNS }, () => time(() => lexCql(schema.text)));
  const parseTimes = Array.from({ length: RUNS }, () => time(() => parseCql(schema.text)));
  const parseMedian = median(parseTimes);
  const spread = `${Math.min(...parseTimes).toFixed(0)}–${Math.max(...parseTimes).toFixed(0)} ms`;

  return [
    {
      section: "parse",
      metric: "input",
      value: `${(bytes / 1e6).toFixed(1)} MB`,
      note: `${schema.tables} tables, ${warmUp.statements.length} statements parsed, ${errors} syntax errors`,
    },
    {
      section: "parse",
      metric: "lex + parse + AST",
      value: megabytesPerSecond(bytes, parseMedian),
      note: `median of ${RUNS} runs of parseCql (${spread}); target ≥ 10 MB/s`,
    },
    {
      section: "parse",
      metric: "statements per second",
      value: `${Math.round(warmUp.statements.length / (parseMedian / 1000)).toLocaleString("en-US")}`,
    },
    { section: "parse", metric: "lex only", value: megabytesPerSecond(bytes, median(lexTimes)), note: `median of ${RUNS} runs of lexCql` },
    { section: "parse", metric: "parser load", value: `${loadMs.toFixed(0)} ms`, note: "first import: grammar self-analysis, once per process" },
  ];
}
