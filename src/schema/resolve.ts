// Lookups over the schema model and small questions about column types, shared by the planner,
// the estimator, the manifest checks and the rules.
import type { QualifiedName } from "../cql/ast.js";
import { quoteName } from "../cql/print.js";
import type { ColumnModel, ColumnType, SchemaModel, TableModel } from "./model.js";

interface NameReading {
  keyspace?: string;
  name: string;
}

/**
 * Finds a table (or view) by name: an exact `ks.name` match; else `name` in `keyspace`; else,
 * for an unqualified name, one declared where no keyspace was known, or the only table of that
 * name in any keyspace. A string is tried as written first, then as CQL reads it (unquoted parts
 * fold to lower case, `"Quoted"` parts keep their case).
 */
export function findTable(schema: SchemaModel, name: string | QualifiedName, keyspace?: string): TableModel | undefined {
  const readings: NameReading[] =
    typeof name === "string"
      ? readNames(name)
      : [name.keyspace ? { keyspace: name.keyspace.name, name: name.name.name } : { name: name.name.name }];
  for (const reading of readings) {
    const table = findByReading(schema, reading, keyspace);
    if (table) return table;
  }
  return undefined;
}

function findByReading(schema: SchemaModel, reading: NameReading, keyspace: string | undefined): TableModel | undefined {
  if (reading.keyspace !== undefined) return schema.tables.get(`${reading.keyspace}.${reading.name}`) ?? schema.builtIn?.get(`${reading.keyspace}.${reading.name}`);
  if (keyspace !== undefined && !schema.tables.has(`${keyspace}.${reading.name}`)) {
    const builtIn = schema.builtIn?.get(`${keyspace}.${reading.name}`);
    if (builtIn) return builtIn;
  }
  if (keyspace !== undefined) {
    const inKeyspace = schema.tables.get(`${keyspace}.${reading.name}`);
    if (inKeyspace) return inKeyspace;
  }
  const withoutKeyspace = schema.tables.get(`.${reading.name}`);
  if (withoutKeyspace) return withoutKeyspace;
  let only: TableModel | undefined;
  for (const table of schema.tables.values()) {
    if (table.name !== reading.name) continue;
    if (only) return undefined;
    only = table;
  }
  return only;
}

/** `ks.t`, `t`, `"Ks"."T"`: the name as written, then as CQL would read it. */
function readNames(text: string): NameReading[] {
  const parts = splitOutsideQuotes(text.trim());
  if (parts.length === 0 || parts.length > 2) return [];
  const toReading = (names: string[]): NameReading =>
    names.length === 2 ? { keyspace: names[0] ?? "", name: names[1] ?? "" } : { name: names[0] ?? "" };
  const asWritten = toReading(parts);
  const asCql = toReading(parts.map(cqlName));
  return asCql.keyspace === asWritten.keyspace && asCql.name === asWritten.name ? [asWritten] : [asWritten, asCql];
}

function splitOutsideQuotes(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    if (char === "." && !quoted) {
      parts.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

/** How CQL reads one identifier: `"Mixed"` keeps its case (with `""` unescaped), `Mixed` folds. */
function cqlName(part: string): string {
  if (part.length >= 2 && part.startsWith('"') && part.endsWith('"')) return part.slice(1, -1).replace(/""/g, '"');
  return part.toLowerCase();
}

/** A column by its Cassandra name; a name written in CQL form (`Mixed` or `"Mixed"`) also finds it. */
export function findColumn(table: TableModel, name: string): ColumnModel | undefined {
  const exact = table.columns.find((c) => c.name === name);
  if (exact) return exact;
  const read = cqlName(name.trim());
  return table.columns.find((c) => c.name === read);
}

/** CQL text of a resolved type, e.g. `frozen<map<text, int>>`; inside a frozen value nested types need no `frozen<>`. */
export function formatColumnType(type: ColumnType): string {
  return format(type, false);
}

function format(type: ColumnType, insideFrozen: boolean): string {
  const frozen = (text: string, isFrozen: boolean) => (isFrozen && !insideFrozen ? `frozen<${text}>` : text);
  switch (type.kind) {
    case "native":
      return type.name;
    case "list":
    case "set":
      return frozen(`${type.kind}<${format(type.element, insideFrozen || type.frozen)}>`, type.frozen);
    case "map": {
      const nested = insideFrozen || type.frozen;
      return frozen(`map<${format(type.key, nested)}, ${format(type.value, nested)}>`, type.frozen);
    }
    case "tuple":
      return `tuple<${type.elements.map((e) => format(e, insideFrozen)).join(", ")}>`;
    case "udt":
      return frozen(quoteName(type.name), type.frozen);
    case "vector":
      return `vector<${format(type.element, insideFrozen)}, ${type.dimension}>`;
    case "custom":
      return `'${type.className.replace(/'/g, "''")}'`;
    case "unknown":
      return type.name;
  }
}

export function isCollection(type: ColumnType): boolean {
  return type.kind === "list" || type.kind === "set" || type.kind === "map";
}

/**
 * Whether the value is stored as one cell: frozen collections and user types, and tuples and
 * vectors (always frozen). Native types are not "frozen" in this sense.
 */
export function isFrozen(type: ColumnType): boolean {
  switch (type.kind) {
    case "list":
    case "set":
    case "map":
    case "udt":
      return type.frozen;
    case "tuple":
    case "vector":
      return true;
    default:
      return false;
  }
}

/** Whether the table is a counter table (any counter column). */
export function containsCounter(table: TableModel): boolean {
  return table.columns.some((c) => c.type.kind === "native" && c.type.name === "counter");
}
