// `npm run limits`: the worst inputs the review's limits accept, each reviewed end to end (head and
// base, rules, check summary) in a fresh child process, with the wall-clock budget the GitHub App
// uses. Reports time and peak RSS, and exits non-zero when a case runs out of its budget (a
// "not reviewed" finding) or goes over 512 MB. Run after `npm run build`: node dist/bench/limits.js
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { REVIEW_TIME_BUDGET_MS } from "../src/github/worker/core.js";
import { renderCheckSummary } from "../src/report/markdown.js";
import { REVIEW_LIMITS, review, type ReviewInput, type SourceFile } from "../src/review.js";

const CHILD_FLAG = "--limits-case";
const RSS_LIMIT_BYTES = 512 * 1024 * 1024;
const KEYSPACE = "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n";

/** Statements cut into files of at most `fileBytes` and `statementsPerFile`, in path order. */
function filesOf(prefix: string, statements: string[]): SourceFile[] {
  const files: SourceFile[] = [];
  let current: string[] = [];
  let bytes = 0;
  const flush = () => {
    files.push({ path: `${prefix}${String(files.length).padStart(4, "0")}.cql`, content: current.join("") });
    current = [];
    bytes = 0;
  };
  for (const statement of statements) {
    if (current.length > 0 && (bytes + statement.length > REVIEW_LIMITS.fileBytes || current.length >= REVIEW_LIMITS.statementsPerFile)) flush();
    current.push(statement);
    bytes += statement.length;
  }
  if (current.length > 0) flush();
  return files;
}

/** As many tables as the statements per review allow, every one changed between base and head (each change rule reports each). */
function manyTables(): ReviewInput {
  const count = REVIEW_LIMITS.statementsPerReview - 1;
  const tables = (type: string) => [KEYSPACE, ...Array.from({ length: count }, (_, i) => `CREATE TABLE shop.t${i} (id int PRIMARY KEY, v ${type});\n`)];
  return { files: filesOf("schema/", tables("bigint")), baseFiles: filesOf("schema/", tables("int")) };
}

/**
 * Unserved abstract queries (each gets a suggested table) over `tables` tables: as many as the
 * query plans per review allow, and as fit in one manifest.
 */
function unservedManifest(tables: number): ReviewInput {
  const most = Math.min(REVIEW_LIMITS.queriesPerReview, Math.floor(REVIEW_LIMITS.queryPlansPerReview / tables));
  const columns = Array.from({ length: 40 }, (_, i) => `c${i} int`).join(", ");
  const schema = [KEYSPACE, ...Array.from({ length: tables }, (_, t) => `CREATE TABLE shop.t${t} (id int PRIMARY KEY, ${columns});\n`)].join("");
  const lines = ["version: 1", "keyspace: shop", "queries:"];
  let bytes = 0;
  for (let i = 0; i < most; i++) {
    const entry = `  - id: Q${i}\n    select: [id, c${i % 40}]\n    where: { c${(i + 1) % 40}: "=", c${(i + 7) % 40}: ">" }\n    order_by: { c${(i + 3) % 40}: desc }\n`;
    if (bytes + entry.length > REVIEW_LIMITS.fileBytes - 100) break;
    lines.push(entry.trimEnd());
    bytes += entry.length;
  }
  const files = [{ path: "schema/shop.cql", content: schema }, { path: "access-patterns.yaml", content: `${lines.join("\n")}\n` }];
  // The base holds the same files: both commits are planned.
  return { files, baseFiles: files };
}

/**
 * The most queries, each naming its own table, over as many tables as the statements allow: the
 * query-plans limit counts one plan for each, so nothing stops this short of the query limit.
 */
function namedQueries(): ReviewInput {
  const tables = REVIEW_LIMITS.statementsPerReview - 1;
  const queries = REVIEW_LIMITS.queriesPerReview;
  const statements = [KEYSPACE, ...Array.from({ length: tables }, (_, t) => `CREATE TABLE shop.t${t} (id int, at timestamp, v text, PRIMARY KEY ((id), at));\n`)];
  const entries = Array.from({ length: queries }, (_, i) => `  - id: Q${i}\n    cql: SELECT v FROM t${i * 3} WHERE id = ? AND at > ?`);
  const files = [
    ...filesOf("schema/", statements),
    { path: "access-patterns.yaml", content: `version: 1\nkeyspace: shop\nqueries:\n${entries.join("\n")}\n` },
  ];
  return { files, baseFiles: files };
}

/** The most files per review, each a small table. */
function manyFiles(): ReviewInput {
  const files = Array.from({ length: REVIEW_LIMITS.filesPerReview - 1 }, (_, i) => ({
    path: `schema/t${String(i).padStart(5, "0")}.cql`,
    content: `CREATE TABLE shop.t${i} (id int PRIMARY KEY, a text, b int, c list<text>);\n`,
  }));
  return { files: [{ path: "schema/0000_keyspace.cql", content: KEYSPACE }, ...files], baseFiles: files };
}

/** Deep nesting: a column type nested as deep as one file allows, and a deeply nested manifest. */
function deepNesting(): ReviewInput {
  const depth = 5_000;
  const type = `${"frozen<list<".repeat(depth)}int${">>".repeat(depth)}`;
  const yaml = `version: 1\nkeyspace: shop\nqueries: ${"[".repeat(depth)}${"]".repeat(depth)}\n`;
  return {
    files: [
      { path: "schema/deep.cql", content: `${KEYSPACE}CREATE TABLE shop.deep (id int PRIMARY KEY, v ${type});\n` },
      { path: "access-patterns.yaml", content: yaml },
    ],
  };
}

const CASES: Record<string, { describe: string; input: () => ReviewInput }> = {
  "many-tables": { describe: `${REVIEW_LIMITS.statementsPerReview - 1} tables, head and base, every column type changed`, input: manyTables },
  "unserved-manifest": { describe: `${REVIEW_LIMITS.queriesPerReview} unserved abstract queries over 8 tables, head and base`, input: () => unservedManifest(8) },
  "query-plans": { describe: "unserved abstract queries over 200 tables, as many as the query plans allow, head and base", input: () => unservedManifest(200) },
  "named-queries": { describe: `${REVIEW_LIMITS.queriesPerReview} queries naming their tables over ${REVIEW_LIMITS.statementsPerReview - 1} tables, head and base`, input: namedQueries },
  "many-files": { describe: `${REVIEW_LIMITS.filesPerReview} schema files, head and base`, input: manyFiles },
  "deep-nesting": { describe: "a column type and a manifest nested 5,000 deep", input: deepNesting },
};

interface CaseReport {
  name: string;
  inputBytes: number;
  ms: number;
  maxRssBytes: number;
  findings: number;
  stopped: boolean;
  unreviewed: string[];
}

function runCase(name: string): CaseReport {
  const input = CASES[name]!.input();
  const inputBytes = [...input.files, ...(input.baseFiles ?? [])].reduce((sum, f) => sum + Buffer.byteLength(f.content), 0);
  const started = performance.now();
  const deadline = started + REVIEW_TIME_BUDGET_MS;
  const result = review({ ...input, pastDeadline: () => performance.now() > deadline });
  renderCheckSummary(result);
  const ms = performance.now() - started;
  return {
    name,
    inputBytes,
    ms,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    findings: result.findings.length,
    stopped: result.findings.some((f) => f.fingerprint.startsWith("input-limit-exceeded:time-budget")),
    unreviewed: result.unreviewed.map((u) => `${u.file}: ${u.reason}`.slice(0, 160)),
  };
}

function spawnCase(name: string): CaseReport {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), CHILD_FLAG, name], { encoding: "utf8", timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
  if (child.status !== 0) throw new Error(`case ${name} failed (${child.status ?? child.signal}): ${child.stderr.slice(0, 2_000)}`);
  return JSON.parse(child.stdout) as CaseReport;
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(0)} MiB`;

function main(): number {
  const only = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
  let over = 0;
  console.log(`budget ${REVIEW_TIME_BUDGET_MS / 1000} s, ${mb(RSS_LIMIT_BYTES)} peak RSS; node ${process.version}`);
  for (const name of only.length > 0 ? only : Object.keys(CASES)) {
    const report = spawnCase(name);
    const fails = report.stopped || report.maxRssBytes > RSS_LIMIT_BYTES;
    if (fails) over++;
    console.log(
      `${fails ? "OVER" : "ok  "} ${name.padEnd(18)} ${(report.ms / 1000).toFixed(1).padStart(5)} s  ${mb(report.maxRssBytes).padStart(8)}  ` +
        `${mb(report.inputBytes).padStart(7)} in, ${report.findings} findings — ${CASES[name]!.describe}`,
    );
    for (const line of report.unreviewed.slice(0, 3)) console.log(`       not reviewed: ${line}`);
  }
  return over === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const at = process.argv.indexOf(CHILD_FLAG);
  if (at >= 0) process.stdout.write(JSON.stringify(runCase(process.argv[at + 1]!)));
  else process.exitCode = main();
}
