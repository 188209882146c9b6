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
