// bin/cql-review.js turns on Node's module compile cache (V8's compiled code kept on disk, in
// Node's default place: a folder per user under the temp directory) where Node has it, 22.1 and
// later. The cache only saves time: a folder that cannot be created, or a Node without the API
// (Node 20), must change nothing of what a command prints or returns.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./run-cli.js";

const BIN = path.join(REPO_ROOT, "bin", "cql-review.js");
const NODE_20 = "/usr/bin/node";

/** Preloaded into the child: Node 20's `node:module`, which has no enableCompileCache. */
const WITHOUT_COMPILE_CACHE_API = `data:text/javascript,import m from "node:module";delete m.enableCompileCache;if(m.enableCompileCache!==undefined)throw new Error("enableCompileCache is still there")`;

let scratch: string;

beforeAll(async () => {
  scratch = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-compile-cache-"));
  // A model of one table whose query filters on a regular column: the check has a finding to print.
  await nodeFs.mkdir(path.join(scratch, "model", "schema"), { recursive: true });
  await nodeFs.writeFile(path.join(scratch, "model", "schema", "shop.cql"), "CREATE TABLE shop.orders (customer_id uuid, placed_at timestamp, status text, PRIMARY KEY ((customer_id), placed_at));\n");
  await nodeFs.writeFile(
    path.join(scratch, "model", "access-patterns.yaml"),
    "queries:\n  - id: open-orders\n    cql: SELECT placed_at FROM shop.orders WHERE status = ?\n",
  );
  await nodeFs.writeFile(path.join(scratch, "a-file"), "not a folder\n");
});

afterAll(async () => {
  if (scratch) await nodeFs.rm(scratch, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `cql-review <args>` as a new process, its temp directory `tempDir`, no compile-cache variable set. */
function runBin(args: string[], tempDir: string, options: { node?: string; nodeArgs?: string[] } = {}): Run {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tempDir, NO_COLOR: "1" };
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const child = spawnSync(options.node ?? process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], { cwd: scratch, env, encoding: "utf8", timeout: 60_000 });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe("the compile cache of bin/cql-review.js", () => {
  let reference: Run;

  beforeAll(async () => {
    const tempDir = path.join(scratch, "tmp-reference");
    await nodeFs.mkdir(tempDir);
    reference = runBin(["check", "model"], tempDir);
  });

  it("keeps the compiled bundle in the temp directory, so the next start skips compiling it", async () => {
    expect(reference.stdout).toContain("open-orders");
    expect([0, 1]).toContain(reference.status);
    const cacheRoot = path.join(scratch, "tmp-reference", "node-compile-cache");
    expect(existsSync(cacheRoot)).toBe(true);
    // one folder per Node version and user, holding one entry per module compiled
    const entries = readdirSync(cacheRoot, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(entries.length).toBeGreaterThan(0);
  });

  it("runs as usual when the cache folder cannot be created", () => {
    // A regular file where the temp directory should be: not even root can create a folder in it.
    const run = runBin(["check", "model"], path.join(scratch, "a-file"));
    expect(run).toEqual(reference);
  });

  it("runs as usual on a Node without the compile-cache API", () => {
    const run = runBin(["check", "model"], path.join(scratch, "tmp-reference"), { nodeArgs: ["--import", WITHOUT_COMPILE_CACHE_API] });
    expect(run).toEqual(reference);
  });

  const node20 = existsSync(NODE_20) ? spawnSync(NODE_20, ["--version"], { encoding: "utf8" }).stdout.trim() : "";
  it.runIf(node20.startsWith("v20."))(`runs as usual on Node 20 (${NODE_20}, ${node20 || "absent"})`, async () => {
    const tempDir = path.join(scratch, "tmp-node-20");
    await nodeFs.mkdir(tempDir);
    const run = runBin(["check", "model"], tempDir, { node: NODE_20 });
    expect(run).toEqual(reference);
    expect(existsSync(path.join(tempDir, "node-compile-cache"))).toBe(false);
  });
});
