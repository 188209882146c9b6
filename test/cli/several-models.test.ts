// `cql-review check` on a repository with several applications: each model reviewed apart, the
// report grouped by model, the gate their union; `--base` compares each model with its own base.
import * as nodeFs from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { severalModelsFiles } from "../helpers/several-models.js";
import { realGit, REPO_ROOT, runCli } from "./run-cli.js";

const validateReport = new Ajv({ allErrors: true, strict: true }).compile(JSON.parse(readFileSync(path.join(REPO_ROOT, "schema/report.schema.json"), "utf8")));

let repository: string;
const git = (...args: string[]) => realGit(["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], repository);

beforeAll(async () => {
  repository = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-models-"));
  for (const [file, content] of Object.entries(severalModelsFiles())) {
    await nodeFs.mkdir(path.dirname(path.join(repository, file)), { recursive: true });
    await nodeFs.writeFile(path.join(repository, file), content);
  }
  await git("init", "--quiet", "--initial-branch=main");
  await git("add", ".");
  await git("commit", "--quiet", "-m", "two applications");
});
afterAll(async () => {
  await nodeFs.rm(repository, { recursive: true, force: true });
});

describe("check on a repository with several models", () => {
  it("prints each model's findings and queries under its name, and one verdict naming the models", async () => {
    const result = await runCli(["check", "."], { cwd: repository });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain("Cannot add existing keyspace");
    const chat = result.stdout.indexOf("Model apps/chat\n");
    const shop = result.stdout.indexOf("Model apps/shop\n");
    expect(chat).toBeGreaterThanOrEqual(0);
    expect(shop).toBeGreaterThan(chat);
    // The shop's error sits in the shop's section; the chat's query is planned on the chat's own users table.
    expect(result.stdout.indexOf("query-needs-allow-filtering")).toBeGreaterThan(shop);
    expect(result.stdout.slice(chat, shop)).toMatch(/apps\/chat\/chat\/store\.py#profile\s+store\.users\s+single-partition/);
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe(
      "✖ 5 problems (1 error, 0 warnings, 4 infos); the gate fails: 1 error; models reviewed: apps/chat, apps/shop",
    );
  });

  it("writes the models into the JSON report, which validates", async () => {
    const result = await runCli(["check", ".", "--format", "json"], { cwd: repository });
    const report = JSON.parse(result.stdout);
    expect(validateReport(report)).toBe(true);
    expect(report.models).toEqual([
      { name: "apps/chat", reviewed: true, files: ["apps/chat/access-patterns.yaml", "apps/chat/schema.cql"], summary: { errors: 0, warnings: 0, infos: 2 }, gateFails: false },
      { name: "apps/shop", reviewed: true, files: ["apps/shop/access-patterns.yaml", "apps/shop/schema.cql"], summary: { errors: 1, warnings: 0, infos: 2 }, gateFails: true },
    ]);
    // Both applications' users tables, each once.
    expect(report.tables.map((table: { keyspace: string; name: string; file: string }) => `${table.file} ${table.keyspace}.${table.name}`)).toEqual([
      "apps/chat/schema.cql store.users",
      "apps/chat/schema.cql store.messages_by_room",
      "apps/shop/schema.cql store.users",
      "apps/shop/schema.cql store.orders_by_user",
    ]);
  });

  it("groups the Markdown summary by model", async () => {
    const result = await runCli(["check", ".", "--format", "markdown"], { cwd: repository });
    expect(result.stdout).toContain("models reviewed: `apps/chat`, `apps/shop`.");
    expect(result.stdout).toContain("· 2 models · 4 tables · 4 queries");
    const chat = result.stdout.indexOf("### Model `apps/chat`");
    const shop = result.stdout.indexOf("### Model `apps/shop`");
    expect(chat).toBeGreaterThan(0);
    expect(result.stdout.indexOf("#### Fails the gate (1)")).toBeGreaterThan(shop);
    expect(shop).toBeGreaterThan(chat);
  });

  it("with --base, compares each model with its own base: an unchanged repository has nothing new and passes", async () => {
    const unchanged = await runCli(["check", ".", "--base", "main"], { cwd: repository });
    expect(unchanged.code).toBe(0);
    expect(unchanged.stdout).toContain("the gate passes: nothing new; models reviewed: apps/chat, apps/shop");

    await nodeFs.appendFile(
      path.join(repository, "apps/chat/access-patterns.yaml"),
      "  - id: messages-by-author\n    description: Messages of one author\n    cql: SELECT body FROM messages_by_room WHERE author = ?\n",
    );
    try {
      const changed = await runCli(["check", ".", "--base", "main", "--format", "json"], { cwd: repository });
      expect(changed.code).toBe(1);
      const report = JSON.parse(changed.stdout);
      expect(report.models.map((model: { name: string; gateFails: boolean }) => [model.name, model.gateFails])).toEqual([
        ["apps/chat", true],
        ["apps/shop", false],
      ]);
    } finally {
      await git("checkout", "--quiet", "--", "apps/chat/access-patterns.yaml");
    }
  });

  it("init drafts one manifest in each application root, never one merging them", async () => {
    const scratch = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-models-init-"));
    try {
      for (const [file, content] of Object.entries(severalModelsFiles())) {
        if (file.endsWith("access-patterns.yaml")) continue;
        await nodeFs.mkdir(path.dirname(path.join(scratch, file)), { recursive: true });
        await nodeFs.writeFile(path.join(scratch, file), content);
      }
      await nodeFs.writeFile(path.join(scratch, "stray.cql"), "CREATE KEYSPACE tools WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n");
      const init = await runCli(["init", "."], { cwd: scratch });
      expect(init.stderr).toBe("");
      expect(init.code).toBe(0);
      expect(init.stdout.split("\n").slice(0, 2)).toEqual([
        "2 applications, each with its own schema: one draft in each (apps/chat, apps/shop).",
        "stray.cql lies in none of them: not drafted (run init in its application's directory).",
      ]);
      await expect(nodeFs.stat(path.join(scratch, "access-patterns.yaml"))).rejects.toThrow();
      const chat = await nodeFs.readFile(path.join(scratch, "apps/chat/access-patterns.yaml"), "utf8");
      expect(chat).toContain("# Drafted by `cql-review init` from apps/chat/schema.cql.");
      expect(chat).toContain("code: apps/chat/chat/store.py#profile");
      expect(chat).not.toContain("orders_by_user");
      const check = await runCli(["check", ".", "--format", "json"], { cwd: scratch });
      const report = JSON.parse(check.stdout);
      expect(report.models.map((model: { name: string }) => model.name)).toEqual(["apps/chat", "apps/shop", "(outside the models)"]);
      expect(report.findings.filter((finding: { rule: string }) => finding.rule === "schema-invalid")).toEqual([]);
    } finally {
      await nodeFs.rm(scratch, { recursive: true, force: true });
    }
  });
});
