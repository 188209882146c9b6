// `cql-review init`: a draft manifest that validates, reviews without errors and never overwrites.
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Ajv } from "ajv";
import { parse as parseYaml } from "yaml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { draftManifest, mainKeyspace } from "../../src/cli/init.js";
import { review } from "../../src/review.js";
import { REPO_ROOT, runCli } from "./run-cli.js";

const validateManifest = new Ajv({ allErrors: true, strict: false }).compile(
  JSON.parse(await nodeFs.readFile(path.join(REPO_ROOT, "schema/access-patterns.schema.json"), "utf8")),
);

const SCHEMA = `CREATE KEYSPACE app WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE app.messages_by_room (
  room_id uuid, bucket int, sent_at timeuuid, author text, body text, tags set<text>,
  PRIMARY KEY ((room_id, bucket), sent_at)
) WITH CLUSTERING ORDER BY (sent_at DESC);
CREATE TABLE app."Users" (id uuid PRIMARY KEY, "displayName" text, avatar blob);
CREATE TABLE app.likes (post_id uuid PRIMARY KEY, likes counter);
CREATE MATERIALIZED VIEW app.users_by_name AS SELECT * FROM app."Users"
  WHERE "displayName" IS NOT NULL AND id IS NOT NULL PRIMARY KEY ("displayName", id);
CREATE KEYSPACE audit WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE audit.events (day date, at timestamp, what text, PRIMARY KEY (day, at));
`;

let project: string;
beforeEach(async () => {
  project = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-init-"));
  await nodeFs.mkdir(path.join(project, "db"));
  await nodeFs.writeFile(path.join(project, "db/schema.cql"), SCHEMA);
});
afterEach(async () => {
  await nodeFs.rm(project, { recursive: true, force: true });
});

describe("cql-review init", () => {
  it("drafts access-patterns.yaml that validates against the JSON Schema and reviews without errors", async () => {
    const result = await runCli(["init", "db"], { cwd: project });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "Wrote db/access-patterns.yaml, drafted from 5 tables (5 queries).\nReplace every TODO with your own figures and the application's real queries, then run:\n  cql-review check db\n",
    );
    const text = await nodeFs.readFile(path.join(project, "db/access-patterns.yaml"), "utf8");
    expect(validateManifest(parseYaml(text))).toBe(true);

    const check = await runCli(["check", "db", "--format", "json"], { cwd: project });
    const report = JSON.parse(check.stdout);
    expect(report.findings.filter((finding: { severity: string }) => finding.severity === "error")).toEqual([]);
    expect(check.code).toBe(0);
    expect(report.queries.map((query: { id: string; verdict: string }) => `${query.id} ${query.verdict}`)).toEqual([
      "users-by-id single-partition",
      "likes-by-post_id single-partition",
      "messages_by_room-by-room_id-bucket single-partition",
      "users_by_name-by-displayname single-partition",
      "events-by-day single-partition",
    ]);
  });

  it("fills keyspace and cassandra, the modeline, the full partition key, the clustering order and placeholders", async () => {
    await runCli(["init", "db", "--cassandra", "4.1"], { cwd: project });
    const text = await nodeFs.readFile(path.join(project, "db/access-patterns.yaml"), "utf8");
    const lines = text.split("\n");
    // the package lies outside this project: the modeline gives the address of the installed version's schema
    const { version } = JSON.parse(await nodeFs.readFile(path.join(REPO_ROOT, "package.json"), "utf8"));
    expect(lines[0]).toBe(`# yaml-language-server: $schema=https://raw.githubusercontent.com/cql-review/cql-review/v${version}/schema/access-patterns.schema.json`);
    const manifest = parseYaml(text);
    expect(manifest).toMatchObject({ version: 1, keyspace: "app", cassandra: "4.1" });
    expect(manifest.queries.map((query: { cql: string }) => query.cql)).toContain(
      "SELECT * FROM messages_by_room WHERE room_id = ? AND bucket = ? ORDER BY sent_at DESC LIMIT 100",
    );
    expect(manifest.queries.map((query: { cql: string }) => query.cql)).toContain('SELECT * FROM "Users" WHERE id = ?');
    expect(manifest.queries.map((query: { cql: string }) => query.cql)).toContain("SELECT * FROM audit.events WHERE day = ? ORDER BY at ASC LIMIT 100");
    expect(manifest.writes.map((write: { cql: string[] }) => write.cql[0])).toEqual([
      'INSERT INTO "Users" (id, "displayName", avatar) VALUES (?, ?, ?)',
      "UPDATE likes SET likes = likes + 1 WHERE post_id = ?",
      "INSERT INTO messages_by_room (room_id, bucket, sent_at, author, body, tags) VALUES (?, ?, ?, ?, ?, ?)",
      "INSERT INTO audit.events (day, at, what) VALUES (?, ?, ?)",
    ]);
    expect(manifest.writes[1].retried).toBe(false);
    expect(manifest.tables.messages_by_room).toEqual({
      // YAML 1.2 reads 1_000_000 as text; the manifest reads it as the number, as it documents
      partitions: "1_000_000",
      rows_per_partition: { avg: 100, max: "10_000" },
      columns: { author: 32, body: 32, tags: { items: 4, bytes: 16 } },
    });
    // names that need quotes in CQL keep them, as the manifest reads names the CQL way
    expect(manifest.tables['"Users"'].columns).toEqual({ '"displayName"': 32, avatar: 256 });
    expect(manifest.tables["audit.events"]).toBeDefined();
    // every figure is marked as a placeholder
    for (const line of lines.filter((candidate) => /^\s+(partitions|rows_per_partition|columns|rate):/.test(candidate))) expect(line).toMatch(/# TODO/);
    // and only the figures: a description says what the entry is, without a TODO
    for (const line of lines.filter((candidate) => candidate.includes("TODO") && !candidate.startsWith("#"))) {
      expect(line).toMatch(/^\s+(partitions|rows_per_partition|columns|rate):[^#]*# TODO/);
    }
  });

  it("points the modeline at the package's own schema file when the package lies inside the project", async () => {
    const inside = path.join(REPO_ROOT, "test/fixtures/report/shop");
    const result = await runCli(["init", ".", "--force"], {
      cwd: inside,
      fs: { ...(await import("./run-cli.js")).realFs, writeFile: async (file, text) => void written.set(file, text) },
    });
    expect(result.code).toBe(0);
    expect(written.get(path.join(inside, "access-patterns.yaml"))?.split("\n")[0]).toBe(
      "# yaml-language-server: $schema=../../../../schema/access-patterns.schema.json",
    );
  });
  const written = new Map<string, string>();

  it("points the modeline at the project's installed package when cql-review runs from elsewhere (npx, a global install)", async () => {
    const installed = path.join(project, "node_modules/cql-review/schema");
    await nodeFs.mkdir(installed, { recursive: true });
    await nodeFs.writeFile(path.join(installed, "access-patterns.schema.json"), "{}\n");
    await runCli(["init", "db"], { cwd: project });
    const text = await nodeFs.readFile(path.join(project, "db/access-patterns.yaml"), "utf8");
    expect(text.split("\n")[0]).toBe("# yaml-language-server: $schema=../node_modules/cql-review/schema/access-patterns.schema.json");
  });

  it("never overwrites without --force, and replaces with it", async () => {
    await nodeFs.writeFile(path.join(project, "db/access-patterns.yaml"), "mine\n");
    const kept = await runCli(["init", "db"], { cwd: project });
    expect(kept).toEqual({ code: 2, stdout: "", stderr: "cql-review: db/access-patterns.yaml exists; it is kept (pass --force to replace it with a new draft)\n" });
    expect(await nodeFs.readFile(path.join(project, "db/access-patterns.yaml"), "utf8")).toBe("mine\n");
    const forced = await runCli(["init", "db", "--force"], { cwd: project });
    expect(forced.code).toBe(0);
    expect(await nodeFs.readFile(path.join(project, "db/access-patterns.yaml"), "utf8")).toMatch(/^# yaml-language-server/);
  });

  it("exits 2 for a missing directory or one without schema files", async () => {
    expect(await runCli(["init", "nope"], { cwd: project })).toEqual({ code: 2, stdout: "", stderr: "cql-review: nope: no such directory\n" });
    await nodeFs.mkdir(path.join(project, "empty"));
    await nodeFs.writeFile(path.join(project, "empty/notes.cql"), "-- no tables yet\n");
    const empty = await runCli(["init", "empty"], { cwd: project });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe("cql-review: no CREATE TABLE in empty/notes.cql: nothing to draft from\n");
  });
});

describe("draftManifest", () => {
  it("drafts nothing without tables, and picks the keyspace most tables are in", () => {
    const empty = review({ files: [] });
    expect(draftManifest(empty.schema, { cassandra: "5.0", schemaReference: "x.json", sourceFiles: [] })).toBeUndefined();
    const schema = review({ files: [{ path: "s.cql", content: SCHEMA }] }).schema;
    expect(mainKeyspace([...schema.tables.values()])).toBe("app");
  });

  it("puts the code's queries first and drops the guess for the table they read", () => {
    const schema = review({ files: [{ path: "s.cql", content: SCHEMA }] }).schema;
    const range = { start: { line: 3, column: 5, offset: 40 }, end: { line: 3, column: 70, offset: 105 } };
    const text = draftManifest(schema, {
      cassandra: "5.0",
      schemaReference: "x.json",
      sourceFiles: ["s.cql"],
      code: {
        files: [{ path: "app/rooms.py", language: "python" }],
        statements: [{ id: "app/rooms.py#Rooms.history", language: "python", cql: "SELECT body FROM messages_by_room WHERE room_id = ? AND bucket = ?", file: "app/sql.py", range, api: "session.execute", call: { file: "app/rooms.py", line: 9 } }],
        dynamic: [{ id: "app/rooms.py#Rooms.search", language: "python", file: "app/rooms.py", range, api: "session.execute", reason: "formatted with an f-string", start: "SELECT body FROM\nmessages_by_room" }],
        tables: [],
        skipped: [],
      },
    })!;
    const manifest = parseYaml(text);
    // the description names the calling function's file, not the one holding the text
    expect(manifest.queries[0]).toEqual({ id: "Rooms.history", description: expect.stringMatching(/^Rooms\.history in app\/rooms\.py \(session\.execute\)/), code: "app/rooms.py#Rooms.history", rate: "10/s" });
    expect(manifest.queries.map((query: { id: string }) => query.id)).not.toContain("messages_by_room-by-room_id-bucket");
    // text from the code stays on its comment line
    expect(text).toContain("\n# not drafted: built at run time (formatted with an f-string): app/rooms.py:3, session.execute `SELECT body FROM messages_by_room`\n");
  });
});
