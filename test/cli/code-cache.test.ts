// bin/cql-review.js runs the CLI bundle with a V8 code cache made after the command ran, one file
// per command in a folder of the user's own under the temp directory (src/cli/start.ts), and turns
// on Node's compile cache for the ES modules outside the bundle. The caches only save time: a
// folder that cannot be made, a folder another user could write to, a cache file V8 rejects, or a
// Node without the APIs (Node 20), must change nothing of what a command prints or returns.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheDirectory, commandOf } from "../../src/cli/start.js";
import { REPO_ROOT } from "./run-cli.js";

const BIN = path.join(REPO_ROOT, "bin", "cql-review.js");
const NODE_20 = "/usr/bin/node";
const CACHE_FOLDER = `cql-review-code-cache${process.getuid ? `-${process.getuid()}` : ""}`;

/** Preloaded into the child: Node 20's `node:module`, which has no enableCompileCache. */
const WITHOUT_COMPILE_CACHE_API = `data:text/javascript,import m from "node:module";delete m.enableCompileCache;if(m.enableCompileCache!==undefined)throw new Error("enableCompileCache is still there")`;

let scratch: string;

beforeAll(async () => {
  scratch = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-code-cache-test-"));
  // A model of one table whose query filters on a regular column: the check has a finding to print.
  await nodeFs.mkdir(path.join(scratch, "model", "schema"), { recursive: true });
  await nodeFs.writeFile(path.join(scratch, "model", "schema", "shop.cql"), "CREATE TABLE shop.orders (customer_id uuid, placed_at timestamp, status text, PRIMARY KEY ((customer_id), placed_at));\n");
  await nodeFs.writeFile(
    path.join(scratch, "model", "access-patterns.yaml"),
    "queries:\n  - id: open-orders\n    cql: SELECT placed_at FROM shop.orders WHERE status = ?\n",
  );
  // The same table read from application code: the code readers load their grammars with import().
  await nodeFs.mkdir(path.join(scratch, "app", "schema"), { recursive: true });
  await nodeFs.mkdir(path.join(scratch, "app", "src"), { recursive: true });
  await nodeFs.copyFile(path.join(scratch, "model", "schema", "shop.cql"), path.join(scratch, "app", "schema", "shop.cql"));
  await nodeFs.writeFile(
    path.join(scratch, "app", "src", "OrderDao.java"),
    [
      "package shop;",
      "import com.datastax.oss.driver.api.core.CqlSession;",
      "class OrderDao {",
      "  private final CqlSession session;",
      "  OrderDao(CqlSession session) { this.session = session; }",
      '  void open(String status) { session.execute("SELECT placed_at FROM shop.orders WHERE status = ? ALLOW FILTERING", status); }',
      "}",
      "",
    ].join("\n"),
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

/** `cql-review <args>` as a new process, its temp directory `tempDir`, no cache variable set. */
function runBin(args: string[], tempDir: string, options: { node?: string; nodeArgs?: string[]; env?: NodeJS.ProcessEnv } = {}): Run {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tempDir, NO_COLOR: "1", ...options.env };
  for (const name of ["NODE_COMPILE_CACHE", "NODE_DISABLE_COMPILE_CACHE", "CQL_REVIEW_CACHE_DIR"]) if (!options.env?.[name]) delete env[name];
  const child = spawnSync(options.node ?? process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], { cwd: scratch, env, encoding: "utf8", timeout: 60_000 });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

async function newTempDir(name: string): Promise<string> {
  const directory = path.join(scratch, name);
  await nodeFs.mkdir(directory);
  return directory;
}

/** The bundle's cache files in `tempDir`. */
function cacheFiles(tempDir: string): string[] {
  const folder = path.join(tempDir, CACHE_FOLDER);
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".v8cache")) : [];
}

describe("the code cache of bin/cql-review.js", () => {
  let reference: Run;
  let referenceTemp: string;

  beforeAll(async () => {
    referenceTemp = await newTempDir("tmp-reference");
    reference = runBin(["check", "model"], referenceTemp);
  });

  it("keeps a cache file per command in a folder only this user can write, and Node's compile cache beside it", () => {
    expect(reference.stdout).toContain("open-orders");
    expect([0, 1]).toContain(reference.status);
    expect(cacheFiles(referenceTemp)).toEqual([expect.stringMatching(/^[0-9a-f]{8}-\d+-v[\d.]+-\w+-check\.v8cache$/)]);
    if (process.getuid) expect(statSync(path.join(referenceTemp, CACHE_FOLDER)).mode & 0o077).toBe(0);
    expect(existsSync(path.join(referenceTemp, "node-compile-cache"))).toBe(true);
    runBin(["--help"], referenceTemp);
    expect(cacheFiles(referenceTemp).sort()).toEqual([expect.stringMatching(/-check\.v8cache$/), expect.stringMatching(/-other\.v8cache$/)].sort());
  });

  it("reads the cache on the next run without writing it again", () => {
    const file = path.join(referenceTemp, CACHE_FOLDER, cacheFiles(referenceTemp).find((name) => name.endsWith("-check.v8cache"))!);
    const before = statSync(file);
    expect(runBin(["check", "model"], referenceTemp)).toEqual(reference);
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it("runs as usual on a cache file V8 rejects, and replaces it", async () => {
    const tempDir = await newTempDir("tmp-corrupt");
    runBin(["check", "model"], tempDir);
    const file = path.join(tempDir, CACHE_FOLDER, cacheFiles(tempDir)[0]!);
    const garbage = Buffer.alloc(statSync(file).size, 0x5a);
    writeFileSync(file, garbage);
    expect(runBin(["check", "model"], tempDir)).toEqual(reference);
    expect(readFileSync(file).equals(garbage)).toBe(false);
  });

  it("keeps another bundle's cache files for two weeks, then removes them when it writes one", async () => {
    const tempDir = await newTempDir("tmp-stale");
    const folder = path.join(tempDir, CACHE_FOLDER);
    await nodeFs.mkdir(folder, { mode: 0o700 });
    const recent = path.join(folder, "11111111111111111111-check.v8cache");
    const old = path.join(folder, "00000000000000000000-check.v8cache");
    writeFileSync(recent, "another project's release, used last week");
    writeFileSync(old, "a release nobody ran for a month");
    const weekAgo = new Date(Date.now() - 7 * 24 * 3600 * 1000);
    const monthAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    utimesSync(recent, weekAgo, weekAgo);
    utimesSync(old, monthAgo, monthAgo);
    expect(runBin(["check", "model"], tempDir)).toEqual(reference);
    expect(cacheFiles(tempDir).sort()).toEqual([path.basename(recent), expect.stringMatching(/^[0-9a-f]{8}-\d+-v[\d.]+-\w+-check\.v8cache$/)].sort());
    expect(existsSync(old)).toBe(false);
  });

  it.runIf(process.getuid !== undefined)("neither reads nor writes a cache folder other users can write to", async () => {
    const tempDir = await newTempDir("tmp-shared");
    await nodeFs.mkdir(path.join(tempDir, CACHE_FOLDER));
    chmodSync(path.join(tempDir, CACHE_FOLDER), 0o777);
    expect(runBin(["check", "model"], tempDir)).toEqual(reference);
    expect(cacheFiles(tempDir)).toEqual([]);
  });

  it("runs as usual when the cache folder cannot be created", () => {
    // A regular file where the temp directory should be: not even root can create a folder in it.
    expect(runBin(["check", "model"], path.join(scratch, "a-file"))).toEqual(reference);
  });

  it("writes no cache when NODE_DISABLE_COMPILE_CACHE is set, and CQL_REVIEW_CACHE_DIR moves it", async () => {
    const disabled = await newTempDir("tmp-disabled");
    expect(runBin(["check", "model"], disabled, { env: { NODE_DISABLE_COMPILE_CACHE: "1" } })).toEqual(reference);
    expect(cacheFiles(disabled)).toEqual([]);
    const moved = path.join(await newTempDir("tmp-moved"), "elsewhere");
    expect(runBin(["check", "model"], disabled, { env: { CQL_REVIEW_CACHE_DIR: moved } })).toEqual(reference);
    expect(readdirSync(moved)).toEqual([expect.stringMatching(/-check\.v8cache$/)]);
  });

  it("reads application code through the bundle, with and without its cache", async () => {
    const tempDir = await newTempDir("tmp-code");
    const first = runBin(["check", "app", "--format", "json"], tempDir);
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("OrderDao.java");
    expect(cacheFiles(tempDir)).toHaveLength(1);
    expect(runBin(["check", "app", "--format", "json"], tempDir)).toEqual(first);
  });

  it("runs as usual on a Node without the compile-cache API", () => {
    expect(runBin(["check", "model"], referenceTemp, { nodeArgs: ["--import", WITHOUT_COMPILE_CACHE_API] })).toEqual(reference);
  });

  const node20 = existsSync(NODE_20) ? spawnSync(NODE_20, ["--version"], { encoding: "utf8" }).stdout.trim() : "";
  it.runIf(node20.startsWith("v20."))(`runs as usual on Node 20 (${NODE_20}, ${node20 || "absent"})`, async () => {
    const tempDir = await newTempDir("tmp-node-20");
    expect(runBin(["check", "model"], tempDir, { node: NODE_20 })).toEqual(reference);
    expect(existsSync(path.join(tempDir, "node-compile-cache"))).toBe(false);
    // its own cache file: V8 would reject Node 24's
    expect(runBin(["check", "model"], tempDir, { node: NODE_20 })).toEqual(reference);
    expect(cacheFiles(tempDir)).toHaveLength(1);
  });
});

describe("the cache's names and folder", () => {
  it("names a cache file after the command when it is a plain word, and the format", () => {
    expect(commandOf(["check", "model"])).toBe("check");
    expect(commandOf(["explain", "Q1"])).toBe("explain");
    expect(commandOf(["--help"])).toBe("other");
    expect(commandOf(["../../etc/passwd"])).toBe("other");
    expect(commandOf([])).toBe("other");
    // a format runs its own renderer: a cache of its own
    expect(commandOf(["check", ".", "--format", "json"])).toBe("check-json");
    expect(commandOf(["check", "--format=sarif", "."])).toBe("check-sarif");
    expect(commandOf(["check", ".", "--format", "text"])).toBe("check");
    expect(commandOf(["check", "--format", "../x"])).toBe("check");
  });

  it("refuses a folder that is a link", async () => {
    const base = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-cache-link-"));
    try {
      await nodeFs.mkdir(path.join(base, "real"), { mode: 0o700 });
      await nodeFs.symlink(path.join(base, "real"), path.join(base, "link"));
      expect(cacheDirectory({ CQL_REVIEW_CACHE_DIR: path.join(base, "link") })).toBeUndefined();
      expect(cacheDirectory({ CQL_REVIEW_CACHE_DIR: path.join(base, "real") })).toBe(path.join(base, "real"));
      expect(cacheDirectory({ CQL_REVIEW_CACHE_DIR: path.join(base, "real"), NODE_DISABLE_COMPILE_CACHE: "1" })).toBeUndefined();
    } finally {
      await nodeFs.rm(base, { recursive: true, force: true });
    }
  });
});
