// The release dry run: the Action run the way a workflow runs `uses: cql-review/cql-review@v1`,
// from a tree laid out like the release tag (scripts/release-tree.mjs: the tracked files, the
// built dist/action/, no node_modules), as a new Node process with a workflow's environment
// (GITHUB_EVENT_PATH, INPUT_* variables, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY). GitHub is a loopback
// server that hands each request to the same nock routes the in-process Action tests use.
import { execFile, spawn } from "node:child_process";
import { request as httpsRequest } from "node:https";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import nock from "nock";
import { parse as parseYaml } from "yaml";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the build scripts, without types
import { layoutReleaseTree, releaseTreeProblems } from "../../scripts/release-tree.mjs";
import { fixture } from "../github/helpers/fixtures.js";
import { API, Capture, nockReviewOf, type RepositoryState } from "../github/helpers/github-mock.js";
import { pullRequestEvent } from "../github/helpers/payloads.js";
import { REPO_ROOT } from "../cli/run-cli.js";

const BUILD_TIMEOUT_MS = 180_000;
const base = { "schema/000_keyspace.cql": fixture("keyspace.cql") };
const unbucketed: RepositoryState = { base, head: { ...base, "schema/020_readings.cql": fixture("readings-unbucketed.cql") } };

let scratch: string;
let tree: string;
let fakeGitHub: Server;
let apiUrl: string;

/** Hands a request that reached the loopback server to nock's routes for api.github.com, and the answer back. */
async function forward(incoming: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === "string" && !["host", "connection", "content-length"].includes(name)) headers[name] = value;
  }
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(`${API}${incoming.url}`, { method: incoming.method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const answerHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === "string") answerHeaders[name] = value;
        resolve({ status: response.statusCode ?? 500, headers: answerHeaders, body: Buffer.concat(chunks) });
      });
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), "cql-review-release-"));
  // The build the release workflow runs, then its tree.
  await promisify(execFile)(process.execPath, ["scripts/build-lambda.mjs", "action"], { cwd: REPO_ROOT, timeout: BUILD_TIMEOUT_MS });
  tree = path.join(scratch, "cql-review@v1");
  expect(layoutReleaseTree(tree)).toEqual([]);

  fakeGitHub = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      forward(incoming, Buffer.concat(chunks)).then(
        (answer) => {
          outgoing.writeHead(answer.status, answer.headers);
          outgoing.end(answer.body);
        },
        // nock refuses a request no route expects: the Action sees a 501, the test sees the pending routes
        (error: Error) => {
          outgoing.writeHead(501, { "content-type": "application/json" });
          outgoing.end(JSON.stringify({ message: `no fake GitHub route: ${error.message}` }));
        },
      );
    });
  });
  await new Promise<void>((resolve) => fakeGitHub.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(fakeGitHub.address() as AddressInfo).port}`;
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await new Promise((resolve) => fakeGitHub?.close(resolve));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

let capture: Capture;
beforeEach(() => {
  capture = new Capture();
  // Only api.github.com is faked; the loopback server itself is real.
  nock.enableNetConnect("127.0.0.1");
});
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  capture.assertAllValid();
  expect(pending).toEqual([]);
});

interface StepResult {
  workspace: string;
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Reads GITHUB_OUTPUT's `name<<delimiter` blocks, as the runner does. */
function readOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = readFileSync(file, "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (!heredoc) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i]!);
    outputs[heredoc[1]!] = value.join("\n");
  }
  return outputs;
}

/** Runs action.yml's entry from the tree as the runner would for one step. */
async function runStep(event: object, inputs: Record<string, string>): Promise<StepResult> {
  const step = mkdtempSync(path.join(scratch, "step-"));
  const workspace = path.join(step, "workspace");
  mkdirSync(workspace);
  const files = { event: path.join(step, "event.json"), output: path.join(step, "output"), summary: path.join(step, "summary.md"), state: path.join(step, "state"), env: path.join(step, "env") };
  writeFileSync(files.event, JSON.stringify(event));
  for (const file of [files.output, files.summary, files.state, files.env]) writeFileSync(file, "");
  const action = parseYaml(readFileSync(path.join(tree, "action.yml"), "utf8")) as { runs: { main: string }; inputs: Record<string, { default?: string }> };
  // The runner passes every declared input, its default when the workflow gives none.
  const inputEnv: Record<string, string> = {};
  for (const [name, declared] of Object.entries(action.inputs)) {
    const value = inputs[name] ?? (declared.default === "${{ github.token }}" ? "ghs_workflow_token" : (declared.default ?? ""));
    inputEnv[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = value;
  }
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: step,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: files.event,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_STATE: files.state,
    GITHUB_ENV: files.env,
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: "acme-data/iot-models",
    GITHUB_RUN_ID: "9912",
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_API_URL: apiUrl,
    GITHUB_GRAPHQL_URL: `${apiUrl}/graphql`,
    RUNNER_TEMP: step,
    ...inputEnv,
  };
  const child = spawn(process.execPath, [path.join(tree, action.runs.main)], { cwd: workspace, env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { workspace, code, stdout, stderr, outputs: readOutputs(files.output), summary: readFileSync(files.summary, "utf8") };
}

describe("the release dry run", () => {
  it("runs the Action from the release tree with a workflow's environment: check run, review, outputs, summary, SARIF", async () => {
    nockReviewOf(capture, unbucketed);

    const step = await runStep(pullRequestEvent("opened").payload, { "sarif-file": "reports/cql-review.sarif" });

    expect(step.stderr).toBe("");
    // The real review (not the in-process tests' fake core): the unbucketed time series gets two
    // warnings, commented inline; warnings do not fail the default gate, so the step passes.
    expect(step.stdout).toContain("cql-review: neutral, 2 new inline comment(s).");
    expect(step.code).toBe(0);
    expect(capture.bodiesOf("PATCH", "/check-runs/9001")[0].conclusion).toBe("neutral");
    expect(capture.bodiesOf("POST", "/pulls/17/reviews")[0].comments).toHaveLength(2);
    expect(step.outputs).toEqual({ gate: "pass", conclusion: "neutral", errors: "0", warnings: "2", infos: "0", "new-findings": "2", "check-run-id": "9001", "sarif-file": "reports/cql-review.sarif" });
    const sarif = JSON.parse(readFileSync(path.join(step.workspace, "reports/cql-review.sarif"), "utf8"));
    expect(sarif.runs[0].results).toHaveLength(2);
    expect(step.summary).toMatch(/The gate passes/);
  });

  it("lists what a tree without the built Action would miss, so the release stops before tagging it", () => {
    const broken = path.join(scratch, "broken");
    cpSync(tree, broken, { recursive: true });
    rmSync(path.join(broken, "dist/action/grammars"), { recursive: true });
    expect(releaseTreeProblems(broken)).toEqual([
      "dist/action/grammars/web-tree-sitter.wasm is missing (run `npm run build:action`)",
      "dist/action/grammars/tree-sitter-java.wasm is missing (run `npm run build:action`)",
    ]);
    rmSync(path.join(broken, "dist"), { recursive: true });
    expect(releaseTreeProblems(broken)[0]).toBe("dist/action/index.js is missing (run `npm run build:action`)");
    mkdirSync(path.join(broken, "node_modules"));
    expect(releaseTreeProblems(broken)).toContain("node_modules/ is in the tree: the Action must run without it");
  });

  it("is what the release workflow checks before it tags: the same build, the same tree script, then v<version> and the moving major tag", () => {
    const workflow = parseYaml(readFileSync(path.join(REPO_ROOT, ".github/workflows/release.yml"), "utf8")) as {
      permissions: Record<string, string>;
      jobs: { release: { steps: { run?: string; uses?: string }[] } };
    };
    expect(workflow.permissions).toEqual({ contents: "write", "id-token": "write" });
    const script = workflow.jobs.release.steps.map((step) => step.run ?? "").join("\n");
    const order = ["npm ci", "npm test", "npm run build:action", "node scripts/release-tree.mjs", "git add --force dist/action", 'git tag -a "v$VERSION"', 'git tag -fa "$major"', 'git push --force origin "$major"', "npm publish --provenance"];
    const positions = order.map((command) => script.indexOf(command));
    expect(positions.filter((position) => position < 0)).toEqual([]);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});
