import { describe, expect, it } from "vitest";
import { review, type SourceFile } from "../../src/review.js";

// Two services, each with its manifest and keyspace, and a table called `items` in both.
const schema: SourceFile = {
  path: "schema/tables.cql",
  content: `CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE KEYSPACE media WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE shop.items (item_id uuid PRIMARY KEY, name text, price decimal);
CREATE TABLE media.items (media_id uuid PRIMARY KEY, title text, duration int);
`,
};

const shopManifest: SourceFile = {
  path: "services/shop/access-patterns.yaml",
  content: `version: 1
keyspace: shop
tables:
  items:
    partitions: 200_000
queries:
  - id: ItemById
    cql: SELECT name, price FROM items WHERE item_id = ?
    rate: 50/s
writes:
  - id: AddItem
    cql: INSERT INTO items (item_id, name, price) VALUES (?, ?, ?)
    rate: 1/s
`,
};

const mediaManifest: SourceFile = {
  path: "services/video/access-patterns.yaml",
  content: `version: 1
keyspace: media
tables:
  items:
    partitions: 3_000_000
    columns: { title: 40 }
queries:
  - id: MediaById
    cql: SELECT title, duration FROM items WHERE media_id = ?
    rate: 80/s
  - id: MediaTitle
    select: [title]
    where: { media_id: "=" }
    rate: 20/s
writes:
  - id: AddMedia
    cql: INSERT INTO items (media_id, title, duration) VALUES (?, ?, ?)
    rate: 2/s
`,
};

describe("several manifests with different keyspaces", () => {
  const result = review({ files: [schema, shopManifest, mediaManifest] });
  const byId = new Map(result.model.queries.map((query) => [query.id, query]));

  it("resolves each manifest's unqualified table names in its own keyspace", () => {
    expect(byId.get("ItemById")).toMatchObject({ table: "shop.items", plan: { verdict: "single-partition" } });
    expect(byId.get("MediaById")).toMatchObject({ table: "media.items", plan: { verdict: "single-partition" } });
    expect(byId.get("MediaTitle")).toMatchObject({ table: "media.items", plan: { verdict: "single-partition" } });
  });

  it("finds no unknown name, unserved query, unread or unwritten table", () => {
    const rules = result.findings.map((finding) => `${finding.rule} ${finding.location.file}: ${finding.message}`);
    for (const rule of ["manifest-invalid", "query-unserved", "query-invalid", "table-unread", "write-table-not-written"]) {
      expect(rules.filter((line) => line.startsWith(`${rule} `))).toEqual([]);
    }
  });

  it("sizes each table from its own manifest's figures", () => {
    // media's `columns: { title: 40 }` reached media.items: its title size is no default.
    expect(result.model.estimates.get("media.items")?.defaultedColumns).not.toContain("title");
    expect(result.model.estimates.get("shop.items")?.defaultedColumns).toContain("name");
    expect(result.model.manifest?.tables.map((volume) => [volume.name, volume.keyspace, volume.partitions])).toEqual([
      ["items", undefined, 200_000],
      ["items", "media", 3_000_000],
    ]);
  });
});

describe("joins with several manifests", () => {
  // media's abstract query needs a title and a thumbnail, which live in two media tables.
  const joinedSchema: SourceFile = {
    path: "schema/tables.cql",
    content: `${schema.content}CREATE TABLE media.thumbnails (media_id uuid PRIMARY KEY, thumbnail blob);
`,
  };
  const joiningManifest: SourceFile = {
    path: "services/video/access-patterns.yaml",
    content: `version: 1
keyspace: media
queries:
  - id: MediaCard
    select: [title, thumbnail]
    where: { media_id: "=" }
    rate: 20/s
`,
  };

  it("looks for the tables that jointly serve a query in the query's own keyspace", () => {
    const joined = review({ files: [joinedSchema, shopManifest, joiningManifest] });
    const joins = joined.findings.filter((finding) => finding.rule === "query-needs-multiple-tables");
    expect(joins.map((finding) => finding.location.file)).toEqual(["services/video/access-patterns.yaml"]);
    expect(joins[0]!.message).toContain("MediaCard needs; it takes 2 tables: media.items (media_id, title) and media.thumbnails (thumbnail).");
  });
});
