// `cql-review init` on an application with code: the draft points at the code's statements, names
// the tables no statement uses in a comment, lists run-time statements as comments, and `check`
// on the draft reports no drift between the two.
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Ajv } from "ajv";
import { parse as parseYaml } from "yaml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { manifestIdOf } from "../../src/cli/init.js";
import { REPO_ROOT, runCli } from "./run-cli.js";

const validateManifest = new Ajv({ allErrors: true, strict: false }).compile(
  JSON.parse(await nodeFs.readFile(path.join(REPO_ROOT, "schema/access-patterns.schema.json"), "utf8")),
);

const SCHEMA = `CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE shop.users (user_id uuid PRIMARY KEY, email text, name text);
CREATE TABLE shop.users_by_email (email text PRIMARY KEY, user_id uuid);
CREATE TABLE shop.page_views (page text PRIMARY KEY, views counter);
`;

const USER_DAO = `package com.example.shop;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.util.UUID;

public class UserDao {
    private static final String BY_EMAIL = "SELECT user_id FROM users_by_email WHERE email = ?";
    private final CqlSession session;

    public UserDao(CqlSession session) { this.session = session; }

    public void findByEmail(String email) {
        session.execute(session.prepare(BY_EMAIL).bind(email));
    }

    public void findById(UUID id) {
        session.execute(SimpleStatement.newInstance(
            "SELECT name, email FROM users " +
            "WHERE user_id = ?", id));
    }

    public void add(UUID id, String email, String name) {
        session.execute(SimpleStatement.builder("""
            BEGIN BATCH
              INSERT INTO users (user_id, email, name) VALUES (?, ?, ?);
              INSERT INTO users_by_email (email, user_id) VALUES (?, ?);
            APPLY BATCH
            """).addPositionalValues(id, email, name, email, id).build());
    }

    public void search(String name) {
        session.execute("SELECT user_id FROM users WHERE name = '" + name + "' ALLOW FILTERING");
    }
}
`;

const PAGE_VIEWS_DAO = `package com.example.shop;

import com.datastax.oss.driver.api.core.CqlSession;

public class PageViewDao {
    private final CqlSession session;

    public PageViewDao(CqlSession session) { this.session = session; }

    public void count(String page) {
        session.execute(session.prepare("UPDATE page_views SET views = views + 1 WHERE page = ?").bind(page));
    }

    public void views(String page) {
        session.execute(session.prepare("SELECT views FROM page_views WHERE page = ?").bind(page));
    }
}
`;

const JAVA = "src/main/java/com/example/shop";

let project: string;
beforeEach(async () => {
  project = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-init-code-"));
  await nodeFs.mkdir(path.join(project, "db"));
  await nodeFs.mkdir(path.join(project, JAVA), { recursive: true });
  await nodeFs.writeFile(path.join(project, "db/schema.cql"), SCHEMA);
  await nodeFs.writeFile(path.join(project, JAVA, "UserDao.java"), USER_DAO);
  await nodeFs.writeFile(path.join(project, JAVA, "PageViewDao.java"), PAGE_VIEWS_DAO);
});
afterEach(async () => {
  await nodeFs.rm(project, { recursive: true, force: true });
});

interface DraftEntry {
  id: string;
  description: string;
  code?: string;
  cql?: string | string[];
  retried?: boolean;
}

async function draft(): Promise<{ text: string; manifest: { queries: DraftEntry[]; writes: DraftEntry[] } }> {
  const text = await nodeFs.readFile(path.join(project, "access-patterns.yaml"), "utf8");
  return { text, manifest: parseYaml(text) };
}

const DRIFT_RULES = new Set(["code-statement-not-in-manifest", "manifest-query-not-in-code"]);

describe("cql-review init with application code", () => {
  it("drafts one entry per statement of the code, pointing at it, and no guess for the tables the code uses", async () => {
    const result = await runCli(["init"], { cwd: project });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "Wrote access-patterns.yaml, drafted from 3 tables and 5 statements of the code (3 queries).\n" +
        "1 statement is built at run time: listed at the end of the draft, not drafted.\n" +
        "Replace every TODO with your own figures and the application's real queries, then run:\n  cql-review check .\n",
    );
    const { text, manifest } = await draft();
    expect(validateManifest(parseYaml(text))).toBe(true);
    expect(manifest.queries.map((query) => [query.id, query.code, query.cql])).toEqual([
      ["PageViewDao.views", `${JAVA}/PageViewDao.java#PageViewDao.views`, undefined],
      ["UserDao.findByEmail", `${JAVA}/UserDao.java#UserDao.findByEmail`, undefined],
      ["UserDao.findById", `${JAVA}/UserDao.java#UserDao.findById`, undefined],
    ]);
    expect(manifest.queries[1]!.description).toBe(
      `UserDao.findByEmail in ${JAVA}/UserDao.java (session.prepare), drafted from the code`,
    );
    // the CQL is shown beside the reference, on one line, as a comment
    expect(text).toContain(`    code: ${JAVA}/UserDao.java#UserDao.findById\n    # SELECT name, email FROM users WHERE user_id = ?\n`);
    // the batch writes users and users_by_email, the counter update page_views: no guessed write is left
    expect(manifest.writes.map((write) => [write.id, write.code, write.retried])).toEqual([
      ["PageViewDao.count", `${JAVA}/PageViewDao.java#PageViewDao.count`, false],
      ["UserDao.add", `${JAVA}/UserDao.java#UserDao.add`, undefined],
    ]);
    expect(text).toContain(`\n# not drafted: built at run time (name is not a constant of the code read): ${JAVA}/UserDao.java:33, session.execute`);
  });

  it("gives a draft that check reviews without drift findings or errors", async () => {
    await runCli(["init"], { cwd: project });
    const check = await runCli(["check", ".", "--format", "json"], { cwd: project });
    const report = JSON.parse(check.stdout) as { findings: { rule: string; severity: string; file: string }[]; queries: { id: string; verdict: string }[] };
    expect(report.findings.filter((finding) => DRIFT_RULES.has(finding.rule))).toEqual([]);
    expect(report.findings.filter((finding) => finding.severity === "error")).toEqual([]);
    // the code's own findings remain: the batch across partitions, the e-mail claimed without IF NOT
    // EXISTS, the statement built at run time; and the draft's figures are placeholders until
    // someone fills them in
    expect(report.findings.map((finding) => `${finding.rule} ${finding.file}`)).toEqual([
      "manifest-placeholder access-patterns.yaml",
      `write-logged-batch-multi-partition ${JAVA}/UserDao.java`,
      `write-uniqueness-race ${JAVA}/UserDao.java`,
      `code-statement-dynamic ${JAVA}/UserDao.java`,
    ]);
    expect(report.queries.map((query) => `${query.id} ${query.verdict}`)).toEqual([
      "PageViewDao.views single-partition",
      "UserDao.findByEmail single-partition",
      "UserDao.findById single-partition",
    ]);
    expect(check.code).toBe(0);
  });

  it("names a table no statement of the code reads or writes in a comment, and drafts no guess for it", async () => {
    await nodeFs.appendFile(path.join(project, "db/schema.cql"), "CREATE TABLE shop.audit (day date, at timestamp, what text, PRIMARY KEY (day, at));\n");
    expect((await runCli(["init"], { cwd: project })).code).toBe(0);
    const { text, manifest } = await draft();
    expect(manifest.queries.map((query) => query.id)).toEqual(["PageViewDao.views", "UserDao.findByEmail", "UserDao.findById"]);
    expect(manifest.writes.map((write) => write.id)).toEqual(["PageViewDao.count", "UserDao.add"]);
    expect(text).toContain("\n# No static statement of the code reads these tables: audit.\n# No static statement of the code writes these tables: audit.\n");
    // its volume figures are still drafted: an entry added by hand needs them
    expect(text).toContain("\n  audit:\n    partitions: 1_000_000");
    // nothing drafted is reported as unused
    const check = await runCli(["check", ".", "--format", "json"], { cwd: project });
    const drift = (JSON.parse(check.stdout) as { findings: { rule: string; message: string }[] }).findings.filter((finding) => DRIFT_RULES.has(finding.rule));
    expect(drift).toEqual([]);
  });

  it("writes an empty list of queries when every statement of the code is built at run time", async () => {
    await nodeFs.rm(path.join(project, JAVA, "PageViewDao.java"));
    await nodeFs.writeFile(
      path.join(project, JAVA, "UserDao.java"),
      USER_DAO.replace(/ {4}public void findByEmail[\s\S]*?\n {4}}\n\n {4}public void findById[\s\S]*?\n {4}}\n\n {4}public void add[\s\S]*?\n {4}}\n\n/, ""),
    );
    expect((await runCli(["init"], { cwd: project })).code).toBe(0);
    const { text, manifest } = await draft();
    expect(text).toContain("\nqueries: []\n");
    expect(manifest.queries).toEqual([]);
    expect(text).toContain("# No static statement of the code reads these tables: page_views, users, users_by_email.\n");
  });

  it("drafts from the schema alone when the config turns code off", async () => {
    await nodeFs.mkdir(path.join(project, ".github"));
    await nodeFs.writeFile(path.join(project, ".github/cql-review.yml"), "code: false\n");
    expect((await runCli(["init"], { cwd: project })).stdout).toMatch(/^Wrote access-patterns.yaml, drafted from 3 tables \(3 queries\)\.\n/);
    const { manifest } = await draft();
    expect(manifest.queries.every((query) => query.code === undefined)).toBe(true);
  });
});

describe("cql-review init with a Python application", () => {
  it("names statements outside functions by their file, and check on the draft is quiet about drift", async () => {
    const app = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-init-python-"));
    try {
      await nodeFs.mkdir(path.join(app, "app"));
      await nodeFs.writeFile(path.join(app, "schema.cql"), SCHEMA);
      await nodeFs.writeFile(
        path.join(app, "app/users.py"),
        `from cassandra.cluster import Cluster

session = Cluster(["127.0.0.1"]).connect("shop")
session.execute("SELECT user_id FROM users_by_email WHERE email = %s", ("a@example.com",))


class Users:
    def name(self, user_id):
        return session.execute("SELECT name FROM users WHERE user_id = %s", (user_id,))

    def rename(self, user_id, name):
        session.execute("UPDATE users SET name = %s WHERE user_id = %s", (name, user_id))
        session.execute(f"UPDATE users SET email = '{name}' WHERE user_id = %s", (user_id,))
`,
      );
      const result = await runCli(["init"], { cwd: app });
      expect(result.stderr).toBe("");
      const text = await nodeFs.readFile(path.join(app, "access-patterns.yaml"), "utf8");
      const manifest = parseYaml(text) as { queries: DraftEntry[]; writes: DraftEntry[] };
      expect(manifest.queries.map((query) => [query.id, query.code])).toEqual([
        ["users.top-level", "app/users.py#(top level)"],
        ["Users.name", "app/users.py#Users.name"],
      ]);
      expect(manifest.writes.map((write) => [write.id, write.code])).toEqual([["Users.rename", "app/users.py#Users.rename"]]);
      expect(text).toContain("# No static statement of the code reads these tables: page_views.\n# No static statement of the code writes these tables: page_views, users_by_email.\n");
      expect(text).toMatch(/\n# not drafted: built at run time \([^)]*f-string[^)]*\): app\/users\.py:13, session\.execute/);
      const check = await runCli(["check", ".", "--format", "json"], { cwd: app });
      const findings = (JSON.parse(check.stdout) as { findings: { rule: string; message: string }[] }).findings;
      expect(findings.filter((finding) => DRIFT_RULES.has(finding.rule))).toEqual([]);
    } finally {
      await nodeFs.rm(app, { recursive: true, force: true });
    }
  });
});

describe("manifestIdOf", () => {
  it.each([
    ["src/UserDao.java#UserDao.findByEmail", "UserDao.findByEmail"],
    ["src/UserDao.java#UserDao.findByEmail~2", "UserDao.findByEmail-2"],
    ["app/queries.py#(top level)", "queries.top-level"],
    ["internal/store.go#Store.Events", "Store.Events"],
    ["web/dao.ts#$find", "find"],
    [`src/A.java#A.${"x".repeat(100)}`, `A.${"x".repeat(62)}`],
  ])("%s → %s", (statement, id) => {
    expect(manifestIdOf(statement)).toBe(id);
  });
});
