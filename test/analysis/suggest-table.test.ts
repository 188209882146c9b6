// The name a suggested CREATE TABLE carries for the rules: given only when the text parses as
// exactly that one statement, so query-unserved can skip parsing it. Tables are built by hand
// here, so names and types the CQL reader would never produce (line breaks, type words as user
// type names, odd vector sizes) are covered too.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { suggestTable, suggestTableFor } from "../../src/analysis/suggest-table.js";
import { parseCql } from "../../src/cql/index.js";
import { keywordTokens } from "../../src/cql/tokens.js";
import type { SourceLocation } from "../../src/findings.js";
import type { AbstractQuery, WhereOperator } from "../../src/manifest/types.js";
import { emptySchema, type ColumnKind, type ColumnModel, type ColumnType, type SchemaModel, type TableModel } from "../../src/schema/model.js";

const AT: SourceLocation = { file: "access-patterns.yaml", range: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } } };

function column(name: string, type: ColumnType, kind: ColumnKind, position = -1): ColumnModel {
  return { name, type, declaredType: { kind: "native", name: "text" } as ColumnModel["declaredType"], kind, position, masked: false, source: AT };
}

/** A table keyed by its first column (partition) and second (clustering); the rest regular. */
function table(keyspace: string, name: string, columns: { name: string; type: ColumnType }[]): TableModel {
  const models = columns.map((c, i) => column(c.name, c.type, i === 0 ? "partition" : i === 1 ? "clustering" : "regular", i < 2 ? 0 : -1));
  return {
    keyspace,
    name,
    qualifiedName: `${keyspace}.${name}`,
    kind: "table",
    columns: models,
    partitionKey: models.slice(0, 1),
    clustering: models.slice(1, 2),
    static: [],
    regular: models.slice(2),
    options: {},
    defaultTtlSeconds: 0,
    compactStorage: false,
    indexes: [],
    views: [],
    source: AT,
    statement: { kind: "use" } as unknown as TableModel["statement"],
  };
}

function schemaWith(...tables: TableModel[]): SchemaModel {
  const schema = emptySchema();
  for (const t of tables) schema.tables.set(t.qualifiedName, t);
  return schema;
}

function pattern(select: string[], where: [string, WhereOperator][], orderBy: [string, "asc" | "desc"][] = []): AbstractQuery {
  return {
    form: "abstract",
    id: "Q1",
    select,
    where: where.map(([c, operator]) => ({ column: c, operator, location: AT })),
    orderBy: orderBy.map(([c, direction]) => ({ column: c, direction })),
    ignore: [],
    location: AT,
  } as AbstractQuery;
}

/** What query-unserved would read by parsing the text: the CREATE TABLE's name, or undefined. */
function parsedName(text: string): { keyspace?: string; name: string } | undefined {
  const parsed = parseCql(text.trim().replace(/;\s*$/, ""));
  const [statement, ...rest] = parsed.statements;
  if (rest.length > 0 || parsed.diagnostics.some((d) => d.severity === "error") || statement?.kind !== "create-table") return undefined;
  return statement.name.keyspace ? { keyspace: statement.name.keyspace.name, name: statement.name.name.name } : { name: statement.name.name.name };
}

const TEXT: ColumnType = { kind: "native", name: "text" };
const UUID: ColumnType = { kind: "native", name: "uuid" };
const udt = (name: string): ColumnType => ({ kind: "udt", keyspace: "shop", name, frozen: true, fields: [] });

describe("suggestTableFor", () => {
  const schema = schemaWith(table("shop", "orders", [{ name: "order_id", type: UUID }, { name: "placed_at", type: { kind: "native", name: "timestamp" } }, { name: "status", type: TEXT }]));

  it("gives the text suggestTable gives, and the name that text parses to", () => {
    const query = pattern(["order_id", "placed_at"], [["status", "="]], [["placed_at", "desc"]]);
    const suggestion = suggestTableFor(query, schema, { keyspace: "shop" });
    expect(suggestion.text).toBe(suggestTable(query, schema, { keyspace: "shop" }));
    expect(suggestion.name).toEqual({ keyspace: "shop", name: "orders_by_status" });
    expect(parsedName(suggestion.text)).toEqual(suggestion.name);
  });

  it("leaves the keyspace out of the name when the table is unqualified", () => {
    const bare = schemaWith(table("", "orders", [{ name: "order_id", type: UUID }, { name: "status", type: TEXT }]));
    const suggestion = suggestTableFor(pattern(["order_id"], [["status", "="]]), bare);
    expect(suggestion.text).toContain("CREATE TABLE orders_by_status (");
    expect(suggestion.name).toEqual({ name: "orders_by_status" });
    expect(parsedName(suggestion.text)).toEqual(suggestion.name);
  });

  it.each([
    ["a column name with a line break", [{ name: "order_id", type: UUID }, { name: "sta\ntus", type: TEXT }], "sta\ntus"],
    ["a column name with a double quote", [{ name: "order_id", type: UUID }, { name: 'say"what', type: TEXT }], 'say"what'],
    ["a user type named like a type word", [{ name: "order_id", type: UUID }, { name: "status", type: TEXT }, { name: "shipping", type: udt("map") }], "status"],
    ["a custom type", [{ name: "order_id", type: UUID }, { name: "status", type: TEXT }, { name: "shipping", type: { kind: "custom", className: "org.example.Shipping" } }], "status"],
    ["a type that is not declared", [{ name: "order_id", type: UUID }, { name: "status", type: TEXT }, { name: "shipping", type: { kind: "unknown", name: "shipping_type" } }], "status"],
  ] satisfies [string, { name: string; type: ColumnType }[], string][])("gives no name for %s (the rule parses the text instead)", (_, columns, key) => {
    const odd = schemaWith(table("shop", "orders", columns));
    const select = columns.map((c) => c.name).filter((n) => n !== key);
    const suggestion = suggestTableFor(pattern(select, [[key, "="]]), odd, { keyspace: "shop" });
    expect(suggestion.name).toBeUndefined();
  });

  // Names from every CQL keyword (reserved ones come out quoted, the others bare), cases, digits
  // and signs; types nested from every kind, with odd user type names and vector sizes.
  const keywords = keywordTokens.map((t) => (t.PATTERN as RegExp).source);
  const name = fc.oneof(
    { arbitrary: fc.constantFrom(...keywords), weight: 3 },
    { arbitrary: fc.constantFrom("status", "Status", "placed_at", "_x", "x1", "1x", "", "a b", "a\nb", 'a"b', "a'b", "a;b", "a-b", "é"), weight: 1 },
    { arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/), weight: 4 },
  );
  const native = fc.constantFrom<ColumnType>(TEXT, UUID, { kind: "native", name: "counter" }, { kind: "native", name: "duration" }, { kind: "native", name: "float" });
  const type: fc.Arbitrary<ColumnType> = fc.letrec<{ type: ColumnType }>((tie) => ({
    type: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { arbitrary: native, weight: 12 },
      fc.record({ kind: fc.constantFrom("list" as const, "set" as const), frozen: fc.boolean(), element: tie("type") }),
      fc.record({ kind: fc.constant("map" as const), frozen: fc.boolean(), key: tie("type"), value: tie("type") }),
      fc.record({ kind: fc.constant("tuple" as const), elements: fc.array(tie("type"), { maxLength: 2 }) }),
      fc.record({ kind: fc.constant("udt" as const), keyspace: fc.constant("shop"), name, frozen: fc.boolean(), fields: fc.constant<{ name: string; type: ColumnType }[]>([]) }),
      fc.record({ kind: fc.constant("vector" as const), element: tie("type"), dimension: fc.constantFrom(0, 3, -1, 1.5) }),
      fc.record({ kind: fc.constant("custom" as const), className: fc.constantFrom("org.example.T", "it's") }),
      fc.record({ kind: fc.constant("unknown" as const), name }),
    ),
  })).type;
  const operator = fc.constantFrom<WhereOperator>("=", "IN", ">", "<=", "CONTAINS", "CONTAINS KEY");

  it("names only suggestions that parse as exactly that CREATE TABLE", () => {
    let named = 0;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ name, type }), { minLength: 2, maxLength: 5, selector: (c) => c.name }),
        fc.option(name, { nil: undefined }),
        fc.array(operator, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (columns, keyspace, operators, ordered) => {
          const t = table(keyspace ?? "", columns[0]!.name === "" ? "t" : `t_${columns.length}`, columns);
          const where = operators.map((op, i): [string, WhereOperator] => [columns[(i + 1) % columns.length]!.name, op]);
          const query = pattern([columns[0]!.name], where, ordered ? [[columns[1]!.name, "desc"]] : []);
          const suggestion = suggestTableFor(query, schemaWith(t), keyspace === undefined ? {} : { keyspace });
          if (!suggestion.name) return;
          named++;
          expect(parsedName(suggestion.text), suggestion.text).toEqual(suggestion.name);
        },
      ),
      { seed: 20_261_121, numRuns: 400 },
    );
    // The property is not vacuous: most generated suggestions are named.
    expect(named).toBeGreaterThan(100);
  });
});

describe("suggested table names say what the table serves", () => {
  const text: ColumnType = { kind: "native", name: "text" };
  const uuid: ColumnType = { kind: "native", name: "uuid" };
  const timestamp: ColumnType = { kind: "native", name: "timestamp" };
  const videos = table("shop", "videos", [
    { name: "videoid", type: uuid },
    { name: "name", type: text },
    { name: "tag", type: text },
    { name: "added_date", type: timestamp },
  ]);
  const newestByTag = pattern(["videoid", "name"], [["tag", "="], ["added_date", ">"]], [["added_date", "desc"]]);

  it("names a new table after its key", () => {
    expect(suggestTableFor(newestByTag, schemaWith(videos)).name?.name).toBe("videos_by_tag");
  });

  it("names it after what sets it apart when a table keyed alike exists, never with a bare number", () => {
    const taken = table("shop", "videos_by_tag", [{ name: "tag", type: text }, { name: "videoid", type: uuid }]);
    expect(suggestTableFor(newestByTag, schemaWith(videos, taken)).name?.name).toBe("videos_by_tag_and_added_date");
    const alsoTaken = table("shop", "videos_by_tag_and_added_date", [{ name: "tag", type: text }, { name: "added_date", type: timestamp }]);
    expect(suggestTableFor(newestByTag, schemaWith(videos, taken, alsoTaken)).name?.name).toBe("videos_for_q1");
  });
});
