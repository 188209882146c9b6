import { describe, expect, it } from "vitest";
import { applyOrder } from "../../src/schema/file-order.js";
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
    const files = { "a.cql": "ALTER TABLE tracing.other ADD x int;\n", "b.cql": base };
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
});
