import * as nodeFs from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READ_LIMIT_BYTES, type CliFileSystem } from "../../src/cli.js";
import { githubProblems } from "../report/sarif-checks.js";
import { realFs, REPO_ROOT, runCli } from "./run-cli.js";

const SHOP = "test/fixtures/report/shop";
const PACKAGE_VERSION = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version as string;
const validateReport = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(path.join(REPO_ROOT, "schema/report.schema.json"), "utf8")));

// `check` and `explain` only read: the runner's git and writes are there, but these tests never use them.
const run = runCli;

/** A scratch repository in the system's temp directory, removed after the tests. */
let scratch: string;
beforeAll(async () => {
  scratch = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-cli-"));
  const write = async (relative: string, content: string | Buffer) => {
    await nodeFs.mkdir(path.dirname(path.join(scratch, relative)), { recursive: true });
    await nodeFs.writeFile(path.join(scratch, relative), content);
  };
  await write("db/schema.cql", await nodeFs.readFile(path.join(REPO_ROOT, SHOP, "schema/shop.cql")));
  await write("db/queries.yaml", await nodeFs.readFile(path.join(REPO_ROOT, SHOP, "access-patterns.yaml")));
  await write("node_modules/pkg/broken.cql", "CREATE TABLE (;");
  await write("dist/broken.cql", "CREATE TABLE (;");
  await write("binary/blob.cql", Buffer.from([0x43, 0x00, 0x01, 0x02, 0xff]));
  await write("huge/huge.cql", Buffer.alloc(READ_LIMIT_BYTES + 1, 0x20));
  await write("large/large.cql", `-- ${"x".repeat(1_200_000)}\n`);
});
afterAll(async () => {
  await nodeFs.rm(scratch, { recursive: true, force: true });
});

describe("cql-review --help and --version", () => {
  it("prints the help on stdout and exits 0", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("cql-review check [paths…] [options]");
    expect(result.stdout).toContain("Exit status:");
    expect((await run(["check", "-h"])).stdout).toBe(result.stdout);
  });

  it("prints the package version", async () => {
    expect(await run(["--version"])).toEqual({ code: 0, stdout: `${PACKAGE_VERSION}\n`, stderr: "" });
  });
});

describe("usage errors exit 2 with a message and the short usage on stderr", () => {
  const cases: [string, string[], RegExp][] = [
    ["no command", [], /a command is needed: check, explain or init/],
    ["an unknown command", ["lint"], /unknown command "lint": use check, explain or init/],
    ["an unknown flag", ["check", "--fromat", "json"], /Unknown option '--fromat'/],
    ["a flag without its value", ["check", "--format"], /--format.*argument missing/],
    ["an unknown format", ["check", "--format", "xml"], /check --format must be one of text, json, sarif, markdown, codeclimate, not "xml"/],
    ["an unknown gate level", ["check", "--fail-on", "info"], /--fail-on must be one of error, warning, never, not "info"/],
    ["--base outside check", ["explain", "Q1", "--base", "main"], /--base is an option of check only/],
    ["--stdin-filename without -", ["check", "--stdin-filename", "a.cql"], /--stdin-filename names the file read from -/],
    ["--force outside init", ["check", "--force"], /--force is an option of init only/],
    ["SARIF for explain", ["explain", "Q1", "--format", "sarif"], /explain --format must be one of text, json, markdown/],
    ["an unknown Cassandra version", ["check", "--cassandra", "3.0"], /--cassandra must be one of 3.11, 4.0, 4.1, 5.0, not "3.0"/],
    ["a missing --manifest file", ["check", SHOP, "--manifest", "nope.yaml"], /--manifest nope.yaml: no such file/],
    ["a missing --config file", ["check", SHOP, "--config", "nope.yml"], /--config nope.yml: no such file/],
    ["explain without a target", ["explain"], /explain needs a target/],
    ["explain with something that is no target", ["explain", SHOP], /Cannot tell what to explain/],
  ];
  it.each(cases)("%s", async (_, argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("Usage: cql-review check [paths…]");
  });

  it("a path given where the target should be is named", async () => {
    const result = await run(["explain", "shop"], { cwd: path.join(REPO_ROOT, "test/fixtures/report") });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('explain needs a target after the paths: "shop" is a path, not a query id');
  });
});

describe("cql-review check", () => {
  it("prints stylish text and exits 1 when the gate fails", async () => {
    const result = await run(["check", SHOP]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(new RegExp(`^${SHOP}/access-patterns.yaml\n`, "m"));
    expect(result.stdout).toMatch(/^ {2}14:5 +error {2}Cassandra rejects orders-by-status .* {2}query-needs-allow-filtering$/m);
    expect(result.stdout).toContain("  orders-by-status  shop.orders_by_customer  needs-allow-filtering  all");
    expect(result.stdout.trimEnd().split("\n").at(-1)).toMatch(/^✖ \d+ problems? \(\d+ errors?, .*\); the gate fails: \d+ errors?$/);
  });

  it("exits 0 when the config's fail_on never lets the gate fail", async () => {
    const result = await run(["check", SHOP, "--config", "test/fixtures/report/shop-fail-never.yml"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("the gate passes");
  });

  it("prints the §4.2 JSON document, valid against schema/report.schema.json", async () => {
    const result = await run(["check", SHOP, "--format", "json"]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(validateReport(report)).toBe(true);
    expect(report.files.map((file: { path: string }) => file.path)).toEqual([`${SHOP}/access-patterns.yaml`, `${SHOP}/schema/shop.cql`]);
    expect(report.queries.map((query: { id: string; verdict: string }) => `${query.id} ${query.verdict}`)).toEqual([
      "recent-orders single-partition",
      "orders-by-status needs-allow-filtering",
    ]);
  });

  it("prints SARIF that meets code scanning's requirements, with the package version", async () => {
    const result = await run(["check", SHOP, "--format", "sarif"]);
    const log = JSON.parse(result.stdout);
    expect(githubProblems(log)).toEqual([]);
    expect(log.runs[0].tool.driver.version).toBe(PACKAGE_VERSION);
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(`${SHOP}/access-patterns.yaml`);
  });

  it("prints the Markdown check summary", async () => {
    const result = await run(["check", SHOP, "--format", "markdown", "--cassandra", "4.1"]);
    expect(result.stdout).toMatch(/^(✅|❌) \*\*The gate (passes|fails)\*\* /);
    expect(result.stdout).toContain("\n**cql-review** · Cassandra 4.1 semantics · 1 table · 2 queries");
    expect(result.stdout).toContain("| `orders-by-status` | `shop.orders_by_customer` | ⚠️ needs-allow-filtering | all |");
  });

  it("makes paths relative to a directory that holds .github/cql-review.yml, as GitHub would see them", async () => {
    const result = await run(["check", "examples/iot", "--format", "json"]);
    const report = JSON.parse(result.stdout);
    expect(validateReport(report)).toBe(true);
    expect(report.files.length).toBeGreaterThan(0);
    for (const file of report.files) expect(file.path.startsWith("examples/")).toBe(false);
    expect(report.files.map((file: { path: string }) => file.path)).toContain("access-patterns.yaml");
  });

  it("reviews the bad model and fails its gate", async () => {
    const result = await run(["check", "test/fixtures/bad-model", "--format", "json"]);
    const report = JSON.parse(result.stdout);
    expect(validateReport(report)).toBe(true);
    expect(result.code).toBe(report.summary.errors > 0 ? 1 : 0);
    expect(result.code).toBe(1);
  });

  it("colours only on a terminal without NO_COLOR", async () => {
    const escape = /\u001b\[/;
    expect((await run(["check", SHOP], { stdoutIsTTY: true })).stdout).toMatch(escape);
    expect((await run(["check", SHOP], { stdoutIsTTY: true, env: { NO_COLOR: "1" } })).stdout).not.toMatch(escape);
    expect((await run(["check", SHOP], { stdoutIsTTY: false })).stdout).not.toMatch(escape);
  });

  it("reads a manifest named by --manifest even when the globs would not pick it", async () => {
    const result = await run(["check", "db", "--manifest", "db/queries.yaml", "--format", "json"], { cwd: scratch });
    const report = JSON.parse(result.stdout);
    expect(report.files).toEqual([
      { path: "db/queries.yaml", kind: "manifest", statements: 2 },
      { path: "db/schema.cql", kind: "schema", statements: 2 },
    ]);
    expect(report.queries).toHaveLength(2);
  });

  it("skips node_modules, .git and dist, reports binary and large files, and warns about files it will not read", async () => {
    const result = await run(["check", ".", "--format", "json"], { cwd: scratch });
    const report = JSON.parse(result.stdout);
    const reviewed = report.files.map((file: { path: string }) => file.path);
    expect(reviewed).toEqual(["db/schema.cql"]);
    const limits = report.findings.filter((finding: { rule: string }) => finding.rule === "input-limit-exceeded");
    expect(limits.map((finding: { file: string }) => finding.file).sort()).toEqual(["binary/blob.cql", "large/large.cql"]);
    expect(result.stderr).toBe("cql-review: huge/huge.cql: skipped, 2.0 MiB is over the 2 MiB read limit\n");
  });

  it("exits 2 naming every path that does not exist, even when others do: a mistyped CI path must not pass", async () => {
    const result = await run(["check", SHOP, "no/such/dir", "nope.cql"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: "cql-review: no/such/dir: no such file or directory\ncql-review: nope.cql: no such file or directory\n",
    });
  });

  it("exits 2 when nothing could be read", async () => {
    const locked: CliFileSystem = {
      ...realFs,
      readFile: async (file) => {
        if (file.endsWith(".cql") || file.endsWith(".yaml")) throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
        return realFs.readFile(file);
      },
    };
    const unreadable = await run(["check", SHOP], { fs: locked });
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain(`cql-review: ${SHOP}/schema/shop.cql: cannot be read (permission denied)\n`);
    expect(unreadable.stderr).toContain("cql-review: nothing could be read\n");
  });

  it("exits 2 when a directory holds nothing to review, naming the globs it tried", async () => {
    // src/report holds TypeScript, but none of it runs CQL through a driver.
    const result = await run(["check", "src/report"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^cql-review: nothing to review under src\/report: no file matches the schema globs \(\*\*\/\*\.cql\) or the manifest globs \(\*\*\/access-patterns\.y\{,a\}ml\), or application code that runs CQL \(\*\*\/\*\.java, .*\), outside the ignored \*\*\/node_modules\/\*\*\n$/,
    );
  });
});

describe("cql-review explain", () => {
  it("explains a query of the manifest step by step", async () => {
    const result = await run(["explain", SHOP, "recent-orders"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^recent-orders · A customer's latest orders\n {2}served by shop\.orders_by_customer \(Cassandra 5\.0; /);
    expect(result.stdout).toMatch(/\n {2}verdict +single-partition: \S/);
    expect(result.stdout).toMatch(/\n {2}rows read +20\n/);
    // answer first, then the plan: the statement and its steps
    expect(result.stdout.indexOf("\n  verdict ")).toBeLessThan(result.stdout.indexOf("\nPlan\n"));
    expect(result.stdout).toMatch(/\nPlan\n {2}SELECT [^\n]*\n {2}1\. /);
    expect(result.stdout).toContain("Partition estimate of shop.orders_by_customer: ");
    // the manifest's worst case: rows_per_partition max 2,000
    expect(result.stdout).toMatch(/\n {2}worst +2,000 /);
  });

  it("names the findings that fire for a query", async () => {
    const result = await run(["explain", SHOP, "orders-by-status", "--format", "json"]);
    const { answer } = JSON.parse(result.stdout);
    expect(answer.kind).toBe("query");
    expect(answer.plan.verdict).toBe("needs-allow-filtering");
    expect(answer.findings.map((finding: { rule: string }) => finding.rule)).toContain("query-needs-allow-filtering");
  });

  it("plans an ad-hoc SELECT against the schema", async () => {
    const result = await run(["explain", SHOP, "select total from orders_by_customer where customer_id = ? and ordered_at > ?", "--format", "markdown"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^### `shop\.orders_by_customer`\n\n✅ single-partition: /);
    expect(result.stdout).toMatch(/\*\*Plan\*\*\n\n```sql\nselect total from/);
  });

  it("takes an unquoted statement as the words from SELECT to the end", async () => {
    const result = await run(["explain", SHOP, "SELECT", "total", "FROM", "orders_by_customer", "WHERE", "customer_id", "=", "?", "--format", "json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).answer).toMatchObject({ kind: "select", cql: "SELECT total FROM orders_by_customer WHERE customer_id = ?", table: "shop.orders_by_customer" });
  });

  it("explains a table: key layout and the queries that hit it", async () => {
    const result = await run(["explain", SHOP, "table", "orders_by_customer"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  customer_id  uuid       partition key\n  ordered_at   timestamp  clustering     desc\n");
    expect(result.stdout).toMatch(/recent-orders +served here +single-partition +1/);
  });

  it("exits 1 for an unknown id and lists the known ones, nearest first", async () => {
    const result = await run(["explain", SHOP, "recent-order"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("No query recent-order in the access-patterns manifest.\nKnown queries, nearest first: recent-orders, orders-by-status\n");
  });

  it("exits 1 for a statement that does not parse, with its position", async () => {
    const result = await run(["explain", SHOP, "SELECT * FROM orders_by_customer WHERE"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^This statement cannot be explained:\n {2}SELECT \* FROM orders_by_customer WHERE\n {2}1:\d+ {2}error {2}\S/);
  });

  it("answers an unknown table in Cassandra's words", async () => {
    const result = await run(["explain", SHOP, "SELECT * FROM orders WHERE id = ?", "--format", "json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).answer).toMatchObject({ kind: "not-found", target: "table", message: "unconfigured table orders", known: ["shop.orders_by_customer"] });
  });
});
