import { describe, expect, it } from "vitest";
import { applyOrder, comparePaths, isTeardownScript, joinRelative, orderBySetting, settingFor } from "../../src/schema/file-order.js";
import { build, parseFiles, table } from "./helpers.js";

// A tracing store split the usual way: the tables in one file, the search columns and indexes that
// an operator may leave out in another whose name happens to sort first ('-' < '.').
const base = `CREATE KEYSPACE IF NOT EXISTS tracing WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE IF NOT EXISTS tracing.spans (
  trace_id text,
  span_id text,
  started_at timestamp,
  PRIMARY KEY ((trace_id), span_id)
);
`;
const search = `ALTER TABLE tracing.spans ADD service_name text;
CREATE CUSTOM INDEX IF NOT EXISTS spans_service_idx ON tracing.spans (service_name) USING 'StorageAttachedIndex';
`;

describe("schema file order", () => {
  it("applies a file that alters and indexes a table after the file that creates it", () => {
    const files = { "tracing-schema-search.cql": search, "tracing-schema.cql": base };
    expect(applyOrder(parseFiles(files)).map((f) => f.path)).toEqual(["tracing-schema.cql", "tracing-schema-search.cql"]);
    const { schema, findings } = build(files);
    expect(findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(table(schema, "tracing.spans").columns.map((c) => c.name)).toContain("service_name");
    expect(table(schema, "tracing.spans").indexes.map((i) => i.name)).toEqual(["spans_service_idx"]);
  });

  it("moves a file only as far as it must", () => {
    const files = { "a-search.cql": search, "a.cql": base, "b.cql": "CREATE TABLE tracing.services (name text PRIMARY KEY);\n" };
    expect(applyOrder(parseFiles(files)).map((f) => f.path)).toEqual(["a.cql", "a-search.cql", "b.cql"]);
  });

  it("keeps path order for a migration directory that already runs in order", () => {
    const files = {
      "migrations/001_create.cql": base,
      "migrations/002_search.cql": search,
      "migrations/003_more.cql": "ALTER TABLE tracing.spans ADD duration_us bigint;\n",
    };
    expect(applyOrder(parseFiles(files)).map((f) => f.path)).toEqual(["migrations/001_create.cql", "migrations/002_search.cql", "migrations/003_more.cql"]);
  });

  it("does not reorder for a table no reviewed file creates (that stays a schema-invalid finding)", () => {
    const files = { "a.cql": "ALTER TABLE elsewhere.other ADD x int;\n", "b.cql": base };
    expect(applyOrder(parseFiles(files)).map((f) => f.path)).toEqual(["a.cql", "b.cql"]);
    expect(build(files).findings.some((f) => f.rule === "schema-invalid")).toBe(true);
  });

  it("keeps path order when two files each need a table of the other", () => {
    const files = {
      "a.cql": "CREATE TABLE ks.t1 (k int PRIMARY KEY);\nALTER TABLE ks.t2 ADD x int;\n",
      "b.cql": "CREATE TABLE ks.t2 (k int PRIMARY KEY);\nALTER TABLE ks.t1 ADD y int;\n",
      "c.cql": "CREATE TABLE ks.t3 (k int PRIMARY KEY);\n",
    };
    expect(applyOrder(parseFiles(files)).map((f) => f.path)).toEqual(["a.cql", "b.cql", "c.cql"]);
  });

  it("reads numbers in names as numbers, as migration tools apply versions", () => {
    const files = {
      "db/cassandra/V10__add_email.cql": "ALTER TABLE shop.users ADD email text;\n",
      "db/cassandra/V2__users.cql": "CREATE TABLE shop.users (id uuid PRIMARY KEY, name text);\n",
      "db/cassandra/V1__keyspace.cql": "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n",
      "db/cassandra/V1_1__orders.cql": "CREATE TABLE shop.orders (id uuid PRIMARY KEY);\n",
    };
    expect(applyOrder(parseFiles(files)).map((f) => f.path)).toEqual([
      "db/cassandra/V1__keyspace.cql",
      "db/cassandra/V1_1__orders.cql",
      "db/cassandra/V2__users.cql",
      "db/cassandra/V10__add_email.cql",
    ]);
    expect(build(files).findings.filter((f) => f.severity === "error")).toEqual([]);
  });

  it("orders equal numbers by their written length, then the rest of the name", () => {
    expect(comparePaths("m/2_b.cql", "m/10_a.cql")).toBeLessThan(0);
    expect(comparePaths("m/02_a.cql", "m/2_a.cql")).not.toBe(0);
    expect(comparePaths("m/1_a.cql", "m/1_b.cql")).toBeLessThan(0);
    expect(comparePaths("a.cql", "a.cql")).toBe(0);
  });

  // A keyspace script beside a changelog directory whose scripts name no keyspace (the session's).
  const keyspaceScript = "CREATE KEYSPACE IF NOT EXISTS app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n";
  const changelog = {
    "cql/create-keyspace.cql": keyspaceScript,
    "cql/changelog/20240102000000_orders.cql": "CREATE TABLE IF NOT EXISTS orders (id text PRIMARY KEY, total int);\n",
    "cql/changelog/20240101000000_create-tables.cql": "CREATE TABLE IF NOT EXISTS customer (id text PRIMARY KEY, name text);\n",
    "cql/changelog/20240103000000_seed.cql": "INSERT INTO customer (id, name) VALUES ('1', 'first');\n",
    "cql/drop-keyspace.cql": "DROP KEYSPACE IF EXISTS app;\n",
  };

  it("creates the keyspace before the files that use it, and leaves a tear-down script out", () => {
    expect(applyOrder(parseFiles(changelog)).map((f) => f.path)).toEqual([
      "cql/create-keyspace.cql",
      "cql/changelog/20240101000000_create-tables.cql",
      "cql/changelog/20240102000000_orders.cql",
      "cql/changelog/20240103000000_seed.cql",
    ]);
    const { schema, findings } = build(changelog, { defaultKeyspace: "app" });
    expect(findings).toEqual([]);
    expect([...schema.tables.keys()].sort()).toEqual(["app.customer", "app.orders"]);
  });

  it("tells a tear-down script from a migration that drops", () => {
    const only = (text: string, path = "d.cql") => parseFiles({ [path]: text })[0]!;
    const model = parseFiles({ "m.cql": "CREATE TABLE app.a (k int PRIMARY KEY);\nCREATE TABLE app.b (k int PRIMARY KEY);\n" });
    expect(isTeardownScript(only("DROP KEYSPACE IF EXISTS app;\n"))).toBe(true);
    expect(isTeardownScript(only("USE app;\nDROP TABLE a;\nDROP TABLE b;\nDROP TYPE t;\n"), model)).toBe(true);
    // one old table among several: a migration step
    expect(isTeardownScript(only("USE app;\nDROP TABLE a;\n"), model)).toBe(false);
    // a versioned script is applied whatever it holds
    expect(isTeardownScript(only("DROP KEYSPACE app;\n", "db/V7__retire.cql"))).toBe(false);
    expect(isTeardownScript(only("DROP TABLE app.a;\nCREATE TABLE app.a (k int PRIMARY KEY);\n"), model)).toBe(false);
    expect(isTeardownScript(only("-- nothing yet\n"))).toBe(false);
  });

  it("applies a DROP inside a migration, so what it removes is gone", () => {
    const files = {
      "m/1_create.cql": `${keyspaceScript}CREATE TABLE app.a (k int PRIMARY KEY);\nCREATE TABLE app.b (k int PRIMARY KEY);\n`,
      "m/2_drop.cql": "DROP TABLE app.a;\nALTER TABLE app.b ADD v text;\n",
    };
    expect([...build(files).schema.tables.keys()]).toEqual(["app.b"]);
  });

  it("applies what a manifest's schema: names, in its order, paths relative to the manifest", () => {
    const files = parseFiles(changelog);
    const applied = orderBySetting(files, ["cql/create-keyspace.cql", "./cql/changelog/*.cql", "cql/create-keyspace.cql"], "");
    expect(applied.map((f) => f.path)).toEqual([
      "cql/create-keyspace.cql",
      "cql/changelog/20240101000000_create-tables.cql",
      "cql/changelog/20240102000000_orders.cql",
      "cql/changelog/20240103000000_seed.cql",
    ]);
    expect(orderBySetting(files, ["../cql/drop-keyspace.cql"], "docs/").map((f) => f.path)).toEqual(["cql/drop-keyspace.cql"]);
    expect(joinRelative("a/b/", "../c/./d.cql")).toBe("a/c/d.cql");
  });

  it("writes the detected order as a setting: a whole directory as one glob, other files by path", () => {
    const files = parseFiles(changelog);
    const applied = applyOrder(files);
    expect(settingFor(applied, files, "")).toEqual(["cql/create-keyspace.cql", "cql/changelog/*.cql"]);
    expect(settingFor(applied, files, "cql")).toEqual(["create-keyspace.cql", "changelog/*.cql"]);
    expect(settingFor(applied, files, "docs")).toEqual(["../cql/create-keyspace.cql", "../cql/changelog/*.cql"]);
    // the setting applies the same files in the same order as the detection
    expect(orderBySetting(files, settingFor(applied, files, ""), "")).toEqual(applied);
    // a directory whose files were moved out of name order is listed file by file
    const moved = parseFiles({ "z/a-search.cql": search, "z/a.cql": base });
    expect(settingFor(applyOrder(moved), moved, "")).toEqual(["z/a.cql", "z/a-search.cql"]);
  });
});
