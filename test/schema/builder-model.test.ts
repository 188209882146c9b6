import { describe, expect, it } from "vitest";
import { formatColumnType } from "../../src/schema/resolve.js";
import { build, columnNames, locate, table } from "./helpers.js";

describe("keyspaces", () => {
  const cql = `
CREATE KEYSPACE shop
  WITH replication = {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'dc1': '3', 'dc2': 2}
  AND durable_writes = false;
CREATE KEYSPACE IF NOT EXISTS dev WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
`;

  it("keeps the replication class simple name, factors as numbers and durable_writes", () => {
    const { schema, findings } = build(cql);
    expect(findings).toEqual([]);
    expect(schema.keyspaces.get("shop")).toMatchObject({
      name: "shop",
      replicationClass: "NetworkTopologyStrategy",
      replicationFactors: { dc1: 3, dc2: 2 },
      durableWrites: false,
    });
    expect(schema.keyspaces.get("dev")).toMatchObject({
      replicationClass: "SimpleStrategy",
      replicationFactors: { replication_factor: 1 },
      durableWrites: true,
    });
  });

  it("points each keyspace at its name", () => {
    const { schema } = build(cql);
    expect(schema.keyspaces.get("dev")?.source.range.start).toMatchObject(locate(cql, "dev"));
    expect(schema.keyspaces.get("dev")?.source.file).toBe("schema.cql");
  });

  it("ALTER KEYSPACE replaces the replication and keeps what it does not name", () => {
    const { schema, findings } = build(`${cql}
ALTER KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 5};`);
    expect(findings).toEqual([]);
    expect(schema.keyspaces.get("shop")).toMatchObject({ replicationFactors: { dc1: 5 }, durableWrites: false });
  });
});

describe("tables", () => {
  const cql = `
CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
USE shop;
CREATE TYPE address (street text, city text, tags list<text>);
CREATE TYPE money (amount decimal, currency text);
CREATE TABLE orders_by_customer (
  customer_id uuid,
  order_month text,
  placed_at timestamp,
  order_id timeuuid,
  customer_name text STATIC,
  total money,
  items map<text, frozen<list<int>>>,
  shipping frozen<address>,
  notes frozen<map<text, list<int>>>,
  PRIMARY KEY ((customer_id, order_month), placed_at, order_id)
) WITH CLUSTERING ORDER BY (placed_at DESC, order_id ASC)
  AND default_time_to_live = 7776000
  AND compaction = {'class': 'org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy',
                    'compaction_window_unit': 'DAYS', 'compaction_window_size': 1}
  AND comment = 'Orders of a customer, by month'
  AND gc_grace_seconds = 3600
  AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'};
`;

  it("sorts columns into partition key, clustering (with order), static and regular", () => {
    const { schema, findings } = build(cql);
    expect(findings).toEqual([]);
    const orders = table(schema, "shop.orders_by_customer");
    expect(orders).toMatchObject({ keyspace: "shop", name: "orders_by_customer", qualifiedName: "shop.orders_by_customer", kind: "table" });
    expect(orders.partitionKey.map((c) => [c.name, c.position])).toEqual([["customer_id", 0], ["order_month", 1]]);
    expect(orders.clustering.map((c) => [c.name, c.position, c.order])).toEqual([["placed_at", 0, "desc"], ["order_id", 1, "asc"]]);
    expect(columnNames(orders.static)).toEqual(["customer_name"]);
    expect(columnNames(orders.regular)).toEqual(["total", "items", "shipping", "notes"]);
    expect(columnNames(orders.columns)).toEqual([
      "customer_id", "order_month", "placed_at", "order_id", "customer_name", "total", "items", "shipping", "notes",
    ]);
    expect(orders.regular.every((c) => c.position === -1 && c.order === undefined)).toBe(true);
  });

  it("resolves types with frozenness explicit on every level and user types expanded to their fields", () => {
    const orders = table(build(cql).schema, "shop.orders_by_customer");
    const type = (name: string) => orders.columns.find((c) => c.name === name)?.type;
    expect(type("items")).toEqual({
      kind: "map",
      frozen: false,
      key: { kind: "native", name: "text" },
      value: { kind: "list", frozen: true, element: { kind: "native", name: "int" } },
    });
    expect(type("notes")).toEqual({
      kind: "map",
      frozen: true,
      key: { kind: "native", name: "text" },
      value: { kind: "list", frozen: true, element: { kind: "native", name: "int" } },
    });
    expect(type("shipping")).toEqual({
      kind: "udt",
      keyspace: "shop",
      name: "address",
      frozen: true,
      fields: [
        { name: "street", type: { kind: "native", name: "text" } },
        { name: "city", type: { kind: "native", name: "text" } },
        { name: "tags", type: { kind: "list", frozen: true, element: { kind: "native", name: "text" } } },
      ],
    });
    expect(type("total")).toMatchObject({ kind: "udt", name: "money", frozen: false });
    expect(orders.columns.find((c) => c.name === "items")?.declaredType.kind).toBe("collection");
  });

  it("flattens options and reads TTL and compaction", () => {
    const orders = table(build(cql).schema, "shop.orders_by_customer");
    expect(orders.options).toMatchObject({
      default_time_to_live: 7776000,
      comment: "Orders of a customer, by month",
      gc_grace_seconds: 3600,
      caching: { keys: "ALL", rows_per_partition: "NONE" },
    });
    expect(orders.defaultTtlSeconds).toBe(7776000);
    expect(orders.compaction).toEqual({
      className: "TimeWindowCompactionStrategy",
      options: { compaction_window_unit: "DAYS", compaction_window_size: 1 },
    });
    expect(orders.compactStorage).toBe(false);
  });

  it("keeps where each table and column is declared", () => {
    const { schema } = build(cql);
    const orders = table(schema, "shop.orders_by_customer");
    expect(orders.source.range.start).toMatchObject(locate(cql, "orders_by_customer"));
    expect(orders.statement.kind).toBe("create-table");
    expect(orders.columns.find((c) => c.name === "shipping")?.source.range.start).toMatchObject(locate(cql, "shipping frozen"));
    expect(schema.types.get("shop.address")?.source.range.start).toMatchObject(locate(cql, "address ("));
  });

  it("reads an inline primary key, a default TTL of 0 and COMPACT STORAGE", () => {
    const { schema, findings } = build(`
CREATE TABLE kv (k text PRIMARY KEY, v blob) WITH COMPACT STORAGE AND default_time_to_live = '60';
CREATE TABLE plain (id uuid PRIMARY KEY, body text);`);
    expect(findings).toEqual([]);
    expect(table(schema, ".kv")).toMatchObject({ compactStorage: true, defaultTtlSeconds: 60 });
    expect(columnNames(table(schema, ".kv").partitionKey)).toEqual(["k"]);
    expect(table(schema, ".plain").defaultTtlSeconds).toBe(0);
    expect("compaction" in table(schema, ".plain")).toBe(false);
  });

  it("resolves tuples, vectors, counters and custom types", () => {
    const { schema, findings } = build(`
CREATE TABLE embeddings (id uuid PRIMARY KEY, v vector<float, 3>, pair tuple<int, frozen<list<text>>>, raw 'org.apache.cassandra.db.marshal.BytesType');
CREATE TABLE page_views (page text PRIMARY KEY, views counter);`);
    expect(findings).toEqual([]);
    const embeddings = table(schema, ".embeddings");
    expect(embeddings.columns.find((c) => c.name === "v")?.type).toEqual({ kind: "vector", element: { kind: "native", name: "float" }, dimension: 3 });
    expect(formatColumnType(embeddings.columns.find((c) => c.name === "pair")!.type)).toBe("tuple<int, frozen<list<text>>>");
    expect(embeddings.columns.find((c) => c.name === "raw")?.type).toEqual({ kind: "custom", className: "org.apache.cassandra.db.marshal.BytesType" });
    expect(table(schema, ".page_views").regular[0]?.type).toEqual({ kind: "native", name: "counter" });
  });

  it("marks masked columns", () => {
    const { schema } = build(`CREATE TABLE patients (id int PRIMARY KEY, name text MASKED WITH mask_default(), ssn text);`);
    const columns = table(schema, ".patients").columns;
    expect(columns.map((c) => [c.name, c.masked])).toEqual([["id", false], ["name", true], ["ssn", false]]);
  });
});

describe("indexes", () => {
  const cql = `
CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE shop.products (
  id uuid PRIMARY KEY, name text, tags set<text>, attrs map<text, text>, dims frozen<list<int>>, price decimal, "Brand" text
);
CREATE INDEX ON shop.products (name);
CREATE INDEX ON shop.products (tags);
CREATE INDEX attrs_keys ON shop.products (KEYS(attrs));
CREATE INDEX ON shop.products (ENTRIES(attrs));
CREATE INDEX ON shop.products (FULL(dims));
CREATE CUSTOM INDEX ON shop.products (price) USING 'StorageAttachedIndex';
CREATE INDEX IF NOT EXISTS ON shop.products (name) USING 'sai';
CREATE CUSTOM INDEX name_sasi ON shop.products (name) USING 'org.apache.cassandra.index.sasi.SASIIndex'
  WITH OPTIONS = {'mode': 'CONTAINS', 'analyzed': 'true', 'max_compaction_flush_memory_in_mb': 512};
CREATE CUSTOM INDEX name_lucene ON shop.products (name) USING 'com.example.search.LuceneIndex';
CREATE INDEX ON shop.products ("Brand");
CREATE INDEX legacy_price ON shop.products (price) USING 'legacy_local_table';
`;

  it("names, targets and implementations follow Cassandra", () => {
    const { schema, findings } = build(cql);
    expect(findings).toEqual([]);
    const indexes = table(schema, "shop.products").indexes.map((i) => [i.name, i.column, i.target, i.implementation]);
    expect(indexes).toEqual([
      ["products_name_idx", "name", "simple", "legacy"],
      ["products_tags_idx", "tags", "values", "legacy"],
      ["attrs_keys", "attrs", "keys", "legacy"],
      ["products_attrs_idx", "attrs", "entries", "legacy"],
      ["products_dims_idx", "dims", "full", "legacy"],
      ["products_price_idx", "price", "simple", "sai"],
      ["products_name_idx_1", "name", "simple", "sai"],
      ["name_sasi", "name", "simple", "sasi"],
      ["name_lucene", "name", "simple", "custom"],
      ["products_Brand_idx", "Brand", "simple", "legacy"],
      ["legacy_price", "price", "simple", "legacy"],
    ]);
  });

  it("keeps the class and the options as strings", () => {
    const products = table(build(cql).schema, "shop.products");
    const sasi = products.indexes.find((i) => i.name === "name_sasi");
    expect(sasi).toMatchObject({
      keyspace: "shop",
      table: "products",
      className: "org.apache.cassandra.index.sasi.SASIIndex",
      options: { mode: "CONTAINS", analyzed: "true", max_compaction_flush_memory_in_mb: "512" },
    });
    expect(products.indexes.find((i) => i.name === "products_name_idx")).toMatchObject({ options: {} });
    expect(products.indexes.find((i) => i.name === "products_name_idx")?.className).toBeUndefined();
  });

  it("an index repeated with IF NOT EXISTS is not added twice", () => {
    const { schema, findings } = build(`${cql}
CREATE INDEX IF NOT EXISTS ON shop.products (tags);`);
    expect(findings).toEqual([]);
    expect(table(schema, "shop.products").indexes.filter((i) => i.column === "tags")).toHaveLength(1);
  });
});

describe("materialized views", () => {
  const cql = `
CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
USE app;
CREATE TABLE users (user_id uuid PRIMARY KEY, email text, name text, signed_up timestamp);
CREATE MATERIALIZED VIEW users_by_email AS
  SELECT user_id, email, name FROM users
  WHERE email IS NOT NULL AND user_id IS NOT NULL
  PRIMARY KEY (email, user_id)
  WITH comment = 'log-in by email';
CREATE TABLE events (tenant text, at timestamp, id uuid, kind text, PRIMARY KEY (tenant, at, id))
  WITH CLUSTERING ORDER BY (at DESC, id ASC);
CREATE MATERIALIZED VIEW events_by_kind AS
  SELECT * FROM events
  WHERE kind IS NOT NULL AND tenant IS NOT NULL AND at IS NOT NULL AND id IS NOT NULL
  PRIMARY KEY ((tenant, kind), at, id);
`;

  it("builds a view as a table of kind view with its own key and the base's column types", () => {
    const { schema, findings } = build(cql);
    expect(findings).toEqual([]);
    const view = table(schema, "app.users_by_email");
    expect(view).toMatchObject({ kind: "view", baseTable: "app.users", keyspace: "app", options: { comment: "log-in by email" } });
    expect(columnNames(view.partitionKey)).toEqual(["email"]);
    expect(view.clustering.map((c) => [c.name, c.order])).toEqual([["user_id", "asc"]]);
    expect(columnNames(view.regular)).toEqual(["name"]);
    expect(view.columns.find((c) => c.name === "user_id")?.type).toEqual({ kind: "native", name: "uuid" });
    expect(table(schema, "app.users").views).toEqual(["app.users_by_email"]);
    expect(view.source.range.start).toMatchObject(locate(cql, "users_by_email"));
  });

  it("keeps a base clustering column's direction and follows SELECT * on ALTER TABLE ADD", () => {
    const { schema, findings } = build(`${cql}
ALTER TABLE events ADD payload text;`);
    expect(findings).toEqual([]);
    const view = table(schema, "app.events_by_kind");
    expect(columnNames(view.partitionKey)).toEqual(["tenant", "kind"]);
    expect(view.clustering.map((c) => [c.name, c.order])).toEqual([["at", "desc"], ["id", "asc"]]);
    expect(columnNames(view.regular)).toEqual(["payload"]);
    expect(columnNames(table(schema, "app.events").regular)).toEqual(["kind", "payload"]);
  });

  it("DROP MATERIALIZED VIEW removes the view from the model and from its base", () => {
    const { schema, findings } = build(`${cql}
DROP MATERIALIZED VIEW users_by_email;`);
    expect(findings).toEqual([]);
    expect(schema.tables.has("app.users_by_email")).toBe(false);
    expect(table(schema, "app.users").views).toEqual([]);
  });
});

describe("functions, aggregates and DML", () => {
  const cql = `
CREATE KEYSPACE stats WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
USE stats;
CREATE FUNCTION avg_state (state tuple<int, bigint>, val int)
  CALLED ON NULL INPUT RETURNS tuple<int, bigint> LANGUAGE java
  AS $$ if (val != null) { state.setInt(0, state.getInt(0) + 1); state.setLong(1, state.getLong(1) + val); } return state; $$;
CREATE OR REPLACE FUNCTION avg_final (state tuple<int, bigint>)
  CALLED ON NULL INPUT RETURNS double LANGUAGE java
  AS $$ return state.getInt(0) == 0 ? null : (double) state.getLong(1) / state.getInt(0); $$;
CREATE AGGREGATE average (int) SFUNC avg_state STYPE tuple<int, bigint> FINALFUNC avg_final INITCOND (0, 0);
CREATE TABLE scores (player text, game int, score int, PRIMARY KEY (player, game));
INSERT INTO scores (player, game, score) VALUES ('ada', 1, 42);
BEGIN BATCH
  INSERT INTO stats.scores (player, game, score) VALUES ('bob', 1, 7);
APPLY BATCH;
`;

  it("keeps function and aggregate signatures", () => {
    const { schema, findings } = build(cql);
    expect(findings).toEqual([]);
    expect(schema.functions.map((f) => [f.kind, f.keyspace, f.name, f.argumentTypes.length])).toEqual([
      ["function", "stats", "avg_state", 2],
      ["function", "stats", "avg_final", 1],
      ["aggregate", "stats", "average", 1],
    ]);
    const average = schema.functions.find((f) => f.name === "average");
    expect(average?.returns).toMatchObject({ kind: "native", name: "double" });
    expect(average?.source.range.start).toMatchObject(locate(cql, "average"));
  });

  it("keeps DML with the keyspace it resolves to", () => {
    const { schema } = build(cql);
    expect(schema.dml.map((d) => [d.statement.kind, d.keyspace])).toEqual([["insert", "stats"], ["batch", "stats"]]);
    expect(schema.dml[0]?.source.range.start.line).toBe(locate(cql, "INSERT INTO scores").line);
  });

  it("DROP FUNCTION with a signature drops that overload only", () => {
    const { schema, findings } = build(`${cql}
CREATE FUNCTION twice (x int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS 'return x * 2;';
CREATE FUNCTION twice (x varchar) RETURNS NULL ON NULL INPUT RETURNS text LANGUAGE java AS 'return x + x;';
DROP FUNCTION twice (text);`);
    expect(findings).toEqual([]);
    const twice = schema.functions.filter((f) => f.name === "twice");
    expect(twice).toHaveLength(1);
    expect(twice[0]?.returns).toMatchObject({ kind: "native", name: "int" });
  });
});
