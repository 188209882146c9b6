// `cql-review init` for an application whose tables come from its entity classes (Spring Data
// Cassandra with `schema-action`, or `@Table` entities and no schema script in the repository):
// a draft schema file derived from the entities, so that `check` plans reads against real keys.
// Each column's CQL type follows Spring Data Cassandra's default mapping of the field's Java or
// Kotlin type, or the field's `@CassandraType`; a field whose type has no default mapping is
// left out of its table and reported, never guessed. Pure: entities in, CQL text out.
import type { CodeStatement, CodeTable, DeclaredName, DeclaredType } from "../code/types.js";
import { parseCql } from "../cql/index.js";
import { quoteName } from "../cql/print.js";
import type { SourceFile } from "../source-file.js";

/** Where the schema drafted from entities is written: beside the manifest, where the default schema glob finds it. */
export const ENTITY_SCHEMA_PATH = "schema.cql";

/**
 * Spring Data Cassandra's default mapping of simple types to CQL types (its reference, "Data
 * Mapping and Type Conversion"), by the type's simple name, Java and Kotlin spellings alike.
 */
const SIMPLE_TYPES: Record<string, string> = {
  String: "text",
  UUID: "uuid",
  boolean: "boolean",
  Boolean: "boolean",
  int: "int",
  Integer: "int",
  Int: "int",
  long: "bigint",
  Long: "bigint",
  short: "smallint",
  Short: "smallint",
  byte: "tinyint",
  Byte: "tinyint",
  float: "float",
  Float: "float",
  double: "double",
  Double: "double",
  BigInteger: "varint",
  BigDecimal: "decimal",
  Date: "timestamp",
  Instant: "timestamp",
  LocalDateTime: "timestamp",
  LocalDate: "date",
  LocalTime: "time",
  InetAddress: "inet",
  ByteBuffer: "blob",
  "byte[]": "blob",
  ByteArray: "blob",
  CqlDuration: "duration",
};

const LIST_TYPES = new Set(["List", "ArrayList", "LinkedList", "MutableList", "Collection", "Iterable", "MutableCollection", "MutableIterable"]);
const SET_TYPES = new Set(["Set", "HashSet", "LinkedHashSet", "TreeSet", "SortedSet", "NavigableSet", "MutableSet"]);
const MAP_TYPES = new Set(["Map", "HashMap", "LinkedHashMap", "TreeMap", "SortedMap", "NavigableMap", "MutableMap"]);

/** `@CassandraType(type = Name.X)`'s names in CQL (Spring Data's `CassandraType.Name`). */
const CASSANDRA_TYPE_NAMES: Record<string, string> = {
  ASCII: "ascii",
  BIGINT: "bigint",
  BLOB: "blob",
  BOOLEAN: "boolean",
  COUNTER: "counter",
  DATE: "date",
  DECIMAL: "decimal",
  DOUBLE: "double",
  DURATION: "duration",
  FLOAT: "float",
  INET: "inet",
  INT: "int",
  SMALLINT: "smallint",
  TEXT: "text",
  TIME: "time",
  TIMESTAMP: "timestamp",
  TIMEUUID: "timeuuid",
  TINYINT: "tinyint",
  UUID: "uuid",
  VARCHAR: "varchar",
  VARINT: "varint",
};

interface TypeNode {
  name: string;
  args: TypeNode[];
}

/** `Map<String, List<Integer>>` as a tree; `String[]` is an array of String; undefined when it does not parse. */
export function parseTypeText(text: string): TypeNode | undefined {
  const tokens = text.match(/[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*|\[\s*\]|[<>,?*]|\S/g) ?? [];
  let at = 0;
  const parse = (depth: number): TypeNode | undefined => {
    if (depth > 16) return undefined;
    // Wildcards (`? extends T`, Kotlin's `out T`) read as their bound.
    if (tokens[at] === "?" || tokens[at] === "*") at++;
    if (tokens[at] === "extends" || tokens[at] === "out" || tokens[at] === "in") at++;
    const name = tokens[at++];
    if (!name || !/^[A-Za-z_$]/.test(name)) return undefined;
    let node: TypeNode = { name: name.split(".").pop()!, args: [] };
    if (tokens[at] === "<") {
      at++;
      for (;;) {
        const arg = parse(depth + 1);
        if (!arg) return undefined;
        node.args.push(arg);
        if (tokens[at] === ",") at++;
        else break;
      }
      if (tokens[at++] !== ">") return undefined;
    }
    if (tokens[at] === "?") at++;
    while (tokens[at]?.startsWith("[")) {
      at++;
      node = node.name === "byte" && node.args.length === 0 ? { name: "byte[]", args: [] } : { name: "Array", args: [node] };
    }
    return node;
  };
  const tree = parse(0);
  return tree && at === tokens.length ? tree : undefined;
}

/** A CQL type derived from a declared type, or why none is. */
export type DerivedType = { cql: string; userTypes: string[] } | { unknown: string };

/**
 * The CQL type Spring Data Cassandra gives a property of this declared type: its `@CassandraType`
 * when it has one, else the default mapping. Elements of a collection that are themselves
 * collections or user types are frozen, as CQL requires.
 */
export function cqlTypeOf(declared: DeclaredType): DerivedType {
  if (declared.cassandraType) {
    const fromAnnotation = annotationType(declared.cassandraType);
    if (fromAnnotation) return fromAnnotation;
  }
  const tree = parseTypeText(declared.text);
  if (!tree) return { unknown: `the type ${declared.text} could not be read` };
  const userTypes: string[] = [];
  const named = declared.named ?? {};
  const map = (node: TypeNode, nested: boolean): string | { unknown: string } => {
    const known = named[node.name] as DeclaredName | undefined;
    if (known && "enum" in known) return "text";
    if (known && "userType" in known) {
      // A user type whose fields were not read has no CREATE TYPE to draft: the column is unknown too.
      if (!known.fields || known.fields.length === 0) return { unknown: `the fields of the user type ${known.userType} (${node.name}) could not be read` };
      userTypes.push(node.name);
      const name = quoteName(known.userType);
      return nested || declared.frozen ? `frozen<${name}>` : name;
    }
    const simple = SIMPLE_TYPES[node.name];
    if (simple && node.args.length === 0) return simple;
    const collection = LIST_TYPES.has(node.name) || node.name === "Array" ? "list" : SET_TYPES.has(node.name) ? "set" : MAP_TYPES.has(node.name) ? "map" : undefined;
    if (collection) {
      const expected = collection === "map" ? 2 : 1;
      if (node.args.length !== expected) return { unknown: `${node.name} without its element type${expected > 1 ? "s" : ""}` };
      const parts: string[] = [];
      for (const arg of node.args) {
        const part = map(arg, true);
        if (typeof part !== "string") return part;
        parts.push(part);
      }
      const type = `${collection}<${parts.join(", ")}>`;
      return nested || declared.frozen ? `frozen<${type}>` : type;
    }
    return { unknown: `${node.name} has no default CQL type: a class stored through a converter, or one no @UserDefinedType of the sources declares` };
  };
  const cql = map(tree, false);
  return typeof cql === "string" ? { cql, userTypes } : cql;
}

/** `@CassandraType(type = Name.LIST, typeArguments = Name.TEXT)` as a CQL type; undefined when it does not say plainly. */
function annotationType(text: string): DerivedType | undefined {
  const nameOf = (word: string | undefined) => (word ? CASSANDRA_TYPE_NAMES[word] : undefined);
  const type = /\btype\s*=\s*(?:[\w.]*\.)?([A-Z_]+)\b/.exec(text)?.[1];
  // Bounded and split in two steps: an open `{` with no `}` and a dotted-name prefix both backtrack quadratically on repeats.
  const argumentsText = /\btypeArguments\s*=\s*(\{[^}]{0,512}\}|[\w.]+)/.exec(text)?.[1] ?? "";
  const typeArguments = [...argumentsText.matchAll(/[\w.]+/g)]
    .map((match) => match[0].slice(match[0].lastIndexOf(".") + 1))
    .filter((word) => /^[A-Z_]+$/.test(word))
    .map((word) => nameOf(word));
  if (type === "UDT") {
    const userType = /\buserTypeName\s*=\s*"([^"]+)"/.exec(text)?.[1];
    return userType ? { cql: quoteName(userType.toLowerCase()), userTypes: [] } : undefined;
  }
  if (type === "LIST" || type === "SET" || type === "MAP") {
    const expected = type === "MAP" ? 2 : 1;
    if (typeArguments.length !== expected || typeArguments.some((arg) => arg === undefined)) return undefined;
    return { cql: `${type.toLowerCase()}<${typeArguments.join(", ")}>`, userTypes: [] };
  }
  const simple = nameOf(type);
  return simple ? { cql: simple, userTypes: [] } : undefined;
}

/** A field whose CQL type the draft could not derive: reported, and left out of its table. */
export interface UnknownColumn {
  entity: string;
  /** the CQL column name */
  name: string;
  property: string;
  type: string;
  reason: string;
  /** where the field is declared */
  file: string;
  line: number;
  column: number;
}

/** The setting that makes the application create its tables at start, where it is written. */
export interface SchemaAction {
  value: string;
  file: string;
  line: number;
}

export interface EntitySchemaDraft {
  text: string;
  /** tables drafted (with CREATE TABLE), and entities that could not be (no key read) */
  tables: number;
  skipped: { entity: string; file: string; line: number; reason: string }[];
  unknown: UnknownColumn[];
}

/**
 * Spring Boot's `spring.cassandra.schema-action` (2.x: `spring.data.cassandra.schema-action`, any
 * spelling relaxed binding accepts) in the application's configuration, or a configuration class
 * returning `SchemaAction.X`: whether the application creates its tables, and where it says so.
 */
export function schemaActionOf(files: readonly SourceFile[]): SchemaAction | undefined {
  // The application's own configuration before its tests' (`src/test/resources/application.properties`).
  const isTest = (file: SourceFile) => /(^|\/)(src\/test|test|tests)\//.test(file.path);
  for (const file of [...files.filter((f) => !isTest(f)), ...files.filter(isTest)]) {
    const lines = file.content.split("\n");
    for (let i = 0; i < lines.length && i < 10_000; i++) {
      const line = lines[i]!.slice(0, 1_000);
      const setting = /^\s*(?:spring\.(?:data\.)?cassandra\.)?schema[-_]?action\s*[:=]\s*["']?([A-Za-z_-]+)/i.exec(line);
      const code = /\bSchemaAction\.([A-Z_]+)\b/.exec(line);
      const value = setting?.[1] ?? code?.[1];
      if (value && value.toUpperCase() !== "NONE") return { value, file: file.path, line: i + 1 };
    }
  }
  return undefined;
}

/** The entities a schema can be drafted from: Java and Kotlin classes whose fields' types were read. */
export function draftableEntities(tables: readonly CodeTable[]): CodeTable[] {
  return tables.filter((table) => table.framework !== "cqlengine" && table.columns.some((column) => column.declared !== undefined));
}

const comment = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ");

/**
 * The draft schema: one CREATE TYPE per user type the entities use and one CREATE TABLE per
 * entity with a key, in the entity's keyspace when it names one (else the session's keyspace the
 * application configures). A column whose type is unknown is a TODO comment in its table; an
 * entity without a readable key, or with a key column of unknown type, is a comment only.
 */
export function schemaFromEntities(entities: readonly CodeTable[], options: { schemaAction?: SchemaAction; code?: readonly CodeStatement[] }): EntitySchemaDraft {
  const unknown: UnknownColumn[] = [];
  const skipped: EntitySchemaDraft["skipped"] = [];
  const userTypes = new Map<string, { name: string; fields: { name: string; declared: DeclaredType }[] }>();
  const blocks: string[] = [];
  const byName = [...entities].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.file < b.file ? -1 : 1));
  const seen = new Set<string>();
  let drafted = 0;
  for (const entity of byName) {
    const qualified = entity.keyspace ? `${quoteName(entity.keyspace)}.${quoteName(entity.name)}` : quoteName(entity.name);
    const where = `${entity.file}:${entity.range.start.line}`;
    if (seen.has(qualified)) {
      skipped.push({ entity: entity.entity, file: entity.file, line: entity.range.start.line, reason: `another entity maps ${qualified} too` });
      blocks.push(`-- ${comment(entity.entity)} (${comment(where)}) maps ${comment(qualified)} too: not drafted twice.`);
      continue;
    }
    seen.add(qualified);
    if (!entity.partitionKey || entity.partitionKey.length === 0) {
      const reason = "its primary key could not be read (a key in a class that was not read, or none annotated)";
      skipped.push({ entity: entity.entity, file: entity.file, line: entity.range.start.line, reason });
      blocks.push(`-- TODO: ${comment(entity.entity)} (${comment(where)}) maps ${comment(qualified)}, but ${reason}: write its CREATE TABLE.`);
      continue;
    }
    const keyNames = new Set([...entity.partitionKey, ...(entity.clustering ?? []).map((c) => c.name)]);
    const lines: string[] = [];
    const todos: string[] = [];
    let keyUnknown: string | undefined;
    for (const column of entity.columns) {
      const derived: DerivedType = column.declared ? cqlTypeOf(column.declared) : { unknown: "its declared type was not read" };
      if ("unknown" in derived) {
        const declaredText = column.declared?.text ?? "?";
        unknown.push({
          entity: entity.entity,
          name: column.name,
          property: column.property,
          type: declaredText,
          reason: derived.unknown,
          file: column.file ?? entity.file,
          line: column.range.start.line,
          column: column.range.start.column,
        });
        todos.push(`  -- TODO: ${comment(column.name)} (${comment(column.property)}: ${comment(declaredText)}): ${comment(derived.unknown)}; add it with its CQL type`);
        if (keyNames.has(column.name)) keyUnknown = column.name;
        continue;
      }
      for (const name of derived.userTypes) {
        const known = column.declared?.named?.[name];
        if (known && "userType" in known && !userTypes.has(known.userType)) userTypes.set(known.userType, { name: known.userType, fields: known.fields ?? [] });
      }
      lines.push(`  ${quoteName(column.name)} ${derived.cql},`);
    }
    if (keyUnknown !== undefined) {
      skipped.push({ entity: entity.entity, file: entity.file, line: entity.range.start.line, reason: `the CQL type of its key column ${keyUnknown} is not known` });
      blocks.push(
        [`-- TODO: ${comment(entity.entity)} (${comment(where)}) maps ${comment(qualified)}; its key column ${comment(keyUnknown)} has no CQL type to derive: write its CREATE TABLE.`, ...todos].join("\n"),
      );
      continue;
    }
    const partition = entity.partitionKey.map(quoteName);
    const clustering = (entity.clustering ?? []).map((c) => quoteName(c.name));
    const key = `PRIMARY KEY (${[partition.length === 1 ? partition[0]! : `(${partition.join(", ")})`, ...clustering].join(", ")})`;
    const order = (entity.clustering ?? []).some((c) => c.order === "desc")
      ? ` WITH CLUSTERING ORDER BY (${(entity.clustering ?? []).map((c) => `${quoteName(c.name)} ${c.order === "desc" ? "DESC" : "ASC"}`).join(", ")})`
      : "";
    blocks.push([`-- ${comment(entity.entity)}, ${comment(where)}`, `CREATE TABLE ${qualified} (`, ...lines, ...todos, `  ${key}`, `)${order};`].join("\n"));
    drafted++;
  }
  const typeBlocks: string[] = [];
  for (const userType of userTypes.values()) {
    const fields: string[] = [];
    const todos: string[] = [];
    for (const field of userType.fields) {
      const derived = cqlTypeOf(field.declared);
      if ("unknown" in derived) todos.push(`  -- TODO: ${comment(field.name)} (${comment(field.declared.text)}): ${comment(derived.unknown)}`);
      else fields.push(`${quoteName(field.name)} ${derived.cql}`);
    }
    if (fields.length === 0) {
      typeBlocks.push(`-- TODO: the user type ${comment(userType.name)} is used by the entities, but its fields could not be read: write its CREATE TYPE.`);
      continue;
    }
    typeBlocks.push([`CREATE TYPE ${quoteName(userType.name)} (`, fields.map((field, i) => `  ${field}${i < fields.length - 1 ? "," : ""}`).join("\n"), ...todos, ");"].join("\n"));
  }
  // The schema statements the application runs itself (an index created at start): part of what the tables are.
  const run = schemaStatementsOf(options.code ?? []);
  const keyspaces = run.filter((statement) => statement.kind === "create-keyspace").map((statement) => statement.text);
  const others = run.filter((statement) => statement.kind !== "create-keyspace").map((statement) => statement.text);
  const classes = byName.map((entity) => entity.entity);
  const action = options.schemaAction;
  const header = [
    `-- Drafted by \`cql-review init\` from the entity classes ${classes.join(", ")}: no schema script was found.`,
    action
      ? `-- The application creates these tables at start (schema-action ${comment(action.value)}, ${comment(action.file)}:${action.line}); this file is what they are, for the review.`
      : "-- No schema-action was found: the tables are created outside this repository. Compare this file with DESCRIBE TABLE on the cluster.",
    "-- Column types follow Spring Data Cassandra's default mapping of the fields' types (or their @CassandraType).",
    "-- A field whose type has no default mapping is a TODO below, left out of its table: add it with its CQL type.",
    "-- Keep this file in step with the entities (cql-review compares them: code-table-mismatch).",
  ];
  return { text: `${[header.join("\n"), ...keyspaces, ...typeBlocks, ...blocks, ...others].join("\n\n")}\n`, tables: drafted, skipped, unknown };
}

const SCHEMA_KINDS = /^(create|alter)-/;

/** The static CREATE and ALTER statements of the code, each after a comment naming where it runs. */
function schemaStatementsOf(statements: readonly CodeStatement[]): { kind: string; text: string }[] {
  const found: { kind: string; text: string }[] = [];
  for (const statement of statements) {
    const parsed = parseCql(statement.cql);
    const [only] = parsed.statements;
    if (parsed.statements.length !== 1 || !only || parsed.diagnostics.length > 0 || !SCHEMA_KINDS.test(only.kind)) continue;
    const hash = statement.id.indexOf("#");
    const where = `${statement.id.slice(hash + 1)}, ${statement.file}:${statement.range.start.line}`;
    found.push({ kind: only.kind, text: `-- run by the application's code: ${comment(where)}\n${statement.cql.trim().replace(/;\s*$/, "")};` });
  }
  return found;
}
