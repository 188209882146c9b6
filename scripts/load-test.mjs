#!/usr/bin/env node
// Load test of the real Probot server (dist/src/github/server.js, as `npm start` runs it) against a
// mock GitHub API on loopback, reached the way GitHub Enterprise Server is (GHE_HOST, GHE_PROTOCOL).
// Sends N signed pull_request.opened deliveries at once, waits (bounded) for every check run to
// complete, and reports deliveries accepted, check runs completed, latencies and errors. Only
// 127.0.0.1 traffic; the server is stopped at the end whatever happens.
//
//   npm run load-test                                 200 deliveries, one installation each
//   npm run load-test -- --installations 1 --deliveries 20   every PR in one installation
//   node scripts/load-test.mjs --deliveries 50 --latency-ms 50 --timeout-s 120
import { spawn } from "node:child_process";
import { createHmac, generateKeyPairSync, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { connect, createServer as createTcpServer } from "node:net";
import { tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: {
    deliveries: { type: "string", default: "200" },
    installations: { type: "string" },
    "latency-ms": { type: "string", default: "0" },
    "timeout-s": { type: "string", default: "300" },
  },
});
const DELIVERIES = Number(values.deliveries);
// By default every pull request belongs to its own installation, as deliveries to a public app
// arrive; Octokit's throttling spaces one installation's writes a second apart.
const INSTALLATIONS = Math.min(Number(values.installations ?? DELIVERIES), DELIVERIES);
const LATENCY_MS = Number(values["latency-ms"]);
const TIMEOUT_MS = Number(values["timeout-s"]) * 1000;
const SECRET = randomBytes(16).toString("hex");

// ---------------------------------------------------------------------------------------------
// The repository every pull request is opened on: the sample model, plus one table per PR.

const sample = new Map([["access-patterns.yaml", readFileSync(`${root}examples/iot/access-patterns.yaml`, "utf8")]]);
for (const name of readdirSync(`${root}examples/iot/schema`)) sample.set(`schema/${name}`, readFileSync(`${root}examples/iot/schema/${name}`, "utf8"));

const headSha = (number) => number.toString(16).padStart(40, "a");
const BASE_SHA = "b".repeat(40);
const addedPath = (number) => `schema/050_pr_${number}.cql`;
const addedTable = (number) =>
  `USE iot;\n\n-- Added by pull request ${number}.\nCREATE TABLE IF NOT EXISTS events_${number} (\n  device_id uuid,\n  at timestamp,\n  kind text,\n  PRIMARY KEY ((device_id), at)\n);\n`;

function headFiles(number) {
  return new Map([...sample, [addedPath(number), addedTable(number)]]);
}

// ---------------------------------------------------------------------------------------------
// Mock GitHub API (REST under /api/v3, GraphQL at /api/graphql)

const stats = {
  requests: 0,
  unexpected: [],
  checkRuns: new Map(), // id → pull request number
  completed: new Map(), // pull request number → ms since start
  conclusions: new Map(),
};
let nextCheckRunId = 1;
let startedAt = 0;

function readBody(request) {
  return new Promise((resolve) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

function numberOfSha(sha) {
  return Number.parseInt(sha.replace(/^a+/, ""), 16);
}

async function answer(request) {
  const url = new URL(request.url, "http://127.0.0.1");
  const body = await readBody(request);
  const json = body ? JSON.parse(body) : undefined;
  const path = url.pathname;
  let match;
  if (request.method === "POST" && /^\/api\/v3\/app\/installations\/\d+\/access_tokens$/.test(path)) {
    return [201, { token: `ghs_${randomBytes(8).toString("hex")}`, expires_at: new Date(Date.now() + 3_600_000).toISOString() }];
  }
  if (request.method === "POST" && (match = /^\/api\/v3\/repos\/[^/]+\/[^/]+\/check-runs$/.exec(path))) {
    const id = nextCheckRunId++;
    stats.checkRuns.set(id, numberOfSha(json.head_sha));
    return [201, { id }];
  }
  if (request.method === "PATCH" && (match = /^\/api\/v3\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/.exec(path))) {
    const number = stats.checkRuns.get(Number(match[1]));
    if (json.status === "completed" || json.conclusion) {
      stats.completed.set(number, performance.now() - startedAt);
      stats.conclusions.set(number, json.conclusion);
    }
    return [200, { id: Number(match[1]) }];
  }
  if (request.method === "GET" && (match = /^\/api\/v3\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/files$/.exec(path))) {
    const number = Number(match[1]);
    const text = addedTable(number);
    const patch = `@@ -0,0 +1,${text.split("\n").length - 1} @@\n${text.replace(/\n$/, "").replace(/^/gm, "+")}`;
    return [200, [{ filename: addedPath(number), status: "added", patch }]];
  }
  if (request.method === "GET" && (match = /^\/api\/v3\/repos\/[^/]+\/[^/]+\/git\/trees\/([0-9a-f]{40})$/.exec(path))) {
    const files = headFiles(numberOfSha(match[1]));
    return [200, { sha: match[1], truncated: false, tree: [...files].map(([entry, text]) => ({ path: entry, type: "blob", size: text.length })) }];
  }
  if (request.method === "POST" && path === "/api/graphql") {
    const repository = {};
    for (const [name, expression] of Object.entries(json.variables ?? {})) {
      if (!/^e\d+$/.test(name)) continue;
      const [sha, file] = [expression.slice(0, 40), expression.slice(41)];
      const text = sha === BASE_SHA ? sample.get(file) : headFiles(numberOfSha(sha)).get(file);
      repository[`f${name.slice(1)}`] = text === undefined ? null : { text, isBinary: false, byteSize: text.length, isTruncated: false };
    }
    if ("config" in (json.variables ?? {})) repository.config = null;
    if (/pullRequest\(/.test(json.query)) repository.pullRequest = { reviewThreads: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] } };
    return [200, { data: { repository } }];
  }
  if (request.method === "POST" && /^\/api\/v3\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/reviews$/.test(path)) {
    return [200, { id: 1 }];
  }
  stats.unexpected.push(`${request.method} ${path}`);
  return [404, { message: "Not Found (load-test mock)" }];
}

const github = createServer((request, response) => {
  stats.requests++;
  answer(request)
    .then(([status, payload]) => new Promise((resolve) => setTimeout(() => resolve([status, payload]), LATENCY_MS)))
    .then(([status, payload]) => {
      response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify(payload));
    })
    .catch((error) => {
      stats.unexpected.push(`mock error: ${error.message}`);
      response.writeHead(500).end();
    });
});

// ---------------------------------------------------------------------------------------------
// Helpers

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createTcpServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function listening(port) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (value) => (Number.isNaN(value) ? "-" : `${Math.round(value)} ms`);

function delivery(number) {
  const installation = ((number - 1) % INSTALLATIONS) + 1;
  const payload = JSON.stringify({
    action: "opened",
    number,
    installation: { id: installation },
    repository: { id: installation, name: `models-${installation}`, full_name: `org-${installation}/models-${installation}`, owner: { login: `org-${installation}` }, default_branch: "main" },
    pull_request: { number, state: "open", draft: false, head: { sha: headSha(number) }, base: { sha: BASE_SHA } },
    sender: { login: "dev", type: "User" },
  });
  return {
    body: payload,
    headers: {
      "content-type": "application/json",
      "x-github-event": "pull_request",
      "x-github-delivery": `load-${number}-${randomBytes(4).toString("hex")}`,
      "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(payload).digest("hex")}`,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Run

const githubPort = await freePort();
await new Promise((resolve) => github.listen(githubPort, "127.0.0.1", resolve));
const appPort = await freePort();
const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

const serverErrors = [];
// A scratch working directory: no developer .env can change what is measured.
const server = spawn(process.execPath, [`${root}dist/src/github/server.js`], {
  cwd: tmpdir(),
  env: {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    APP_ID: "4242",
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET: SECRET,
    HOST: "127.0.0.1",
    PORT: String(appPort),
    GHE_HOST: `127.0.0.1:${githubPort}`,
    GHE_PROTOCOL: "http",
    LOG_LEVEL: "warn",
    LOG_FORMAT: "json",
  },
  stdio: ["ignore", "pipe", "pipe"],
});
const collectLog = (data) => {
  for (const line of String(data).split("\n")) if (/"level":(50|60)|Error/.test(line)) serverErrors.push(line.slice(0, 400));
};
server.stdout.on("data", collectLog);
server.stderr.on("data", collectLog);
const stopServer = () => {
  if (server.exitCode === null) server.kill("SIGTERM");
};
process.on("exit", stopServer);

let exitCode = 1;
try {
  const readyBy = Date.now() + 30_000;
  while (!(await listening(appPort))) {
    if (server.exitCode !== null || Date.now() > readyBy) throw new Error(`the server did not start: ${serverErrors.join("\n") || `exit ${server.exitCode}`}`);
    await sleep(50);
  }

  const requests = Array.from({ length: DELIVERIES }, (_, index) => delivery(index + 1));
  const responses = [];
  startedAt = performance.now();
  await Promise.all(
    requests.map(async ({ body, headers }, index) => {
      const sent = performance.now();
      try {
        const response = await fetch(`http://127.0.0.1:${appPort}/api/github/webhooks`, { method: "POST", headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
        await response.arrayBuffer();
        responses[index] = { status: response.status, ms: performance.now() - sent };
      } catch (error) {
        responses[index] = { status: 0, ms: performance.now() - sent, error: error.message };
      }
    }),
  );
  const deadline = startedAt + TIMEOUT_MS;
  while (stats.completed.size < DELIVERIES && performance.now() < deadline && server.exitCode === null) await sleep(100);
  const wall = performance.now() - startedAt;

  const accepted = responses.filter((r) => r.status >= 200 && r.status < 300).length;
  const statuses = Object.entries(responses.reduce((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {}))
    .map(([status, count]) => `${status}×${count}`)
    .join(", ");
  const responseTimes = responses.map((r) => r.ms);
  const completionTimes = [...stats.completed.values()];
  const conclusions = Object.entries([...stats.conclusions.values()].reduce((counts, c) => ({ ...counts, [c]: (counts[c] ?? 0) + 1 }), {}))
    .map(([conclusion, count]) => `${conclusion}×${count}`)
    .join(", ");
  const errors = [...responses.filter((r) => r.error).map((r) => r.error), ...stats.unexpected, ...serverErrors];

  const report = [
    `load test: ${DELIVERIES} pull_request.opened deliveries at once, ${INSTALLATIONS} installation${INSTALLATIONS === 1 ? "" : "s"}, mock GitHub latency ${LATENCY_MS} ms, Node ${process.version}`,
    `deliveries accepted:     ${accepted}/${DELIVERIES} (${statuses})`,
    `check runs completed:    ${stats.completed.size}/${DELIVERIES} (${conclusions || "none"}) in ${(wall / 1000).toFixed(1)} s`,
    `delivery response:       p50 ${ms(percentile(responseTimes, 50))}, p95 ${ms(percentile(responseTimes, 95))}, max ${ms(Math.max(...responseTimes))}`,
    `delivery → check done:   p50 ${ms(percentile(completionTimes, 50))}, p95 ${ms(percentile(completionTimes, 95))}, max ${ms(Math.max(...completionTimes))}`,
    `GitHub requests:         ${stats.requests} (${(stats.requests / Math.max(stats.completed.size, 1)).toFixed(1)} per review, installation tokens included)`,
    `errors:                  ${errors.length}${errors.length ? `\n  ${[...new Set(errors)].slice(0, 10).join("\n  ")}` : ""}`,
  ];
  process.stdout.write(`${report.join("\n")}\n`);
  exitCode = accepted === DELIVERIES && stats.completed.size === DELIVERIES && errors.length === 0 ? 0 : 1;
} catch (error) {
  process.stderr.write(`load test failed: ${error.message}\n`);
} finally {
  stopServer();
  github.close();
  github.closeAllConnections?.();
}
process.exit(exitCode);
