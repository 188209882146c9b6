// Benchmark: one pull-request review through the real Probot app and the real core, with GitHub
// mocked by nock (no network latency), counting the requests and timing the handler.
// Run after `npm run build`: node dist/bench/github.js
import { generateKeyPairSync } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import nock from "nock";
import { Probot, ProbotOctokit } from "probot";
import { realCore } from "../src/github/worker/core.js";
import { createApp } from "../src/github/worker/create-app.js";

const API = "https://api.github.com";
const REPO = "/repos/bench/iot";
const HEAD = "1".repeat(40);
const BASE = "2".repeat(40);

/**
 * How the pull request's extra files look: `modelled` tables are bounded, read by a query and
 * written by a write path of their own manifest (a clean model, as most pull requests are);
 * `unread` tables are unbounded and read by nothing (about three findings each).
 */
export type ExtraTables = "modelled" | "unread";

/** The sample repository (examples/iot) plus `extraFiles` small files of `extras`, all changed by the pull request. */
function repository(extraFiles: number, extras: ExtraTables): Map<string, string> {
  const root = fileURLToPath(new URL("../../examples/iot/", import.meta.url));
  const files = new Map<string, string>([["access-patterns.yaml", readFileSync(`${root}access-patterns.yaml`, "utf8")]]);
  for (const name of readdirSync(`${root}schema`)) files.set(`schema/${name}`, readFileSync(`${root}schema/${name}`, "utf8"));
  if (extras === "unread" || extraFiles < 2) {
    for (let i = 0; i < extraFiles; i++) {
      files.set(`schema/extra/t${i}.cql`, `CREATE TABLE iot.extra_${i} (k uuid, at timestamp, v double, PRIMARY KEY ((k), at));\n`);
    }
    return files;
  }
  // One file is the manifest of the extra tables; distinct value columns keep them from reading as copies of each other.
  const tables = Array.from({ length: extraFiles - 1 }, (_, i) => ({ name: `metric_${i}_by_device_day`, column: `metric_${i}` }));
  for (const [i, { name, column }] of tables.entries()) {
    files.set(
      `schema/extra/t${i}.cql`,
      `CREATE TABLE iot.${name} (device_id uuid, day date, at timeuuid, ${column} double, PRIMARY KEY ((device_id, day), at)) WITH CLUSTERING ORDER BY (at DESC);\n`,
    );
  }
  const manifest = [
    "version: 1",
    "keyspace: iot",
    "tables:",
    ...tables.map(({ name }) => `  ${name}: { partitions: 1_000_000, rows_per_partition: 1_440 }`),
    "queries:",
    ...tables.map(({ name, column }, i) => `  - { id: M${i}, cql: "SELECT at, ${column} FROM ${name} WHERE device_id = ? AND day = ? LIMIT 60", rate: 5/s }`),
    "writes:",
    ...tables.map(({ name, column }, i) => `  - { id: MW${i}, cql: "INSERT INTO ${name} (device_id, day, at, ${column}) VALUES (?, ?, now(), ?)", rate: 20/s }`),
  ];
  files.set("schema/extra/access-patterns.yaml", `${manifest.join("\n")}\n`);
  return files;
}

function mockGitHub(files: Map<string, string>, changedFiles = files.size): { requests: string[]; conclusions: string[]; annotations: number[] } {
  const requests: string[] = [];
  const record = (method: string) =>
    function (this: unknown, uri: string) {
      requests.push(`${method} ${uri.split("?")[0]}`);
    };
  const api = nock(API);
  api.post(/\/app\/installations\/\d+\/access_tokens/).reply(201, { token: "ghs_bench", expires_at: "2099-01-01T00:00:00Z" });
  api.post(`${REPO}/check-runs`).reply(201, (uri) => (record("POST")(uri), { id: 1 }));
  const listed = [...files].slice(0, changedFiles).map(([filename, text]) => ({
    filename,
    status: "added",
    patch: `@@ -0,0 +1,${text.split("\n").length - 1} @@\n${text.replace(/\n$/, "").replace(/^/gm, "+")}`,
  }));
  const pages = Math.ceil(listed.length / 100);
  api
    .get(`${REPO}/pulls/1/files`)
    .query(true)
    .times(pages)
    .reply((uri) => {
      record("GET")(uri);
      const page = Number(new URL(uri, API).searchParams.get("page") ?? 1);
      const next = page < pages ? { link: `<${API}${REPO}/pulls/1/files?per_page=100&page=${page + 1}>; rel="next"` } : {};
      return [200, listed.slice((page - 1) * 100, page * 100), next];
    });
  api
    .get(`${REPO}/git/trees/${HEAD}`)
    .query(true)
    .reply(200, (uri) => {
      record("GET")(uri);
      return { truncated: false, tree: [...files].map(([path, text]) => ({ path, type: "blob", size: text.length })) };
    });
  api.post("/graphql").times(20).optionally().reply(200, (uri, body) => {
    record("POST")(uri);
    const variables = (body as { variables: Record<string, string> }).variables;
    const repository: Record<string, unknown> = { pullRequest: { reviewThreads: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] } } };
    for (const [name, expression] of Object.entries(variables)) {
      if (!/^e\d+$/.test(name)) continue;
      const text = files.get(expression.slice(41));
      repository[`f${name.slice(1)}`] = expression.startsWith(HEAD) && text !== undefined ? { text, isBinary: false, byteSize: text.length, isTruncated: false } : null;
    }
    return { data: { repository } };
  });
  api.post(`${REPO}/pulls/1/reviews`).optionally().reply(200, (uri) => (record("POST")(uri), { id: 1 }));
  const conclusions: string[] = [];
  const annotations: number[] = [];
  api
    .patch(`${REPO}/check-runs/1`)
    .times(10)
    .optionally()
    .reply(200, (uri, body) => {
      record("PATCH")(uri);
      const { conclusion, output } = body as { conclusion?: string; output?: { annotations?: unknown[] } };
      if (conclusion) conclusions.push(conclusion);
      annotations.push(output?.annotations?.length ?? 0);
      return { id: 1 };
    });
  return { requests, conclusions, annotations };
}

const privateKey = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
}).privateKey;

/** `changedFiles`: how many of the repository's files the pull request changes (default all). */
export async function benchGitHubReview(
  extraFiles: number,
  changedFiles?: number,
  extras: ExtraTables = "modelled",
): Promise<{ files: number; requests: number; ms: number; conclusion: string | undefined; requestLines: string[]; annotations: number }> {
  const files = repository(extraFiles, extras);
  nock.disableNetConnect();
  const { requests, conclusions, annotations } = mockGitHub(files, changedFiles);
  const log: any = { child: () => log, level: "silent", trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };
  const probot = new Probot({
    appId: 1,
    privateKey,
    log,
    Octokit: ProbotOctokit.defaults((options: any) => ({ ...options, retry: { enabled: false }, throttle: { ...options.throttle, enabled: false } })),
  });
  await probot.load(createApp({ core: realCore }));
  const payload = {
    action: "opened",
    number: 1,
    installation: { id: 1 },
    repository: { name: "iot", owner: { login: "bench" }, default_branch: "main" },
    pull_request: { number: 1, state: "open", draft: false, head: { sha: HEAD }, base: { sha: BASE } },
    sender: { login: "dev", type: "User" },
  };
  const started = performance.now();
  await probot.receive({ id: "bench", name: "pull_request", payload } as never);
  const ms = performance.now() - started;
  nock.cleanAll();
  return {
    files: files.size,
    requests: requests.length,
    ms: Math.round(ms),
    conclusion: conclusions[0],
    requestLines: requests,
    annotations: annotations.reduce((sum, count) => sum + count, 0),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [extra, extras] of [[0, "modelled"], [95, "modelled"], [95, "unread"], [400, "modelled"]] as const) {
    const { files, requests, ms, conclusion, annotations } = await benchGitHubReview(extra, undefined, extras);
    process.stdout.write(
      `github review: ${files} changed files (${extras}) → ${requests} GitHub requests, ${annotations} annotations, handler ${ms} ms (no network latency), check ${conclusion}\n`,
    );
  }
}
