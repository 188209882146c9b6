#!/usr/bin/env node
// Load test of the real Probot server (dist/src/github/server.js, as `npm start` runs it): sends N
// signed pull_request.opened deliveries at once, waits (bounded) for every check run to complete,
// and reports deliveries accepted, check runs completed, latencies (answer p50/p95/p99, delivery →
// completed check p50/p95), duplicated check runs or reviews, and errors. GitHub is mocked
// (scripts/load-test-github.mjs): by default by nock inside the server process, answering
// https://api.github.com exactly as github.com is called; with --ghe by a loopback HTTP server the
// app reaches as GitHub Enterprise (GHE_HOST, GHE_PROTOCOL=http). Only 127.0.0.1 traffic; the
// server is stopped at the end whatever happens.
//
//   npm run load-test                                      200 deliveries, one installation each
//   npm run load-test -- --installations 1 --deliveries 20 every PR in one installation
//   node scripts/load-test.mjs --ghe --deliveries 50 --latency-ms 50 --timeout-s 120
//   npm run load-test -- --ghe --latency-ms 150 --replay   every delivery sent twice: no second check run
//   --concurrency N                                        the server's REVIEW_CONCURRENCY
import { spawn } from "node:child_process";
import { createHmac, generateKeyPairSync, randomBytes } from "node:crypto";
import { Agent, createServer, request as httpRequest } from "node:http";
import { connect, createServer as createTcpServer } from "node:net";
import { readdirSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { BASE_SHA, createMockGitHub, headSha } from "./load-test-github.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: {
    deliveries: { type: "string", default: "200" },
    installations: { type: "string" },
    "latency-ms": { type: "string", default: "0" },
    "timeout-s": { type: "string", default: "300" },
    ghe: { type: "boolean", default: false },
    replay: { type: "boolean", default: false },
    concurrency: { type: "string" },
    "cpu-prof": { type: "string" },
  },
});
const DELIVERIES = Number(values.deliveries);
// By default every pull request belongs to its own installation, as deliveries to a public app
// arrive; Octokit's throttling spaces the writes of one installation a second apart.
const INSTALLATIONS = Math.min(Number(values.installations ?? DELIVERIES), DELIVERIES);
const LATENCY_MS = Number(values["latency-ms"]);
const TIMEOUT_MS = Number(values["timeout-s"]) * 1000;
const SECRET = randomBytes(16).toString("hex");

const stats = { requests: 0, unexpected: [], completed: new Map(), conclusions: new Map(), created: new Map(), reviewed: new Map() };
let startedAt = 0;
const increment = (map, number) => map.set(number, (map.get(number) ?? 0) + 1);
const events = {
  created: (number) => increment(stats.created, number),
  reviewed: (number) => increment(stats.reviewed, number),
  completed(number, conclusion) {
    if (!stats.completed.has(number)) stats.completed.set(number, performance.now() - startedAt);
    stats.conclusions.set(number, conclusion);
  },
  unexpected: (request) => stats.unexpected.push(request),
};

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

/**
 * CPU seconds (user + system) of the server's threads, from Linux's /proc, by kind: the main thread
 * (HTTP, Octokit, the in-process GitHub mock), the review threads (worker_threads), and the rest
 * (V8's garbage-collection helpers, libuv's pool). Undefined where /proc is missing.
 */
function threadCpuSeconds(pid) {
  try {
    const ticksPerSecond = 100;
    const sums = { main: 0, reviewThreads: 0, other: 0 };
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const comm = readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim();
      // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8").split(") ").at(-1).split(" ");
      const seconds = (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
      sums[comm === "MainThread" ? "main" : comm === "WorkerThread" ? "reviewThreads" : "other"] += seconds;
    }
    return sums;
  } catch {
    return undefined;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (value) => (Number.isFinite(value) ? `${Math.round(value)} ms` : "-");
const counts = (items) =>
  Object.entries(items.reduce((all, item) => ({ ...all, [item]: (all[item] ?? 0) + 1 }), {}))
    .map(([item, count]) => `${item}×${count}`)
    .join(", ");

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

/** GitHub Enterprise's REST prefix and GraphQL path, mapped to the github.com form the mock knows. */
function startGheMock(port) {
  const answer = createMockGitHub(events);
  const server = createServer((request, response) => {
    stats.requests++;
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const pathname = new URL(request.url, "http://127.0.0.1").pathname;
      const path = pathname === "/api/graphql" ? "/graphql" : pathname.replace(/^\/api\/v3/, "");
      const [status, payload] = answer(request.method, path, body ? JSON.parse(body) : undefined);
      setTimeout(() => {
        response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
        response.end(JSON.stringify(payload));
      }, LATENCY_MS);
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

// ---------------------------------------------------------------------------------------------
// Run

const appPort = await freePort();
const githubPort = values.ghe ? await freePort() : undefined;
const gheMock = githubPort !== undefined ? await startGheMock(githubPort) : undefined;
const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

const serverErrors = [];
// A scratch working directory, so no developer .env changes what is measured.
const server = spawn(
  process.execPath,
  [
    // One .cpuprofile per thread (main and review threads), for `node --cpu-prof`'s usual readers.
    ...(values["cpu-prof"] ? ["--cpu-prof", "--cpu-prof-dir", values["cpu-prof"]] : []),
    ...(values.ghe ? [] : ["--import", `${root}scripts/load-test-github.mjs`]), `${root}dist/src/github/server.js`],
  {
    cwd: tmpdir(),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      APP_ID: "4242",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: SECRET,
      HOST: "127.0.0.1",
      PORT: String(appPort),
      LOG_LEVEL: "warn",
      LOG_FORMAT: "json",
      ...(values.concurrency ? { REVIEW_CONCURRENCY: values.concurrency } : {}),
      ...(values.ghe ? { GHE_HOST: `127.0.0.1:${githubPort}`, GHE_PROTOCOL: "http" } : { LOAD_TEST_GITHUB: "nock", LOAD_TEST_LATENCY_MS: String(LATENCY_MS) }),
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  },
);
server.on("message", (message) => {
  if (message.kind === "request") stats.requests++;
  else if (message.kind === "created") events.created(message.number);
  else if (message.kind === "reviewed") events.reviewed(message.number);
  else if (message.kind === "completed") events.completed(message.number, message.conclusion);
  else if (message.kind === "unexpected") events.unexpected(message.request);
});
const collectLog = (data) => {
  for (const line of String(data).split("\n")) if (/"level":(50|60)|Error/.test(line)) serverErrors.push(line.slice(0, 400));
};
server.stdout.on("data", collectLog);
server.stderr.on("data", collectLog);
const stopServer = () => {
  if (server.exitCode === null && server.signalCode === null) server.kill("SIGTERM");
};
process.on("exit", stopServer);

const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
let exitCode = 1;
try {
  // The server listens once its review threads have loaded the core: seconds on a loaded host.
  const readyBy = Date.now() + 120_000;
  while (!(await listening(appPort))) {
    if (server.exitCode !== null || Date.now() > readyBy) throw new Error(`the server did not start: ${serverErrors.join("\n") || `exit ${server.exitCode}`}`);
    await sleep(50);
  }

  const requests = Array.from({ length: DELIVERIES }, (_, index) => delivery(index + 1));
  // Each delivery on its own connection, opened before the burst (one GET /ping each): GitHub
  // sends from many machines, while one client opening hundreds of connections at once measures
  // mostly itself (on a loaded 2-core host, 0.5–0.7 s against a server that does nothing).
  const post = (method, path, headers, body) =>
    new Promise((resolve, reject) => {
      const outgoing = httpRequest({ host: "127.0.0.1", port: appPort, method, path, agent, headers, timeout: TIMEOUT_MS }, (response) => {
        response.resume();
        response.once("end", () => resolve(response.statusCode));
      });
      outgoing.once("timeout", () => outgoing.destroy(new Error("timed out")));
      outgoing.once("error", reject);
      outgoing.end(body);
    });
  await Promise.all(requests.map(() => post("GET", "/ping", {})));
  const send = (batch) =>
    Promise.all(
      batch.map(async ({ body, headers }) => {
        const sent = performance.now();
        try {
          const status = await post("POST", "/api/github/webhooks", { ...headers, "content-length": Buffer.byteLength(body) }, body);
          return { status, ms: performance.now() - sent };
        } catch (error) {
          return { status: 0, ms: performance.now() - sent, error: error.message };
        }
      }),
    );
  const cpuBefore = threadCpuSeconds(server.pid);
  startedAt = performance.now();
  const responses = await send(requests);
  // A replay: the same deliveries (same ids and signatures) again, while their reviews still run.
  const replayed = values.replay ? await send(requests) : [];
  const deadline = startedAt + TIMEOUT_MS;
  while (stats.completed.size < DELIVERIES && performance.now() < deadline && server.exitCode === null) await sleep(100);
  // Give a duplicate the time to show itself before counting.
  await sleep(Math.min(2_000, TIMEOUT_MS / 10));
  const wall = performance.now() - startedAt;
  const cpuAfter = threadCpuSeconds(server.pid);
  const cpuSpent = cpuBefore && cpuAfter ? Object.fromEntries(Object.keys(cpuAfter).map((kind) => [kind, cpuAfter[kind] - (cpuBefore[kind] ?? 0)])) : undefined;
  const perReview = (seconds) => `${Math.round((seconds * 1000) / Math.max(stats.completed.size, 1))} ms`;

  const accepted = responses.filter((r) => r.status >= 200 && r.status < 300).length;
  const responseTimes = [...responses, ...replayed].map((r) => r.ms);
  const duplicated = (map) => [...map.values()].filter((count) => count > 1).length;
  const checkRunsCreated = [...stats.created.values()].reduce((sum, count) => sum + count, 0);
  const reviewsPosted = [...stats.reviewed.values()].reduce((sum, count) => sum + count, 0);
  const duplicates = duplicated(stats.created) + duplicated(stats.reviewed);
  const completionTimes = [...stats.completed.values()];
  const errors = [...[...responses, ...replayed].filter((r) => r.error).map((r) => `delivery: ${r.error}`), ...stats.unexpected.map((r) => `unexpected request ${r}`), ...serverErrors];
  const report = [
    `load test: ${DELIVERIES} pull_request.opened deliveries at once, ${INSTALLATIONS} installation${INSTALLATIONS === 1 ? "" : "s"}, GitHub mocked ${values.ghe ? "as Enterprise on loopback HTTP" : "by nock in the server process"} with ${LATENCY_MS} ms latency, Node ${process.version}`,
    `deliveries accepted:     ${accepted}/${DELIVERIES} (HTTP ${counts(responses.map((r) => r.status))})`,
    ...(values.replay ? [`replayed deliveries:     ${replayed.length} (HTTP ${counts(replayed.map((r) => r.status))})`] : []),
    `check runs completed:    ${stats.completed.size}/${DELIVERIES} (${counts([...stats.conclusions.values()]) || "none"}) in ${(wall / 1000).toFixed(1)} s`,
    `delivery response:       p50 ${ms(percentile(responseTimes, 50))}, p95 ${ms(percentile(responseTimes, 95))}, p99 ${ms(percentile(responseTimes, 99))}, max ${ms(Math.max(...responseTimes))}`,
    `delivery → check done:   p50 ${ms(percentile(completionTimes, 50))}, p95 ${ms(percentile(completionTimes, 95))}, max ${ms(Math.max(...completionTimes))}`,
    `check runs created:      ${checkRunsCreated} for ${stats.created.size} pull requests; reviews posted: ${reviewsPosted}; pull requests with a duplicate: ${duplicates}`,
    `server CPU in the run:   ${cpuSpent ? `main thread ${cpuSpent.main.toFixed(1)} s (${perReview(cpuSpent.main)} a review), review threads ${cpuSpent.reviewThreads.toFixed(1)} s (${perReview(cpuSpent.reviewThreads)}), other ${cpuSpent.other.toFixed(1)} s` : "-"}`,
    `load average:            ${loadavg().map((load) => load.toFixed(1)).join(", ")} (1, 5, 15 min; 2 or more cores' worth of other work makes every time here an upper bound)`,
    `last check completed:    ${ms(Math.max(...completionTimes))} after the first delivery`,
    `GitHub requests:         ${stats.requests} (${(stats.requests / Math.max(stats.completed.size, 1)).toFixed(1)} per completed review, installation tokens included)`,
    `errors:                  ${errors.length}${errors.length ? `\n  ${[...new Set(errors)].slice(0, 10).join("\n  ")}` : ""}`,
  ];
  process.stdout.write(`${report.join("\n")}\n`);
  const answeredInTime = percentile(responseTimes, 99) <= 1_000;
  exitCode = accepted === DELIVERIES && stats.completed.size === DELIVERIES && duplicates === 0 && answeredInTime && errors.length === 0 ? 0 : 1;
} catch (error) {
  process.stderr.write(`load test failed: ${error.message}\n`);
} finally {
  const exited = server.exitCode !== null || server.signalCode !== null ? Promise.resolve() : new Promise((resolve) => server.once("exit", resolve));
  stopServer();
  // The server writes its CPU profiles as it exits.
  await Promise.race([exited, sleep(30_000)]);
  agent.destroy();
  gheMock?.close();
  gheMock?.closeAllConnections();
}
process.exit(exitCode);
