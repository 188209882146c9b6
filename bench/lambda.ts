// Benchmark: the AWS Lambda bundle (scripts/build-lambda.mjs): its size, and how long a fresh Node
// process takes from start to a ready handler, and to its first delivery handled (the cold start
// creates Probot and loads the app). Each start is a new `node` process, timed from inside by
// `performance.now()`, whose origin is the process start. Run after `npm run build`:
// node dist/bench/lambda.js
import { generateKeyPairSync } from "node:crypto";
import { spawnSync } from "node:child_process";
import { statSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { loadavg } from "node:os";
import { formatMiB, formatMs, median } from "./measure.js";
import type { BenchRow } from "./run.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUNDLE = `${ROOT}dist/lambda/index.mjs`;
const MARKER = "lambda-bench-result:";

/** Builds the bundle as `npm run build:lambda` does. */
export function buildLambdaBundle(): void {
  const build = spawnSync(process.execPath, [`${ROOT}scripts/build-lambda.mjs`, "lambda"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  if (build.status !== 0) throw new Error(`build-lambda failed: ${build.stderr || build.stdout}`);
}

/**
 * The probe a fresh process runs: import the bundle, then hand the handler one signed delivery
 * the app ignores without calling GitHub (a draft pull request), so the first-delivery figure is
 * Probot's creation and the app's loading, not network time.
 */
function probeScript(bundleUrl: string): string {
  return `
const { handler } = await import(${JSON.stringify(bundleUrl)});
const ready = performance.now();
const payload = JSON.stringify({
  action: "opened", number: 1, installation: { id: 1 },
  repository: { name: "r", owner: { login: "o" }, default_branch: "main" },
  pull_request: { number: 1, state: "open", draft: true, head: { sha: "1".repeat(40) }, base: { sha: "2".repeat(40) } },
  sender: { login: "dev", type: "User" },
});
const { createHmac } = await import("node:crypto");
const signature = "sha256=" + createHmac("sha256", process.env.WEBHOOK_SECRET).update(payload).digest("hex");
const result = await handler({
  headers: { "x-github-delivery": "bench-1", "x-github-event": "pull_request", "x-hub-signature-256": signature },
  body: payload,
  requestContext: { http: { method: "POST" } },
});
const firstDelivery = performance.now();
process.stdout.write("\\n${MARKER}" + JSON.stringify({ ready, firstDelivery, status: result.statusCode }) + "\\n");
`;
}

interface ColdStart {
  ready: number;
  firstDelivery: number;
  status: number;
}

/** The same measurement for a script that does nothing: what Node itself takes to start. */
function bareStart(): number {
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", `process.stdout.write("${MARKER}" + performance.now())`], { encoding: "utf8", timeout: 60_000 });
  return Number(child.stdout.slice(child.stdout.indexOf(MARKER) + MARKER.length));
}

function coldStart(privateKey: string): ColdStart {
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", probeScript(pathToFileURL(BUNDLE).href)], {
    encoding: "utf8",
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      APP_ID: "1",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: "bench-secret",
      LOG_LEVEL: "warn",
      // Nothing should reach GitHub; if something tried, it would hit a closed loopback port.
      GHE_HOST: "127.0.0.1:9",
      GHE_PROTOCOL: "http",
    },
  });
  const line = child.stdout.split("\n").find((entry) => entry.startsWith(MARKER));
  if (child.status !== 0 || !line) throw new Error(`Lambda cold start failed (${child.status ?? child.signal}): ${child.stderr.slice(0, 2_000)}`);
  return JSON.parse(line.slice(MARKER.length)) as ColdStart;
}

export async function benchLambda(starts = 7): Promise<BenchRow[]> {
  buildLambdaBundle();
  const bytes = statSync(BUNDLE).size;
  const gzipped = gzipSync(readFileSync(BUNDLE)).length;
  const privateKey = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  const runs = Array.from({ length: starts }, () => coldStart(privateKey));
  const bare = median(Array.from({ length: starts }, bareStart));
  const statuses = [...new Set(runs.map((run) => run.status))].join(", ");
  return [
    { section: "lambda", metric: "bundle size (dist/lambda/index.mjs)", value: formatMiB(bytes), note: `${formatMiB(gzipped)} gzipped` },
    {
      section: "lambda",
      metric: "process start → handler ready",
      value: formatMs(median(runs.map((run) => run.ready))),
      note: `median of ${starts} fresh processes; Node alone starts in ${formatMs(bare)} of it; load average ${loadavg()[0]!.toFixed(1)}`,
    },
    {
      section: "lambda",
      metric: "process start → first delivery handled",
      value: formatMs(median(runs.map((run) => run.firstDelivery))),
      note: `cold start: Probot created, app loaded, a signed delivery answered ${statuses}`,
    },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchLambda()) process.stdout.write(`${row.metric}: ${row.value} (${row.note ?? ""})\n`);
}
