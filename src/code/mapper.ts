// The DataStax Java driver 4 mapper's DAO methods: in a `@Dao` interface, `@Select`, `@Insert`,
// `@Update` and `@Delete` run a statement the mapper writes from the entity the method works on,
// and `@Query` may name that entity's table with `${tableId}`, `${qualifiedTableId}` and
// `${keyspaceId}`. The statement is written out the way the mapper's documentation describes it
// (https://docs.datastax.com/en/developer/java-driver/4.17/manual/mapper/daos/); a method whose
// entity or key the code read does not fix is listed with the reason, never guessed.
import type { Node } from "web-tree-sitter";
import type { CodeTable } from "./types.js";

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

/** A Java file as the DAO reader sees it: its tree, and constant text evaluated in its scope. */
export interface DaoSource {
  path: string;
  root: Node;
  text: AnnotationText;
}

/**
 * What one DAO method runs: its CQL, or why it cannot be known from the code read. `source` is
 * the file the method is written in (a generic base interface's, for an inherited method), `dao`
 * the `@Dao` interface that runs it.
 */
export type DaoStatement = DaoMethod & { dao: string; daoNode: Node };
type DaoMethod = { node: Node; api: string; source: DaoSource; method: string } & ({ cql: string } | { dynamic: string; start: string });

/** Reads annotation values (constants included) as text; undefined when not constant. */
export interface AnnotationText {
  (node: Node): string | undefined;
}

const DAO_METHODS = new Set(["Select", "Insert", "Update", "Delete"]);

/** Parameters the mapper applies to the statement rather than binds (statement attributes). */
const ATTRIBUTE_PARAMETERS = /^(?:java\.util\.function\.)?(?:Function|UnaryOperator)\s*</;

const directoryOf = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);

function annotationsOf(declaration: Node): Map<string, Node> {
  const annotations = new Map<string, Node>();
  const modifiers = declaration.namedChildren.find((c) => c?.type === "modifiers");
  for (const child of modifiers?.namedChildren ?? []) {
    if (!child || (child.type !== "annotation" && child.type !== "marker_annotation")) continue;
    const name = field(child, "name")?.text.split(".").pop();
    if (name) annotations.set(name, child);
  }
  return annotations;
}

/** An annotation's argument by key (`value` is also the single positional argument). */
function argument(annotation: Node, key: string): Node | undefined {
  if (annotation.type !== "annotation") return undefined;
  const args = field(annotation, "arguments")?.namedChildren.filter((c): c is Node => c !== null && !c.type.includes("comment")) ?? [];
  const pair = args.find((c) => c.type === "element_value_pair" && field(c, "key")?.text === key);
  if (pair) return field(pair, "value");
  return key === "value" && args.length === 1 && args[0]!.type !== "element_value_pair" ? args[0] : undefined;
}

/** A CQL identifier as the mapper writes it: quoted when it is not a plain lower-case name. */
function identifier(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

const qualified = (table: CodeTable) => (table.keyspace ? `${identifier(table.keyspace)}.${identifier(table.name)}` : identifier(table.name));

/** The simple names of the types a type mentions: `CompletionStage<PagingIterable<Video>>` → all three. */
function typeNames(type: Node | undefined): string[] {
  if (!type) return [];
  const names = type.descendantsOfType("type_identifier").map((n) => n?.text ?? "");
  if (type.type === "type_identifier") names.push(type.text);
  return names;
}

interface Parameter {
  type: Node | undefined;
}

function parametersOf(method: Node): Parameter[] {
  const list = field(method, "parameters")?.namedChildren ?? [];
  return list
    .filter((p): p is Node => p !== null && (p.type === "formal_parameter" || p.type === "spread_parameter"))
    .map((p) => ({ type: field(p, "type") ?? p.namedChildren.find((c) => c?.type.endsWith("type")) ?? undefined }))
    .filter((p) => !ATTRIBUTE_PARAMETERS.test(p.type?.text ?? ""));
}

function booleanArgument(annotation: Node, key: string): boolean {
  return argument(annotation, key)?.type === "true";
}

/** A string or string-array argument, each element as text; undefined when one is not constant. */
function stringsArgument(annotation: Node, key: string, text: AnnotationText): string[] | undefined {
  const node = argument(annotation, key);
  if (!node) return [];
  const elements = node.type === "element_value_array_initializer" ? node.namedChildren.filter((c): c is Node => c !== null && !c.type.includes("comment")) : [node];
  const values = elements.map((element) => text(element));
  return values.every((v): v is string => v !== undefined) ? values : undefined;
}

/** The key columns in order: partition key then clustering columns. */
function primaryKey(table: CodeTable): { partition: string[]; all: string[] } | undefined {
  if (!table.partitionKey || !table.clustering || !table.keyOrderKnown.partition || !table.keyOrderKnown.clustering) return undefined;
  return { partition: table.partitionKey, all: [...table.partitionKey, ...table.clustering.map((c) => c.name)] };
}

const byKey = (columns: string[]) => columns.map((c) => `${identifier(c)} = :${identifier(c)}`).join(" AND ");

/** `ttl = "86400"`, `timestamp = ":ts"`: a USING clause, or undefined when a value is not constant. */
function usingClause(annotation: Node, text: AnnotationText): string | undefined {
  const parts: string[] = [];
  for (const [key, keyword] of [["ttl", "TTL"], ["timestamp", "TIMESTAMP"]] as const) {
    const node = argument(annotation, key);
    if (!node) continue;
    const value = text(node);
    if (value === undefined) return undefined;
    if (value.trim() !== "") parts.push(`${keyword} ${value.trim()}`);
  }
  return parts.length > 0 ? ` USING ${parts.join(" AND ")}` : "";
}

/** `ifExists = true`, `customIfClause = "…"`. */
function ifClause(annotation: Node, text: AnnotationText): string | undefined {
  const custom = argument(annotation, "customIfClause");
  if (custom) {
    const value = text(custom);
    return value === undefined ? undefined : value.trim() === "" ? "" : ` IF ${value.trim()}`;
  }
  return booleanArgument(annotation, "ifExists") ? " IF EXISTS" : "";
}

/** The statement one annotated DAO method runs. */
function methodStatement(
  kind: string,
  annotation: Node,
  method: Node,
  table: CodeTable,
  text: AnnotationText,
  typeArguments: Map<string, string>,
): { cql: string } | { dynamic: string } | undefined {
  const from = qualified(table);
  const columns = table.columns.map((c) => identifier(c.name));
  const parameters = parametersOf(method);
  const customWhere = argument(annotation, "customWhereClause");
  const where = customWhere ? text(customWhere) : undefined;
  if (customWhere && where === undefined) return { dynamic: "its customWhereClause is not a constant of the code read" };
  const key = primaryKey(table);
  const keyWhere = (count: number): string | { dynamic: string } | undefined => {
    if (!key) return { dynamic: `the key of ${table.entity} is not known from the code read` };
    // The mapper takes a prefix of the key that covers at least the partition key; anything else does not compile.
    if (count < key.partition.length || count > key.all.length) return undefined;
    return byKey(key.all.slice(0, count));
  };
  switch (kind) {
    case "Select": {
      let condition: string | { dynamic: string } | undefined = where?.trim();
      if (condition === undefined) condition = parameters.length === 0 ? "" : keyWhere(parameters.length);
      if (condition === undefined || typeof condition !== "string") return condition;
      const orderBy = stringsArgument(annotation, "orderBy", text);
      const groupBy = stringsArgument(annotation, "groupBy", text);
      const limit = argument(annotation, "limit") ? text(argument(annotation, "limit")!) : "";
      const perPartition = argument(annotation, "perPartitionLimit") ? text(argument(annotation, "perPartitionLimit")!) : "";
      if (!orderBy || !groupBy || limit === undefined || perPartition === undefined) return { dynamic: "an attribute of its @Select is not a constant of the code read" };
      return {
        cql: [
          `SELECT ${columns.join(", ")} FROM ${from}`,
          condition ? ` WHERE ${condition}` : "",
          groupBy.length ? ` GROUP BY ${groupBy.join(", ")}` : "",
          orderBy.length ? ` ORDER BY ${orderBy.join(", ")}` : "",
          perPartition.trim() ? ` PER PARTITION LIMIT ${perPartition.trim()}` : "",
          limit.trim() ? ` LIMIT ${limit.trim()}` : "",
          booleanArgument(annotation, "allowFiltering") ? " ALLOW FILTERING" : "",
        ].join(""),
      };
    }
    case "Insert": {
      const using = usingClause(annotation, text);
      if (using === undefined) return { dynamic: "its ttl or timestamp is not a constant of the code read" };
      const ifNotExists = booleanArgument(annotation, "ifNotExists") ? " IF NOT EXISTS" : "";
      return { cql: `INSERT INTO ${from} (${columns.join(", ")}) VALUES (${columns.map((c) => `:${c}`).join(", ")})${ifNotExists}${using}` };
    }
    case "Update": {
      const using = usingClause(annotation, text);
      const condition = ifClause(annotation, text);
      if (using === undefined || condition === undefined) return { dynamic: "an attribute of its @Update is not a constant of the code read" };
      if (!key) return { dynamic: `the key of ${table.entity} is not known from the code read` };
      const keySet = new Set(key.all);
      const set = table.columns.filter((c) => !keySet.has(c.name)).map((c) => `${identifier(c.name)} = :${identifier(c.name)}`);
      if (set.length === 0) return undefined;
      return { cql: `UPDATE ${from}${using} SET ${set.join(", ")} WHERE ${where?.trim() || byKey(key.all)}${condition}` };
    }
    case "Delete": {
      const condition = ifClause(annotation, text);
      if (condition === undefined) return { dynamic: "its customIfClause is not a constant of the code read" };
      let clause: string | { dynamic: string } | undefined = where?.trim();
      if (clause === undefined) {
        // An entity instance stands for its whole key; else the parameters are a prefix of the key.
        const byEntity = parameters.length === 1 && typeNames(parameters[0]!.type).some((n) => (typeArguments.get(n) ?? n) === table.entity);
        clause = byEntity ? keyWhere(key?.all.length ?? 0) : keyWhere(parameters.length);
      }
      if (clause === undefined || typeof clause !== "string") return clause;
      return { cql: `DELETE FROM ${from} WHERE ${clause}${condition}` };
    }
  }
  return undefined;
}

/** The entity a method works on: its return type's for a select, its first parameter's (or `entityClass`) for a write. */
function entityOf(
  kind: string,
  annotation: Node | undefined,
  method: Node,
  entityNamed: (name: string) => CodeTable | undefined,
  typeArguments: Map<string, string> = new Map(),
): CodeTable | undefined {
  const pick = (names: string[]) => {
    const found = [...new Set(names.map((n) => typeArguments.get(n) ?? n))].map(entityNamed).filter((t): t is CodeTable => t !== undefined);
    return found.length === 1 ? found[0] : undefined;
  };
  if (kind === "Select" || kind === "Query") return pick(typeNames(field(method, "type")));
  const entityClass = annotation ? argument(annotation, "entityClass") : undefined;
  if (entityClass) return pick(typeNames(entityClass));
  const [first] = parametersOf(method);
  return pick(typeNames(first?.type));
}

/**
 * The placeholders of a mapper-4 `@Query` filled in from the entity the method returns:
 * the text, or why it cannot be.
 */
export function fillQueryPlaceholders(cql: string, method: Node | undefined, entityNamed: (name: string) => CodeTable | undefined): { cql: string } | { dynamic: string } {
  const table = method ? entityOf("Query", undefined, method, entityNamed) : undefined;
  if (!table) return { dynamic: "the mapper fills ${…} in from the entity, and the method returns no entity of the code read" };
  let missing = false;
  const filled = cql.replace(/\$\{(\w+)\}/g, (whole, name: string) => {
    if (name === "tableId") return identifier(table.name);
    if (name === "qualifiedTableId") return qualified(table);
    if (name === "keyspaceId" && table.keyspace) return identifier(table.keyspace);
    missing = true;
    return whole;
  });
  return missing ? { dynamic: "the keyspace is the one the DAO is built with at run time" } : { cql: filled };
}

/** A resolver from a simple class name to the mapper-4 entity it is, preferring one in `path`'s package. */
export function mapperEntities(tables: CodeTable[], path: string): (name: string) => CodeTable | undefined {
  return (name) => {
    const candidates = tables.filter((t) => t.framework === "datastax-mapper-4" && t.entity === name);
    const near = candidates.length > 1 ? candidates.filter((t) => directoryOf(t.file) === directoryOf(path)) : candidates;
    return near.length === 1 ? near[0] : undefined;
  };
}

/** The generic interfaces of the files read, by simple name, for DAOs that inherit their methods. */
export type InterfaceNamed = (name: string) => { source: DaoSource; node: Node } | undefined;

/** `Base<T, U>`'s type parameters, in order. */
function typeParameters(declaration: Node): string[] {
  const list = field(declaration, "type_parameters") ?? declaration.namedChildren.find((c) => c?.type === "type_parameters") ?? undefined;
  return (list?.namedChildren ?? []).flatMap((p) => {
    const name = p?.namedChildren.find((c) => c?.type === "type_identifier" || c?.type === "identifier");
    return name ? [name.text] : [];
  });
}

/** The interfaces `declaration` extends, with their type arguments' simple names: `TransactionalDao<Roles>` → TransactionalDao, [Roles]. */
function extended(declaration: Node): { name: string; args: string[] }[] {
  const list = declaration.namedChildren.find((c) => c?.type === "extends_interfaces");
  return (list?.namedChildren[0]?.namedChildren ?? []).flatMap((type) => {
    if (!type) return [];
    if (type.type === "type_identifier") return [{ name: type.text, args: [] }];
    if (type.type !== "generic_type") return [];
    const name = type.namedChildren.find((c) => c?.type === "type_identifier" || c?.type === "scoped_type_identifier")?.text.split(".").pop();
    const args = (type.namedChildren.find((c) => c?.type === "type_arguments")?.namedChildren ?? []).map((a) => a?.text.replace(/<.*$/s, "").split(".").pop() ?? "");
    return name ? [{ name, args }] : [];
  });
}

/**
 * The `@Select`, `@Insert`, `@Update` and `@Delete` methods of the `@Dao` interfaces of one Java
 * file, with those they inherit from generic interfaces of the files read
 * (`interface RoleDao extends CrudDao<Role>`: the base's `@Insert void insert(T entity)` inserts a Role).
 */
export function daoStatements(source: DaoSource, tables: CodeTable[], interfaceNamed: InterfaceNamed = () => undefined): DaoStatement[] {
  const entityNamed = mapperEntities(tables, source.path);
  const found: DaoStatement[] = [];
  for (const dao of source.root.descendantsOfType(["interface_declaration", "class_declaration"])) {
    if (!dao || !annotationsOf(dao).has("Dao")) continue;
    const daoName = field(dao, "name")?.text ?? "";
    const own = new Set((field(dao, "body")?.namedChildren ?? []).flatMap((m) => (m?.type === "method_declaration" ? [signature(m, new Map())] : [])));
    const visit = (declaration: Node, from: DaoSource, typeArguments: Map<string, string>, depth: number, seen: Set<number>) => {
      if (seen.has(declaration.id) || depth > 8) return;
      seen.add(declaration.id);
      for (const method of field(declaration, "body")?.namedChildren ?? []) {
        if (method?.type !== "method_declaration") continue;
        const statement = readMethod(method, from, entityNamed, typeArguments);
        // A method the DAO declares itself overrides the base's of the same signature (an overload does not).
        const hidden = depth > 0 && own.has(signature(method, typeArguments));
        if (statement && !hidden) found.push({ ...statement, dao: daoName, daoNode: field(dao, "name") ?? dao });
      }
      for (const base of extended(declaration)) {
        const inherited = interfaceNamed(base.name);
        if (!inherited) continue;
        const parameters = typeParameters(inherited.node);
        const map = new Map(parameters.map((p, i) => [p, typeArguments.get(base.args[i] ?? "") ?? base.args[i] ?? p]));
        visit(inherited.node, inherited.source, map, depth + 1, seen);
      }
    };
    visit(dao, source, new Map(), 0, new Set());
  }
  return found;
}

/** `update(User,long)`: a method's name and parameter types, type parameters replaced by their arguments. */
function signature(method: Node, typeArguments: Map<string, string>): string {
  const types = (field(method, "parameters")?.namedChildren ?? []).flatMap((p) => {
    const type = p && (field(p, "type")?.text ?? "").replace(/<.*$/s, "").split(".").pop();
    return type === undefined || type === null ? [] : [typeArguments.get(type) ?? type];
  });
  return `${field(method, "name")?.text ?? ""}(${types.join(",")})`;
}

function readMethod(
  method: Node,
  source: DaoSource,
  entityNamed: (name: string) => CodeTable | undefined,
  typeArguments: Map<string, string>,
): DaoMethod | undefined {
  const annotations = annotationsOf(method);
  const kind = [...annotations.keys()].find((name) => DAO_METHODS.has(name));
  const name = field(method, "name");
  if (!kind || !name) return undefined;
  const annotation = annotations.get(kind)!;
  const api = `@${kind}`;
  const base = { node: name, api, source, method: name.text };
  const table = entityOf(kind, annotation, method, entityNamed, typeArguments);
  if (!table) return { ...base, dynamic: "the mapper writes it from an entity that is not among the files read", start: `${kind.toUpperCase()} …` };
  const statement = methodStatement(kind, annotation, method, table, source.text, typeArguments);
  if (!statement) return undefined;
  return "cql" in statement ? { ...base, cql: statement.cql } : { ...base, dynamic: statement.dynamic, start: `${kind.toUpperCase()} … ${qualified(table)}` };
}
