// What the shipped command line runs, per command: the CLI bundle is built (names kept) into a
// scratch folder and run as bin/cql-review.js runs it, in a new Node process with V8's coverage
// on. The bundle is one file, but each module in it runs only when a command imports it (esbuild
// wraps it in an init function named after its path): `--help` must not run the review's core
// (the rules, the CQL parser), and `check` of a model without application code must not run the
// code readers or load tree-sitter. A pre-commit hook waits for every module a command runs.
import { spawnSync } from "node:child_process";
import * as nodeFs from "node:fs/promises";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

let scratch: string;
let bundle: string;
let start: string;

beforeAll(async () => {
  scratch = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-lazy-"));
  const build = spawnSync(process.execPath, ["scripts/build-lambda.mjs", "cli", "--outdir", path.join(scratch, "cli"), "--no-minify"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  if (build.status !== 0) throw new Error(`the CLI bundle did not build: ${build.stderr}`);
  bundle = path.join(scratch, "cli", "cql-review.cjs");
  start = path.join(scratch, "cli", "start.mjs");
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

interface V8Coverage {
  result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
}

/**
 * Runs the bundle's CLI with `args` in the scratch folder, without a code cache; the bundle's
 * modules that ran (the paths their init functions are named after) and the files Node loaded.
 */
function ranBy(args: string[]): { status: number | null; modules: string[]; files: string[]; stdout: string } {
  const coverage = path.join(scratch, `coverage-${args.join("-").replace(/[^a-z]/g, "")}`);
  const script = `const { runBundle } = await import(${JSON.stringify(pathToFileURL(start).href)}); process.exitCode = await runBundle(${JSON.stringify(bundle)}, ${JSON.stringify(args)}, undefined);`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: scratch,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, NODE_V8_COVERAGE: coverage },
  });
  const modules = new Set<string>();
  const files = new Set<string>();
  for (const name of readdirSync(coverage)) {
    const report = JSON.parse(readFileSync(path.join(coverage, name), "utf8")) as V8Coverage;
    for (const script of report.result) {
      if (script.url.startsWith("file:")) files.add(fileURLToPath(script.url));
      else if (path.isAbsolute(script.url)) files.add(script.url);
      if (script.url !== bundle && script.url !== pathToFileURL(bundle).href) continue;
      for (const fn of script.functions) {
        if (/^(src|rules)\/.+\.ts$/.test(fn.functionName) && (fn.ranges[0]?.count ?? 0) > 0) modules.add(fn.functionName);
      }
    }
  }
  return { status: child.status, modules: [...modules], files: [...files], stdout: child.stdout };
}

describe("the modules a command runs", () => {
  it("check of a model without code runs the rules and the parser, but neither the code readers nor tree-sitter", () => {
    const { status, modules, files, stdout } = ranBy(["check", "model"]);
    expect(stdout).toContain("recent-orders");
    expect([0, 1]).toContain(status);
    // what proves the coverage is read: the review's core ran
    expect(modules).toEqual(expect.arrayContaining(["src/review.ts", "src/cql/parser.ts", "rules/index.ts"]));
    expect(modules.filter((module) => /^src\/code\/(extract|bind-arguments|executed|entities)/.test(module))).toEqual([]);
    expect(files.filter((file) => /web-tree-sitter|tree-sitter-|code[/\\]grammars/.test(file))).toEqual([]);
  });

  it("--help runs neither the rules, nor the parser, nor the review", () => {
    const { status, modules, stdout } = ranBy(["--help"]);
    expect(status).toBe(0);
    expect(stdout).toContain("cql-review");
    expect(modules.filter((module) => /^rules\/|^src\/(review|rule-engine\/|cql\/parser|analysis\/)/.test(module))).toEqual([]);
  });
});
