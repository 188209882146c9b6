import { describe, expect, it } from "vitest";
import { parseCql } from "../../src/cql/index.js";
import { parseOne } from "./helpers.js";

const verb = (text: string) => parseOne(text, "access-control").verb;

describe("roles and users", () => {
  it("CREATE ROLE with every option", () => {
    const role = parseOne(
      "CREATE ROLE IF NOT EXISTS alice WITH PASSWORD = 'secret' AND LOGIN = true AND SUPERUSER = false AND OPTIONS = {'custom': 1} AND ACCESS TO DATACENTERS {'dc1', 'dc2'} AND ACCESS FROM ALL CIDRS",
      "access-control",
    );
    expect(role.verb).toBe("create-role");
    expect(role.name).toMatchObject({ name: "alice", quoted: false });
    expect(verb("CREATE ROLE bob WITH HASHED PASSWORD = '$2a$10$abc' AND ACCESS TO ALL DATACENTERS AND ACCESS FROM CIDRS {'region1'}")).toBe("create-role");
    expect(verb("CREATE ROLE gen WITH GENERATED PASSWORD")).toBe("create-role");
    expect(verb("ALTER ROLE IF EXISTS bob WITH PASSWORD = 'new'")).toBe("alter-role");
  });

  it("role names may be strings", () => {
    expect(parseOne("CREATE ROLE 'Mixed Case' WITH LOGIN = true", "access-control").name).toMatchObject({ name: "Mixed Case", quoted: true, text: "'Mixed Case'" });
  });

  it("DROP ROLE and DROP USER are drop statements", () => {
    expect(parseOne("DROP ROLE IF EXISTS bob", "drop-role")).toMatchObject({ ifExists: true, name: { name: { name: "bob" } } });
    expect(parseOne("DROP USER 'carl'", "drop-user").name.name.name).toBe("carl");
  });

  it("CREATE / ALTER USER with PASSWORD, HASHED PASSWORD, SUPERUSER, NOSUPERUSER", () => {
    expect(verb("CREATE USER IF NOT EXISTS carl WITH PASSWORD 'p' SUPERUSER")).toBe("create-user");
    expect(verb("CREATE USER dan WITH HASHED PASSWORD '$2a$10$x' NOSUPERUSER")).toBe("create-user");
    expect(verb("ALTER USER carl WITH PASSWORD 'q' NOSUPERUSER")).toBe("alter-user");
  });

  it("LIST ROLES / USERS / SUPERUSERS", () => {
    expect(parseOne("LIST ROLES OF alice NORECURSIVE", "access-control")).toMatchObject({ verb: "list-roles", name: { name: "alice" } });
    expect(verb("LIST ROLES")).toBe("list-roles");
    expect(verb("LIST USERS")).toBe("list-users");
    expect(verb("LIST SUPERUSERS")).toBe("list-superusers");
  });

  it("ADD and DROP IDENTITY", () => {
    expect(parseOne("ADD IDENTITY IF NOT EXISTS 'spiffe://example.org/app' TO ROLE alice", "access-control")).toMatchObject({
      verb: "add-identity",
      name: { kind: "literal", value: "spiffe://example.org/app" },
    });
    expect(verb("DROP IDENTITY IF EXISTS 'spiffe://example.org/app'")).toBe("drop-identity");
  });
});

describe("permissions", () => {
  it.each([
    "GRANT ALL PERMISSIONS ON KEYSPACE ks TO alice",
    "GRANT ALL ON ALL KEYSPACES TO alice",
    "GRANT SELECT, MODIFY ON TABLE ks.t TO alice",
    "GRANT SELECT PERMISSION ON ks.t TO alice",
    "GRANT SELECT ON ALL TABLES IN KEYSPACE ks TO alice",
    "GRANT CREATE ON ALL FUNCTIONS IN KEYSPACE ks TO alice",
    "GRANT EXECUTE ON ALL FUNCTIONS TO alice",
    "GRANT EXECUTE ON FUNCTION ks.fn(int, text) TO alice",
    "GRANT DESCRIBE ON ALL ROLES TO alice",
    "GRANT AUTHORIZE ON ROLE bob TO alice",
    "GRANT ALTER ON ALL MBEANS TO alice",
    "GRANT SELECT ON MBEAN 'org.apache.cassandra.db:type=Tables' TO alice",
    "GRANT DROP ON MBEANS 'org.apache.cassandra.metrics:*' TO alice",
    "GRANT UNMASK ON TABLE ks.t TO alice",
    "GRANT SELECT_MASKED ON KEYSPACE ks TO alice",
  ])("%s", (text) => {
    expect(parseOne(text, "access-control")).toMatchObject({ verb: "grant-permission", name: { name: "alice" } });
  });

  it("REVOKE and LIST permissions", () => {
    expect(parseOne("REVOKE ALL ON ALL KEYSPACES FROM alice", "access-control")).toMatchObject({ verb: "revoke-permission", name: { name: "alice" } });
    expect(verb("LIST ALL PERMISSIONS OF alice")).toBe("list-permissions");
    expect(verb("LIST SELECT ON ks.t OF alice NORECURSIVE")).toBe("list-permissions");
    expect(verb("LIST ALL")).toBe("list-permissions");
  });

  it("GRANT / REVOKE a role, also one named like a permission word", () => {
    expect(parseOne("GRANT analyst TO alice", "access-control")).toMatchObject({ verb: "grant-role", name: { name: "alice" } });
    expect(verb("REVOKE analyst FROM alice")).toBe("revoke-role");
    expect(verb("GRANT all TO alice")).toBe("grant-role");
  });
});

describe("DESCRIBE", () => {
  it.each([
    ["DESCRIBE KEYSPACES", "keyspaces", undefined],
    ["DESC KEYSPACE ks", "keyspace", "ks"],
    ["DESCRIBE KEYSPACE", "keyspace", undefined],
    ["DESCRIBE ONLY KEYSPACE ks WITH INTERNALS", "only keyspace", "ks"],
    ["DESCRIBE TABLES", "tables", undefined],
    ["DESCRIBE TABLE ks.t", "table", "t"],
    ["DESCRIBE TYPES", "types", undefined],
    ["DESCRIBE TYPE address", "type", "address"],
    ["DESCRIBE FUNCTIONS", "functions", undefined],
    ["DESCRIBE FUNCTION ks.f", "function", "f"],
    ["DESCRIBE AGGREGATES", "aggregates", undefined],
    ["DESCRIBE AGGREGATE ks.a", "aggregate", "a"],
    ["DESCRIBE INDEX ks.i", "index", "i"],
    ["DESCRIBE MATERIALIZED VIEW ks.v", "materialized view", "v"],
    ["DESCRIBE SCHEMA", "schema", undefined],
    ["DESCRIBE FULL SCHEMA", "full schema", undefined],
    ["DESCRIBE CLUSTER", "cluster", undefined],
    ["DESCRIBE ks.users", "name", "users"],
    ["DESCRIBE types_table", "name", "types_table"],
  ])("%s", (text, target, name) => {
    const describe = parseOne(text, "describe");
    expect(describe.target).toBe(target);
    expect(describe.name?.name.name).toBe(name);
  });
});

describe("COMMENT ON and SECURITY LABEL (after 5.0)", () => {
  it("comments on keyspaces, tables, columns, types and fields", () => {
    expect(parseOne("COMMENT ON KEYSPACE ks IS 'orders'", "comment-on")).toMatchObject({ target: "keyspace", name: { name: { name: "ks" } }, value: "orders" });
    expect(parseOne("COMMENT ON TABLE ks.t IS 'it''s'", "comment-on")).toMatchObject({ target: "table", name: { keyspace: { name: "ks" } }, value: "it's" });
    expect(parseOne("COMMENT ON COLUMN ks.t.c IS NULL", "comment-on")).toMatchObject({ target: "column", name: { keyspace: { name: "ks" }, name: { name: "t" } }, member: { name: "c" }, value: null });
    expect(parseOne("COMMENT ON TYPE address IS 'a'", "comment-on")).toMatchObject({ target: "type" });
    expect(parseOne("COMMENT ON FIELD address.zip IS 'z'", "comment-on")).toMatchObject({ target: "field", name: { name: { name: "address" } }, member: { name: "zip" } });
  });

  it("SECURITY LABEL with a provider", () => {
    expect(parseOne("SECURITY LABEL FOR classifier ON TABLE ks.t IS 'confidential'", "security-label")).toMatchObject({
      provider: { name: "classifier" },
      target: "table",
      value: "confidential",
    });
  });
});

describe("COMMENT ON and SECURITY LABEL name parts", () => {
  it.each([
    ["SECURITY LABEL ON TYPE ks.t.x IS 'a'", "COMMENT ON / SECURITY LABEL ON TYPE takes 1 or 2 name parts", "TYPE ks.t.x"],
    ["COMMENT ON TABLE a.b.c IS 'a'", "COMMENT ON / SECURITY LABEL ON TABLE takes 1 or 2 name parts", "TABLE a.b.c"],
    ["COMMENT ON COLUMN c IS 'a'", "COMMENT ON / SECURITY LABEL ON COLUMN takes 2 or 3 name parts", "COLUMN c"],
    ["SECURITY LABEL ON FIELD a.b.c.d IS 'a'", "COMMENT ON / SECURITY LABEL ON FIELD takes 2 or 3 name parts", "FIELD a.b.c.d"],
  ])("%s is an error at the object described", (text, message, at) => {
    const result = parseCql(text);
    expect(result.statements).toEqual([]);
    expect(result.diagnostics.map((d) => [d.message, text.slice(d.range.start.offset, d.range.end.offset)])).toEqual([[message, at]]);
  });

  it("a column of a table in the current keyspace has no keyspace part", () => {
    const comment = parseOne("COMMENT ON COLUMN t.c IS 'x'", "comment-on");
    expect(comment.name).not.toHaveProperty("keyspace");
    expect([comment.name.name.name, comment.member?.name]).toEqual(["t", "c"]);
  });
});
