// check --base REF --filter-mode: reviewdog's filters over the change against the base commit.
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedLines } from "../../src/cli/filter-mode.js";
import { realGit, runCli } from "./run-cli.js";

// SimpleStrategy: a keyspace-replication finding in a file the change does not touch.
const SCHEMA = `CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};

CREATE TABLE shop.orders_by_customer (
  customer_id uuid,
  order_id uuid,
  status text,
  total decimal,
  PRIMARY KEY ((customer_id), order_id)
);
`;
// by-status filters on a regular column (an error already at the base), more than three lines
// above the end of the file, where the head adds a query.
const MANIFEST = `version: 1
keyspace: shop
queries:
  - id: by-status
    cql: SELECT order_id FROM orders_by_customer WHERE status = ?
  - id: by-customer
    cql: SELECT order_id FROM orders_by_customer WHERE customer_id = ?
  - id: by-customer-latest
    cql: SELECT order_id FROM orders_by_customer WHERE customer_id = ? LIMIT 10
`;
// The head appends a query that filters on a regular column, as the base's by-status does.
const ADDED_QUERY = `  - id: by-total
    cql: SELECT order_id FROM orders_by_customer WHERE total = ?
`;

let repository: string;
const git = (...args: string[]) => realGit(["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], repository);

beforeAll(async () => {
  repository = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-filter-"));
  await nodeFs.mkdir(path.join(repository, "db"));
  await nodeFs.writeFile(path.join(repository, "db/shop.cql"), SCHEMA);
  await nodeFs.writeFile(path.join(repository, "db/access-patterns.yaml"), MANIFEST);
  await git("init", "--quiet", "--initial-branch=main");
  await git("add", ".");
  await git("commit", "--quiet", "-m", "base");
  await nodeFs.appendFile(path.join(repository, "db/access-patterns.yaml"), ADDED_QUERY);
});
afterAll(async () => {
  await nodeFs.rm(repository, { recursive: true, force: true });
});

async function check(...args: string[]) {
  const result = await runCli(["check", ".", "--base", "main", "--format", "json", ...args], { cwd: repository });
  const report = JSON.parse(result.stdout) as { findings: { rule: string; file: string; line: number }[]; summary: Record<string, number> };
  return { code: result.code, found: report.findings.map((f) => `${f.rule} ${f.file}:${f.line}`), summary: report.summary };
}

const EXISTING_FILTERING = "query-needs-allow-filtering db/access-patterns.yaml:4";
const ADDED_FILTERING = "query-needs-allow-filtering db/access-patterns.yaml:10";
const REPLICATION = "keyspace-replication db/shop.cql:1";

describe("check --base --filter-mode, reviewdog's filters", () => {
  it("nofilter (the default) shows every finding", async () => {
    const all = await check();
    expect(all.found).toEqual(expect.arrayContaining([EXISTING_FILTERING, ADDED_FILTERING, REPLICATION]));
    expect(await check("--filter-mode", "nofilter")).toEqual(all);
  });

  it("file keeps the findings of the files the change touched", async () => {
    const { found } = await check("--filter-mode", "file");
    expect(found).toEqual(expect.arrayContaining([EXISTING_FILTERING, ADDED_FILTERING]));
    expect(found.filter((f) => f.includes("db/shop.cql"))).toEqual([]);
  });

  it("diff_context keeps the findings on the lines of the diff's hunks; added only those on added lines", async () => {
    expect((await check("--filter-mode", "diff_context")).found).toEqual([ADDED_FILTERING]);
    const added = await check("--filter-mode", "added");
    expect(added.found).toEqual([ADDED_FILTERING]);
    expect(added.summary).toMatchObject({ errors: 1, warnings: 0 });
    expect(added.code).toBe(1);
  });

  it("decides the gate on the findings it shows: a new error off the changed lines does not fail it", async () => {
    // Another change: no query added, and the schema drops the column by-status filters on. The
    // base's query is now invalid, a new error, on a line the change did not touch.
    await git("checkout", "--quiet", "--", ".");
    await nodeFs.writeFile(path.join(repository, "db/shop.cql"), SCHEMA.replace("  status text,\n", ""));
    try {
      const all = await check();
      expect(all.code).toBe(1);
      expect(all.found.some((f) => f.endsWith("db/access-patterns.yaml:4"))).toBe(true);
      // The schema's hunk (a deletion: no added line) still shows its context lines, where the table is.
      for (const mode of ["added", "diff_context", "file"]) {
        const filtered = await check("--filter-mode", mode);
        expect(filtered.found.filter((f) => f.includes("access-patterns.yaml")), mode).toEqual([]);
      }
      const added = await check("--filter-mode", "added");
      expect(added.found).toEqual([]);
      expect(added.code).toBe(0);
    } finally {
      await git("checkout", "--quiet", "--", ".");
      await nodeFs.appendFile(path.join(repository, "db/access-patterns.yaml"), ADDED_QUERY);
    }
  });

  it("is a usage error without --base, or with a mode reviewdog does not have", async () => {
    const noBase = await runCli(["check", ".", "--filter-mode", "added"], { cwd: repository });
    expect(noBase.code).toBe(2);
    expect(noBase.stderr).toMatch(/--filter-mode added needs --base/);
    const unknown = await runCli(["check", ".", "--base", "main", "--filter-mode", "changed"], { cwd: repository });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--filter-mode must be one of added, diff_context, file, nofilter, not "changed"/);
  });
});

describe("changedLines", () => {
  it("numbers the head's added and modified lines, and the lines its hunks show with three lines of context", () => {
    const base = "a\nb\nc\nd\ne\nf\ng\nh\ni\n";
    const head = "a\nb\nc\nd\ne\nf\ng\nH\ni\nj\n";
    const lines = changedLines([{ path: "x.cql", content: base }], [{ path: "x.cql", content: head }]).get("x.cql")!;
    expect([...lines.added]).toEqual([8, 10]);
    expect([...lines.inHunks].sort((x, y) => x - y)).toEqual([5, 6, 7, 8, 9, 10]);
  });

  it("counts every line of a file new at the head as added, and leaves unchanged files out", () => {
    const changed = changedLines([{ path: "same.cql", content: "x\n" }], [{ path: "same.cql", content: "x\n" }, { path: "new.cql", content: "p\nq\n" }]);
    expect([...changed.keys()]).toEqual(["new.cql"]);
    expect([...changed.get("new.cql")!.added]).toEqual([1, 2]);
  });
});
