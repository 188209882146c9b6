// The published package, as a new user gets it: `npm pack`, installed into an empty folder from
// the tarball, then run. Dependencies come from npm's cache when they are there (after `npm ci`
// they are), else from the registry.
import { execFile } from "node:child_process";
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./run-cli.js";

const run = promisify(execFile);
const INSTALL_TIMEOUT_MS = 300_000;
const GRAMMARS = ["go", "java", "javascript", "kotlin", "python", "tsx", "typescript"].map((language) => `dist/src/code/grammars/tree-sitter-${language}.wasm`);

/** A small service whose only Cassandra query sits in Java code, filtering on a regular column. */
const JAVA_APP = {
  "schema/videos.cql": `CREATE TABLE shop.videos_by_user (
  user_id uuid,
  added_date timestamp,
  video_id uuid,
  title text,
  PRIMARY KEY ((user_id), added_date, video_id)
);
`,
  "src/main/java/com/example/VideoDao.java": `package com.example;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;

public class VideoDao {
  private final CqlSession session;

  public VideoDao(CqlSession session) {
    this.session = session;
  }

  public ResultSet byTitle(String title) {
    return session.execute("SELECT video_id FROM shop.videos_by_user WHERE title = ?", title);
  }
}
`,
};

interface PackResult {
  filename: string;
  files: { path: string }[];
}

let scratch: string;
let packed: PackResult;
let project: string;
const cli = () => path.join(project, "node_modules", ".bin", "cql-review");

async function exec(file: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === "number" ? failed.code : -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

beforeAll(async () => {
  scratch = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-pack-"));
  // `npm pack` runs `prepare` (the build), as publishing does.
  const { stdout } = await run("npm", ["pack", "--json", "--silent", "--pack-destination", scratch], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 });
  [packed] = JSON.parse(stdout.slice(stdout.indexOf("["))) as PackResult[];
  project = path.join(scratch, "project");
  await nodeFs.mkdir(project);
  await nodeFs.writeFile(path.join(project, "package.json"), JSON.stringify({ name: "adopter", private: true, type: "module" }));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", path.join(scratch, packed.filename)], {
    cwd: project,
    maxBuffer: 64 * 1024 * 1024,
  });
  await nodeFs.cp(path.join(REPO_ROOT, "examples/iot"), path.join(project, "model"), { recursive: true });
  for (const [file, text] of Object.entries(JAVA_APP)) {
    await nodeFs.mkdir(path.dirname(path.join(project, "service", file)), { recursive: true });
    await nodeFs.writeFile(path.join(project, "service", file), text);
  }
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  if (scratch) await nodeFs.rm(scratch, { recursive: true, force: true });
});

describe("the npm package", () => {
  it("ships the CLI, the rule docs and the schemas, and no tests, benchmarks or bundles", () => {
    const files = packed.files.map((file) => file.path);
    expect(files).toContain("bin/cql-review.js");
    expect(files).toContain("dist/src/cli.js");
    expect(files).toContain("schema/access-patterns.schema.json");
    expect(files.filter((file) => file.startsWith("rules/") && file.endsWith(".md")).length).toBeGreaterThan(10);
    expect(files.filter((file) => /(^|\/)(test|bench|fixtures)\//.test(file) || /\.test\.[jt]s$/.test(file) || file.startsWith("dist/action/"))).toEqual([]);
  });

  it("carries the grammars' WASM files with their licences, and leaves web-tree-sitter's runtime to its package", async () => {
    const files = packed.files.map((file) => file.path);
    expect(files.filter((file) => file.startsWith("dist/src/code/grammars/")).sort()).toEqual(
      [...GRAMMARS, "dist/src/code/grammars/THIRD-PARTY-NOTICES.txt"].sort(),
    );
    const notices = await nodeFs.readFile(path.join(project, "node_modules/cql-review/dist/src/code/grammars/THIRD-PARTY-NOTICES.txt"), "utf8");
    for (const grammar of ["tree-sitter-java", "tree-sitter-go", "tree-sitter-python", "tree-sitter-javascript", "tree-sitter-typescript", "@tree-sitter-grammars/tree-sitter-kotlin"]) {
      expect(notices).toMatch(new RegExp(`^${grammar}@\\d+\\.\\d+\\.\\d+ \\(MIT\\)\\n\\n(MIT License|The MIT License)[^]*?Permission is hereby granted`, "m"));
    }
  });

  it("installs no grammar package: only web-tree-sitter, whose loader runs the packaged grammars", async () => {
    const { stdout } = await run("npm", ["ls", "--all", "--parseable"], { cwd: project, maxBuffer: 64 * 1024 * 1024 });
    const installed = stdout.split("\n").map((line) => path.relative(path.join(project, "node_modules"), line));
    expect(installed.filter((dir) => /(^|\/)(tree-sitter-[a-z]+|@tree-sitter-grammars\/.*|npm-check-updates|node-gyp-build)$/.test(dir))).toEqual([]);
    expect(installed).toContain("web-tree-sitter");
  });

  it("reads a Java query out of application code with the packaged grammar", async () => {
    const check = await exec(cli(), ["check", "service"], project);
    expect(check.stderr).toBe("");
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^service\/src\/main\/java\/com\/example\/VideoDao\.java\n {2}14:28 {2}error {2}Cassandra rejects [^\n]+ query-needs-allow-filtering$/m);
    expect(check.stdout).not.toMatch(/not read as application code/);
  });

  it("installed in an empty folder, checks the example and prints its version", async () => {
    const check = await exec(cli(), ["check", "model"], project);
    expect(check.stderr).toBe("");
    expect([0, 1]).toContain(check.code);
    expect(check.stdout).toMatch(/^Queries$/m);
    expect(check.stdout).toMatch(/; the gate (passes|fails): [^\n]+\n$/);
    const version = await exec(cli(), ["--version"], project);
    const { version: expected } = JSON.parse(await nodeFs.readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    expect(version.stdout).toBe(`${expected}\n`);
  });

  it("drafts a manifest whose modeline points into node_modules", async () => {
    await nodeFs.mkdir(path.join(project, "fresh"));
    await nodeFs.cp(path.join(project, "model/schema"), path.join(project, "fresh/schema"), { recursive: true });
    const init = await exec(cli(), ["init", "fresh"], project);
    expect(init.code).toBe(0);
    const draft = await nodeFs.readFile(path.join(project, "fresh/access-patterns.yaml"), "utf8");
    expect(draft.split("\n")[0]).toBe("# yaml-language-server: $schema=../node_modules/cql-review/schema/access-patterns.schema.json");
    await expect(nodeFs.stat(path.join(project, "node_modules/cql-review/schema/access-patterns.schema.json"))).resolves.toBeTruthy();
  });

  it("exposes the review, the CLI and the schemas through its exports map", async () => {
    const script = [
      'import { review } from "cql-review";',
      'import { main } from "cql-review/cli";',
      'import { createRequire } from "node:module";',
      "const require = createRequire(import.meta.url);",
      'const schema = require("cql-review/schema/access-patterns.schema.json");',
      "console.log(typeof review, typeof main, schema.$id);",
    ].join("\n");
    await nodeFs.writeFile(path.join(project, "use.mjs"), script);
    const used = await exec(process.execPath, ["use.mjs"], project);
    expect(used.stderr).toBe("");
    expect(used.stdout).toBe("function function https://raw.githubusercontent.com/cql-review/cql-review/main/schema/access-patterns.schema.json\n");
  });
});

/** Bytes of every file under a folder, as an install leaves it on disk. */
async function folderBytes(folder: string): Promise<number> {
  let bytes = 0;
  for (const entry of await nodeFs.readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += (await nodeFs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return bytes;
}

describe("a small install: the CLI and the library, without the server", () => {
  const SERVER_PACKAGES = ["probot", "bullmq", "ioredis", "@aws-sdk", "@octokit", "@actions"];

  it("installs none of the server's dependencies, and stays under 30 MB on disk", async () => {
    const installed = await nodeFs.readdir(path.join(project, "node_modules"));
    expect(installed.filter((name) => SERVER_PACKAGES.includes(name))).toEqual([]);
    // 123 MB when the server's dependencies were the package's; the grammars are 7.5 MB of what is left.
    expect(await folderBytes(path.join(project, "node_modules"))).toBeLessThan(30 * 1024 * 1024);
  });

  it("ships the CLI's bundle with the notices of what it bundles, the licence, and none of the server's code", () => {
    const files = packed.files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "dist/cli/cql-review.cjs", "dist/cli/start.mjs", "dist/cli/THIRD-PARTY-NOTICES.txt"]));
    expect(files.filter((file) => /^dist\/src\/(github|lambda)\/|^dist\/src\/(lambda|action)\.js$/.test(file))).toEqual([]);
  });

  it("runs the shipped bundle from bin/cql-review.js, not the modules of dist/src", async () => {
    // Without the bundle, bin/cql-review.js falls back to dist/src/cli.js: hide the modules to prove it does not need them.
    const modules = path.join(project, "node_modules/cql-review/dist/src/cli.js");
    await nodeFs.rename(modules, `${modules}.hidden`);
    try {
      const version = await exec(cli(), ["--version"], project);
      expect(version.stderr).toBe("");
      expect(version.code).toBe(0);
    } finally {
      await nodeFs.rename(`${modules}.hidden`, modules);
    }
  });

  it("publishes cleanly: `npm publish --dry-run` warns of nothing but the missing login", async () => {
    const { stderr } = await run("npm", ["publish", "--dry-run", "--ignore-scripts"], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 });
    const warnings = stderr.split("\n").filter((line) => line.startsWith("npm warn") && !/requires you to be logged in/.test(line));
    expect(warnings).toEqual([]);
  });
});
