// What a repository can put in front of the CLI: a symbolic link out of the directory under review
// (its target must be neither read nor written) and control characters in names (they must not
// reach the terminal raw, in any format).
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

let scratch: string;
let repository: string;
let outside: string;

beforeEach(async () => {
  scratch = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-untrusted-"));
  repository = path.join(scratch, "repo");
  outside = path.join(scratch, "elsewhere");
  await nodeFs.mkdir(path.join(repository, "schema"), { recursive: true });
  await nodeFs.mkdir(outside);
  await nodeFs.writeFile(path.join(repository, "schema", "shop.cql"), "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nCREATE TABLE shop.orders (id uuid PRIMARY KEY, total int);\n");
});
afterEach(async () => {
  await nodeFs.rm(scratch, { recursive: true, force: true });
});

const FORMATS = ["text", "json", "sarif", "markdown", "codeclimate"] as const;

describe("a symbolic link out of the reviewed directory", () => {
  it("is not read by check: listed as not reviewed in every format, the gate fails, and nothing of its target is shown", async () => {
    await nodeFs.writeFile(path.join(outside, "private.cql"), "CREATE TABLE shop.private_token_7f3a (id uuid PRIMARY KEY);\n");
    await nodeFs.symlink(path.join(outside, "private.cql"), path.join(repository, "schema", "leak.cql"));
    // A link that stays inside is read as the file it leads to.
    await nodeFs.symlink("shop.cql", path.join(repository, "schema", "same.cql"));
    for (const format of FORMATS) {
      const run = await runCli(["check", "schema", "--format", format], { cwd: repository });
      expect(run.code, format).toBe(1);
      expect(run.stdout + run.stderr, format).not.toContain("private_token");
      expect(run.stdout, format).toContain("leak.cql");
      expect(run.stderr).toContain("schema/leak.cql: not read, it is a symbolic link to a file outside");
    }
    const json = JSON.parse((await runCli(["check", "schema", "--format", "json"], { cwd: repository })).stdout);
    expect(JSON.stringify(json)).toContain("schema/leak.cql was not read: it is a symbolic link to a file outside the reviewed directory; it was not reviewed.");
    expect(JSON.stringify(json)).toContain("schema/same.cql");
  });

  it("is not written through by init --force, with a clear message, and its target is left alone", async () => {
    const target = path.join(outside, "notes.txt");
    await nodeFs.writeFile(target, "someone else's file\n");
    await nodeFs.symlink(target, path.join(repository, "access-patterns.yaml"));
    const run = await runCli(["init", ".", "--force"], { cwd: repository });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("access-patterns.yaml is a symbolic link to a file outside .; init does not write through it");
    expect(await nodeFs.readFile(target, "utf8")).toBe("someone else's file\n");
  });

  it("that leads nowhere is not followed by init --force either: nothing is created outside", async () => {
    const target = path.join(outside, "created.yaml");
    await nodeFs.symlink(target, path.join(repository, "access-patterns.yaml"));
    const run = await runCli(["init", ".", "--force"], { cwd: repository });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("access-patterns.yaml: cannot be written (it is a symbolic link, which is not written through)");
    await expect(nodeFs.stat(target)).rejects.toThrow();
  });

  it("that stays inside the directory is written through by init --force", async () => {
    await nodeFs.writeFile(path.join(repository, "draft.yaml"), "old\n");
    await nodeFs.symlink("draft.yaml", path.join(repository, "access-patterns.yaml"));
    const run = await runCli(["init", ".", "--force"], { cwd: repository });
    expect(run.stderr).not.toContain("symbolic link");
    expect(await nodeFs.readFile(path.join(repository, "draft.yaml"), "utf8")).toContain("queries:");
  });
});

describe("control characters in a name", () => {
  it("never reach the output raw, in any format", async () => {
    // ESC ] 0 ; … BEL retitles a terminal window; U+009B is the one-character CSI of C1.
    const hostile = 'shop."orders\u001b]0;pwned\u0007\u009b2J"';
    await nodeFs.writeFile(
      path.join(repository, "schema", "shop.cql"),
      `CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nCREATE TABLE ${hostile} (id uuid PRIMARY KEY, v text);\nCREATE TABLE ${hostile} (id uuid PRIMARY KEY, v text);\n`,
    );
    for (const format of FORMATS) {
      const run = await runCli(["check", "schema", "--format", format], { cwd: repository, env: { FORCE_COLOR: "0" } });
      expect(run.stdout, format).toContain("orders");
      // Nothing but line feeds (and tabs) of the C0 and C1 controls, and no DEL.
      expect(run.stdout.match(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g), format).toBeNull();
      if (format === "markdown" || format === "text") expect(run.stdout, format).toContain("\\u{1b}]0;pwned\\u{7}\\u{9b}2J");
      else expect(JSON.stringify(JSON.parse(run.stdout)), format).toContain("orders\\u001b]0;pwned\\u0007\u009b2J");
    }
  });
});
