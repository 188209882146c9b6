// Tables defined by Java entity classes: Spring Data Cassandra (`@Table`, `@PrimaryKeyColumn`,
// `@PrimaryKey` with a `@PrimaryKeyClass`, `@Column`), the DataStax Java driver 4 mapper
// (`@Entity`, `@PartitionKey`, `@ClusteringColumn`, `@CqlName`, `@NamingStrategy`) and the
// driver 3 mapper (`@Table`, `@PartitionKey`, `@ClusteringColumn`, `@Column`). Read from the
// tree-sitter tree, with annotation values worked out like statements (constants followed).
// Which framework a class belongs to is decided by its file's imports, so a JPA `@Table` is not
// taken for a Cassandra one. What the code leaves open (a key in a superclass that was not read,
// a custom naming strategy) is left out rather than guessed.
import type { Node } from "web-tree-sitter";
import type { SourceRange } from "../cql/ast.js";
import { writtenTypeOf } from "./enums.js";
import type { CodeTable, DeclaredName, DeclaredType } from "./types.js";

const withType = (type: string | undefined) => (type ? { type } : {});

/** One Java file as the entity reader needs it. */
export interface EntitySource {
  path: string;
  root: Node;
  imports: string[];
  /** the string a node stands for (a literal or a constant), when the source fixes it */
  text(node: Node): string | undefined;
  range(node: Node): SourceRange;
}

type Framework = CodeTable["framework"];

interface ClassInfo {
  source: EntitySource;
  node: Node;
  name: string;
  annotations: Map<string, Node>;
}

interface Field {
  source: EntitySource;
  node: Node;
  name: string;
  /** the declared type's simple name */
  type: string;
  /** the declared type as written, annotations left out (`Map<String, Integer>`) */
  typeText: string;
  annotations: Map<string, Node>;
}

/** A declared type as written, without the annotations inside it (`List<@Frozen Address>` → `List<Address>`). */
function typeTextOf(node: Node | undefined): string {
  if (!node) return "";
  const annotations = node.descendantsOfType(["annotation", "marker_annotation"]).filter((n): n is Node => n !== null);
  let text = node.text;
  for (const annotation of annotations.sort((a, b) => b.startIndex - a.startIndex)) {
    text = text.slice(0, annotation.startIndex - node.startIndex) + text.slice(annotation.endIndex - node.startIndex);
  }
  return text.replace(/\s+/g, " ").trim();
}

/** Enums and user-defined types (`@UserDefinedType`) the sources declare, by simple class name. */
export type DeclaredNames = Map<string, DeclaredName>;

/** What the sources say about a property's type, for drafting a schema from the entity. */
export function declaredTypeOf(typeText: string, annotations: Map<string, Node>, names: DeclaredNames): DeclaredType {
  const named: Record<string, DeclaredName> = {};
  for (const word of typeText.match(/[A-Za-z_$][\w$]*/g) ?? []) {
    const known = names.get(word);
    if (known) named[word] = known;
  }
  const cassandraType = annotations.get("CassandraType");
  return {
    text: typeText,
    ...(cassandraType ? { cassandraType: cassandraType.text } : {}),
    ...(annotations.has("Frozen") ? { frozen: true as const } : {}),
    ...(Object.keys(named).length > 0 ? { named } : {}),
  };
}

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

/** Java and Kotlin types Spring Data treats as collection- or map-like (a `byte[]` is a blob). */
const COLLECTION_TYPES = /^(?:(?:Hash|Linked|Tree|Sorted|Navigable|Mutable|Immutable|Array)?(?:List|Set|Map|Collection)|Iterable|Array)$/;

/** Whether a property of this declared type (the simple name, generics stripped) is a collection or a map. */
export function isCollectionType(type: string): boolean {
  return COLLECTION_TYPES.test(type) || (type.endsWith("[]") && type !== "byte[]");
}

function frameworkOf(imports: string[]): Framework | undefined {
  const text = imports.join("\n");
  if (text.includes("org.springframework.data.cassandra")) return "spring-data";
  if (text.includes("com.datastax.oss.driver.api.mapper")) return "datastax-mapper-4";
  if (text.includes("com.datastax.driver.mapping")) return "datastax-mapper-3";
  return undefined;
}

function modifiersOf(declaration: Node): Node | undefined {
  return declaration.namedChildren.find((c) => c?.type === "modifiers") ?? undefined;
}

function annotationsOf(declaration: Node): Map<string, Node> {
  const annotations = new Map<string, Node>();
  for (const child of modifiersOf(declaration)?.namedChildren ?? []) {
    if (!child || (child.type !== "annotation" && child.type !== "marker_annotation")) continue;
    const name = field(child, "name")?.text.split(".").pop();
    if (name) annotations.set(name, child);
  }
  return annotations;
}

/** An annotation's argument by key; `value` is also the single positional argument. */
function argument(annotation: Node | undefined, key: string): Node | undefined {
  if (!annotation || annotation.type !== "annotation") return undefined;
  const args = field(annotation, "arguments")?.namedChildren.filter((c): c is Node => c !== null && !c.type.includes("comment")) ?? [];
  const pair = args.find((c) => c.type === "element_value_pair" && field(c, "key")?.text === key);
  if (pair) return field(pair, "value");
  return key === "value" && args.length === 1 && args[0]!.type !== "element_value_pair" ? args[0] : undefined;
}

function integerArgument(annotation: Node | undefined, key: string): number | undefined {
  const node = argument(annotation, key);
  return node?.type === "decimal_integer_literal" ? Number(node.text) : undefined;
}

/** A name as CQL reads it: quoted keeps its case, unquoted is folded to lower case. */
function cqlName(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 1 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1).replace(/""/g, '"') : trimmed.toLowerCase();
}

/** The driver 4 mapper's conventions that can be derived from a Java name alone. */
const CONVENTIONS: Record<string, (javaName: string) => string> = {
  SNAKE_CASE_INSENSITIVE: (name) => splitWords(name).join("_").toLowerCase(),
  CASE_INSENSITIVE: (name) => name.toLowerCase(),
  EXACT_CASE: (name) => name,
  LOWER_CAMEL_CASE: (name) => name.charAt(0).toLowerCase() + name.slice(1),
  UPPER_CAMEL_CASE: (name) => name.charAt(0).toUpperCase() + name.slice(1),
  LOWER_SNAKE_CASE: (name) => splitWords(name).join("_").toLowerCase(),
  UPPER_SNAKE_CASE: (name) => splitWords(name).join("_").toUpperCase(),
  UPPER_CASE: (name) => name.toUpperCase(),
};

/** Java names split on each upper-case character, as the mapper's conventions do (`productId` → product, Id). */
function splitWords(name: string): string[] {
  const words: string[] = [];
  let current = "";
  for (const c of name) {
    if (c >= "A" && c <= "Z" && current !== "") {
      words.push(current);
      current = "";
    }
    current += c;
  }
  if (current !== "") words.push(current);
  return words;
}

function fieldsOf(info: ClassInfo): Field[] {
  const body = field(info.node, "body");
  const fields: Field[] = [];
  // A record's components are its properties (`record Customer(@Id String id, String name)`).
  for (const component of field(info.node, "parameters")?.namedChildren ?? []) {
    if (component?.type !== "formal_parameter") continue;
    const name = field(component, "name");
    const annotations = annotationsOf(component);
    if (!name || annotations.has("Transient") || annotations.has("Computed")) continue;
    const type = (field(component, "type")?.text ?? "").replace(/<.*$/s, "").split(".").pop() ?? "";
    fields.push({ source: info.source, node: name, name: name.text, type, typeText: typeTextOf(field(component, "type")), annotations });
  }
  for (const member of body?.namedChildren ?? []) {
    if (!member || member.type !== "field_declaration") continue;
    const keywords = new Set((modifiersOf(member)?.children ?? []).map((c) => c?.type));
    const annotations = annotationsOf(member);
    // `@Computed("ttl(x)")` reads an expression, not a column.
    if (keywords.has("static") || keywords.has("transient") || annotations.has("Transient") || annotations.has("Computed")) continue;
    const type = (field(member, "type")?.text ?? "").replace(/<.*$/s, "").split(".").pop() ?? "";
    const typeText = typeTextOf(field(member, "type"));
    for (const declarator of member.namedChildren) {
      if (declarator?.type !== "variable_declarator") continue;
      const name = field(declarator, "name");
      if (name) fields.push({ source: info.source, node: name, name: name.text, type, typeText: `${typeText}${field(declarator, "dimensions")?.text ?? ""}`, annotations });
    }
  }
  return fields;
}

const MAPPING_ANNOTATIONS = ["PartitionKey", "ClusteringColumn", "PrimaryKeyColumn", "PrimaryKey", "Id", "Column", "CqlName", "Transient", "Computed"];

function annotatesMethods(info: ClassInfo): boolean {
  return (field(info.node, "body")?.namedChildren ?? []).some(
    (member) => member?.type === "method_declaration" && MAPPING_ANNOTATIONS.some((name) => annotationsOf(member).has(name)),
  );
}

export interface KeyColumn {
  name: string;
  kind: "partition" | "clustering";
  position?: number;
  order?: "asc" | "desc";
}

/**
 * Reads every entity class of the files. `classes` of a framework may sit in other files than
 * their entity (a `@PrimaryKeyClass`, a superclass), so all files are looked at together.
 */
export function entityTables(sources: EntitySource[]): CodeTable[] {
  const classes = new Map<string, ClassInfo[]>();
  const names: DeclaredNames = new Map();
  // A simple name declared twice (two packages' `Address`) says nothing certain about either.
  const declared = new Map<string, number>();
  for (const source of sources) {
    for (const node of source.root.descendantsOfType(["class_declaration", "record_declaration", "enum_declaration"])) {
      const name = node && field(node, "name")?.text;
      if (!node || !name) continue;
      declared.set(name, (declared.get(name) ?? 0) + 1);
      if (node.type === "enum_declaration") {
        names.set(name, { enum: true });
        continue;
      }
      const annotations = annotationsOf(node);
      const list = classes.get(name) ?? [];
      list.push({ source, node, name, annotations });
      classes.set(name, list);
      const userType = annotations.get("UserDefinedType");
      if (userType) {
        const written = argument(userType, "value") ?? argument(userType, "name");
        const text = written ? source.text(written) : undefined;
        if (!written || text) names.set(name, { userType: text ? cqlName(text) : name.toLowerCase() });
      }
    }
  }
  const unique = (name: string) => {
    const list = classes.get(name);
    return list?.length === 1 ? list[0] : undefined;
  };
  for (const [name, count] of declared) if (count > 1) names.delete(name);
  // A user type's fields, once every name is known: their types name others by name only.
  const shallow: DeclaredNames = new Map([...names].map(([name, entry]) => [name, "userType" in entry ? { userType: entry.userType } : entry]));
  for (const [name, entry] of names) {
    const info = unique(name);
    if (!("userType" in entry) || !info) continue;
    const fields: { name: string; declared: DeclaredType }[] = [];
    for (const property of fieldsOf(info)) {
      const written = argument(property.annotations.get("Column"), "value") ?? argument(property.annotations.get("Element"), "value");
      const text = written ? property.source.text(written) : undefined;
      if (written && text === undefined) {
        fields.length = 0;
        break;
      }
      fields.push({ name: text ? cqlName(text) : property.name.toLowerCase(), declared: declaredTypeOf(property.typeText, property.annotations, shallow) });
    }
    if (fields.length > 0) names.set(name, { userType: entry.userType, fields });
  }
  const tables: CodeTable[] = [];
  for (const source of sources) {
    const framework = frameworkOf(source.imports);
    if (!framework) continue;
    for (const info of [...classes.values()].flat()) {
      if (info.source !== source) continue;
      const marker = framework === "datastax-mapper-4" ? "Entity" : "Table";
      if (!info.annotations.has(marker)) continue;
      const table = readEntity(info, framework, unique, names);
      if (table) tables.push(table);
    }
  }
  return tables;
}

function readEntity(info: ClassInfo, framework: Framework, classNamed: (name: string) => ClassInfo | undefined, names: DeclaredNames): CodeTable | undefined {
  const { source, annotations } = info;
  const text = (node: Node | undefined) => (node ? info.source.text(node) : undefined);
  let naming: (javaName: string) => string;
  let name: string | undefined;
  let keyspace: string | undefined;
  if (framework === "datastax-mapper-4") {
    const strategy = annotations.get("NamingStrategy");
    if (strategy) {
      const convention = argument(strategy, "convention")?.text.split(".").pop();
      const chosen = convention ? CONVENTIONS[convention.replace(/[{}\s]/g, "")] : undefined;
      // A custom converter class, or several conventions: the names are the code's own business.
      if (!chosen) return undefined;
      naming = chosen;
    } else naming = CONVENTIONS.SNAKE_CASE_INSENSITIVE!;
    const explicit = text(argument(annotations.get("CqlName"), "value"));
    name = explicit !== undefined ? cqlName(explicit) : naming(info.name);
    keyspace = text(argument(annotations.get("Entity"), "defaultKeyspace"));
  } else if (framework === "datastax-mapper-3") {
    naming = (javaName) => javaName.toLowerCase();
    const table = annotations.get("Table");
    name = text(argument(table, "name"));
    keyspace = text(argument(table, "keyspace"));
    if (name !== undefined) name = cqlName(name);
  } else {
    naming = (javaName) => javaName.toLowerCase();
    const table = annotations.get("Table");
    const explicit = text(argument(table, "value"));
    name = explicit !== undefined && explicit !== "" ? cqlName(explicit) : info.name.toLowerCase();
    keyspace = text(argument(table, "keyspace"));
  }
  if (name === undefined || name === "") return undefined;

  // The class and its superclasses, nearest last, so that a subclass's field wins.
  const chain: ClassInfo[] = [info];
  let complete = true;
  for (let current = info; chain.length < 16; ) {
    const parent = field(current.node, "superclass")?.namedChildren[0]?.text.replace(/<.*$/s, "").split(".").pop();
    if (!parent) break;
    const found = classNamed(parent);
    if (!found) {
      complete = false;
      break;
    }
    chain.unshift(found);
    current = found;
  }

  // Mapping annotations on getters (the mappers allow them there) change keys and columns in
  // ways the fields alone do not show: such an entity is left out rather than half read.
  if (chain.some(annotatesMethods)) return undefined;

  const columns: CodeTable["columns"] = [];
  const keys: KeyColumn[] = [];
  const addColumn = (columnName: string, property: string, at: Field) => {
    if (columns.some((c) => c.name === columnName)) return;
    const declared = at.typeText !== "" ? { declared: declaredTypeOf(at.typeText, at.annotations, names) } : {};
    columns.push({
      name: columnName,
      property,
      range: at.source.range(at.node),
      ...(at.source.path !== source.path ? { file: at.source.path } : {}),
      ...(isCollectionType(at.type) ? { collection: true as const } : {}),
      ...declared,
      ...withType(writtenTypeOf(at.node)),
    });
  };
  for (const owner of chain) {
    for (const property of fieldsOf(owner)) {
      const read = readField(property, framework, naming, classNamed);
      if (!read) {
        complete = false;
        continue;
      }
      for (const column of read.columns) addColumn(column.name, column.property, column.field);
      for (const key of read.keys) keys.push(key);
    }
  }

  return {
    framework,
    entity: info.name,
    ...(keyspace ? { keyspace: cqlName(keyspace) } : {}),
    name,
    file: source.path,
    range: source.range(field(info.node, "name") ?? info.node),
    ...entityKey(keys, complete),
    columns,
  };
}

/**
 * The primary key an entity's annotations give, in key order when every part has a distinct
 * position (else in declaration order, and `keyOrderKnown` says so); no key at all when a field
 * could not be read or no partition key is annotated, so nothing is compared on a partial key.
 */
export function entityKey(keys: readonly KeyColumn[], complete: boolean): Pick<CodeTable, "partitionKey" | "clustering" | "keyOrderKnown"> {
  const partition = keys.filter((k) => k.kind === "partition");
  const clustering = keys.filter((k) => k.kind === "clustering");
  const positioned = (list: KeyColumn[]) => list.every((k) => k.position !== undefined) && new Set(list.map((k) => k.position)).size === list.length;
  const keyOrderKnown = { partition: positioned(partition), clustering: positioned(clustering) };
  const byPosition = (a: KeyColumn, b: KeyColumn) => (a.position ?? 0) - (b.position ?? 0);
  if (keyOrderKnown.partition) partition.sort(byPosition);
  if (keyOrderKnown.clustering) clustering.sort(byPosition);
  if (!complete || partition.length === 0) return { keyOrderKnown };
  return {
    partitionKey: partition.map((k) => k.name),
    clustering: clustering.map((k) => ({ name: k.name, ...(k.order ? { order: k.order } : {}) })),
    keyOrderKnown,
  };
}

/** A field's columns and key parts; undefined when its name is not fixed by the source. */
function readField(
  property: Field,
  framework: Framework,
  naming: (javaName: string) => string,
  classNamed: (name: string) => ClassInfo | undefined,
  depth = 0,
): { columns: { name: string; property: string; field: Field }[]; keys: KeyColumn[] } | undefined {
  const { annotations } = property;
  const text = (node: Node | undefined) => (node ? property.source.text(node) : undefined);
  if (framework === "spring-data") {
    const keyColumn = annotations.get("PrimaryKeyColumn");
    if (keyColumn) {
      const written = text(argument(keyColumn, "name")) ?? text(argument(keyColumn, "value"));
      if ((argument(keyColumn, "name") ?? argument(keyColumn, "value")) && written === undefined) return undefined;
      const name = written ? cqlName(written) : naming(property.name);
      const type = argument(keyColumn, "type")?.text ?? "";
      const ordering = argument(keyColumn, "ordering")?.text;
      const position = integerArgument(keyColumn, "ordinal");
      const key: KeyColumn = {
        name,
        kind: type.endsWith("PARTITIONED") ? "partition" : "clustering",
        ...(position !== undefined ? { position } : {}),
        // Only an ordering the code writes down is compared; the default is a guess about intent.
        ...(ordering ? { order: ordering.endsWith("DESCENDING") ? ("desc" as const) : ("asc" as const) } : {}),
      };
      return { columns: [{ name, property: property.name, field: property }], keys: [key] };
    }
    const primaryKey = annotations.get("PrimaryKey") ?? annotations.get("Id");
    if (primaryKey) {
      const keyClass = classNamed(property.type);
      if (keyClass?.annotations.has("PrimaryKeyClass") && depth === 0) {
        const parts = fieldsOf(keyClass).map((f) => readField(f, framework, naming, classNamed, depth + 1));
        if (parts.some((p) => p === undefined)) return undefined;
        return { columns: parts.flatMap((p) => p!.columns.map((c) => ({ ...c, property: `${property.name}.${c.property}` }))), keys: parts.flatMap((p) => p!.keys) };
      }
      const written = text(argument(primaryKey, "value"));
      if (argument(primaryKey, "value") && written === undefined) return undefined;
      const name = written ? cqlName(written) : naming(property.name);
      return { columns: [{ name, property: property.name, field: property }], keys: [{ name, kind: "partition", position: 0 }] };
    }
    const column = annotations.get("Column");
    const written = text(argument(column, "value")) ?? text(argument(column, "name"));
    if ((argument(column, "value") ?? argument(column, "name")) && written === undefined) return undefined;
    const name = written ? cqlName(written) : naming(property.name);
    return { columns: [{ name, property: property.name, field: property }], keys: [] };
  }
  const nameNode = framework === "datastax-mapper-4" ? argument(annotations.get("CqlName"), "value") : argument(annotations.get("Column"), "name");
  const written = text(nameNode);
  if (nameNode && written === undefined) return undefined;
  const name = written !== undefined ? cqlName(written) : naming(property.name);
  const partition = annotations.get("PartitionKey");
  const clustering = annotations.get("ClusteringColumn");
  const keys: KeyColumn[] = [];
  if (partition) keys.push({ name, kind: "partition", position: integerArgument(partition, "value") ?? 0 });
  else if (clustering) keys.push({ name, kind: "clustering", position: integerArgument(clustering, "value") ?? 0 });
  return { columns: [{ name, property: property.name, field: property }], keys };
}
