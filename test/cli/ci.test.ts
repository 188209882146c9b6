// The CLI in any CI: --base through git, --fail-on, the Code Quality format, stdin, colour and layout.
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useColor } from "../../src/cli.js";
import { codeClimateIssues } from "../../src/report/codeclimate.js";
import { realGit, REPO_ROOT, runCli } from "./run-cli.js";

const SHOP = "test/fixtures/report/shop";
const NEW_FILTERING_QUERY = `  - id: orders-by-total
    description: Orders of one amount
    cql: SELECT order_id FROM orders_by_customer WHERE total = ?
`;

/** "query-id" or "query-id (existing)" for each query-needs-allow-filtering line of the text output. */
function filteringFindings(text: string): string[] {
  return [...text.matchAll(/Cassandra rejects (\S+) .*query-needs-allow-filtering( \(existing\))?$/gm)].map((match) => `${match[1]}${match[2] ?? ""}`);
}

let repository: string;
const git = (...args: string[]) => realGit(["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], repository);

beforeAll(async () => {
  repository = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-base-"));
  await nodeFs.mkdir(path.join(repository, "db/schema"), { recursive: true });
  await nodeFs.copyFile(path.join(REPO_ROOT, SHOP, "schema/shop.cql"), path.join(repository, "db/schema/shop.cql"));
  await nodeFs.copyFile(path.join(REPO_ROOT, SHOP, "access-patterns.yaml"), path.join(repository, "db/access-patterns.yaml"));
  await git("init", "--quiet", "--initial-branch=main");
  await git("add", ".");
  await git("commit", "--quiet", "-m", "base");
  await git("tag", "v1");
  // The head adds a second query that needs ALLOW FILTERING, beside the one the base had.
  await nodeFs.appendFile(path.join(repository, "db/access-patterns.yaml"), NEW_FILTERING_QUERY);
});
afterAll(async () => {
  await nodeFs.rm(repository, { recursive: true, force: true });
});

describe("check --base REF", () => {
  it("marks findings already at the base as existing, and fails the gate only on the new one", async () => {
    const result = await runCli(["check", "db", "--base", "v1"], { cwd: repository });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(filteringFindings(result.stdout)).toEqual(["orders-by-total", "orders-by-status (existing)"]);
    expect(result.stdout).toContain("1 already at the base); the gate fails");
  });

  it("passes the gate when the head adds nothing new", async () => {
    await git("stash", "--quiet");
    try {
      const result = await runCli(["check", "db", "--base", "main"], { cwd: repository });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/query-needs-allow-filtering \(existing\)$/m);
      expect(result.stdout).toContain("1 already at the base); the gate passes");
    } finally {
      await git("stash", "pop", "--quiet");
    }
  });

  it("treats a file new since the base as all new", async () => {
    await git("mv", "db/access-patterns.yaml", "db/moved-access-patterns.yaml");
    try {
      const result = await runCli(["check", "db/schema", "--manifest", "db/moved-access-patterns.yaml", "--base", "v1"], { cwd: repository });
      expect(filteringFindings(result.stdout)).toEqual(["orders-by-status", "orders-by-total"]);
    } finally {
      await git("mv", "db/moved-access-patterns.yaml", "db/access-patterns.yaml");
    }
  });

  it("exits 2 with a hint when the ref names no commit (a shallow CI clone)", async () => {
    const result = await runCli(["check", "db", "--base", "origin/nope"], { cwd: repository });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "cql-review: --base origin/nope: no such commit in this repository (in CI, fetch it first: a shallow clone lacks it, e.g. `git fetch --depth=1 origin origin/nope`)\n",
    );
  });

  it("exits 2 outside a git repository", async () => {
    const outside = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-nogit-"));
    try {
      await nodeFs.copyFile(path.join(REPO_ROOT, SHOP, "schema/shop.cql"), path.join(outside, "shop.cql"));
      const result = await runCli(["check", ".", "--base", "main"], { cwd: outside, env: { GIT_CEILING_DIRECTORIES: tmpdir() } });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^cql-review: --base needs a git repository: .* is not inside one/);
    } finally {
      await nodeFs.rm(outside, { recursive: true, force: true });
    }
  });
});

describe("check --fail-on", () => {
  it("overrides the config's gate both ways", async () => {
    const never = await runCli(["check", SHOP, "--fail-on", "never"]);
    expect(never.code).toBe(0);
    expect(never.stdout).toMatch(/; the gate passes: [^\n]+\n$/);
    const warning = await runCli(["check", SHOP, "--config", "test/fixtures/report/shop-fail-never.yml", "--fail-on", "warning"]);
    expect(warning.code).toBe(1);
  });
});

describe("check --quiet", () => {
  it("prints the errors without the queries table, with the same summary and exit status", async () => {
    const full = await runCli(["check", SHOP]);
    const quiet = await runCli(["check", SHOP, "--quiet"]);
    expect(full.stdout).toMatch(/^Queries$/m);
    expect(quiet.stdout).not.toMatch(/^Queries$/m);
    expect(quiet.stdout).toMatch(/ error {2}Cassandra rejects orders-by-status/);
    expect(quiet.code).toBe(full.code);
    expect(quiet.stdout.trimEnd().split("\n").at(-1)).toBe(full.stdout.trimEnd().split("\n").at(-1));
  });

  it("is refused with another format", async () => {
    const result = await runCli(["check", SHOP, "--quiet", "--format", "json"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--quiet is an option of check with the text format only/);
  });
});

describe("check --format codeclimate", () => {
  it("prints GitLab Code Quality issues carrying the findings' fingerprints", async () => {
    const result = await runCli(["check", SHOP, "--format", "codeclimate"]);
    expect(result.code).toBe(1);
    const issues = JSON.parse(result.stdout);
    expect(issues).toContainEqual({
      description: expect.stringContaining("Cassandra rejects orders-by-status"),
      check_name: "query-needs-allow-filtering",
      fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      severity: "major",
      location: { path: `${SHOP}/access-patterns.yaml`, lines: { begin: 14, end: 14 } },
    });
    const json = JSON.parse((await runCli(["check", SHOP, "--format", "json"])).stdout);
    expect(issues).toHaveLength(json.findings.length);
  });

  it("keeps an issue's fingerprint when lines move, and never gives two issues the same one", () => {
    const at = (line: number, fingerprint: string) => ({
      rule: "r",
      severity: "warning" as const,
      message: "m",
      fingerprint,
      location: { file: "a.cql", range: { start: { line, column: 1, offset: 0 }, end: { line, column: 2, offset: 1 } } },
    });
    const [moved] = codeClimateIssues([at(40, "r:t")]);
    const [original] = codeClimateIssues([at(4, "r:t")]);
    expect(moved.fingerprint).toBe(original.fingerprint);
    expect(moved.severity).toBe("minor");
    const twins = codeClimateIssues([at(1, "r:t"), at(9, "r:t"), at(5, "r:u")]);
    expect(new Set(twins.map((issue) => issue.fingerprint)).size).toBe(3);
  });
});

describe("check - (standard input)", () => {
  const stdinOf = (text: string) => async () => Buffer.from(text);

  it("reviews a schema read from stdin under --stdin-filename, with the manifest from the paths", async () => {
    const schema = await nodeFs.readFile(path.join(REPO_ROOT, SHOP, "schema/shop.cql"), "utf8");
    const result = await runCli(["check", "-", `${SHOP}/access-patterns.yaml`, "--stdin-filename", `${SHOP}/schema/shop.cql`, "--format", "json"], {
      readStdin: stdinOf(schema),
    });
    const report = JSON.parse(result.stdout);
    expect(report.files.map((file: { path: string }) => file.path)).toEqual([`${SHOP}/access-patterns.yaml`, `${SHOP}/schema/shop.cql`]);
    expect(report.queries).toHaveLength(2);
  });

  it("reads a .yaml name as the manifest, and a nameless input as stdin.cql", async () => {
    const manifest = await nodeFs.readFile(path.join(REPO_ROOT, SHOP, "access-patterns.yaml"), "utf8");
    const asManifest = await runCli(["check", `${SHOP}/schema`, "-", "--stdin-filename", "queries.yaml", "--format", "json"], { readStdin: stdinOf(manifest) });
    expect(JSON.parse(asManifest.stdout).files).toContainEqual({ path: "queries.yaml", kind: "manifest", statements: 2 });
    const nameless = await runCli(["check", "-", "--format", "json"], { readStdin: stdinOf("CREATE TABLE ks.t (id int PRIMARY KEY);") });
    expect(JSON.parse(nameless.stdout).files).toEqual([{ path: "stdin.cql", kind: "schema", statements: 1 }]);
  });
});

describe("colour and layout", () => {
  it("FORCE_COLOR turns colour on off a terminal and wins over NO_COLOR; FORCE_COLOR=0 turns it off", () => {
    expect(useColor({ stdoutIsTTY: false, env: { FORCE_COLOR: "1" } })).toBe(true);
    expect(useColor({ stdoutIsTTY: false, env: { FORCE_COLOR: "" } })).toBe(true);
    expect(useColor({ stdoutIsTTY: false, env: { FORCE_COLOR: "1", NO_COLOR: "1" } })).toBe(true);
    expect(useColor({ stdoutIsTTY: true, env: { FORCE_COLOR: "0" } })).toBe(false);
    expect(useColor({ stdoutIsTTY: true, env: { FORCE_COLOR: "false" } })).toBe(false);
    expect(useColor({ stdoutIsTTY: true, env: { NO_COLOR: "1" } })).toBe(false);
    expect(useColor({ stdoutIsTTY: true, env: { NO_COLOR: "" } })).toBe(true);
    expect(useColor({ stdoutIsTTY: false, env: {} })).toBe(false);
  });

  it("colours a pipe when FORCE_COLOR is set", async () => {
    expect((await runCli(["check", SHOP], { env: { FORCE_COLOR: "1" } })).stdout).toMatch(/\u001b\[/);
  });

  it("wraps findings to the terminal's width, continuation lines under the message", async () => {
    const result = await runCli(["check", SHOP], { stdoutIsTTY: true, stdoutColumns: 100, env: { NO_COLOR: "1" } });
    const findingLines = result.stdout.split("\n").slice(1, result.stdout.split("\n").indexOf(""));
    expect(findingLines.length).toBeGreaterThan(2);
    for (const line of findingLines) expect(line.length).toBeLessThanOrEqual(100);
    expect(findingLines[0]).toMatch(/^ {2}14:5 {2}error {2}Cassandra rejects .* {2}query-needs-allow-filtering$/);
    expect(findingLines[1]).toMatch(/^ {15}\S/);
  });

  it("off a terminal prints one line per finding and pads nothing", async () => {
    const result = await runCli(["check", SHOP]);
    const findingLines = result.stdout.split("\n").slice(1, result.stdout.split("\n").indexOf(""));
    expect(findingLines).toHaveLength(1);
    expect(findingLines[0]).toMatch(/^ {2}14:5 {2}error {2}Cassandra rejects \S.*\S {2}query-needs-allow-filtering$/);
    expect(findingLines[0]).not.toMatch(/ {3}/);
  });
});

describe("wrapWords", () => {
  it("breaks between words, keeps a longer word whole, and never drops text", async () => {
    const { wrapWords } = await import("../../src/report/text.js");
    expect(wrapWords("aa bb cc dd", 5)).toEqual(["aa bb", "cc dd"]);
    expect(wrapWords("a verylongidentifier b", 6)).toEqual(["a", "verylongidentifier", "b"]);
    const text = "Cassandra rejects orders-by-status on orders_by_customer as written";
    for (const width of [1, 10, 30, 200]) expect(wrapWords(text, width).join(" ")).toBe(text);
  });
});
