// Enum types declared in the code, and the entity columns that hold them. A column whose property
// is an enum (Java `enum`, Kotlin `enum class`) takes at most as many distinct values as the enum
// has constants: Spring Data and the DataStax mappers store an enum as its name (or ordinal), one
// value per constant. Only a property whose column the entity reader mapped is given a count; a
// column's name alone says nothing.
import type { Node } from "web-tree-sitter";
import type { Manifest, TableVolume } from "../manifest/types.js";
import type { CodeTable } from "./types.js";

export interface EnumDeclaration {
  /** as code outside its file may write it: `State`, or `UserSessionModel.State` when nested */
  name: string;
  constants: number;
  file: string;
  line: number;
}

/** The enums a Java or Kotlin file declares (nested ones too), each with its number of constants. */
export function enumDeclarations(root: Node, language: "java" | "kotlin", path: string): EnumDeclaration[] {
  const found: EnumDeclaration[] = [];
  if (language === "java") {
    for (const node of root.descendantsOfType("enum_declaration")) {
      const name = node?.childForFieldName("name")?.text;
      const body = node?.childForFieldName("body");
      // A declaration tree-sitter could not read whole may have lost constants: no count.
      if (!node || !name || !body || node.hasError) continue;
      const constants = body.namedChildren.filter((c) => c?.type === "enum_constant").length;
      if (constants > 0) found.push({ name: nestedName(node, name), constants, file: path, line: node.startPosition.row + 1 });
    }
  } else {
    for (const node of root.descendantsOfType("class_declaration")) {
      const body = node?.namedChildren.find((c) => c?.type === "enum_class_body");
      const name = node?.childForFieldName("name")?.text;
      if (!node || !body || !name || node.hasError) continue;
      const constants = body.namedChildren.filter((c) => c?.type === "enum_entry").length;
      if (constants > 0) found.push({ name: nestedName(node, name), constants, file: path, line: node.startPosition.row + 1 });
    }
  }
  return found;
}

const OWNER_TYPES = new Set(["class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "object_declaration"]);

/** `Outer.Inner` for an enum declared inside classes. */
function nestedName(node: Node, name: string): string {
  const owners: string[] = [];
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (!OWNER_TYPES.has(parent.type)) continue;
    const owner = parent.childForFieldName("name")?.text ?? parent.namedChildren.find((c) => c?.type === "identifier" || c?.type === "type_identifier")?.text;
    if (owner) owners.unshift(owner);
  }
  return [...owners, name].join(".");
}

/**
 * The type a Java field, record component or Kotlin property is declared with, as written
 * (`OrderStatus`, `UserSessionModel.State`), type arguments and `?` left out.
 */
export function writtenTypeOf(name: Node): string | undefined {
  const holder = name.parent?.type === "variable_declarator" ? name.parent.parent : name.parent;
  if (!holder) return undefined;
  const type = holder.childForFieldName("type") ?? holder.namedChildren.find((c) => c?.type === "user_type" || c?.type === "nullable_type");
  const text = type?.text.replace(/<[^]*$/, "").replace(/[?\s]/g, "");
  return text ? text : undefined;
}

/** The one enum a written type names: by its nested name, or a simple name any enum of that name answers. */
function enumNamed(written: string, enums: readonly EnumDeclaration[]): EnumDeclaration | undefined {
  if (!written.includes(".")) {
    const candidates = enums.filter((e) => e.name === written || e.name.endsWith(`.${written}`));
    return candidates.length === 1 ? candidates[0] : undefined;
  }
  // `Session.State` (or `shop.Session.State`): the enum whose nested name matches most of it, not any `State`.
  const matching = enums.filter((e) => written === e.name || written.endsWith(`.${e.name}`));
  const depth = matching.reduce((deepest, e) => Math.max(deepest, e.name.split(".").length), 0);
  const deepest = matching.filter((e) => e.name.split(".").length === depth);
  return deepest.length === 1 ? deepest[0] : undefined;
}

/**
 * The tables with each column whose declared type is an enum of the code read marked with it. A
 * type name two enums share (in different packages) is left unmarked: which one is meant is not
 * read.
 */
export function withEnumColumns(tables: CodeTable[], enums: EnumDeclaration[]): CodeTable[] {
  if (enums.length === 0) return tables;
  const enumOf = (column: CodeTable["columns"][number]) => (column.type === undefined || column.collection ? undefined : enumNamed(column.type, enums));
  return tables.map((table) => {
    if (!table.columns.some(enumOf)) return table;
    return {
      ...table,
      columns: table.columns.map((column) => {
        const declaration = enumOf(column);
        return declaration ? { ...column, enum: declaration } : column;
      }),
    };
  });
}

/** How messages name an enum column's figure: "the enum OrderStatus with 5 constants, src/…/OrderStatus.java:3". */
export function enumSource(declaration: EnumDeclaration): string {
  return `the enum ${declaration.name} with ${declaration.constants} constants, ${declaration.file}:${declaration.line}`;
}

/** The distinct values of a schema table's column that the entity mapping it types as an enum, when one does. */
export function enumDistinctValues(tables: readonly CodeTable[], table: { name: string; keyspace: string }, column: string): { count: number; source: string } | undefined {
  const declaration = entityTableFor(tables, table.name, table.keyspace || undefined)?.columns.find((c) => c.name === column)?.enum;
  return declaration ? { count: declaration.constants, source: enumSource(declaration) } : undefined;
}

/** The entity table of the code that maps a table, when exactly one does (by name, and by keyspace where both state one). */
export function entityTableFor(tables: readonly CodeTable[], name: string, keyspace: string | undefined): CodeTable | undefined {
  const fold = (text: string) => (text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text.toLowerCase());
  const matching = tables.filter((t) => fold(t.name) === fold(name) && (t.keyspace === undefined || keyspace === undefined || fold(t.keyspace) === fold(keyspace)));
  return matching.length === 1 ? matching[0] : undefined;
}

/**
 * The manifest with each table volume given the distinct values of its enum columns, where the
 * manifest states none for that column: the index read estimate then divides the table by them.
 * A volume the manifest does not have is not made up (without its rows there is nothing to divide).
 */
export function withEnumDistinctValues(manifest: Manifest | undefined, tables: readonly CodeTable[]): Manifest | undefined {
  if (!manifest || !tables.some((t) => t.columns.some((c) => c.enum))) return manifest;
  let changed = false;
  const volumes = manifest.tables.map((volume) => {
    const dot = volume.name.startsWith('"') ? -1 : volume.name.indexOf(".");
    const name = dot > 0 ? volume.name.slice(dot + 1) : volume.name;
    const keyspace = dot > 0 ? volume.name.slice(0, dot) : (volume.keyspace ?? manifest.keyspace);
    const entity = entityTableFor(tables, name, keyspace);
    const added: NonNullable<TableVolume["distinctValues"]> = Object.create(null);
    for (const column of entity?.columns ?? []) {
      if (!column.enum || volume.distinctValues?.[column.name]) continue;
      const at = { line: column.enum.line, column: 1, offset: 0 };
      added[column.name] = { count: column.enum.constants, location: { file: column.enum.file, range: { start: at, end: at } }, source: enumSource(column.enum) };
    }
    if (Object.keys(added).length === 0) return volume;
    changed = true;
    return { ...volume, distinctValues: Object.assign(Object.create(null), volume.distinctValues ?? {}, added) };
  });
  return changed ? { ...manifest, tables: volumes } : manifest;
}
