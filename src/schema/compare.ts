// Which tables a change altered: two schema models compared by what Cassandra would store, never by
// file text, so a table moved to another file, re-formatted or re-commented is the same table.
import type { ColumnModel, ColumnType, IndexModel, OptionValue, SchemaModel, TableModel } from "./model.js";

export interface ChangedTables {
  /** qualified names of head tables and views that are new or defined differently */
  altered: Set<string>;
  /** qualified names of base tables and views the head no longer has */
  dropped: Set<string>;
}

/** Options that change nothing stored or read: the comment. Compaction is compared by its simple class name. */
const IGNORED_OPTIONS: ReadonlySet<string> = new Set(["comment", "compaction"]);

/** Cassandra's aliases of native types, so `varchar` and `text` are one type. */
const TYPE_ALIASES: Readonly<Record<string, string>> = { varchar: "text" };

/** One canonical form of a value: object keys sorted, numbers as their text (`'3'` and `3` are one option value). */
function canonical(value: OptionValue | undefined): string {
  if (value === undefined) return "";
  if (typeof value !== "object") return JSON.stringify(String(value));
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
    .join(",")}}`;
}

function typeSignature(type: ColumnType): string {
  switch (type.kind) {
    case "native":
      return TYPE_ALIASES[type.name] ?? type.name;
    case "list":
    case "set":
      return `${type.frozen ? "frozen " : ""}${type.kind}<${typeSignature(type.element)}>`;
    case "map":
      return `${type.frozen ? "frozen " : ""}map<${typeSignature(type.key)},${typeSignature(type.value)}>`;
    case "tuple":
      return `tuple<${type.elements.map(typeSignature).join(",")}>`;
    case "udt":
      return `${type.frozen ? "frozen " : ""}${JSON.stringify(`${type.keyspace}.${type.name}`)}{${type.fields.map((field) => `${JSON.stringify(field.name)}:${typeSignature(field.type)}`).join(",")}}`;
    case "vector":
      return `vector<${typeSignature(type.element)},${type.dimension}>`;
    case "custom":
      return `custom ${JSON.stringify(type.className)}`;
    case "unknown":
      return `unknown ${JSON.stringify(type.name)}`;
  }
}

function columnSignature(column: ColumnModel): string {
  return [JSON.stringify(column.name), column.kind, column.position, column.order ?? "", column.masked ? "masked" : "", typeSignature(column.type)].join(" ");
}

function indexSignature(index: IndexModel): string {
  return [JSON.stringify(index.name), JSON.stringify(index.column), index.target, index.implementation, JSON.stringify(index.className ?? ""), canonical(index.options)].join(" ");
}

/**
 * What a table stores and how it is read: its columns with their kind, key position, clustering
 * order and type; its options; its indexes; for a view, its base table. Regular columns compare as
 * a set (Cassandra keeps them in name order, whatever the declaration's), the key by position.
 */
export function tableSignature(table: TableModel): string {
  const options = Object.fromEntries(Object.entries(table.options).filter(([name]) => !IGNORED_OPTIONS.has(name)));
  return JSON.stringify({
    kind: table.kind,
    columns: table.columns.map(columnSignature).sort(),
    options: canonical(options),
    compaction: table.compaction ? [table.compaction.className, canonical(table.compaction.options)] : null,
    compactStorage: table.compactStorage,
    indexes: table.indexes.map(indexSignature).sort(),
    baseTable: table.baseTable ?? null,
  });
}

/** The tables of `head` that are new or defined differently from `base`, and those `base` has and `head` lacks. */
export function changedTables(base: SchemaModel, head: SchemaModel): ChangedTables {
  const altered = new Set<string>();
  for (const [name, table] of head.tables) {
    const before = base.tables.get(name);
    if (!before || tableSignature(before) !== tableSignature(table)) altered.add(name);
  }
  const dropped = new Set([...base.tables.keys()].filter((name) => !head.tables.has(name)));
  return { altered, dropped };
}
