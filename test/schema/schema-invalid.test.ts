// Every schema-invalid case, each at the position of the offending name or type.
import { describe, expect, it } from "vitest";
import { build, expectOneFinding, locate } from "./helpers.js";

/** Builds one file and expects exactly one finding whose message and start are given. */
function expectInvalid(cql: string, message: string | RegExp, at: string, occurrence = 1, fingerprint?: string) {
  const { findings } = build(cql);
  return expectOneFinding(findings, { message, at: locate(cql, at, occurrence), ...(fingerprint ? { fingerprint } : {}) });
}

describe("types", () => {
  it("an unknown user type, in the keyspace Cassandra would look in", () => {
    expectInvalid("USE shop;\nCREATE TABLE t (id int PRIMARY KEY, home adress);", "Unknown type shop.adress", "adress");
    expectInvalid("CREATE TABLE t (id int PRIMARY KEY, home frozen<adress>);", "Unknown type adress", "adress");
  });

  it("a non-frozen collection or user type nested inside a collection", () => {
    expectInvalid(
      "CREATE TABLE t (id int PRIMARY KEY, matrix list<list<int>>);",
      "Non-frozen collections are not allowed inside collections: list<list<int>>",
      "list<int>",
    );
    expectInvalid(
      "CREATE TYPE address (city text);\nCREATE TABLE t (id int PRIMARY KEY, homes map<text, address>);",
      "Non-frozen UDTs are not allowed inside collections: map<text, address>",
      "address>",
    );
    const { findings } = build("CREATE TYPE address (city text);\nCREATE TABLE t (id int PRIMARY KEY, homes map<text, frozen<address>>, m frozen<list<set<int>>>);");
    expect(findings).toEqual([]);
  });

  it("a non-frozen user type whose fields hold non-frozen collections", () => {
    expectInvalid(
      "CREATE TYPE profile (nicknames set<text>);\nCREATE TABLE t (id int PRIMARY KEY, p profile);",
      "Non-frozen UDTs with nested non-frozen collections are not supported",
      "profile)",
    );
  });

  it("counters and durations where Cassandra forbids them inside types", () => {
    expectInvalid("CREATE TABLE t (id int PRIMARY KEY, c list<counter>);", "Counters are not allowed inside collections: list<counter>", "counter>");
    expectInvalid("CREATE TABLE t (id int PRIMARY KEY, d set<duration>);", "Durations are not allowed inside sets: set<duration>", "duration>");
    expectInvalid("CREATE TABLE t (id int PRIMARY KEY, d map<duration, int>);", "Durations are not allowed as map keys: map<duration, int>", "duration,");
    expectInvalid("CREATE TYPE stats (hits counter);", "A user type cannot contain counters", "counter");
  });

  it("a vector dimension that is not positive", () => {
    expectInvalid(
      "CREATE TABLE t (id int PRIMARY KEY, embedding vector<float, 0>);",
      "vectors may only have positive dimensions; given 0",
      "vector<float, 0>",
      1,
      "schema-invalid:table:.t:column:embedding:vector-dimension",
    );
  });

  it("frozen<> around a type that is not a collection, tuple or user type", () => {
    expectInvalid(
      "CREATE TABLE t (id int PRIMARY KEY, n frozen<int>);",
      "frozen<> is only allowed on collections, tuples, and user-defined types (got int)",
      "frozen<int>",
    );
  });

  it("a user type from another keyspace", () => {
    expectInvalid(
      "CREATE TYPE a.point (x int);\nCREATE TABLE b.t (id int PRIMARY KEY, p frozen<a.point>);",
      "Statement on keyspace b cannot refer to a user type in keyspace a; user types can only be used in the keyspace they are defined in",
      "a.point>",
    );
  });
});

describe("primary keys", () => {
  it("a primary key column that is not declared", () => {
    expectInvalid(
      "CREATE TABLE events (id int, at timestamp, PRIMARY KEY (id, created));",
      "Unknown column 'created' referenced in PRIMARY KEY for table 'events'",
      "created",
      1,
      "schema-invalid:table:.events:column:created:undeclared-key",
    );
  });

  it("no primary key", () => {
    expectInvalid("CREATE TABLE ks.notes (id int, body text);", "No PRIMARY KEY specified for table 'ks.notes' (exactly one required)", "ks.notes");
  });

  it("more than one primary key: inline and a clause", () => {
    const cql = "CREATE TABLE t (\n  id int PRIMARY KEY,\n  at timestamp,\n  PRIMARY KEY (id, at)\n);";
    const { findings } = build(cql);
    expectOneFinding(findings, {
      message: "Multiple PRIMARY KEY specified for table 't' (exactly one required)",
      at: locate(cql, "PRIMARY KEY (id"),
      fingerprint: "schema-invalid:table:.t:multiple-primary-keys",
    });
  });

  it("a column twice in the primary key", () => {
    expectInvalid("CREATE TABLE t (a int, b int, PRIMARY KEY (a, b, a));", "Duplicate column 'a' in PRIMARY KEY clause for table 't'", "a)");
  });

  it("a non-frozen collection or user type in the primary key, at its type", () => {
    expectInvalid(
      "CREATE TABLE t (tags set<text>, v int, PRIMARY KEY (tags));",
      "Invalid non-frozen collection type set<text> for PRIMARY KEY column 'tags'",
      "set<text>",
    );
    expectInvalid(
      "CREATE TYPE point (x int);\nCREATE TABLE t (k int, p point, PRIMARY KEY (k, p));",
      "Invalid non-frozen user-defined type point for PRIMARY KEY column 'p'",
      "point,",
    );
    expect(build("CREATE TABLE t (tags frozen<set<text>>, v int, PRIMARY KEY (tags));").findings).toEqual([]);
  });

  it("a counter in the primary key", () => {
    expectInvalid("CREATE TABLE t (c counter PRIMARY KEY, v counter);", "counter type is not supported for PRIMARY KEY column 'c'", "counter PRIMARY");
  });

  it("a duration in the primary key, also inside a frozen collection", () => {
    expectInvalid("CREATE TABLE t (k int, d duration, PRIMARY KEY (k, d));", "duration type is not supported for PRIMARY KEY column 'd'", "duration,");
    expectInvalid(
      "CREATE TABLE t (k frozen<list<duration>> PRIMARY KEY, v int);",
      "duration type is not supported for PRIMARY KEY column 'k'",
      "frozen<list<duration>>",
    );
  });

  it("a static column in the primary key", () => {
    expectInvalid("CREATE TABLE t (k int, c int STATIC, v int, PRIMARY KEY (k, c));", "Static column 'c' cannot be part of the PRIMARY KEY", "c int");
  });
});

describe("columns", () => {
  it("a duplicate column, at its second declaration, with a stable fingerprint", () => {
    expectInvalid(
      "CREATE TABLE ks.t (id int PRIMARY KEY, name text, name varchar);",
      "Duplicate column 'name' declaration for table 'ks.t'",
      "name varchar",
      1,
      "schema-invalid:table:ks.t:column:name:duplicate",
    );
  });

  it("counter columns mixed with other regular columns", () => {
    expectInvalid(
      "CREATE TABLE page_stats (page text PRIMARY KEY, title text, views counter);",
      "Cannot mix counter and non counter columns in the same table",
      "views",
    );
  });

  it("a TTL on a counter table", () => {
    expectInvalid(
      "CREATE TABLE page_stats (page text PRIMARY KEY, views counter) WITH default_time_to_live = 60;",
      "Cannot set default_time_to_live on a table with counters",
      "default_time_to_live",
    );
  });

  it("a static column in a table without clustering columns", () => {
    expectInvalid(
      "CREATE TABLE t (k int PRIMARY KEY, s text STATIC);",
      "Static columns are only useful (and thus allowed) if the table has at least one clustering column",
      "s text",
    );
  });
});

describe("CLUSTERING ORDER BY", () => {
  const table = (order: string) => `CREATE TABLE t (k int, a int, b int, v int, PRIMARY KEY (k, a, b)) WITH CLUSTERING ORDER BY (${order});`;

  it("naming a column that is not a clustering column", () => {
    expectInvalid(table("a DESC, v ASC"), "Only clustering columns can be defined in CLUSTERING ORDER directive", "v ASC");
  });

  it("missing a preceding clustering column", () => {
    expectInvalid(table("b DESC"), "Missing CLUSTERING ORDER for column a", "b DESC");
  });

  it("out of order", () => {
    expectInvalid(
      table("b DESC, a ASC"),
      "The order of columns in the CLUSTERING ORDER directive must match that of the clustering columns (a must appear before b)",
      "b DESC",
    );
  });

  it("a prefix of the clustering columns is accepted", () => {
    expect(build(table("a DESC")).findings).toEqual([]);
  });
});

describe("duplicates of named objects", () => {
  it("a table, unless IF NOT EXISTS", () => {
    const cql = "CREATE TABLE ks.t (id int PRIMARY KEY);\nCREATE TABLE ks.t (id int PRIMARY KEY, v text);";
    expectInvalid(cql, 'Cannot add already existing table "t" to keyspace "ks"', "t (id int PRIMARY KEY, v", 1, "schema-invalid:table:ks.t:duplicate");
    const { schema, findings } = build(cql.replace("CREATE TABLE ks.t (id int PRIMARY KEY, v", "CREATE TABLE IF NOT EXISTS ks.t (id int PRIMARY KEY, v"));
    expect(findings).toEqual([]);
    // The first definition stays, as in Cassandra.
    expect(schema.tables.get("ks.t")?.columns).toHaveLength(1);
  });

  it("a type, an index and a keyspace", () => {
    expectInvalid("CREATE TYPE p (x int);\nCREATE TYPE p (y int);", "A user type with name 'p' already exists", "p (y");
    expectInvalid(
      "CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c));\nCREATE INDEX v_idx ON t (v);\nCREATE INDEX v_idx ON t (c);",
      "Index 'v_idx' already exists",
      "v_idx",
      2,
    );
    expectInvalid(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nCREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};",
      'Cannot add existing keyspace "ks"',
      "ks",
      2,
    );
  });

  it("a field twice in a type", () => {
    expectInvalid("CREATE TYPE p (x int, x text);", "Duplicate field name 'x' in type 'p'", "x text");
  });

  it("an index that repeats another under a new name", () => {
    expectInvalid(
      "CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c));\nCREATE INDEX ON t (v);\nCREATE INDEX v_again ON t (v);",
      "Index v_again is a duplicate of existing index t_v_idx",
      "v_again",
    );
  });
});

describe("ALTER and DROP of what does not exist", () => {
  const base = "CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c));\n";

  it("reports each kind without IF EXISTS, and nothing with it", () => {
    const cases: [string, string, string][] = [
      ["ALTER TABLE ks.nope ADD x int;", "Table 'ks.nope' doesn't exist", "ks.nope"],
      ["DROP TABLE ks.nope;", "Table 'ks.nope' doesn't exist", "ks.nope"],
      ["DROP INDEX ks.nope_idx;", "Index 'ks.nope_idx' doesn't exist", "ks.nope_idx"],
      ["DROP TYPE ks.nope;", "Type 'ks.nope' doesn't exist", "ks.nope"],
      ["ALTER TYPE ks.nope ADD x int;", "Type ks.nope doesn't exist", "ks.nope"],
      ["DROP MATERIALIZED VIEW ks.nope;", "Materialized view 'ks.nope' doesn't exist", "ks.nope"],
      ["ALTER MATERIALIZED VIEW ks.nope WITH comment = 'x';", "Materialized view 'ks.nope' doesn't exist", "ks.nope"],
      ["DROP FUNCTION ks.nope;", "Function 'ks.nope' doesn't exist", "ks.nope"],
      ["ALTER TABLE ks.t DROP nope;", "Column nope was not found in table 'ks.t'", "nope"],
      ["ALTER TABLE ks.t RENAME nope TO other;", "Column nope was not found in table ks.t", "nope"],
    ];
    for (const [statement, message, at] of cases) {
      const cql = base + statement;
      expectInvalid(cql, message, at);
    }
    const quiet = [
      "ALTER TABLE IF EXISTS ks.nope ADD x int;",
      "DROP TABLE IF EXISTS ks.nope;",
      "DROP INDEX IF EXISTS ks.nope_idx;",
      "DROP TYPE IF EXISTS ks.nope;",
      "DROP MATERIALIZED VIEW IF EXISTS ks.nope;",
      "DROP FUNCTION IF EXISTS ks.nope;",
      "ALTER TABLE ks.t DROP IF EXISTS nope;",
    ];
    for (const statement of quiet) expect(build(base + statement).findings, statement).toEqual([]);
  });

  it("a keyspace, only when the files create keyspaces at all", () => {
    const create = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n";
    expectInvalid(`${create}DROP KEYSPACE other;`, "Keyspace 'other' doesn't exist", "other");
    expectInvalid(`${create}ALTER KEYSPACE other WITH durable_writes = true;`, "Keyspace 'other' doesn't exist", "other");
    expect(build(`${create}DROP KEYSPACE IF EXISTS other;`).findings).toEqual([]);
    expect(build("DROP KEYSPACE other;").findings).toEqual([]);
  });

  it("a table in a keyspace that no file creates, once per keyspace", () => {
    const cql = `CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE analytics.a (id int PRIMARY KEY);
CREATE TABLE analytics.b (id int PRIMARY KEY);`;
    expectInvalid(cql, "Keyspace 'analytics' doesn't exist", "analytics.a", 1, "schema-invalid:keyspace:analytics:missing");
    expect(build("CREATE TABLE analytics.a (id int PRIMARY KEY);").findings).toEqual([]);
  });

  it("USE of a keyspace that no file creates is reported at the USE", () => {
    const cql = "CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nUSE ap;\nCREATE TABLE t (id int PRIMARY KEY);";
    expectInvalid(cql, "Keyspace 'ap' doesn't exist", "ap;");
  });
});

describe("ALTER TABLE", () => {
  const base = "CREATE TABLE t (k int, c int, v int, tags set<text>, PRIMARY KEY (k, c));\n";

  it("dropping a primary-key column", () => {
    const { schema } = expectInvalidAndBuild(base + "ALTER TABLE t DROP c;", "Cannot drop PRIMARY KEY column c", "c;");
    expect(schema.tables.get(".t")?.clustering.map((col) => col.name)).toEqual(["c"]);
  });

  it("altering the type of a primary-key column (or of any column)", () => {
    expectInvalid(base + "ALTER TABLE t ALTER k TYPE bigint;", "Altering column types is no longer supported (and k is a PRIMARY KEY column)", "bigint");
    expectInvalid(base + "ALTER TABLE t ALTER v TYPE varint;", "Altering column types is no longer supported", "varint");
  });

  it("adding a column that exists", () => {
    const { schema } = expectInvalidAndBuild(base + "ALTER TABLE t ADD v text;", "Column with name 'v' already exists", "v text");
    expect(schema.tables.get(".t")?.columns.find((col) => col.name === "v")?.type).toEqual({ kind: "native", name: "int" });
    expect(build(base + "ALTER TABLE t ADD IF NOT EXISTS v text;").findings).toEqual([]);
  });

  it("renaming a regular column, or to a name that is taken", () => {
    expectInvalid(base + "ALTER TABLE t RENAME v TO w;", "Cannot rename non PRIMARY KEY column v", "v TO");
    expectInvalid(base + "ALTER TABLE t RENAME c TO v;", "Cannot rename column c to v in table 't'; another column with that name already exists", "v;");
  });

  it("dropping an indexed column", () => {
    expectInvalid(
      base + "CREATE INDEX ON t (v);\nALTER TABLE t DROP v;",
      "Cannot drop column v because it has dependent secondary indexes (t_v_idx)",
      "v;",
    );
  });

  it("a counter added to a table without counters, and the reverse", () => {
    expectInvalid(base + "ALTER TABLE t ADD hits counter;", "Cannot add a counter column (hits) in a non counter column family", "counter");
    expectInvalid(
      "CREATE TABLE c (k int PRIMARY KEY, hits counter);\nALTER TABLE c ADD note text;",
      "Cannot add a non counter column (note) in a counter column family",
      "text",
    );
  });

  it("re-adding a dropped column with an incompatible type", () => {
    expectInvalid(
      base + "ALTER TABLE t DROP v;\nALTER TABLE t ADD v text;",
      "Cannot re-add previously dropped column 'v' of type text, incompatible with previous type int",
      "text",
      2,
    );
  });

  it("ALTER TABLE on a view, and DROP COMPACT STORAGE on a table without it", () => {
    expectInvalid(
      base + "CREATE MATERIALIZED VIEW t_by_v AS SELECT * FROM t WHERE v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c);\nALTER TABLE t_by_v WITH comment = 'x';",
      "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead",
      "t_by_v WITH",
    );
    expectInvalid(base + "ALTER TABLE t DROP COMPACT STORAGE;", "Cannot DROP COMPACT STORAGE on table without COMPACT STORAGE", "DROP COMPACT");
  });
});

describe("ALTER and DROP TYPE", () => {
  it("adding a field that exists, renaming one that does not, and dropping a type in use", () => {
    const base = "CREATE TYPE p (x int, y int);\nCREATE TABLE t (k int PRIMARY KEY, at frozen<p>);\n";
    expectInvalid(base + "ALTER TYPE p ADD x text;", "Cannot add field x to type p: a field with name x already exists", "x text");
    expectInvalid(base + "ALTER TYPE p RENAME z TO w;", "Unknown field z in user type p", "z TO");
    expectInvalid(base + "ALTER TYPE p RENAME x TO y;", "Duplicate field name y in type p", "y;");
    expectInvalid(base + "DROP TYPE p;", "Cannot drop user type 'p' as it is still used by tables t", "p;", 1);
  });
});

describe("indexes", () => {
  const base = "CREATE TABLE t (k int, c int, l list<int>, fl frozen<list<int>>, s set<text>, m map<text, int>, PRIMARY KEY (k, c));\n";

  it("on a counter table", () => {
    expectInvalid(
      "CREATE TABLE hits (page text, day date, n counter, PRIMARY KEY (page, day));\nCREATE INDEX ON hits (n);",
      "Secondary indexes on counter tables aren't supported",
      "hits (n)",
    );
  });

  it("on the only partition key column, but not on one column of a composite key", () => {
    expectInvalid(
      "CREATE TABLE u (id uuid PRIMARY KEY, email text);\nCREATE INDEX ON u (id);",
      "Cannot create secondary index on the only partition key column id",
      "id);",
    );
    expect(build("CREATE TABLE u (a int, b int, v int, PRIMARY KEY ((a, b)));\nCREATE INDEX ON u (a);").findings).toEqual([]);
  });

  it("KEYS or ENTRIES of a column that is not a map", () => {
    expectInvalid(base + "CREATE INDEX ON t (KEYS(s));", "Cannot create index on keys of column s with non-map type", "KEYS(s)");
    expectInvalid(base + "CREATE INDEX ON t (ENTRIES(l));", "Cannot create index on entries of column l with non-map type", "ENTRIES(l)");
  });

  it("FULL of a collection that is not frozen, VALUES of one that is", () => {
    expectInvalid(base + "CREATE INDEX ON t (FULL(l));", "full() indexes can only be created on frozen collections", "FULL(l)");
    expectInvalid(
      base + "CREATE INDEX ON t (VALUES(fl));",
      "Cannot create values() index on frozen column fl. Frozen collections are immutable and must be fully indexed by using the 'full(fl)' modifier",
      "VALUES(fl)",
    );
  });

  it("a column that does not exist, and a table that does not exist", () => {
    expectInvalid(base + "CREATE INDEX ON t (nope);", "Column 'nope' doesn't exist", "nope");
    expectInvalid("CREATE INDEX ON nope (x);", "Table 'nope' doesn't exist", "nope");
  });

  it("a rejected index is not added to the table", () => {
    const { schema } = build(base + "CREATE INDEX ON t (FULL(l));");
    expect(schema.tables.get(".t")?.indexes).toEqual([]);
  });
});

describe("materialized views", () => {
  const base = "CREATE TABLE users (id uuid, org text, email text, name text, PRIMARY KEY (id, org));\n";
  const view = (select: string, where: string, key: string) =>
    `${base}CREATE MATERIALIZED VIEW users_by_email AS SELECT ${select} FROM users WHERE ${where} PRIMARY KEY ${key};`;

  it("whose primary key lacks a base primary-key column", () => {
    const cql = view("*", "email IS NOT NULL AND id IS NOT NULL", "(email, id)");
    expectInvalid(cql, "Cannot create materialized view 'users_by_email' without primary key columns org from base table 'users'", "PRIMARY KEY (email");
  });

  it("with more than one non-key base column in its key", () => {
    const cql = view("*", "email IS NOT NULL AND name IS NOT NULL AND id IS NOT NULL AND org IS NOT NULL", "(email, name, id, org)");
    expectInvalid(cql, "Cannot include more than one non-primary key column in materialized view primary key (got email, name)", "name, id, org)");
  });

  it("without IS NOT NULL for its key columns", () => {
    const cql = view("*", "email IS NOT NULL", "(email, id, org)");
    expectInvalid(cql, "Primary key columns id, org must be restricted with 'IS NOT NULL' or otherwise", "id, org)", 2);
  });

  it("selecting an unknown column, or a base table that does not exist", () => {
    const cql = view("id, org, emial", "email IS NOT NULL AND id IS NOT NULL AND org IS NOT NULL", "(id, org)");
    expectInvalid(cql, "Undefined column name emial", "emial");
    expectInvalid(
      "CREATE MATERIALIZED VIEW v AS SELECT * FROM nope WHERE k IS NOT NULL PRIMARY KEY (k);",
      "Base table 'nope' doesn't exist",
      "nope",
    );
  });

  it("with a TTL", () => {
    const cql = view("*", "email IS NOT NULL AND id IS NOT NULL AND org IS NOT NULL", "(email, id, org) WITH default_time_to_live = 60");
    expectInvalid(cql, /^Cannot set default_time_to_live for a materialized view/, "default_time_to_live");
  });
});

describe("keyspaces", () => {
  it("SimpleStrategy without a replication factor", () => {
    expectInvalid(
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy'};",
      "SimpleStrategy requires a replication_factor strategy option.",
      "replication =",
    );
  });
});

describe("DML in schema files", () => {
  it("names a table that does not exist", () => {
    expectInvalid("CREATE TABLE t (k int PRIMARY KEY);\nINSERT INTO tt (k) VALUES (1);", "unconfigured table tt", "tt");
    expect(build("SELECT * FROM system_schema.tables;").findings).toEqual([]);
  });
});

describe("fingerprints", () => {
  it("never carry a line number and stay unique when a problem repeats", () => {
    const { findings } = build("CREATE TABLE t (id int PRIMARY KEY);\nALTER TABLE t ADD id text;\n\n\nALTER TABLE t ADD id text;");
    expect(findings.map((f) => f.fingerprint)).toEqual([
      "schema-invalid:table:.t:column:id:exists",
      "schema-invalid:table:.t:column:id:exists#2",
    ]);
  });
});

function expectInvalidAndBuild(cql: string, message: string, at: string) {
  const built = build(cql);
  expectOneFinding(built.findings, { message, at: locate(cql, at) });
  return built;
}

describe("less common refusals", () => {
  const base = "CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c));\n";
  const view = "CREATE MATERIALIZED VIEW t_by_v AS SELECT * FROM t WHERE v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c);\n";

  it("indexes on views and several targets without CUSTOM", () => {
    expectInvalid(base + view + "CREATE INDEX ON t_by_v (v);", "Secondary indexes on materialized views aren't supported", "t_by_v (v)");
    expectInvalid(base + "CREATE INDEX ON t (c, v);", "Only CUSTOM indexes support multiple columns", "v);");
  });

  it("views on counter tables, with a mismatched clustering order, or filtering a non-key column", () => {
    expectInvalid(
      "CREATE TABLE hits (page text, day date, n counter, PRIMARY KEY (page, day));\nCREATE MATERIALIZED VIEW h AS SELECT * FROM hits WHERE page IS NOT NULL AND day IS NOT NULL PRIMARY KEY (day, page);",
      "Materialized views are not supported on counter tables",
      "hits WHERE",
    );
    expectInvalid(
      base + "CREATE MATERIALIZED VIEW t_by_v AS SELECT * FROM t WHERE v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c) WITH CLUSTERING ORDER BY (c DESC);",
      "Clustering key columns must exactly match columns in CLUSTERING ORDER BY directive",
      "CLUSTERING ORDER",
    );
    expectInvalid(
      "CREATE TABLE t (k int, c int, v int, w int, PRIMARY KEY (k, c));\nCREATE MATERIALIZED VIEW t_by_v AS SELECT * FROM t WHERE v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL AND w = 3 PRIMARY KEY (v, k, c);",
      "Non-primary key columns can only be restricted with 'IS NOT NULL' (got: w restricted illegally)",
      "w = 3",
    );
  });

  it("DROP TABLE on a view, and dropping a column of a table with views", () => {
    expectInvalid(base + view + "DROP TABLE t_by_v;", "Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW instead.", "t_by_v;");
    expectInvalid(base + "ALTER TABLE t ADD w int;\n" + view + "ALTER TABLE t DROP w;", "Cannot drop column w on base table t with materialized views", "w;");
  });

  it("dropping a non-frozen user-type column", () => {
    expectInvalid(
      "CREATE TYPE p (x int);\nCREATE TABLE t (k int PRIMARY KEY, at p);\nALTER TABLE t DROP at;",
      "Cannot drop non-frozen column at of user type p",
      "at;",
    );
  });

  it("COMPACT STORAGE rules", () => {
    expectInvalid(
      "CREATE TABLE t (k int, c int, a int, b int, PRIMARY KEY (k, c)) WITH COMPACT STORAGE;",
      "COMPACT STORAGE with composite PRIMARY KEY allows no more than one column not part of the PRIMARY KEY (got: a, b)",
      "COMPACT STORAGE",
    );
    expectInvalid(
      "CREATE TABLE t (k int PRIMARY KEY, tags set<text>) WITH COMPACT STORAGE;",
      "Non-frozen collections and UDTs are not supported with COMPACT STORAGE",
      "set<text>",
    );
    expectInvalid("CREATE TABLE t (k int PRIMARY KEY) WITH COMPACT STORAGE;", /^COMPACT STORAGE with non-composite PRIMARY KEY require one column/, "COMPACT STORAGE");
    expectInvalid("CREATE TABLE t (k int PRIMARY KEY, v int) WITH COMPACT STORAGE;\nALTER TABLE t ADD w int;", "Cannot add new column to a COMPACT STORAGE table", "w int");
  });

  it("ALTER TYPE that would nest the type in itself, or change a partition key", () => {
    expectInvalid(
      "CREATE TYPE p (x int);\nALTER TYPE p ADD self frozen<p>;",
      "Cannot add new field self of type frozen<p> to user type p as it would create a circular reference",
      "frozen<p>",
    );
    expectInvalid(
      "CREATE TYPE p (x int);\nCREATE TABLE t (at frozen<p> PRIMARY KEY, v int);\nALTER TYPE p ADD y int;",
      "Cannot add new field y of type int to user type p as the type is being used in partition key by the following tables: t",
      "y int",
    );
  });

  it("functions: a repeated signature, OR REPLACE with IF NOT EXISTS, an ambiguous DROP, a missing state function", () => {
    const f = "CREATE FUNCTION twice (x int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS 'return x * 2;';\n";
    expectInvalid(f + f, "Function twice(int) already exists", "twice", 2);
    expect(build(f + f.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION")).findings).toEqual([]);
    expectInvalid(f.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION IF NOT EXISTS"), "Cannot use both 'OR REPLACE' and 'IF NOT EXISTS' directives", "twice");
    const overload = "CREATE FUNCTION twice (x text) RETURNS NULL ON NULL INPUT RETURNS text LANGUAGE java AS 'return x + x;';\n";
    expectInvalid(f + overload + "DROP FUNCTION twice;", /^'DROP FUNCTION twice' matches multiple function definitions/, "twice;");
    expectInvalid(
      "CREATE AGGREGATE total (int) SFUNC add_up STYPE int INITCOND 0;",
      "State function add_up doesn't exist",
      "add_up",
    );
  });
});
