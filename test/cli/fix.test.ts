// check --fix and --fix-dry-run: the safe fixes applied as eslint --fix applies them.
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyFixes } from "../../src/cli/fix.js";
import type { Fix } from "../../src/findings.js";
import { realGit, runCli } from "./run-cli.js";

// Two tables on COMPACT STORAGE, written two ways (the only clause; one of several), and a
// SimpleStrategy keyspace, whose fix (a data center name to choose) is a suggestion, never applied.
const SCHEMA = `CREATE KEYSPACE metrics WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};

-- Counters per host and minute.
CREATE TABLE metrics.hits_by_host (
  host text,
  minute timestamp,
  hits int,
  PRIMARY KEY ((host), minute)
) WITH COMPACT STORAGE;

CREATE TABLE metrics.pages (
  url text PRIMARY KEY,
  title text
) WITH COMPACT STORAGE
  AND comment = 'one row per page';
`;
const FIXED = SCHEMA.replace(") WITH COMPACT STORAGE;", ");").replace(") WITH COMPACT STORAGE\n  AND comment", ") WITH comment");

let project: string;
const schemaFile = () => path.join(project, "db/metrics.cql");
const git = (...args: string[]) => realGit(["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], project);

beforeEach(async () => {
  project = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-fix-"));
  await nodeFs.mkdir(path.join(project, "db"));
  await nodeFs.writeFile(schemaFile(), SCHEMA);
});
afterEach(async () => {
  await nodeFs.rm(project, { recursive: true, force: true });
});

const check = (...args: string[]) => runCli(["check", ".", ...args], { cwd: project });

describe("check --fix", () => {
  it("removes the clause Cassandra 4.0 refuses from both tables, and touches nothing else", async () => {
    const fixed = await check("--fix");
    expect(await nodeFs.readFile(schemaFile(), "utf8")).toBe(FIXED);
    expect(fixed.stderr).toBe("cql-review: applied 2 fix(es) in 1 file(s)\n");
    // What is left is reported: the keyspace's replication, not the compact storage.
    expect(fixed.stdout).toMatch(/keyspace-replication/);
    expect(fixed.stdout).not.toMatch(/table-compact-storage/);
  });

  it("is idempotent: a second run finds nothing to fix and leaves the file as it is", async () => {
    await check("--fix");
    const second = await check("--fix");
    expect(second.stderr).toBe("");
    expect(await nodeFs.readFile(schemaFile(), "utf8")).toBe(FIXED);
  });

  it("leaves a table that already exists at --base alone: dropping the clause there needs an ALTER TABLE on the cluster", async () => {
    await git("init", "--quiet", "--initial-branch=main");
    await git("add", ".");
    await git("commit", "--quiet", "-m", "base");
    const fixed = await check("--fix", "--base", "main");
    expect(fixed.stderr).toBe("");
    expect(await nodeFs.readFile(schemaFile(), "utf8")).toBe(SCHEMA);
    expect(fixed.stdout).toMatch(/table-compact-storage/);
  });
});

describe("check --fix-dry-run", () => {
  it("prints the fixes as a unified diff, exits 1, and writes nothing", async () => {
    const dryRun = await check("--fix-dry-run");
    expect(dryRun.code).toBe(1);
    expect(dryRun.stdout).toBe(
      [
        "--- a/db/metrics.cql",
        "+++ b/db/metrics.cql",
        "@@ -6,10 +6,9 @@",
        "   minute timestamp,",
        "   hits int,",
        "   PRIMARY KEY ((host), minute)",
        "-) WITH COMPACT STORAGE;",
        "+);",
        " ",
        " CREATE TABLE metrics.pages (",
        "   url text PRIMARY KEY,",
        "   title text",
        "-) WITH COMPACT STORAGE",
        "-  AND comment = 'one row per page';",
        "+) WITH comment = 'one row per page';",
        "",
      ].join("\n"),
    );
    expect(await nodeFs.readFile(schemaFile(), "utf8")).toBe(SCHEMA);
    await check("--fix");
    expect(await check("--fix-dry-run")).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("cannot fix standard input, nor be given with --fix", async () => {
    expect((await runCli(["check", "-", "--fix"], { cwd: project, readStdin: async () => Buffer.from(SCHEMA) })).stderr).toMatch(/--fix rewrites files: it cannot fix standard input/);
    expect((await check("--fix", "--fix-dry-run")).code).toBe(2);
  });
});

describe("applyFixes", () => {
  const fix = (start: number, end: number, replacement: string): Fix => ({
    description: "",
    file: "a.cql",
    range: { start: { line: 1, column: start + 1, offset: start }, end: { line: 1, column: end + 1, offset: end } },
    replacement,
  });

  it("replaces each range and copies every other character as it was", () => {
    expect(applyFixes("0123456789", [fix(6, 8, "X"), fix(1, 3, "")])).toEqual({ text: "0345X89", applied: 2 });
  });

  it("leaves a fix that overlaps one applied before it, or lies past the end, for the next pass", () => {
    expect(applyFixes("0123456789", [fix(2, 5, "A"), fix(4, 6, "B"), fix(8, 12, "C")])).toEqual({ text: "01A56789", applied: 1 });
  });
});
