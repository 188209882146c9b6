// What a change altered: the review compares the base and head models, never file text, so a
// table moved to another file or re-formatted is unchanged, and a new column or key is a change.
import { describe, expect, it } from "vitest";
import type { CodeExtraction, CodeStatement } from "../src/code/types.js";
import { normaliseCql } from "../src/manifest/compare.js";
import { review, type SourceFile } from "../src/review.js";

const KEYSPACE = "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n";

const ORDERS = `CREATE TABLE shop.orders_by_customer (
  customer_id uuid,
  ordered_at timeuuid,
  order_id uuid,
  total decimal,
  note text,
  PRIMARY KEY ((customer_id), ordered_at)
) WITH CLUSTERING ORDER BY (ordered_at DESC) AND default_time_to_live = 31536000;
`;

const ITEMS = "CREATE TABLE shop.items (item_id uuid PRIMARY KEY, name text, price decimal);\n";

const MANIFEST = `version: 1
keyspace: shop
queries:
  - id: orders-of-customer
    cql: SELECT order_id, total FROM orders_by_customer WHERE customer_id = ?
  - id: item
    cql: SELECT name, price FROM items WHERE item_id = ?
writes:
  - id: place-order
    cql: INSERT INTO orders_by_customer (customer_id, ordered_at, order_id, total) VALUES (?, ?, ?, ?)
`;

const BASE: Record<string, string> = { "schema/001_shop.cql": KEYSPACE + ORDERS + ITEMS, "access-patterns.yaml": MANIFEST };

function changedBy(head: Record<string, string>, base: Record<string, string> = BASE) {
  const files = (record: Record<string, string>): SourceFile[] => Object.entries(record).map(([path, content]) => ({ path, content }));
  const result = review({ files: files(head), baseFiles: files(base) });
  expect(result.changed).toBeDefined();
  const { tables, droppedTables, queries } = result.changed!;
  return { tables: [...tables].sort(), dropped: [...droppedTables].sort(), queries: [...queries].sort() };
}

const NOTHING = { tables: [], dropped: [], queries: [] };

describe("what a change altered", () => {
  it("is nothing when the head is the base", () => {
    expect(changedBy(BASE)).toEqual(NOTHING);
  });

  it("is nothing when a table moves to another file, is re-formatted, re-commented or its regular columns reordered", () => {
    const reformatted = `-- orders, newest first
create table shop.orders_by_customer (customer_id UUID, ordered_at TIMEUUID, note varchar, total DECIMAL, order_id UUID,
  primary key (customer_id, ordered_at))
  with default_time_to_live = '31536000' and clustering order by (ordered_at desc) and comment = 'newest first';
`;
    const manifest = MANIFEST.replace("cql: SELECT order_id, total FROM orders_by_customer WHERE customer_id = ?", "cql: |\n      select order_id,total\n        from orders_by_customer\n        where customer_id=?;");
    expect(changedBy({ "schema/001_shop.cql": KEYSPACE + ITEMS, "schema/002_orders.cql": reformatted, "access-patterns.yaml": manifest })).toEqual(NOTHING);
  });

  it("names a table whose key, clustering order, columns, types or options change", () => {
    const edits: [string, string][] = [
      ["PRIMARY KEY ((customer_id), ordered_at)", "PRIMARY KEY ((customer_id, order_id), ordered_at)"],
      ["(ordered_at DESC)", "(ordered_at ASC)"],
      ["  note text,\n", "  note text,\n  coupon text,\n"],
      ["  note text,\n", ""],
      ["total decimal", "total double"],
      ["default_time_to_live = 31536000", "default_time_to_live = 0"],
    ];
    for (const [from, to] of edits) {
      const schema = KEYSPACE + ORDERS.replace(from, to) + ITEMS;
      expect(schema, from).not.toBe(KEYSPACE + ORDERS + ITEMS);
      expect(changedBy({ ...BASE, "schema/001_shop.cql": schema }).tables, `${from} → ${to}`).toEqual(["shop.orders_by_customer"]);
    }
  });

  it("names a table altered by a later ALTER TABLE or given an index, wherever that is written", () => {
    expect(changedBy({ ...BASE, "schema/002_alter.cql": "ALTER TABLE shop.items ADD stock int;\n" }).tables).toEqual(["shop.items"]);
    expect(changedBy({ ...BASE, "schema/002_index.cql": "CREATE INDEX ON shop.items (name);\n" }).tables).toEqual(["shop.items"]);
  });

  it("names new tables and views, and dropped ones apart", () => {
    const view = `CREATE MATERIALIZED VIEW shop.items_by_name AS SELECT * FROM shop.items
  WHERE name IS NOT NULL AND item_id IS NOT NULL PRIMARY KEY (name, item_id);
`;
    const head = { "schema/001_shop.cql": KEYSPACE + ITEMS + view, "access-patterns.yaml": MANIFEST.replace(/ {2}- id: orders-of-customer[\s\S]*?(?= {2}- id: item)/, "").replace(/writes:[\s\S]*$/, "") };
    expect(changedBy(head)).toEqual({ tables: ["shop.items_by_name"], dropped: ["shop.orders_by_customer"], queries: [] });
  });

  it("names queries and writes that are new or run different CQL, by id", () => {
    const manifest = MANIFEST.replace("SELECT name, price FROM items", "SELECT name FROM items")
      .replace("VALUES (?, ?, ?, ?)", "VALUES (?, ?, ?, ?) USING TTL 86400")
      .replace("writes:", "  - id: all-items\n    cql: SELECT * FROM items\nwrites:");
    expect(changedBy({ ...BASE, "access-patterns.yaml": manifest })).toEqual({ tables: [], dropped: [], queries: ["all-items", "item", "place-order"] });
  });

  it("names a code statement that is new or whose CQL changes, and the manifest entry that describes it", () => {
    const statement = (id: string, cql: string): CodeStatement => ({
      id,
      language: "java",
      cql,
      file: "src/ItemDao.java",
      range: { start: { line: 3, column: 5, offset: 40 }, end: { line: 3, column: 5 + cql.length, offset: 40 + cql.length } },
      api: "session.execute",
    });
    const extraction = (statements: CodeStatement[]): CodeExtraction => ({ files: [{ path: "src/ItemDao.java", language: "java" }], statements, dynamic: [], tables: [], skipped: [] });
    const byName = "SELECT price FROM shop.items WHERE item_id = ?";
    const described = `${MANIFEST.replace("writes:", "  - id: price-of-item\n    code: src/ItemDao.java#ItemDao.price\nwrites:")}`;
    const files = (manifest: string): SourceFile[] => [
      { path: "schema/001_shop.cql", content: BASE["schema/001_shop.cql"]! },
      { path: "access-patterns.yaml", content: manifest },
    ];
    const base = extraction([statement("src/ItemDao.java#ItemDao.price", byName)]);
    const same = review({ files: files(described), baseFiles: files(described), code: base, baseCode: base });
    expect([...same.changed!.queries]).toEqual([]);

    const rewritten = extraction([statement("src/ItemDao.java#ItemDao.price", "SELECT price, name FROM shop.items WHERE item_id = ?"), statement("src/ItemDao.java#ItemDao.all", "SELECT * FROM shop.items")]);
    const changed = review({ files: files(described), baseFiles: files(described), code: rewritten, baseCode: base });
    expect([...changed.changed!.queries].sort()).toEqual(["price-of-item", "src/ItemDao.java#ItemDao.all", "src/ItemDao.java#ItemDao.price"]);
  });

  it("is unknown without a base", () => {
    expect(review({ files: Object.entries(BASE).map(([path, content]) => ({ path, content })) }).changed).toBeUndefined();
  });
});

describe("CQL in one canonical form", () => {
  it("ignores spacing, keyword case and a final semicolon", () => {
    expect(normaliseCql("select a,b  from t\n where k=? ;")).toBe(normaliseCql("SELECT a, b FROM t WHERE k = ?"));
  });

  it("keeps string literals and quoted names as written", () => {
    expect(normaliseCql("SELECT * FROM t WHERE k = 'A  b'")).not.toBe(normaliseCql("SELECT * FROM t WHERE k = 'a b'"));
    expect(normaliseCql('SELECT "Name" FROM t')).not.toBe(normaliseCql('SELECT "name" FROM t'));
    expect(normaliseCql("SELECT * FROM t WHERE k = 'it''s'")).toBe("select*from t where k='it''s'");
  });

  it("keeps words apart", () => {
    expect(normaliseCql("SELECT a FROM t")).not.toBe(normaliseCql("SELECT aFROM t"));
  });
});
