// Column types as written (CqlType) → resolved ColumnType trees, with Cassandra's type checks
// (CQL3Type.Raw.prepare in apache/cassandra): user types resolved in their keyspace, frozenness
// explicit on every level, and the nesting rules reported where the offending type is written.
import type { CqlType, SourceRange } from "../cql/ast.js";
import { formatType } from "../cql/print.js";
import { display, lookupByName } from "./build-context.js";
import type { ColumnType, SchemaModel } from "./model.js";

export interface TypeEnvironment {
  schema: SchemaModel;
  /** the keyspace of the statement: user types are looked up there */
  keyspace: string;
  /** where problems go; absent when re-resolving a type already checked (ALTER TYPE, views) */
  report?: (range: SourceRange, message: string, problem: string) => void;
}

/** Deep enough for any real nesting; stops a malformed cycle of user types from recursing forever. */
const MAX_DEPTH = 32;

export function resolveColumnType(type: CqlType, env: TypeEnvironment): ColumnType {
  return resolve(type, false, env, 0);
}

function resolve(type: CqlType, frozen: boolean, env: TypeEnvironment, depth: number): ColumnType {
  if (depth > MAX_DEPTH) return { kind: "unknown", name: formatType(type) };
  switch (type.kind) {
    case "native":
      return { kind: "native", name: type.name };
    case "custom":
      return { kind: "custom", className: type.className };
    case "frozen": {
      const inner = type.inner;
      if (inner.kind === "native" || inner.kind === "custom") {
        env.report?.(
          type.range,
          `frozen<> is only allowed on collections, tuples, and user-defined types (got ${formatType(inner)})`,
          "frozen-non-collection",
        );
      }
      return resolve(inner, true, env, depth + 1);
    }
    case "collection":
      return resolveCollection(type, frozen, env, depth);
    case "tuple":
      for (const element of type.elements) {
        if (isCounter(element)) env.report?.(element.range, "Counters are not allowed inside tuples", "counter-in-tuple");
      }
      // Tuple elements are always frozen: a tuple is one cell.
      return { kind: "tuple", elements: type.elements.map((e) => resolve(e, true, env, depth + 1)) };
    case "vector":
      if (type.dimension <= 0) {
        env.report?.(type.range, `vectors may only have positive dimensions; given ${type.dimension}`, "vector-dimension");
      }
      return { kind: "vector", element: resolve(type.element, true, env, depth + 1), dimension: type.dimension };
    case "user":
      return resolveUserType(type, frozen, env, depth);
  }
}

function resolveCollection(
  type: Extract<CqlType, { kind: "collection" }>,
  frozen: boolean,
  env: TypeEnvironment,
  depth: number,
): ColumnType {
  // Printed only when a problem is reported: most columns have none.
  const written = () => formatType(frozen ? { kind: "frozen", inner: type, range: type.range } : type);
  const [first, second] = type.elements;
  for (const element of type.elements) {
    if (!frozen && element.kind === "collection") {
      env.report?.(element.range, `Non-frozen collections are not allowed inside collections: ${written()}`, "nested-non-frozen");
    } else if (!frozen && element.kind === "user") {
      env.report?.(element.range, `Non-frozen UDTs are not allowed inside collections: ${written()}`, "nested-non-frozen");
    }
    if (isCounter(element)) env.report?.(element.range, `Counters are not allowed inside collections: ${written()}`, "counter-in-collection");
  }
  if (type.collection === "set" && first && isNative(first, "duration")) {
    env.report?.(first.range, `Durations are not allowed inside sets: ${written()}`, "duration-in-set");
  }
  if (type.collection === "map" && first && isNative(first, "duration")) {
    env.report?.(first.range, `Durations are not allowed as map keys: ${written()}`, "duration-map-key");
  }
  // A malformed tree (missing element) resolves to an unknown element rather than throwing.
  const element = (t: CqlType | undefined): ColumnType =>
    t ? resolve(t, frozen, env, depth + 1) : { kind: "unknown", name: "" };
  if (type.collection === "map") return { kind: "map", frozen, key: element(first), value: element(second) };
  return { kind: type.collection, frozen, element: element(first) };
}

function resolveUserType(
  type: Extract<CqlType, { kind: "user" }>,
  frozen: boolean,
  env: TypeEnvironment,
  depth: number,
): ColumnType {
  const referenced = type.name.keyspace?.name;
  if (referenced !== undefined && env.keyspace !== "" && referenced !== env.keyspace) {
    env.report?.(
      type.range,
      `Statement on keyspace ${env.keyspace} cannot refer to a user type in keyspace ${referenced}; ` +
        "user types can only be used in the keyspace they are defined in",
      "foreign-type",
    );
  }
  const keyspace = referenced ?? env.keyspace;
  const udt = lookupByName(env.schema.types, keyspace, type.name.name.name, referenced !== undefined);
  if (!udt) {
    const written = formatType(type);
    env.report?.(type.range, `Unknown type ${display(keyspace, type.name.name.name)}`, `unknown-type:${written}`);
    return { kind: "unknown", name: written };
  }
  // Fields were checked at CREATE TYPE; here they only take the frozenness of this use.
  const fieldEnv: TypeEnvironment = { schema: env.schema, keyspace: udt.keyspace };
  const fields = udt.fields.map((f) => ({ name: f.name, type: resolve(f.type, frozen, fieldEnv, depth + 1) }));
  if (!frozen && fields.some((f) => isMultiCell(f.type))) {
    env.report?.(type.range, "Non-frozen UDTs with nested non-frozen collections are not supported", "udt-nested-non-frozen");
  }
  return { kind: "udt", keyspace: udt.keyspace, name: udt.name, frozen, fields };
}

function isCounter(type: CqlType): boolean {
  return isNative(type, "counter");
}

function isNative(type: CqlType, name: string): boolean {
  return type.kind === "native" && type.name === name;
}

/** A non-frozen collection or user type: stored as one cell per element or field. */
export function isMultiCell(type: ColumnType): boolean {
  return (type.kind === "list" || type.kind === "set" || type.kind === "map" || type.kind === "udt") && !type.frozen;
}

export function referencesDuration(type: ColumnType): boolean {
  switch (type.kind) {
    case "native":
      return type.name === "duration";
    case "list":
    case "set":
      return referencesDuration(type.element);
    case "map":
      return referencesDuration(type.key) || referencesDuration(type.value);
    case "tuple":
      return type.elements.some(referencesDuration);
    case "udt":
      return type.fields.some((f) => referencesDuration(f.type));
    case "vector":
      return referencesDuration(type.element);
    default:
      return false;
  }
}

/** Whether `type` uses the user type `keyspace.name`, directly or through other user types. */
export function referencesUserType(type: ColumnType, keyspace: string, name: string): boolean {
  switch (type.kind) {
    case "udt":
      return (type.keyspace === keyspace && type.name === name) || type.fields.some((f) => referencesUserType(f.type, keyspace, name));
    case "list":
    case "set":
      return referencesUserType(type.element, keyspace, name);
    case "map":
      return referencesUserType(type.key, keyspace, name) || referencesUserType(type.value, keyspace, name);
    case "tuple":
      return type.elements.some((e) => referencesUserType(e, keyspace, name));
    case "vector":
      return referencesUserType(type.element, keyspace, name);
    default:
      return false;
  }
}

/** Whether a type as written names the user type `name` (unqualified or in `keyspace`). */
export function cqlTypeReferences(type: CqlType, keyspace: string, name: string): boolean {
  switch (type.kind) {
    case "user":
      return type.name.name.name === name && (type.name.keyspace === undefined || type.name.keyspace.name === keyspace);
    case "frozen":
      return cqlTypeReferences(type.inner, keyspace, name);
    case "collection":
    case "tuple":
      return type.elements.some((e) => cqlTypeReferences(e, keyspace, name));
    case "vector":
      return cqlTypeReferences(type.element, keyspace, name);
    default:
      return false;
  }
}
