// A new user's first runs on an application with code: `check --base` compares the code too, the
// summary speaks of "new" only when something was compared, and an editor's unsaved buffer of a
// code file is reviewed in its repository.
import { execFileSync } from "node:child_process";
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const SCHEMA = `CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE shop.users (user_id uuid PRIMARY KEY, email text, name text);
`;

// A DAO whose listing reads every partition: an error the application really has.
const DAO = `package com.example.shop;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.util.UUID;

public class UserDao {
    private final CqlSession session;

    public UserDao(CqlSession session) { this.session = session; }

    public void findById(UUID id) {
        session.execute(SimpleStatement.newInstance("SELECT name, email FROM shop.users WHERE user_id = ?", id));
    }

    public void findAll() {
        session.execute("SELECT * FROM shop.users");
    }
}
`;

let directory: string;

beforeEach(async () => {
  directory = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-first-run-"));
  await nodeFs.mkdir(path.join(directory, "db"));
  await nodeFs.mkdir(path.join(directory, "src"));
  await nodeFs.writeFile(path.join(directory, "db/schema.cql"), SCHEMA);
  await nodeFs.writeFile(path.join(directory, "src/UserDao.java"), DAO);
});

afterEach(async () => {
  await nodeFs.rm(directory, { recursive: true, force: true });
});

function git(...args: string[]): void {
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: directory, stdio: "ignore" });
}

describe("check on application code", () => {
  it("without --base, counts findings without calling them new", async () => {
    const result = await runCli(["check", "."], { cwd: directory });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/query-full-scan/);
    expect(result.stdout.trimEnd().split("\n").at(-1)).toMatch(/the gate fails: 1 error$/);
    expect(result.stdout).not.toContain("in this change");
  });

  it("with --base on an unchanged repository, finds the code's findings at the base too", async () => {
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("commit", "-qm", "first");
    const result = await runCli(["check", ".", "--base", "main"], { cwd: directory });
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/query-full-scan/);
    expect(result.stdout.trimEnd().split("\n").at(-1)).toMatch(/the gate passes: nothing new$/);
    expect(result.code).toBe(0);
  });

  it("with --base, a statement the change adds to the code is new", async () => {
    git("init", "-q", "-b", "main");
    await nodeFs.writeFile(path.join(directory, "src/UserDao.java"), DAO.replace(/\n {4}public void findAll\(\) \{\n.*\n {4}\}\n/, "\n"));
    git("add", ".");
    git("commit", "-qm", "first");
    await nodeFs.writeFile(path.join(directory, "src/UserDao.java"), DAO);
    const result = await runCli(["check", ".", "--base", "main"], { cwd: directory });
    expect(result.stdout.trimEnd().split("\n").at(-1)).toMatch(/the gate fails: 1 new error in this change$/);
    expect(result.code).toBe(1);
  });

  it("reviews a code file read from - in its repository, as check reviews the saved file", async () => {
    const saved = await runCli(["check", "--format", "json"], { cwd: directory });
    const piped = await runCli(["check", "-", "--stdin-filename", "src/UserDao.java", "--format", "json"], {
      cwd: directory,
      readStdin: async () => Buffer.from(DAO),
    });
    expect(piped.code).toBe(saved.code);
    const findings = (text: string) => (JSON.parse(text) as { findings: unknown[] }).findings;
    expect(findings(piped.stdout)).toEqual(findings(saved.stdout));
    expect(JSON.stringify(findings(piped.stdout))).not.toMatch(/invalid|table-unread/);
  });

  it("reviews the buffer's text, not the saved file's", async () => {
    const edited = DAO.replace("SELECT * FROM shop.users", "SELECT * FROM shop.users WHERE user_id = ?");
    const piped = await runCli(["check", "-", "--stdin-filename", "src/UserDao.java"], { cwd: directory, readStdin: async () => Buffer.from(edited) });
    expect(piped.stdout).not.toMatch(/query-full-scan/);
    expect(piped.code).toBe(0);
  });
});

describe("init then check on a generated Spring application's layout", () => {
  // The layout a generator gives a Spring Boot application with Cassandra: a keyspace script per
  // environment and a tear-down script beside a changelog whose scripts name no keyspace, and the
  // keyspace in application-<profile>.yml.
  const layout: Record<string, string> = {
    "src/main/resources/config/cql/create-keyspace.cql":
      "CREATE KEYSPACE IF NOT EXISTS storeApp WITH REPLICATION = { 'class' : 'NetworkTopologyStrategy', 'dc1' : 1 };\n",
    "src/main/resources/config/cql/create-keyspace-prod.cql":
      "CREATE KEYSPACE IF NOT EXISTS storeApp WITH REPLICATION = { 'class' : 'NetworkTopologyStrategy', 'dc1' : 3 };\n",
    "src/main/resources/config/cql/drop-keyspace.cql": "DROP KEYSPACE IF EXISTS storeApp;\n",
    "src/main/resources/config/cql/changelog/00000000000000_create-tables.cql":
      "CREATE TABLE IF NOT EXISTS customer (id text, email text, PRIMARY KEY(id));\nCREATE TABLE IF NOT EXISTS customer_by_email (email text, id text, PRIMARY KEY(email, id));\n",
    "src/main/resources/config/cql/changelog/00000000000001_seed.cql": "INSERT INTO customer (id, email) VALUES ('1', 'a@example.com');\n",
    "src/main/resources/config/application-dev.yml": "spring:\n  cassandra:\n    contact-points: localhost\n    keyspace-name: storeApp\n",
  };

  beforeEach(async () => {
    await nodeFs.rm(path.join(directory, "db"), { recursive: true });
    await nodeFs.rm(path.join(directory, "src"), { recursive: true });
    for (const [file, content] of Object.entries(layout)) {
      await nodeFs.mkdir(path.dirname(path.join(directory, file)), { recursive: true });
      await nodeFs.writeFile(path.join(directory, file), content);
    }
  });

  it("drafts a valid manifest with the keyspace and the schema files in their order, and check finds no error", async () => {
    const init = await runCli(["init", "."], { cwd: directory });
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    const draft = await nodeFs.readFile(path.join(directory, "access-patterns.yaml"), "utf8");
    expect(draft).toMatch(/^keyspace: storeapp$/m);
    expect(draft).toContain(
      'schema:\n  - "src/main/resources/config/cql/create-keyspace-prod.cql"\n  - "src/main/resources/config/cql/create-keyspace.cql"\n  - "src/main/resources/config/cql/changelog/*.cql"\n',
    );
    expect(draft).not.toContain("drop-keyspace.cql");
    // a lookup from a value to the row it names: one row per partition, still to be confirmed
    expect(draft).toMatch(/customer_by_email:\n.*\n {4}rows_per_partition: \{ avg: 1, max: 1 \} {3}# TODO: one customer row per email/);
    const check = await runCli(["check", "."], { cwd: directory });
    expect(check.stdout).not.toMatch(/\berror\b/);
    expect(check.code).toBe(0);
  });

  it("applies the files the manifest's schema: names, in its order", async () => {
    await runCli(["init", "."], { cwd: directory });
    const draft = await nodeFs.readFile(path.join(directory, "access-patterns.yaml"), "utf8");
    // the team says the tear-down script runs last: then every table is gone
    await nodeFs.writeFile(
      path.join(directory, "access-patterns.yaml"),
      draft.replace('  - "src/main/resources/config/cql/changelog/*.cql"\n', '  - "src/main/resources/config/cql/changelog/*.cql"\n  - "src/main/resources/config/cql/drop-keyspace.cql"\n'),
    );
    const check = await runCli(["check", "."], { cwd: directory });
    expect(check.stdout).toMatch(/error/);
    expect(check.code).toBe(1);
  });

  it("exits 1 when the draft does not validate", async () => {
    // a keyspace name the manifest cannot hold (quoted, with a hyphen): Cassandra refuses it too
    await nodeFs.writeFile(
      path.join(directory, "src/main/resources/config/cql/create-keyspace.cql"),
      `CREATE KEYSPACE IF NOT EXISTS "store-app" WITH REPLICATION = { 'class' : 'NetworkTopologyStrategy', 'dc1' : 1 };\nCREATE TABLE "store-app".t (k int PRIMARY KEY);\n`,
    );
    await nodeFs.rm(path.join(directory, "src/main/resources/config/cql/create-keyspace-prod.cql"));
    await nodeFs.rm(path.join(directory, "src/main/resources/config/application-dev.yml"));
    const init = await runCli(["init", "."], { cwd: directory });
    expect(init.stderr).toMatch(/the draft has a problem/);
    expect(init.code).toBe(1);
  });
});
