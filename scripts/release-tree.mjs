#!/usr/bin/env node
// Lays out the tree a release tag holds, and checks that the Action can run from it:
//   node scripts/release-tree.mjs <folder>
// The tree is the repository's tracked files (as they are in the work tree) plus the built Action,
// dist/action/ (`npm run build:action`), and nothing installed: a workflow that says
// `uses: cql-review/cql-review@v1` gets exactly this, with no `npm install` step. The release
// workflow (.github/workflows/release.yml) commits the same files; the release dry run
// (test/action/release-dry-run.test.ts) runs the Action from the folder.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = fileURLToPath(new URL("..", import.meta.url));
/** What the built Action needs beside its entry: the grammars (read when application code is reviewed) and the notices. */
const ACTION_FILES = ["dist/action/index.js", "dist/action/THIRD-PARTY-NOTICES.txt", "dist/action/grammars/web-tree-sitter.wasm", "dist/action/grammars/tree-sitter-java.wasm"];

/** Copies the tracked files and dist/action/ into `folder`; returns the list of problems (empty when the Action can run). */
export function layoutReleaseTree(folder) {
  const tracked = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((file) => file.length > 0 && !file.startsWith("node_modules/"));
  for (const file of tracked) {
    const from = join(root, file);
    // a file deleted in the work tree and not yet staged
    if (!existsSync(from) || !statSync(from).isFile()) continue;
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    cpSync(from, join(folder, file));
  }
  if (existsSync(join(root, "dist/action"))) cpSync(join(root, "dist/action"), join(folder, "dist/action"), { recursive: true });
  return releaseTreeProblems(folder);
}

/** What would stop `uses: <repository>@<tag>` from running the Action out of `folder`. */
export function releaseTreeProblems(folder) {
  const problems = [];
  const actionFile = join(folder, "action.yml");
  if (!existsSync(actionFile)) return ["action.yml is missing"];
  const action = parse(readFileSync(actionFile, "utf8"));
  if (action?.runs?.using !== "node24") problems.push(`action.yml runs.using is ${JSON.stringify(action?.runs?.using)}, not node24`);
  const entries = [action?.runs?.main, action?.runs?.pre, action?.runs?.post].filter((entry) => typeof entry === "string");
  if (entries.length === 0) problems.push("action.yml names no runs.main");
  for (const file of [...new Set([...entries, ...ACTION_FILES])]) {
    if (!existsSync(join(folder, file))) problems.push(`${file} is missing (run \`npm run build:action\`)`);
  }
  if (existsSync(join(folder, "node_modules"))) problems.push("node_modules/ is in the tree: the Action must run without it");
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  if (!folder) {
    process.stderr.write("usage: node scripts/release-tree.mjs <folder>\n");
    process.exit(2);
  }
  const problems = layoutReleaseTree(resolve(folder));
  for (const problem of problems) process.stderr.write(`release tree: ${problem}\n`);
  process.exit(problems.length > 0 ? 1 : 0);
}
