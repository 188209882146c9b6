// Spring Data Cassandra in Kotlin: `@Table` classes (usually data classes whose constructor
// `val`s are the properties) and the derived query methods of repository interfaces over them.
// The names follow the same rules as the Java reader (entities.ts, derived.ts); only the tree
// differs. Annotations with a use-site target (`@field:Column("x")`) count like plain ones.
import type { Node } from "web-tree-sitter";
import { derivedQuery } from "./derived.js";
import { entityKey, isCollectionType, type EntitySource, type KeyColumn } from "./entities.js";
import { writtenTypeOf } from "./enums.js";
import type { CodeTable, DeclaredType } from "./types.js";

const withType = (type: string | undefined) => (type ? { type } : {});

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;
const named = (node: Node | undefined) => (node?.namedChildren ?? []).filter((c): c is Node => c !== null && !c.type.includes("comment"));

interface Annotation {
  node: Node;
  /** positional arguments, then named ones */
  args: Node[];
  named: Map<string, Node>;
}

function annotationsOf(declaration: Node): Map<string, Annotation> {
  const annotations = new Map<string, Annotation>();
  const modifiers = named(declaration).find((c) => c.type === "modifiers");
  for (const annotation of named(modifiers)) {
    if (annotation.type !== "annotation") continue;
    const invocation = named(annotation).find((c) => c.type === "constructor_invocation");
    const type = invocation ? named(invocation).find((c) => c.type === "user_type") : named(annotation).find((c) => c.type === "user_type");
    const name = type?.text.split(".").pop();
    if (!name) continue;
    const args: Node[] = [];
    const namedArgs = new Map<string, Node>();
    for (const argument of named(named(invocation).find((c) => c.type === "value_arguments"))) {
      const parts = named(argument);
      if (argument.children.some((c) => c?.type === "=") && parts.length === 2) namedArgs.set(parts[0]!.text, parts[1]!);
      else if (parts.length > 0) args.push(parts[parts.length - 1]!);
    }
    annotations.set(name, { node: annotation, args, named: namedArgs });
  }
  return annotations;
}

/** `@Column("x")`, `@Column(value = "x")`: the argument by key, `value` being also the single positional one. */
function argument(annotation: Annotation | undefined, key: string): Node | undefined {
  if (!annotation) return undefined;
  return annotation.named.get(key) ?? (key === "value" && annotation.args.length === 1 ? annotation.args[0] : undefined);
}

function cqlName(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 1 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1).replace(/""/g, '"') : trimmed.toLowerCase();
}

interface Property {
  name: Node;
  type: string;
  /** the declared type as written, without `?` (`List<String>`) */
  typeText: string;
  annotations: Map<string, Annotation>;
}

/** What the sources say about a property's type (entities.ts declaredTypeOf, for Kotlin's tree). */
function declaredOf(property: Property, enums: ReadonlySet<string>): DeclaredType | undefined {
  if (property.typeText === "") return undefined;
  const named: Record<string, { enum: true }> = {};
  for (const word of property.typeText.match(/[A-Za-z_]\w*/g) ?? []) if (enums.has(word)) named[word] = { enum: true };
  const cassandraType = property.annotations.get("CassandraType");
  return {
    text: property.typeText,
    ...(cassandraType ? { cassandraType: cassandraType.node.text } : {}),
    ...(property.annotations.has("Frozen") ? { frozen: true as const } : {}),
    ...(Object.keys(named).length > 0 ? { named } : {}),
  };
}

function isInterface(declaration: Node): boolean {
  return declaration.children.some((c) => c?.type === "interface");
}

/** Constructor `val`/`var` parameters and body properties; statics (companion members) are not properties. */
function propertiesOf(declaration: Node): Property[] {
  const properties: Property[] = [];
  const typeNode = (node: Node) => named(node).find((c) => c.type === "user_type" || c.type === "nullable_type");
  const typeOf = (node: Node) => (typeNode(node)?.text ?? "").replace(/[<?].*$/s, "").split(".").pop() ?? "";
  const typeTextOf = (node: Node) => (typeNode(node)?.text ?? "").replace(/\?$/, "").replace(/\s+/g, " ").trim();
  const constructor = named(declaration).find((c) => c.type === "primary_constructor");
  for (const parameter of named(named(constructor).find((c) => c.type === "class_parameters"))) {
    if (parameter.type !== "class_parameter" || !parameter.children.some((c) => c?.type === "val" || c?.type === "var")) continue;
    const name = named(parameter).find((c) => c.type === "identifier");
    if (name) properties.push({ name, type: typeOf(parameter), typeText: typeTextOf(parameter), annotations: annotationsOf(parameter) });
  }
  for (const member of named(named(declaration).find((c) => c.type === "class_body"))) {
    if (member.type !== "property_declaration") continue;
    const variable = named(member).find((c) => c.type === "variable_declaration");
    const name = named(variable).find((c) => c.type === "identifier");
    // A property with a getter of its own and no backing field is computed, not a column.
    if (name && variable && !named(member).some((c) => c.type === "getter")) properties.push({ name, type: typeOf(variable), typeText: typeTextOf(variable), annotations: annotationsOf(member) });
  }
  return properties.filter((p) => !p.annotations.has("Transient") && !p.annotations.has("Computed"));
}

/** The Spring Data `@Table` classes of Kotlin files (files that import Spring Data Cassandra). */
export function kotlinEntityTables(sources: EntitySource[]): CodeTable[] {
  const classes = new Map<string, { source: EntitySource; node: Node }[]>();
  const enums = new Set<string>();
  for (const source of sources) {
    for (const node of source.root.descendantsOfType("class_declaration")) {
      const name = node && field(node, "name")?.text;
      if (node && name && !isInterface(node)) classes.set(name, [...(classes.get(name) ?? []), { source, node }]);
      if (node && name && named(named(node).find((c) => c.type === "modifiers")).some((m) => m.type === "class_modifier" && m.text === "enum")) enums.add(name);
    }
  }
  const unique = (name: string) => {
    const list = classes.get(name);
    return list?.length === 1 ? list[0] : undefined;
  };
  const tables: CodeTable[] = [];
  for (const source of sources) {
    if (!source.imports.some((i) => i.includes("org.springframework.data.cassandra"))) continue;
    for (const node of source.root.descendantsOfType("class_declaration")) {
      if (!node || isInterface(node)) continue;
      const table = annotationsOf(node).get("Table");
      if (!table) continue;
      const read = readEntity(source, node, table, unique, enums);
      if (read) tables.push(read);
    }
  }
  return tables;
}

function readEntity(
  source: EntitySource,
  node: Node,
  table: Annotation,
  classNamed: (name: string) => { source: EntitySource; node: Node } | undefined,
  enums: ReadonlySet<string>,
): CodeTable | undefined {
  const className = field(node, "name")?.text ?? "";
  const text = (n: Node | undefined) => (n ? source.text(n) : undefined);
  const explicit = text(argument(table, "value"));
  if (argument(table, "value") && explicit === undefined) return undefined;
  const name = explicit ? cqlName(explicit) : className.toLowerCase();
  const keyspace = text(argument(table, "keyspace"));
  // A superclass's properties are not read: the key is then left open.
  let complete = !named(named(node).find((c) => c.type === "delegation_specifiers")).some((s) => named(s).some((c) => c.type === "constructor_invocation"));
  const columns: CodeTable["columns"] = [];
  const keys: KeyColumn[] = [];
  const add = (columnName: string, property: string, at: Property, from: EntitySource, type = "") => {
    if (columns.some((c) => c.name === columnName)) return;
    const declared = declaredOf(at, enums);
    columns.push({
      name: columnName,
      property,
      range: from.range(at.name),
      ...(from.path !== source.path ? { file: from.path } : {}),
      ...(isCollectionType(type) ? { collection: true as const } : {}),
      ...(declared ? { declared } : {}),
      ...(type ? withType(writtenTypeOf(at.name)) : {}),
    });
  };
  const readProperty = (property: Property, from: EntitySource, prefix: string, depth: number): boolean => {
    const { annotations } = property;
    const own = (n: Node | undefined) => (n ? from.text(n) : undefined);
    const keyColumn = annotations.get("PrimaryKeyColumn");
    if (keyColumn) {
      const nameNode = argument(keyColumn, "name") ?? argument(keyColumn, "value");
      const written = own(nameNode);
      if (nameNode && written === undefined) return false;
      const columnName = written ? cqlName(written) : property.name.text.toLowerCase();
      const type = argument(keyColumn, "type")?.text ?? "";
      const ordinal = argument(keyColumn, "ordinal");
      const ordering = argument(keyColumn, "ordering")?.text;
      keys.push({
        name: columnName,
        kind: type.endsWith("PARTITIONED") ? "partition" : "clustering",
        ...(ordinal?.type === "number_literal" ? { position: Number(ordinal.text) } : {}),
        ...(ordering ? { order: ordering.endsWith("DESCENDING") ? ("desc" as const) : ("asc" as const) } : {}),
      });
      add(columnName, `${prefix}${property.name.text}`, property, from);
      return true;
    }
    const primaryKey = annotations.get("PrimaryKey") ?? annotations.get("Id");
    if (primaryKey) {
      const keyClass = classNamed(property.type);
      if (keyClass && annotationsOf(keyClass.node).has("PrimaryKeyClass") && depth === 0) {
        return propertiesOf(keyClass.node).every((p) => readProperty(p, keyClass.source, `${property.name.text}.`, depth + 1));
      }
      const written = own(argument(primaryKey, "value"));
      if (argument(primaryKey, "value") && written === undefined) return false;
      const columnName = written ? cqlName(written) : property.name.text.toLowerCase();
      keys.push({ name: columnName, kind: "partition", position: 0 });
      add(columnName, `${prefix}${property.name.text}`, property, from);
      return true;
    }
    const column = annotations.get("Column");
    const nameNode = argument(column, "value") ?? argument(column, "name");
    const written = own(nameNode);
    if (nameNode && written === undefined) return false;
    add(written ? cqlName(written) : property.name.text.toLowerCase(), `${prefix}${property.name.text}`, property, from, property.type);
    return true;
  };
  for (const property of propertiesOf(node)) if (!readProperty(property, source, "", 0)) complete = false;
  return {
    framework: "spring-data",
    entity: className,
    ...(keyspace ? { keyspace: cqlName(keyspace) } : {}),
    name,
    file: source.path,
    range: source.range(field(node, "name") ?? node),
    ...entityKey(keys, complete),
    columns,
  };
}

const REPOSITORY = /Repository$/;
const directoryOf = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);

/** The derived query methods of the Kotlin repository interfaces in one file's tree. */
export function kotlinDerivedQueries(path: string, root: Node, tables: CodeTable[]): { node: Node; cql: string }[] {
  const found: { node: Node; cql: string }[] = [];
  for (const repository of root.descendantsOfType("class_declaration")) {
    if (!repository || !isInterface(repository)) continue;
    const supertypes = named(named(repository).find((c) => c.type === "delegation_specifiers")).flatMap((s) => named(s).filter((c) => c.type === "user_type"));
    const generic = supertypes.find((t) => REPOSITORY.test(named(t).find((c) => c.type === "identifier")?.text ?? ""));
    const entityName = named(named(generic).find((c) => c.type === "type_arguments"))[0]?.text.replace(/[<?].*$/s, "").split(".").pop();
    const candidates = tables.filter((t) => t.framework === "spring-data" && t.entity === entityName);
    const near = candidates.length > 1 ? candidates.filter((t) => directoryOf(t.file) === directoryOf(path)) : candidates;
    if (near.length !== 1) continue;
    for (const member of named(named(repository).find((c) => c.type === "class_body"))) {
      if (member.type !== "function_declaration" || named(member).some((c) => c.type === "function_body")) continue;
      const annotations = annotationsOf(member);
      if (annotations.has("Query")) continue;
      const name = field(member, "name");
      const cql = name && derivedQuery(name.text, near[0]!, annotations.has("AllowFiltering"));
      if (name && cql) found.push({ node: name, cql });
    }
  }
  return found;
}
