// Helpers over the values written in a WHERE clause: literal nulls, de-duplication of IN lists,
// LIMIT literals and the assignability of a literal to a column type (Cassandra's
// Constants.Literal.testAssignment, restated). Used only by the planner.
import type { Term } from "../cql/ast.js";
import type { ColumnType } from "../schema/model.js";

/** The term without type hints: `(int) ?` is a marker, `(text) 'a'` a literal. */
export function unwrapHint(term: Term): Term {
  let current = term;
  while (current.kind === "type-hint") current = current.value;
  return current;
}

export function isNullLiteral(term: Term): boolean {
  const t = unwrapHint(term);
  return t.kind === "literal" && t.type === "null";
}

/** Whether a literal null appears at the top of the term or inside a tuple (multi-column values). */
export function containsNullLiteral(term: Term): boolean {
  const t = unwrapHint(term);
  if (t.kind === "literal") return t.type === "null";
  if (t.kind === "tuple") return t.elements.some(containsNullLiteral);
  return false;
}

export function isBindMarker(term: Term): boolean {
  return unwrapHint(term).kind === "bind";
}

/**
 * A canonical key for a literal value, so that `IN (1, 01, 1)` counts one value. Null when the
 * value is not known from the text (bind markers, function calls such as `now()`): two markers may
 * be bound to equal values, so they never count as distinct.
 */
export function literalKey(term: Term): string | null {
  const t = unwrapHint(term);
  switch (t.kind) {
    case "literal":
      switch (t.type) {
        case "integer":
          try {
            return "n:" + BigInt(t.value).toString();
          } catch {
            return "n:" + t.value;
          }
        case "float":
          return "n:" + String(Number(t.value));
        case "string":
          return "s:" + t.value;
        case "uuid":
        case "blob":
        case "boolean":
          return t.type + ":" + t.value.toLowerCase();
        default:
          return t.type + ":" + t.value;
      }
    case "tuple":
    case "list":
    case "set": {
      const keys = t.elements.map(literalKey);
      return keys.every((k) => k !== null) ? `${t.kind}(${keys.join(",")})` : null;
    }
    case "negate": {
      const inner = literalKey(t.operand);
      return inner === null ? null : "-" + inner;
    }
    default:
      return null;
  }
}

/** The number of distinct values of an IN list, or null when a value is not a literal. */
export function distinctCount(values: Term[]): number | null {
  const keys = new Set<string>();
  for (const value of values) {
    const key = literalKey(value);
    if (key === null) return null;
    keys.add(key);
  }
  return keys.size;
}

/** Whether the term is a vector literal of zeros (cosine similarity cannot compare it). */
export function isZeroVector(term: Term): boolean {
  const t = unwrapHint(term);
  return (
    t.kind === "list" &&
    t.elements.length > 0 &&
    t.elements.every((e) => {
      const v = unwrapHint(e);
      return v.kind === "literal" && (v.type === "integer" || v.type === "float") && Number(v.value) === 0;
    })
  );
}

/** The integer written as LIMIT / PER PARTITION LIMIT, or null for a marker or another term. */
export function integerLiteral(term: Term | undefined): number | null {
  if (!term) return null;
  const t = unwrapHint(term);
  if (t.kind === "literal" && t.type === "integer") return Number(t.value);
  if (t.kind === "negate") {
    const inner = integerLiteral(t.operand);
    return inner === null ? null : -inner;
  }
  return null;
}

/** CQL text of a resolved column type, for messages (`frozen<map<text, int>>`). */
export function describeType(type: ColumnType): string {
  switch (type.kind) {
    case "native":
      return type.name;
    case "list":
    case "set": {
      const text = `${type.kind}<${describeType(type.element)}>`;
      return type.frozen ? `frozen<${text}>` : text;
    }
    case "map": {
      const text = `map<${describeType(type.key)}, ${describeType(type.value)}>`;
      return type.frozen ? `frozen<${text}>` : text;
    }
    case "tuple":
      return `frozen<tuple<${type.elements.map(describeType).join(", ")}>>`;
    case "udt": {
      const text = `${type.keyspace}.${type.name}`;
      return type.frozen ? `frozen<${text}>` : text;
    }
    case "vector":
      return `vector<${describeType(type.element)}, ${type.dimension}>`;
    case "custom":
      return `'${type.className}'`;
    case "unknown":
      return type.name;
  }
}

// Which native types a literal of each kind may be assigned to (Constants.Literal.testAssignment).
const LITERAL_RECEIVERS: Record<string, ReadonlySet<string>> = {
  string: new Set(["ascii", "text", "varchar", "inet", "date", "time", "timestamp"]),
  integer: new Set([
    "bigint", "counter", "date", "decimal", "double", "duration", "float", "int", "smallint", "time",
    "timestamp", "tinyint", "varint",
  ]),
  float: new Set(["decimal", "double", "float"]),
  nan: new Set(["decimal", "double", "float"]),
  infinity: new Set(["decimal", "double", "float"]),
  uuid: new Set(["uuid", "timeuuid"]),
  boolean: new Set(["boolean"]),
  blob: new Set(["blob"]),
  duration: new Set(["duration"]),
};

const LITERAL_NAMES: Record<string, string> = {
  string: "STRING",
  integer: "INTEGER",
  float: "FLOAT",
  nan: "FLOAT",
  infinity: "FLOAT",
  uuid: "UUID",
  boolean: "BOOLEAN",
  blob: "HEX",
  duration: "DURATION",
};

const COLLECTION_LITERAL_NAMES: Partial<Record<Term["kind"], string>> = {
  list: "list literal",
  set: "set literal",
  map: "map literal",
  udt: "user type literal",
  tuple: "tuple literal",
};

/**
 * Cassandra's message when a written value cannot be assigned to the column, or null when it can
 * (or when it cannot be judged from the text: markers, functions, nested collection literals).
 */
export function assignmentError(term: Term, type: ColumnType, columnName: string): string | null {
  const t = unwrapHint(term);
  if (type.kind === "custom" || type.kind === "unknown") return null;
  if (t.kind === "literal") {
    if (t.type === "null") return null;
    const shown = t.type === "string" ? t.value : t.value;
    if (type.kind !== "native") {
      return `Invalid ${LITERAL_NAMES[t.type]} constant (${shown}) for "${columnName}" of type ${describeType(type)}`;
    }
    const receivers = LITERAL_RECEIVERS[t.type];
    if (receivers && !receivers.has(type.name)) {
      return `Invalid ${LITERAL_NAMES[t.type]} constant (${shown}) for "${columnName}" of type ${type.name}`;
    }
    return null;
  }
  if (type.kind === "vector" && t.kind === "list" && t.elements.length !== type.dimension) {
    return `Invalid vector literal for ${columnName} of type ${describeType(type)}; expected ${type.dimension} elements, but given ${t.elements.length}`;
  }
  const collectionName = COLLECTION_LITERAL_NAMES[t.kind];
  if (collectionName && type.kind === "native") {
    return `Invalid ${collectionName} for ${columnName} of type ${type.name}`;
  }
  return null;
}
