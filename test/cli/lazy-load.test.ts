// What the shipped command line loads, per command: the CLI bundle is built into a scratch folder
// and run in a new Node process whose module-load hook lists every module it loads. `--help` must
// not load the review's core (the rules engine, the CQL parser), and `check` of a model without
// application code must not load the code readers or tree-sitter: a pre-commit hook waits for
// every module a command loads.
import { spawnSync } from "node:child_process";
import * as nodeFs from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rules } from "../../rules/index.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LOADED = "loaded-module:";

/** Preloaded into the child: prints the URL of every module it loads, on stderr. */
const HOOK = `data:text/javascript,import{registerHooks}from"node:module";registerHooks({load(url,context,next){process.stderr.write("${LOADED}"+url+"\\n");return next(url,context)}})`;

let scratch: string;
let bundle: string;

beforeAll(async () => {
  scratch = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-lazy-"));
  const build = spawnSync(process.execPath, ["scripts/build-lambda.mjs", "cli", "--outdir", path.join(scratch, "cli")], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  if (build.status !== 0) throw new Error(`the CLI bundle did not build: ${build.stderr}`);
  bundle = path.join(scratch, "cli", "cql-review.mjs");
  // A model of one table and one query, and no application code.
  await nodeFs.mkdir(path.join(scratch, "model", "schema"), { recursive: true });
  await nodeFs.writeFile(
    path.join(scratch, "model", "schema", "shop.cql"),
    "CREATE TABLE shop.orders_by_customer (customer_id uuid, placed_at timestamp, total decimal, PRIMARY KEY ((customer_id), placed_at));\n",
  );
  await nodeFs.writeFile(
    path.join(scratch, "model", "access-patterns.yaml"),
    "queries:\n  - id: recent-orders\n    cql: SELECT total FROM shop.orders_by_customer WHERE customer_id = ? LIMIT 20\n",
  );
}, 120_000);

afterAll(async () => {
  if (scratch) await nodeFs.rm(scratch, { recursive: true, force: true });
});

/** Runs the bundle's CLI with `args` in the scratch folder; the modules it loaded, as file paths (node: built-ins left out). */
function loadedBy(args: string[]): { status: number | null; files: string[]; stdout: string } {
  const script = `const { run } = await import(${JSON.stringify(pathToFileURL(bundle).href)}); process.exitCode = await run(${JSON.stringify(args)});`;
  const child = spawnSync(process.execPath, ["--import", HOOK, "--input-type=module", "-e", script], { cwd: scratch, encoding: "utf8", timeout: 60_000 });
  const files = child.stderr
    .split("\n")
    .filter((line) => line.startsWith(`${LOADED}file:`))
    .map((line) => fileURLToPath(line.slice(LOADED.length)));
  return { status: child.status, files, stdout: child.stdout };
}

/**
 * The rules' descriptions, as the minifier keeps them (plain ASCII without quotes or backslashes
 * is written as it is): a file holding one holds a rule module.
 */
const RULE_MARKERS = rules.map((rule) => rule.meta.description).filter((description) => /^[\x20-\x7e]+$/.test(description) && !/["'`\\$]/.test(description));

/** Whether a loaded file holds any of the rules. */
function holdsRules(file: string): boolean {
  const text = readFileSync(file, "utf8");
  return RULE_MARKERS.some((marker) => text.includes(marker));
}

describe("the modules a command loads", () => {
  it("check of a model without code loads the rules, but neither the code readers nor tree-sitter", () => {
    const { status, files, stdout } = loadedBy(["check", "model"]);
    expect(stdout).toContain("recent-orders");
    expect([0, 1]).toContain(status);
    expect(RULE_MARKERS.length).toBeGreaterThan(rules.length / 2);
    // the hook sees the chunks: the review's core is among them
    expect(files.some(holdsRules)).toBe(true);
    expect(files.filter((file) => /web-tree-sitter|tree-sitter-|code[/\\]grammars|[/\\]extract-[A-Z0-9]+\.mjs$/.test(file))).toEqual([]);
  });

  it("--help loads neither the rules engine nor the review's chunk", () => {
    const { status, files, stdout } = loadedBy(["--help"]);
    expect(status).toBe(0);
    expect(stdout).toContain("cql-review");
    expect(files).toContain(bundle);
    expect(files.filter((file) => holdsRules(file) || /[/\\]review-[A-Z0-9]+\.mjs$/.test(file))).toEqual([]);
  });
});
