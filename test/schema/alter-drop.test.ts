import { describe, expect, it } from "vitest";
import { formatColumnType } from "../../src/schema/resolve.js";
import { build, columnNames, expectOneFinding, locate, table } from "./helpers.js";

const TABLES = `
CREATE KEYSPACE media WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
USE media;
CREATE TYPE person (name text, email text);
CREATE TABLE videos (
  video_id uuid,
  added_at timestamp,
  title text,
  description text,
  uploader frozen<person>,
  tags set<text>,
  PRIMARY KEY (video_id, added_at)
);
CREATE TABLE comments (video_id uuid, comment_id timeuuid, body text, PRIMARY KEY (video_id, comment_id));
CREATE INDEX ON comments (body);
CREATE TABLE legacy_kv (k text PRIMARY KEY, v blob) WITH COMPACT STORAGE;
`;

const CHANGES = `
USE media;
ALTER TABLE videos ADD (duration_s int, thumbnail blob);
ALTER TABLE videos DROP description;
ALTER TABLE videos RENAME added_at TO uploaded_at;
ALTER TABLE videos WITH default_time_to_live = 86400 AND compaction = {'class': 'LeveledCompactionStrategy'};
ALTER TABLE legacy_kv DROP COMPACT STORAGE;
ALTER TYPE person ADD phone text;
ALTER TYPE person RENAME email TO mail;
`;

describe("ALTER and DROP across files, applied in path order", () => {
  // Passed in reverse: the builder sorts by path, so 010 creates and 020 changes.
  const files = { "cql/020_changes.cql": CHANGES, "cql/010_tables.cql": TABLES };

  it("applies ADD, DROP, RENAME and WITH to the table", () => {
    const { schema, findings } = build(files);
    expect(findings).toEqual([]);
    const videos = table(schema, "media.videos");
    expect(columnNames(videos.columns)).toEqual(["video_id", "uploaded_at", "title", "uploader", "tags", "duration_s", "thumbnail"]);
    expect(videos.clustering.map((c) => [c.name, c.position])).toEqual([["uploaded_at", 0]]);
    expect(columnNames(videos.regular)).toEqual(["title", "uploader", "tags", "duration_s", "thumbnail"]);
    expect(videos.defaultTtlSeconds).toBe(86400);
    expect(videos.compaction).toEqual({ className: "LeveledCompactionStrategy", options: {} });
    const added = videos.columns.find((c) => c.name === "thumbnail");
    expect(added?.source).toMatchObject({ file: "cql/020_changes.cql", range: { start: locate(CHANGES, "thumbnail blob") } });
  });

  it("records dropped columns with their type and where they were dropped", () => {
    const { schema } = build(files);
    const dropped = schema.droppedColumns.get("media.videos");
    expect(dropped?.map((d) => [d.name, formatColumnType(d.type), d.source.file])).toEqual([["description", "text", "cql/020_changes.cql"]]);
    expect(dropped?.[0]?.source.range.start).toMatchObject(locate(CHANGES, "description"));
  });

  it("DROP COMPACT STORAGE clears the flag", () => {
    expect(table(build(files).schema, "media.legacy_kv").compactStorage).toBe(false);
  });

  it("ALTER TYPE changes the type and every column using it", () => {
    const { schema } = build(files);
    expect(schema.types.get("media.person")?.fields.map((f) => f.name)).toEqual(["name", "mail", "phone"]);
    const uploader = table(schema, "media.videos").columns.find((c) => c.name === "uploader")?.type;
    expect(uploader?.kind === "udt" && uploader.fields.map((f) => f.name)).toEqual(["name", "mail", "phone"]);
  });

  it("DROP TABLE drops its indexes with it; DROP INDEX and DROP TYPE remove what they name", () => {
    const { schema, findings } = build({
      ...files,
      "cql/030_cleanup.cql": `
USE media;
DROP INDEX comments_body_idx;
DROP TABLE videos;
DROP TYPE person;
DROP TABLE IF EXISTS no_such_table;`,
    });
    expect(findings).toEqual([]);
    expect(table(schema, "media.comments").indexes).toEqual([]);
    expect(schema.tables.has("media.videos")).toBe(false);
    expect(schema.droppedColumns.has("media.videos")).toBe(false);
    expect(schema.types.has("media.person")).toBe(false);
  });

  it("a file that re-creates a dropped table builds the new definition", () => {
    const { schema, findings } = build({
      ...files,
      "cql/030_recreate.cql": `
DROP TABLE media.comments;
CREATE TABLE media.comments (comment_id timeuuid PRIMARY KEY, body text);`,
    });
    expect(findings).toEqual([]);
    const comments = table(schema, "media.comments");
    expect(columnNames(comments.partitionKey)).toEqual(["comment_id"]);
    expect(comments.indexes).toEqual([]);
  });

  it("an index name is free again once its index or its table is dropped", () => {
    const { schema, findings } = build(`
CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c));
CREATE INDEX by_v ON t (v);
DROP INDEX by_v;
CREATE INDEX by_v ON t (v);
DROP TABLE t;
CREATE TABLE u (k int, c int, v int, PRIMARY KEY (k, c));
CREATE INDEX by_v ON u (c);
CREATE INDEX ON u (v);`);
    expect(findings).toEqual([]);
    expect(table(schema, ".u").indexes.map((i) => [i.name, i.column])).toEqual([["by_v", "c"], ["u_v_idx", "v"]]);
  });

  it("DROP KEYSPACE removes everything in it", () => {
    // a versioned migration, so applied (an unversioned file of only DROP KEYSPACE is a tear-down script: file-order.ts)
    const { schema, findings } = build({ ...files, "cql/099_teardown.cql": "DROP KEYSPACE media;" });
    expect(findings).toEqual([]);
    expect(schema.keyspaces.size).toBe(0);
    expect(schema.tables.size).toBe(0);
    expect(schema.types.size).toBe(0);
  });

  it("dropping a table with views reports Cassandra's refusal and drops the views too", () => {
    const cql = `
CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c));
CREATE MATERIALIZED VIEW t_by_v AS SELECT k, c, v FROM t WHERE v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c);
DROP TABLE t;`;
    const { schema, findings } = build(cql);
    expectOneFinding(findings, {
      message: "Cannot drop a table when materialized views still depend on it (t_by_v)",
      at: locate(cql, "t;"),
      fingerprint: "schema-invalid:table:.t:drop-with-views",
    });
    expect(schema.tables.size).toBe(0);
  });

  it("a column re-added with the same type after a drop is accepted; the drop stays on record", () => {
    const { schema, findings } = build(`
CREATE TABLE t (k int PRIMARY KEY, v text);
ALTER TABLE t DROP v;
ALTER TABLE t ADD v varchar;`);
    expect(findings).toEqual([]);
    expect(columnNames(table(schema, ".t").regular)).toEqual(["v"]);
    expect(schema.droppedColumns.get(".t")?.map((d) => d.name)).toEqual(["v"]);
  });

  it("ALTER TABLE … ALTER MASKED / DROP MASKED toggles masking", () => {
    const { schema } = build(`
CREATE TABLE t (k int PRIMARY KEY, ssn text);
ALTER TABLE t ALTER ssn MASKED WITH mask_inner(1, null);`);
    expect(table(schema, ".t").columns.find((c) => c.name === "ssn")?.masked).toBe(true);
  });
});
