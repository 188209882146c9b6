import { describe, expect, it } from "vitest";
import type { ParseResult } from "../../src/cql/ast.js";
import { parseCql } from "../../src/cql/index.js";
import { withCpuTime } from "../helpers/cpu-time.js";

const errors = (result: ParseResult) => result.diagnostics.filter((d) => d.severity === "error");
const infos = (result: ParseResult) => result.diagnostics.filter((d) => d.severity === "info");
const at = (result: ParseResult) => result.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.column}`);
const tableNames = (result: ParseResult) => result.statements.map((s) => (s.kind === "create-table" ? s.name.name.name : s.kind));

describe("syntax errors", () => {
  it("a file with three broken statements reports three errors and keeps the others", () => {
    const result = parseCql(
      [
        "CREATE TABLE a (id int PRIMARY KEY);",
        "CREATE TABLE broken1 (id int PRIMARY KEY, name text,, PRIMARY KEY id));",
        "CREATE TABLE b (id int PRIMARY KEY);",
        "SELECT * FORM b;",
        "CREATE TABLE c (id int PRIMARY KEY);",
        "CREATE TABEL broken3 (id int);",
        "CREATE TABLE d (id int PRIMARY KEY);",
      ].join("\n"),
    );
    expect(tableNames(result)).toEqual(["a", "b", "c", "d"]);
    expect(errors(result).map((d) => d.code)).toEqual(["cql-syntax-error", "cql-syntax-error", "cql-syntax-error"]);
    expect(at(result)).toEqual(["2:67", "4:10", "6:8"]);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      "expected `(` in PRIMARY KEY, found `id`",
      "expected `FROM` in SELECT, found `FORM`",
      "expected KEYSPACE, TABLE, TYPE, INDEX, CUSTOM INDEX, MATERIALIZED VIEW, FUNCTION, AGGREGATE, TRIGGER, ROLE or USER after `CREATE`, found `TABEL`",
    ]);
  });

  it("reports a repeated error the same each time, alone or among others (expected tokens are cached per decision)", () => {
    const broken = [
      "SELECT * FORM b;",
      "CREATE TABEL t (id int);",
      "UPDATE t SET b = 3;",
      "CREATE TABLE t (id int PRIMARY KEY, name text,, PRIMARY KEY id));",
      "SELECT * FROM t WHERE a IN ((1, 2), (3,;",
    ];
    const alone = broken.map((statement) => parseCql(statement).diagnostics.map((d) => d.message));
    const together = parseCql([...broken, ...broken, ...broken].join("\n")).diagnostics.map((d) => d.message);
    expect(alone.every((messages) => messages.length > 0)).toBe(true);
    expect(together).toEqual([...alone.flat(), ...alone.flat(), ...alone.flat()]);
  });

  it("says which parenthesis is missing", () => {
    const result = parseCql("CREATE TABLE t (a int, b int, PRIMARY KEY ((a), b;\nCREATE TABLE u (a int PRIMARY KEY);");
    expect(result.diagnostics[0]!.message).toBe("expected `)` to close PRIMARY KEY, found `;`");
    expect(at(result)[0]).toBe("1:50");
    expect(tableNames(result)).toContain("u");
  });

  it("keeps a statement that recovery repaired with one token, and still reports it", () => {
    const result = parseCql("CREATE TABLE t (a int, b text, PRIMARY KEY (a)\n;\nSELECT * FROM t;");
    expect(result.diagnostics.map((d) => d.message)).toEqual(["expected `)` to close the column list of CREATE TABLE, found `;`"]);
    expect(result.statements.map((s) => s.kind)).toEqual(["create-table", "select"]);
  });

  it("drops a statement that recovery could not repair", () => {
    const result = parseCql("CREATE TABLE t (a int PRIMARY KEY, b);\nSELECT * FROM t;");
    expect(result.statements.map((s) => s.kind)).toEqual(["select"]);
    expect(errors(result)).toHaveLength(1);
  });

  it("reports a missing ';' between statements and keeps both", () => {
    const result = parseCql("CREATE TABLE a (x int PRIMARY KEY)\nCREATE TABLE b (x int PRIMARY KEY);\nUSE ks\nSELECT * FROM t");
    expect(tableNames(result)).toEqual(["a", "b", "use", "select"]);
    expect(result.diagnostics.map((d) => [d.message.split(":")[0], `${d.range.start.line}:${d.range.start.column}`])).toEqual([
      ["missing `;` before `CREATE`", "2:1"],
      ["missing `;` before `SELECT`", "4:1"],
    ]);
  });

  it("accepts a missing ';' at the end of the file", () => {
    expect(parseCql("SELECT * FROM t").diagnostics).toEqual([]);
  });

  it("does not split on ';' inside strings, $$ bodies and comments", () => {
    const result = parseCql("INSERT INTO t (a) VALUES ('a;b'); -- c;d\nCREATE FUNCTION f () CALLED ON NULL INPUT RETURNS int LANGUAGE java AS $$ int x = 1; return x; $$; /* ; */ SELECT 'x;' FROM t;");
    expect(result.diagnostics).toEqual([]);
    expect(result.statements.map((s) => s.kind)).toEqual(["insert", "create-function", "select"]);
  });

  it("a multi-row INSERT is an error that names the problem", () => {
    const result = parseCql("INSERT INTO t (a, b) VALUES (1, 2), (3, 4);\nSELECT * FROM t;");
    expect(result.statements.map((s) => s.kind)).toEqual(["select"]);
    expect(result.diagnostics[0]!.message).toMatch(/^INSERT inserts one row; a second VALUES tuple is not CQL/);
    expect(at(result)[0]).toBe("1:35");
  });

  it("an unterminated string is one error at its start, and parsing ends without hanging", () => {
    const result = parseCql("SELECT * FROM t;\nINSERT INTO t (a) VALUES ('never closed);\nSELECT * FROM u;");
    expect(result.statements.map((s) => s.kind)).toEqual(["select"]);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]!.message).toMatch(/^unterminated string: this `'` is never closed/);
    expect(at(result)).toEqual(["2:27"]);
  });

  it("an unterminated block comment is one error at its start", () => {
    const result = parseCql("SELECT * FROM t;\n/* never closed\nSELECT * FROM u;");
    expect(result.statements).toHaveLength(1);
    expect(result.diagnostics.map((d) => [d.message.split(":")[0], `${d.range.start.line}:${d.range.start.column}`])).toEqual([
      ["unterminated comment", "2:1"],
    ]);
  });

  it("an empty or comment-only file has no statements and no diagnostics", () => {
    for (const text of ["", "   \n\t", "-- only a comment", "/* block */ // line", ";;;"]) {
      expect(parseCql(text)).toMatchObject({ statements: [], diagnostics: [] });
    }
  });
});

describe("cqlsh commands", () => {
  it("are skipped with an info that ends at the line break (COPY at its ';')", () => {
    const result = parseCql(
      [
        "SOURCE 'schema/tables.cql'",
        "CONSISTENCY QUORUM",
        "SERIAL CONSISTENCY LOCAL_SERIAL",
        "TRACING ON",
        "EXPAND ON;",
        "PAGING OFF",
        "CAPTURE '/tmp/out.txt'",
        "LOGIN alice 'secret'",
        "SHOW VERSION",
        "COPY ks.t (a, b)",
        "  FROM 'data.csv' WITH HEADER = true;",
        "CLEAR",
        "HELP",
        "CREATE TABLE t (a int PRIMARY KEY);",
        "EXIT",
      ].join("\n"),
    );
    expect(errors(result)).toEqual([]);
    expect(result.statements.map((s) => s.kind)).toEqual(["create-table"]);
    expect(infos(result).map((d) => d.message)).toEqual(
      ["SOURCE", "CONSISTENCY", "SERIAL CONSISTENCY", "TRACING", "EXPAND", "PAGING", "CAPTURE", "LOGIN", "SHOW", "COPY", "CLEAR", "HELP", "EXIT"].map(
        (name) => `cqlsh command ${name} is not CQL; cql-review skips it`,
      ),
    );
    const copy = infos(result)[9]!;
    expect([copy.range.start.line, copy.range.end.line]).toEqual([10, 11]);
    expect(infos(result)[0]!.range).toEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 27, offset: 26 } });
  });

  it("DESCRIBE is server CQL, not a cqlsh command", () => {
    expect(parseCql("DESCRIBE KEYSPACES;").statements.map((s) => s.kind)).toEqual(["describe"]);
  });

  it("a column called source is not a cqlsh command", () => {
    const result = parseCql("CREATE TABLE t (\n  id int PRIMARY KEY,\n  source text\n);");
    expect(result.diagnostics).toEqual([]);
  });
});

describe("vendor dialects", () => {
  it("vendor statements are skipped with an info naming the vendor", () => {
    const result = parseCql(
      [
        "CREATE SEARCH INDEX ON ks.t WITH COLUMNS name;",
        "ALTER SEARCH INDEX SCHEMA ON ks.t ADD field x;",
        "RELOAD SEARCH INDEX ON ks.t;",
        "RESTRICT ROWS ON ks.t USING region;",
        "CREATE SERVICE LEVEL IF NOT EXISTS sl WITH timeout = 10ms;",
        "ATTACH SERVICE LEVEL sl TO role1;",
        "LIST ALL SERVICE LEVELS;",
        "PRUNE MATERIALIZED VIEW mv WHERE a = 1;",
        "ALTER TABLE t ADD TAGS {'env': 'prod'};",
        "BEGIN TRANSACTION\n  LET row = (SELECT * FROM t WHERE a = 1);\n  UPDATE t SET v = 1 WHERE a = 1;\nCOMMIT TRANSACTION;",
        "CREATE TABLE after (a int PRIMARY KEY);",
      ].join("\n"),
    );
    expect(errors(result)).toEqual([]);
    expect(tableNames(result)).toEqual(["after"]);
    const messages = infos(result).map((d) => d.message);
    expect(messages.slice(0, 4).every((m) => m.includes("DataStax Enterprise"))).toBe(true);
    expect(messages.slice(4, 8).every((m) => m.includes("ScyllaDB"))).toBe(true);
    expect(messages[8]).toContain("Amazon Keyspaces");
    expect(messages[9]).toContain("Accord");
    expect(infos(result)[9]!.range.end.line).toBe(13);
  });

  it("vendor clauses keep the statement and get an info at the clause", () => {
    const text = "SELECT * FROM t WHERE a = 1 BYPASS CACHE USING TIMEOUT 5s;\nINSERT INTO t (a) VALUES (1) USING TIMEOUT 10ms AND TTL 5;";
    const result = parseCql(text);
    expect(result.statements.map((s) => s.kind)).toEqual(["select", "insert"]);
    expect(infos(result).map((d) => text.slice(d.range.start.offset, d.range.end.offset))).toEqual(["BYPASS CACHE", "TIMEOUT 5s", "TIMEOUT 10ms"]);
    const insert = result.statements[1]!;
    expect(insert.kind === "insert" && insert.using).toMatchObject({ timeout: { value: "10ms" }, ttl: { value: "5" } });
  });

  it("vendor table options are kept and reported", () => {
    const result = parseCql(
      "CREATE TABLE t (a int PRIMARY KEY) WITH TAGS = {'env': 'prod'} AND CUSTOM_PROPERTIES = {'capacity_mode': {'throughput_mode': 'PAY_PER_REQUEST'}} AND nodesync = {'enabled': 'true'} AND tombstone_gc = {'mode': 'repair'};",
    );
    expect(result.statements).toHaveLength(1);
    expect(infos(result).map((d) => d.message)).toEqual([
      "option tags is specific to Amazon Keyspaces; Apache Cassandra rejects it",
      "option custom_properties is specific to Amazon Keyspaces; Apache Cassandra rejects it",
      "option nodesync is specific to DataStax Enterprise; Apache Cassandra rejects it",
      "option tombstone_gc is specific to ScyllaDB; Apache Cassandra rejects it",
    ]);
  });
});

describe("text that is not CQL", () => {
  it.each([
    ["# a hash comment\nCREATE TABLE ok (a int PRIMARY KEY);", "1:1", "`#` does not start a comment in CQL"],
    ["CREATE TABLE ${keyspace}.users (id uuid PRIMARY KEY);\nCREATE TABLE ok (a int PRIMARY KEY);", "1:14", "template placeholder `${…}` is not CQL"],
    ["CREATE TABLE {{ name }} (id uuid PRIMARY KEY);\nCREATE TABLE ok (a int PRIMARY KEY);", "1:14", "template placeholder `{{…}}` is not CQL"],
    ["CREATE TABLE t ( <1>\n  id int PRIMARY KEY <2>\n);\nCREATE TABLE ok (a int PRIMARY KEY);", "1:18", "documentation callout `<n>` is not CQL"],
    [" id | name\n----+------\n  1 | bob\n\n(1 rows)\nCREATE TABLE ok (a int PRIMARY KEY);", "1:2", "this looks like pasted cqlsh output"],
    ["<<<<<<< HEAD\nCREATE TABLE ok (a int PRIMARY KEY);", "1:1", "git merge conflict marker"],
    ["CREATE FUNCTION f (x int) ...;\nCREATE TABLE ok (a int PRIMARY KEY);", "1:27", "`...` (text left out, as in documentation) is not CQL"],
  ])("%j: an error where it starts, and the rest parses", (text, position, hint) => {
    const result = parseCql(text);
    expect(errors(result)).toHaveLength(1);
    expect(at(result)).toEqual([position]);
    expect(result.diagnostics[0]!.message.startsWith(hint)).toBe(true);
    expect(tableNames(result)).toEqual(["ok"]);
  });

  it("a pasted cqlsh prompt is an error of its own, and the statement typed after it is read", () => {
    const result = parseCql("cqlsh> USE shop;\ncqlsh:shop> CREATE TABLE orders (id uuid PRIMARY KEY)\ncqlsh:\"Shop\"> DESC TABLE orders;\n");
    const prompt = "a cqlsh prompt pasted from a shell session is not CQL; the statement after it is still read";
    // The prompt also ends the statement before it, which lacks its `;`.
    expect(errors(result).map((d) => d.message)).toEqual([prompt, prompt, "missing `;` before `cqlsh`: expected `;` after the statement, found `cqlsh`", prompt]);
    expect(result.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.column}-${d.range.end.column}`)).toEqual(["1:1-7", "2:1-12", "3:1-6", "3:1-14"]);
    expect(result.statements.map((s) => s.kind)).toEqual(["use", "create-table", "describe"]);
  });

  it("a name cqlsh is not a prompt", () => {
    const result = parseCql("SELECT cqlsh FROM t WHERE cqlsh > 1;\nCREATE TABLE cqlsh (a int PRIMARY KEY);");
    expect(result.diagnostics).toEqual([]);
    expect(result.statements).toHaveLength(2);
  });

  it("merge conflict markers around two versions of a statement", () => {
    const result = parseCql("<<<<<<< HEAD\nCREATE TABLE t (a int PRIMARY KEY);\n=======\nCREATE TABLE t (b int PRIMARY KEY);\n>>>>>>> feature\n");
    expect(at(result)).toEqual(["1:1", "3:1", "5:1"]);
    expect(result.diagnostics.every((d) => d.message.startsWith("git merge conflict marker"))).toBe(true);
    expect(result.statements).toHaveLength(2);
  });

  it("doc pseudo-syntax and Thrift-era syntax are errors, not crashes", () => {
    const result = parseCql("CREATE TABLE t (a list, b frozen, c tuple);\ncreate column family Users with comparator = UTF8Type;\nSELECT ... FROM t;");
    expect(errors(result)).toHaveLength(3);
    expect(result.statements).toEqual([]);
  });
});

describe("large broken input", () => {
  it("thousands of broken lines without ';' are parsed in linear time", () => {
    const broken = "SELECT a FROM t WHERE\n".repeat(10_000);
    const { result, cpuMs } = withCpuTime(() => parseCql(broken));
    expect(cpuMs).toBeLessThan(15_000);
    expect(errors(result).length).toBe(10_000);
  });

  it("thousands of statements without ';' are each kept, each with a missing-';' error", () => {
    const result = parseCql("SELECT * FROM t\n".repeat(5_000));
    expect(result.statements).toHaveLength(5_000);
    expect(errors(result)).toHaveLength(4_999);
  });

  it("a statement nested deeper than the stack is one error, and the next statement parses", () => {
    const result = parseCql(`SELECT ${"[".repeat(20_000)}${"]".repeat(20_000)} FROM t;\nSELECT * FROM u;`);
    expect(result.statements.map((s) => s.kind === "select" && s.table.name.name)).toEqual(["u"]);
    expect(result.diagnostics.map((d) => d.message)).toEqual(["cql-review could not parse this statement (it nests too deeply)"]);
  });

  it("DESCRIBE may end at the line break, as in cqlsh", () => {
    const result = parseCql("DESCRIBE KEYSPACES\nDESC TABLE ks.t\nCREATE TABLE t (a int PRIMARY KEY);");
    expect(result.diagnostics).toEqual([]);
    expect(result.statements.map((s) => s.kind)).toEqual(["describe", "describe", "create-table"]);
  });
});
