// Benchmark: the AWS Lambda bundles (scripts/build-lambda.mjs), the webhook function and the
// worker: their size, and how long a fresh Node process takes from start to a ready handler (bundle
// imported), and to its first event handled (the worker's cold start creates Probot and loads the
// app). Each start is a new `node` process, timed from inside by `performance.now()`, whose origin
// is the process start. Run after `npm run build`: node dist/bench/lambda.js
import { generateKeyPairSync } from "node:crypto";
import { spawnSync } from "node:child_process";
import { statSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { loadavg } from "node:os";
import { formatMiB, formatMs, median } from "./measure.js";
import type { BenchRow } from "./run.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUNDLES = { webhook: `${ROOT}dist/lambda/index.mjs`, worker: `${ROOT}dist/lambda/worker.mjs` } as const;
type LambdaFunction = keyof typeof BUNDLES;
const MARKER = "lambda-bench-result:";

/** Builds the bundles as `npm run build:lambda` does. */
export function buildLambdaBundle(): void {
  const build = spawnSync(process.execPath, [`${ROOT}scripts/build-lambda.mjs`, "lambda"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  if (build.status !== 0) throw new Error(`build-lambda failed: ${build.stderr || build.stdout}`);
}

/**
 * The probe a fresh process runs: import the bundle, then hand its handler one event that needs no
 * network. The webhook function gets a signed delivery it acknowledges without queueing (a
 * `labeled` action); the worker gets a queued draft pull request without an installation, which the
 * app ignores: so the first-event figure is Probot's creation and the app's loading.
 */
function probeScript(kind: LambdaFunction): string {
  return `
const { handler } = await import(${JSON.stringify(pathToFileURL(BUNDLES[kind]).href)});
const ready = performance.now();
const pullRequest = { action: ${JSON.stringify(kind === "webhook" ? "labeled" : "opened")}, number: 1,
  repository: { name: "r", owner: { login: "o" }, full_name: "o/r", default_branch: "main" },
  pull_request: { number: 1, state: "open", draft: true, head: { sha: "1".repeat(40) }, base: { sha: "2".repeat(40) } },
  sender: { login: "dev", type: "User" },
};
const payload = JSON.stringify(pullRequest);
let result;
if (${JSON.stringify(kind)} === "webhook") {
  const { createHmac } = await import("node:crypto");
  const signature = "sha256=" + createHmac("sha256", process.env.WEBHOOK_SECRET).update(payload).digest("hex");
  const answer = await handler({
    headers: { "x-github-delivery": "bench-1", "x-github-event": "pull_request", "x-hub-signature-256": signature },
    body: payload,
    requestContext: { http: { method: "POST" } },
  });
  result = answer.statusCode;
} else {
  const answer = await handler({ Records: [{ messageId: "m-1", body: JSON.stringify({ id: "bench-1", name: "pull_request", payload: pullRequest }) }] });
  result = answer.batchItemFailures.length === 0 ? "processed" : "failed";
}
const firstDelivery = performance.now();
process.stdout.write("\\n${MARKER}" + JSON.stringify({ ready, firstDelivery, status: result }) + "\\n");
`;
}

interface ColdStart {
  ready: number;
  firstDelivery: number;
  status: number | string;
}

/** The same measurement for a script that does nothing: what Node itself takes to start. */
function bareStart(): number {
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", `process.stdout.write("${MARKER}" + performance.now())`], { encoding: "utf8", timeout: 60_000 });
  return Number(child.stdout.slice(child.stdout.indexOf(MARKER) + MARKER.length));
}

function coldStart(kind: LambdaFunction, privateKey: string): ColdStart {
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", probeScript(kind)], {
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
  const privateKey = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  const bare = median(Array.from({ length: starts }, bareStart));
  const rows: BenchRow[] = [];
  for (const kind of ["webhook", "worker"] as const) {
    const bundle = BUNDLES[kind];
    const file = bundle.slice(bundle.lastIndexOf("/") + 1);
    const runs = Array.from({ length: starts }, () => coldStart(kind, privateKey));
    const statuses = [...new Set(runs.map((run) => run.status))].join(", ");
    rows.push(
      { section: "lambda", metric: `${kind} bundle size (dist/lambda/${file})`, value: formatMiB(statSync(bundle).size), note: `${formatMiB(gzipSync(readFileSync(bundle)).length)} gzipped` },
      {
        section: "lambda",
        metric: `${kind}: process start → handler ready`,
        value: formatMs(median(runs.map((run) => run.ready))),
        note: `median of ${starts} fresh processes; Node alone starts in ${formatMs(bare)} of it; load average ${loadavg()[0]!.toFixed(1)}`,
      },
      {
        section: "lambda",
        metric: `${kind}: process start → first event handled`,
        value: formatMs(median(runs.map((run) => run.firstDelivery))),
        note: kind === "webhook" ? `a signed delivery answered ${statuses}` : `Probot created, app loaded, a queued delivery ${statuses}`,
      },
    );
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchLambda()) process.stdout.write(`${row.metric}: ${row.value} (${row.note ?? ""})\n`);
}
