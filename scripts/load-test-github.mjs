// The GitHub API as scripts/load-test.mjs mocks it: the requests of one review (installation token,
// the pull request's current head, check run create and update, changed files, tree, one GraphQL
// read, the review), answered for any number of pull requests on the sample repository, each
// adding one table. Check runs created and reviews posted are reported per pull request, so the
// load test can count duplicates.
//
// Loaded two ways: as a `node --import` preload inside the Probot server process, where nock answers
// https://api.github.com (the github.com request path, throttling classes included) and reports
// each completed check run to the parent over IPC; or imported by the load test, which serves
// `answer` from a loopback HTTP server reached as GitHub Enterprise (GHE_HOST).
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const sample = new Map([["access-patterns.yaml", readFileSync(`${root}examples/iot/access-patterns.yaml`, "utf8")]]);
for (const name of readdirSync(`${root}examples/iot/schema`)) sample.set(`schema/${name}`, readFileSync(`${root}examples/iot/schema/${name}`, "utf8"));

export const BASE_SHA = "b".repeat(40);
// Head commits encode their pull request: "f", then the number in hex (the base is all "b").
export const headSha = (number) => `f${number.toString(16).padStart(39, "0")}`;
const numberOfSha = (sha) => Number.parseInt(sha.slice(1), 16);
const addedPath = (number) => `schema/050_pr_${number}.cql`;
const addedTable = (number) =>
  `USE iot;\n\n-- Added by pull request ${number}.\nCREATE TABLE IF NOT EXISTS events_${number} (\n  device_id uuid,\n  at timestamp,\n  kind text,\n  PRIMARY KEY ((device_id), at)\n);\n`;
const headFiles = (number) => new Map([...sample, [addedPath(number), addedTable(number)]]);

/**
 * Answers one request; `path` is the github.com form (GHE's /api/v3 prefix and /api/graphql are
 * mapped by the caller). `events` hears about check runs (created, completed) and reviews posted.
 */
export function createMockGitHub(events) {
  const checkRuns = new Map();
  let nextCheckRunId = 1;
  return function answer(method, path, json) {
    let match;
    if (method === "POST" && /^\/app\/installations\/\d+\/access_tokens$/.test(path)) {
      return [201, { token: `ghs_${randomBytes(8).toString("hex")}`, expires_at: new Date(Date.now() + 3_600_000).toISOString() }];
    }
    if (method === "POST" && /^\/repos\/[^/]+\/[^/]+\/check-runs$/.test(path)) {
      const id = nextCheckRunId++;
      checkRuns.set(id, numberOfSha(json.head_sha));
      events.created?.(numberOfSha(json.head_sha));
      return [201, { id }];
    }
    if (method === "PATCH" && (match = /^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/.exec(path))) {
      const number = checkRuns.get(Number(match[1]));
      if (json.status === "completed" || json.conclusion) events.completed(number, json.conclusion);
      return [200, { id: Number(match[1]) }];
    }
    if (method === "GET" && (match = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)$/.exec(path))) {
      const number = Number(match[1]);
      return [200, { number, state: "open", head: { sha: headSha(number) }, base: { sha: BASE_SHA } }];
    }
    if (method === "GET" && (match = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/files$/.exec(path))) {
      const number = Number(match[1]);
      const text = addedTable(number);
      const patch = `@@ -0,0 +1,${text.split("\n").length - 1} @@\n${text.replace(/\n$/, "").replace(/^/gm, "+")}`;
      return [200, [{ filename: addedPath(number), status: "added", patch }]];
    }
    if (method === "GET" && (match = /^\/repos\/[^/]+\/[^/]+\/git\/trees\/([0-9a-f]{40})$/.exec(path))) {
      const files = headFiles(numberOfSha(match[1]));
      return [200, { sha: match[1], truncated: false, tree: [...files].map(([entry, text]) => ({ path: entry, type: "blob", size: text.length })) }];
    }
    if (method === "POST" && path === "/graphql") {
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
    if (method === "POST" && (match = /^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/reviews$/.exec(path))) {
      events.reviewed?.(Number(match[1]));
      return [200, { id: 1 }];
    }
    events.unexpected(`${method} ${path}`);
    return [404, { message: "Not Found (load-test mock)" }];
  };
}

// As a preload in the server process: nock answers api.github.com and nothing else leaves the machine.
if (process.env.LOAD_TEST_GITHUB === "nock" && typeof process.send === "function") {
  const { default: nock } = await import("nock");
  const latency = Number(process.env.LOAD_TEST_LATENCY_MS ?? 0);
  const answer = createMockGitHub({
    created: (number) => process.send({ kind: "created", number }),
    reviewed: (number) => process.send({ kind: "reviewed", number }),
    completed: (number, conclusion) => process.send({ kind: "completed", number, conclusion }),
    unexpected: (request) => process.send({ kind: "unexpected", request }),
  });
  nock.disableNetConnect();
  nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
  for (const method of ["get", "post", "patch"]) {
    nock("https://api.github.com")
      .persist()
      [method](/.*/)
      .delay(latency)
      .reply(function (uri, body) {
        process.send({ kind: "request" });
        const path = new URL(uri, "https://api.github.com").pathname;
        return answer(method.toUpperCase(), path, typeof body === "string" && body ? JSON.parse(body) : body);
      });
  }
}
