import { describe, expect, it } from "vitest";
import { parseCql } from "../../src/cql/index.js";
import { parseOne, withoutPositions } from "./helpers.js";

const names = (list: { name: string }[]) => list.map((n) => n.name);

describe("keyspaces", () => {
  it("CREATE KEYSPACE with a replication map and durable_writes", () => {
    const ks = parseOne(
      "CREATE KEYSPACE IF NOT EXISTS killrvideo WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 2} AND durable_writes = false;",
      "create-keyspace",
    );
    expect(ks.name.name).toBe("killrvideo");
    expect(ks.ifNotExists).toBe(true);
    expect(ks.options.map((o) => o.name.name)).toEqual(["replication", "durable_writes"]);
    expect(withoutPositions(ks.options[0]!.value)).toEqual({
      kind: "map",
      entries: [
        { key: { kind: "literal", type: "string", value: "class" }, value: { kind: "literal", type: "string", value: "NetworkTopologyStrategy" } },
        { key: { kind: "literal", type: "string", value: "dc1" }, value: { kind: "literal", type: "integer", value: "3" } },
        { key: { kind: "literal", type: "string", value: "dc2" }, value: { kind: "literal", type: "integer", value: "2" } },
      ],
    });
    expect(withoutPositions(ks.options[1]!.value)).toEqual({ kind: "literal", type: "boolean", value: "false" });
  });

  it("CREATE SCHEMA is CREATE KEYSPACE", () => {
    expect(parseOne("CREATE SCHEMA s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}", "create-keyspace").name.name).toBe("s");
  });

  it("ALTER KEYSPACE, DROP KEYSPACE, USE", () => {
    const alter = parseOne("ALTER KEYSPACE IF EXISTS ks WITH durable_writes = true", "alter-keyspace");
    expect([alter.ifExists, alter.options[0]!.name.name]).toEqual([true, "durable_writes"]);
    const drop = parseOne("DROP KEYSPACE IF EXISTS ks;", "drop-keyspace");
    expect([drop.ifExists, drop.name.name.name, drop.name.keyspace]).toEqual([true, "ks", undefined]);
    expect(parseOne('USE "MixedCase";', "use").keyspace).toMatchObject({ name: "MixedCase", quoted: true, text: '"MixedCase"' });
  });
});

describe("CREATE TABLE", () => {
  it("with an inline primary key", () => {
    const table = parseOne("CREATE TABLE users (id uuid PRIMARY KEY, email text, age int)", "create-table");
    expect(table.primaryKey).toBeUndefined();
    expect(table.columns.map((c) => [c.name.name, c.isPrimaryKey])).toEqual([
      ["id", true],
      ["email", false],
      ["age", false],
    ]);
  });

  it("with a composite partition key, clustering columns, static and counter columns", () => {
    const table = parseOne(
      `CREATE TABLE IF NOT EXISTS ks.readings (
         sensor_id uuid, day date, ts timestamp, seq int, site text static, hits counter,
         PRIMARY KEY ((sensor_id, day), ts, seq)
       ) WITH CLUSTERING ORDER BY (ts DESC, seq ASC)`,
      "create-table",
    );
    expect(table.name.keyspace?.name).toBe("ks");
    expect(table.ifNotExists).toBe(true);
    expect(names(table.primaryKey!.partitionKey)).toEqual(["sensor_id", "day"]);
    expect(names(table.primaryKey!.clustering)).toEqual(["ts", "seq"]);
    expect(table.clusteringOrder.map((o) => [o.column.name, o.direction])).toEqual([
      ["ts", "desc"],
      ["seq", "asc"],
    ]);
    expect(table.columns.find((c) => c.name.name === "site")!.isStatic).toBe(true);
    expect(withoutPositions(table.columns.find((c) => c.name.name === "hits")!.type)).toEqual({ kind: "native", name: "counter" });
  });

  it("with a single-column partition key in parentheses", () => {
    const table = parseOne("CREATE TABLE t (a int, b int, PRIMARY KEY ((a), b))", "create-table");
    expect(names(table.primaryKey!.partitionKey)).toEqual(["a"]);
    expect(names(table.primaryKey!.clustering)).toEqual(["b"]);
  });

  it("accepts a trailing comma in the column list, as Cassandra does", () => {
    const table = parseOne("CREATE TABLE t (a int, b text, PRIMARY KEY (a),)", "create-table");
    expect(names(table.columns.map((c) => c.name))).toEqual(["a", "b"]);
  });

  it("keeps options, nested maps, an empty map, COMPACT STORAGE and ID", () => {
    const table = parseOne(
      `CREATE TABLE t (a int PRIMARY KEY) WITH compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': 160}
         AND caching = {} AND COMPACT STORAGE AND ID = 5a1c395e-b41f-11e5-9f22-ba0be0483c18
         AND extensions = {'k': {'nested': 1}} AND memtable = 'trie' AND speculative_retry = '99PERCENTILE'
         AND read_repair_chance = 0.1 AND replicate_on_write = true`,
      "create-table",
    );
    expect(table.options.map((o) => o.name.name)).toEqual([
      "compaction", "caching", "id", "extensions", "memtable", "speculative_retry", "read_repair_chance", "replicate_on_write",
    ]);
    expect(table.compactStorage).toBe(true);
    expect(withoutPositions(table.options[1]!.value)).toEqual({ kind: "map", entries: [] });
    expect(withoutPositions(table.options[2]!.value)).toEqual({ kind: "literal", type: "uuid", value: "5a1c395e-b41f-11e5-9f22-ba0be0483c18" });
    expect(table.options[3]!.value).toMatchObject({ kind: "map", entries: [{ value: { kind: "map" } }] });
  });

  it("records the ranges of the column body and of the WITH clauses", () => {
    const text = "CREATE TABLE t (a int, b int, PRIMARY KEY (a, b)) WITH CLUSTERING ORDER BY (b DESC) AND COMPACT STORAGE;";
    const table = parseOne(text, "create-table");
    const slice = (r: { start: { offset: number }; end: { offset: number } } | undefined) => text.slice(r!.start.offset, r!.end.offset);
    expect(slice(table.bodyRange)).toBe("a int, b int, PRIMARY KEY (a, b)");
    expect(slice(table.withRange)).toBe("WITH CLUSTERING ORDER BY (b DESC) AND COMPACT STORAGE");
    expect(slice(table.clusteringOrderRange)).toBe("CLUSTERING ORDER BY (b DESC)");
    expect(slice(table.compactStorageRange)).toBe("COMPACT STORAGE");
    expect(slice(table.primaryKey!.range)).toBe("PRIMARY KEY (a, b)");
  });

  it("with masked columns (5.0)", () => {
    const table = parseOne("CREATE TABLE t (a int PRIMARY KEY, b text MASKED WITH mask_inner(1, null), c int MASKED WITH DEFAULT)", "create-table");
    const [, b, c] = table.columns;
    expect(b!.mask).toMatchObject({ default: false, function: { kind: "function", name: { name: { name: "mask_inner" } } } });
    expect(b!.mask!.function!.args.map((a) => a.kind)).toEqual(["literal", "literal"]);
    expect(c!.mask).toMatchObject({ default: true });
  });

  it("rejects a second PRIMARY KEY clause at that clause", () => {
    const text = "CREATE TABLE t (a int, b int, PRIMARY KEY (a), PRIMARY KEY (b));\nCREATE TABLE ok (a int PRIMARY KEY);";
    const result = parseCql(text);
    expect(result.statements.map((s) => s.kind === "create-table" && s.name.name.name)).toEqual(["ok"]);
    expect(result.diagnostics).toHaveLength(1);
    const [error] = result.diagnostics;
    expect(error!.message).toBe("a table has one PRIMARY KEY clause");
    expect(text.slice(error!.range.start.offset, error!.range.end.offset)).toBe("PRIMARY KEY (b)");
  });

  it("rejects a mask that is not a function call, at the MASKED clause", () => {
    const text = "CREATE TABLE t (a int PRIMARY KEY, b text MASKED WITH cast(b AS int))";
    const result = parseCql(text);
    expect(result.statements).toEqual([]);
    expect(result.diagnostics.map((d) => [d.message, text.slice(d.range.start.offset, d.range.end.offset)])).toEqual([
      ["a mask is a function call", "MASKED WITH cast(b AS int)"],
    ]);
  });

  it("a column list whose `)` recovery inserted ends at its last entry", () => {
    const text = "CREATE TABLE t (a int, b text, PRIMARY KEY (a)\n  WITH comment = 'x';";
    const result = parseCql(text);
    expect(result.diagnostics.map((d) => d.message)).toEqual(["expected `)` to close the column list of CREATE TABLE, found `WITH`"]);
    const table = result.statements[0];
    if (table?.kind !== "create-table") throw new Error("expected the table to be kept");
    expect(text.slice(table.bodyRange!.start.offset, table.bodyRange!.end.offset)).toBe("a int, b text, PRIMARY KEY (a)");
    expect(table.text).toBe("CREATE TABLE t (a int, b text, PRIMARY KEY (a)\n  WITH comment = 'x'");
    expect(table.options.map((o) => o.name.name)).toEqual(["comment"]);
  });

  it("CREATE TABLE … LIKE (5.0)", () => {
    const table = parseOne("CREATE TABLE IF NOT EXISTS copy LIKE ks.original WITH comment = 'copy'", "create-table");
    expect(table.like?.keyspace?.name).toBe("ks");
    expect(table.like?.name.name).toBe("original");
    expect(table.columns).toEqual([]);
    expect(table.options[0]!.name.name).toBe("comment");
  });

  it("accepts unreserved keywords and type names as column names", () => {
    const words = ["key", "type", "status", "date", "time", "user", "role", "value", "ttl", "writetime", "count", "json", "custom", "keys", "values", "filtering", "login", "options", "password", "superuser", "trigger", "language", "input", "called", "initcond", "text", "timestamp", "list", "map", "frozen", "tuple", "vector", "static", "like", "between", "group", "partition", "cast", "distinct", "exists", "comment", "length"];
    const table = parseOne(`CREATE TABLE t (id int PRIMARY KEY, ${words.map((w) => `${w} text`).join(", ")})`, "create-table");
    expect(table.columns.slice(1).map((c) => c.name.name)).toEqual(words);
  });

  it("needs quotes for reserved words, and keeps quoted names as written", () => {
    const table = parseOne('CREATE TABLE "Events" ("order" int PRIMARY KEY, "Select ""x""" text)', "create-table");
    expect(table.name.name).toMatchObject({ name: "Events", quoted: true });
    expect(table.columns.map((c) => c.name.name)).toEqual(["order", 'Select "x"']);
    expect(parseCql("CREATE TABLE t (order int PRIMARY KEY)").diagnostics[0]!.message).toContain("found `order`");
  });
});

describe("ALTER TABLE, DROP TABLE, TRUNCATE", () => {
  const action = (text: string) => parseOne(text, "alter-table").action;

  it("ADD one column or a list, with IF NOT EXISTS", () => {
    expect(withoutPositions(action("ALTER TABLE t ADD x int"))).toMatchObject({ kind: "add", ifNotExists: false, columns: [{ name: { name: "x" } }] });
    const added = action("ALTER TABLE ks.t ADD IF NOT EXISTS (y int, z set<text> static)");
    expect(added).toMatchObject({ kind: "add", ifNotExists: true });
    expect(added.kind === "add" && added.columns.map((c) => [c.name.name, c.isStatic])).toEqual([
      ["y", false],
      ["z", true],
    ]);
  });

  it("DROP columns, with IF EXISTS and USING TIMESTAMP", () => {
    expect(withoutPositions(action("ALTER TABLE t DROP IF EXISTS (a, b) USING TIMESTAMP 1234"))).toEqual({
      kind: "drop",
      columns: [
        { name: "a", quoted: false },
        { name: "b", quoted: false },
      ],
      ifExists: true,
      timestamp: { kind: "literal", type: "integer", value: "1234" },
    });
    expect(action("ALTER TABLE t DROP c")).toMatchObject({ kind: "drop", columns: [{ name: "c" }], ifExists: false });
    expect(action("ALTER TABLE t DROP compact")).toMatchObject({ kind: "drop", columns: [{ name: "compact" }] });
  });

  it("ALTER col TYPE, RENAME … AND …, WITH, DROP COMPACT STORAGE, masks", () => {
    expect(action("ALTER TABLE t ALTER c TYPE bigint")).toMatchObject({ kind: "alter-type", column: { name: "c" }, type: { kind: "native", name: "bigint" } });
    expect(action("ALTER TABLE t RENAME IF EXISTS a TO b AND c TO d")).toMatchObject({
      kind: "rename",
      ifExists: true,
      renames: [
        { from: { name: "a" }, to: { name: "b" } },
        { from: { name: "c" }, to: { name: "d" } },
      ],
    });
    expect(action("ALTER TABLE t WITH gc_grace_seconds = 0 AND comment = 'x'")).toMatchObject({
      kind: "with",
      options: [{ name: { name: "gc_grace_seconds" } }, { name: { name: "comment" } }],
    });
    expect(action("ALTER TABLE t DROP COMPACT STORAGE")).toMatchObject({ kind: "drop-compact-storage" });
    expect(action("ALTER TABLE t ALTER c MASKED WITH mask_default()")).toMatchObject({ kind: "mask", mask: { default: false } });
    expect(action("ALTER TABLE t ALTER c DROP MASKED")).toMatchObject({ kind: "mask", column: { name: "c" } });
    expect(action("ALTER TABLE t ALTER c DROP MASKED")).not.toHaveProperty("mask");
    expect(action("ALTER TABLE t ALTER c DROP MASKED")).not.toHaveProperty("ifExists");
  });

  it("ALTER … ALTER IF EXISTS c MASKED WITH / DROP MASKED (Cassandra 5.0)", () => {
    expect(action("ALTER TABLE patients ALTER IF EXISTS ssn MASKED WITH mask_inner(null, 4)")).toMatchObject({
      kind: "mask",
      column: { name: "ssn" },
      ifExists: true,
      mask: { function: { name: { name: { name: "mask_inner" } } } },
    });
    expect(action("ALTER TABLE patients ALTER IF EXISTS ssn DROP MASKED")).toEqual(expect.objectContaining({ kind: "mask", ifExists: true }));
    const typed = parseCql("ALTER TABLE patients ALTER IF EXISTS age TYPE bigint;");
    expect(typed.diagnostics.map((d) => d.message)).toEqual(["IF EXISTS applies to ALTER … MASKED WITH and DROP MASKED, not to ALTER … TYPE"]);
  });

  it("ALTER TABLE IF EXISTS, ALTER COLUMNFAMILY", () => {
    expect(parseOne("ALTER TABLE IF EXISTS t ADD x int", "alter-table").ifExists).toBe(true);
    expect(parseOne("ALTER COLUMNFAMILY t ADD x int", "alter-table").name.name.name).toBe("t");
  });

  it("DROP TABLE and TRUNCATE [TABLE]", () => {
    expect(parseOne("DROP TABLE IF EXISTS ks.t", "drop-table")).toMatchObject({ ifExists: true, name: { keyspace: { name: "ks" }, name: { name: "t" } } });
    expect(parseOne("TRUNCATE TABLE ks.t", "truncate").name.name.name).toBe("t");
    expect(parseOne("TRUNCATE t", "truncate").name.name.name).toBe("t");
  });
});

describe("user-defined types", () => {
  it("CREATE TYPE with a trailing comma", () => {
    const type = parseOne("CREATE TYPE IF NOT EXISTS ks.address (street text, city text, zip int,)", "create-type");
    expect(type.fields.map((f) => [f.name.name, f.type.kind])).toEqual([
      ["street", "native"],
      ["city", "native"],
      ["zip", "native"],
    ]);
  });

  it("ALTER TYPE ADD, RENAME, ALTER … TYPE; DROP TYPE", () => {
    expect(parseOne("ALTER TYPE address ADD IF NOT EXISTS country text", "alter-type").action).toMatchObject({ kind: "add", ifNotExists: true, field: { name: "country" } });
    expect(parseOne("ALTER TYPE IF EXISTS address RENAME zip TO postcode AND city TO town", "alter-type")).toMatchObject({
      ifExists: true,
      action: { kind: "rename", renames: [{ from: { name: "zip" } }, { to: { name: "town" } }] },
    });
    expect(parseOne("ALTER TYPE address ALTER zip TYPE text", "alter-type").action).toMatchObject({ kind: "alter-type", field: { name: "zip" } });
    expect(parseOne("DROP TYPE IF EXISTS address", "drop-type").ifExists).toBe(true);
  });
});

describe("indexes", () => {
  it("unnamed, named, custom, with targets, USING and OPTIONS", () => {
    expect(parseOne("CREATE INDEX ON t (v)", "create-index")).toMatchObject({ custom: false, targets: [{ kind: "simple", column: { name: "v" } }] });
    expect(parseOne("CREATE INDEX ON t (v)", "create-index")).not.toHaveProperty("name");
    const sasi = parseOne(
      "CREATE CUSTOM INDEX IF NOT EXISTS idx ON ks.t (title) USING 'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = {'mode': 'CONTAINS'}",
      "create-index",
    );
    expect(sasi).toMatchObject({ custom: true, ifNotExists: true, name: { name: "idx" }, using: "org.apache.cassandra.index.sasi.SASIIndex", options: { kind: "map" } });
    const kinds = ["KEYS(m)", "VALUES(s)", "ENTRIES(m)", "FULL(f)", "keys"].map(
      (target) => parseOne(`CREATE INDEX ON t (${target}) USING 'sai'`, "create-index").targets[0]!.kind,
    );
    expect(kinds).toEqual(["keys", "values", "entries", "full", "simple"]);
    expect(parseOne("CREATE INDEX i ON t (x) USING 'legacy_local_table'", "create-index").using).toBe("legacy_local_table");
  });

  it("rejects index options other than OPTIONS", () => {
    const result = parseCql("CREATE INDEX i ON t (x) WITH colour = 'red'");
    expect(result.statements).toEqual([]);
    expect(result.diagnostics[0]!.message).toContain("WITH OPTIONS");
  });

  it("DROP INDEX", () => {
    expect(parseOne("DROP INDEX IF EXISTS ks.idx", "drop-index").name).toMatchObject({ keyspace: { name: "ks" }, name: { name: "idx" } });
  });
});

describe("materialized views", () => {
  it("CREATE MATERIALIZED VIEW with columns, IS NOT NULL, key and clustering order", () => {
    const view = parseOne(
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ks.by_email AS
         SELECT id, email FROM ks.users WHERE email IS NOT NULL AND id IS NOT NULL
         PRIMARY KEY (email, id) WITH CLUSTERING ORDER BY (id DESC) AND comment = 'lookup'`,
      "create-materialized-view",
    );
    expect(view.star).toBe(false);
    expect(names(view.columns)).toEqual(["id", "email"]);
    expect(view.baseTable.name.name).toBe("users");
    expect(view.where.relations.map((r) => r.kind === "column" && r.operator)).toEqual(["IS NOT NULL", "IS NOT NULL"]);
    expect(names(view.primaryKey.partitionKey)).toEqual(["email"]);
    expect(view.clusteringOrder[0]).toMatchObject({ column: { name: "id" }, direction: "desc" });
    expect(view.options[0]!.name.name).toBe("comment");
  });

  it("SELECT *, composite key; ALTER and DROP", () => {
    const view = parseOne("CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE a IS NOT NULL AND b IS NOT NULL PRIMARY KEY ((a, b), c)", "create-materialized-view");
    expect([view.star, view.columns]).toEqual([true, []]);
    expect(parseOne("ALTER MATERIALIZED VIEW v WITH gc_grace_seconds = 10", "alter-materialized-view").options[0]!.name.name).toBe("gc_grace_seconds");
    expect(parseOne("DROP MATERIALIZED VIEW IF EXISTS v", "drop-materialized-view").ifExists).toBe(true);
  });
});

describe("functions, aggregates, triggers", () => {
  it("CREATE OR REPLACE FUNCTION with a $$ body", () => {
    const fn = parseOne(
      "CREATE OR REPLACE FUNCTION ks.avg_state (state tuple<int, bigint>, val int) CALLED ON NULL INPUT RETURNS tuple<int, bigint> LANGUAGE java AS $$ if (val != null) { state.setInt(0, state.getInt(0) + 1); } return state; $$;",
      "create-function",
    );
    expect(fn).toMatchObject({ orReplace: true, ifNotExists: false, calledOnNullInput: true, language: "java", deterministic: false, monotonic: false });
    expect(fn.name).toMatchObject({ keyspace: { name: "ks" }, name: { name: "avg_state" } });
    expect(fn.parameters.map((p) => [p.name.name, p.type.kind])).toEqual([
      ["state", "tuple"],
      ["val", "native"],
    ]);
    expect(fn.body).toContain("return state;");
    expect(fn.body.includes(";")).toBe(true);
  });

  it("RETURNS NULL ON NULL INPUT, other languages, DSE DETERMINISTIC/MONOTONIC", () => {
    const fn = parseOne(
      "CREATE FUNCTION IF NOT EXISTS twice (x double) RETURNS NULL ON NULL INPUT RETURNS double DETERMINISTIC MONOTONIC ON x LANGUAGE javascript AS 'x * 2'",
      "create-function",
    );
    expect(fn).toMatchObject({ ifNotExists: true, calledOnNullInput: false, language: "javascript", body: "x * 2", deterministic: true, monotonic: true });
    expect(parseOne("CREATE FUNCTION f () CALLED ON NULL INPUT RETURNS text LANGUAGE lua AS 'return 1'", "create-function").language).toBe("lua");
  });

  it("DROP FUNCTION with and without a signature", () => {
    expect(parseOne("DROP FUNCTION IF EXISTS ks.f (int, frozen<list<text>>)", "drop-function").signature!.map((t) => t.kind)).toEqual(["native", "frozen"]);
    expect(parseOne("DROP FUNCTION f", "drop-function").signature).toBeUndefined();
    expect(parseOne("DROP FUNCTION f ()", "drop-function").signature).toEqual([]);
  });

  it("CREATE AGGREGATE with FINALFUNC and INITCOND; DROP AGGREGATE", () => {
    const agg = parseOne("CREATE OR REPLACE AGGREGATE ks.average (int) SFUNC avg_state STYPE tuple<int, bigint> FINALFUNC avg_final INITCOND (0, 0)", "create-aggregate");
    expect(agg.argumentTypes.map((t) => t.kind)).toEqual(["native"]);
    expect(agg.stateFunction.name.name).toBe("avg_state");
    expect(agg.stateType.kind).toBe("tuple");
    expect(agg.finalFunction?.name.name).toBe("avg_final");
    expect(withoutPositions(agg.initialCondition)).toMatchObject({ kind: "tuple", elements: [{ value: "0" }, { value: "0" }] });
    expect(parseOne("DROP AGGREGATE IF EXISTS average (int)", "drop-aggregate").signature).toHaveLength(1);
  });

  it("CREATE and DROP TRIGGER", () => {
    expect(parseOne("CREATE TRIGGER IF NOT EXISTS audit ON ks.t USING 'org.example.AuditTrigger'", "create-trigger")).toMatchObject({
      name: { name: "audit" },
      ifNotExists: true,
      className: "org.example.AuditTrigger",
      table: { name: { name: "t" } },
    });
    expect(parseOne("DROP TRIGGER IF EXISTS audit ON t", "drop-trigger")).toMatchObject({ ifExists: true, table: { name: { name: "t" } } });
  });
});
