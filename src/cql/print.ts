// Printing AST types and terms back to CQL, for fixes and suggested statements. Everything printed
// here parses again to the same AST (see test/cql/print.test.ts).
import { NATIVE_TYPES, type BinaryExpression, type CqlType, type QualifiedName, type Term } from "./ast.js";
import { reservedKeywordNames } from "./tokens.js";

/**
 * True for words that cannot be unquoted names: Cassandra's reserved keywords (`select`, `order`,
 * `table`, …) and the literals `true` and `false`, in any case.
 */
export function isReservedKeyword(word: string): boolean {
  return reservedKeywordNames.has(word.toLowerCase());
}

/**
 * A name as CQL source: bare when it is a valid lower-case unquoted identifier that is not
 * reserved (unquoted names fold to lower case, so anything else needs quotes), else double-quoted
 * with `"` doubled.
 */
export function quoteName(name: string): string {
  if (/^[a-z][a-z0-9_]*$/.test(name) && !isReservedKeyword(name)) return name;
  return `"${name.replace(/"/g, '""')}"`;
}

function quoteString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function formatQualifiedName(name: QualifiedName): string {
  const last = name.name.name;
  // `token(…)` is a reserved word that still names a function (unqualified only).
  const printed = last === "token" && !name.name.quoted && !name.keyspace ? "token" : quoteName(last);
  return name.keyspace ? `${quoteName(name.keyspace.name)}.${printed}` : printed;
}

const TYPE_WORDS = new Set<string>([...NATIVE_TYPES, "map", "list", "set", "frozen", "tuple", "vector"]);

export function formatType(type: CqlType): string {
  switch (type.kind) {
    case "native":
      return type.name;
    case "collection":
      return `${type.collection}<${type.elements.map(formatType).join(", ")}>`;
    case "frozen":
      return `frozen<${formatType(type.inner)}>`;
    case "tuple":
      return `tuple<${type.elements.map(formatType).join(", ")}>`;
    case "vector":
      return `vector<${formatType(type.element)}, ${type.dimension}>`;
    case "user": {
      // A user type (or its keyspace) called like a built-in type is quoted, or it would read as
      // the built-in.
      const part = (name: string) => (TYPE_WORDS.has(name) ? `"${name}"` : quoteName(name));
      return type.name.keyspace ? `${part(type.name.keyspace.name)}.${part(type.name.name.name)}` : part(type.name.name.name);
    }
    case "custom":
      return quoteString(type.className);
  }
}

const PRECEDENCE: Record<BinaryExpression["operator"], number> = { "+": 1, "-": 1, "*": 2, "/": 2, "%": 2 };

export function formatTerm(term: Term): string {
  switch (term.kind) {
    case "literal":
      switch (term.type) {
        case "string":
          return quoteString(term.value);
        case "null":
          return "null";
        default:
          return term.value;
      }
    case "bind":
      return term.name === undefined ? "?" : `:${quoteName(term.name)}`;
    case "list":
      return `[${term.elements.map(formatTerm).join(", ")}]`;
    case "set":
      return `{${term.elements.map(formatTerm).join(", ")}}`;
    case "map":
      return `{${term.entries.map((e) => `${formatTerm(e.key)}: ${formatTerm(e.value)}`).join(", ")}}`;
    case "udt":
      return `{${term.fields.map((f) => `${quoteName(f.name.name)}: ${formatTerm(f.value)}`).join(", ")}}`;
    case "tuple":
      return `(${term.elements.map(formatTerm).join(", ")})`;
    case "function":
      return `${formatQualifiedName(term.name)}(${term.args.map(formatTerm).join(", ")})`;
    case "cast":
      return `CAST(${formatTerm(term.value)} AS ${formatType(term.type)})`;
    case "type-hint":
      return `(${formatType(term.type)}) ${formatOperand(term.value)}`;
    case "column":
      return quoteName(term.name.name);
    case "field":
      return `${formatOperand(term.target)}.${quoteName(term.field.name)}`;
    case "element":
      return `${formatOperand(term.target)}[${formatTerm(term.index)}]`;
    case "slice": {
      const from = term.from ? formatTerm(term.from) : "";
      // `1...` would lex as `1`, `..`, `.`: a float ending in a dot needs a space before the range.
      const range = from.endsWith(".") ? " .." : "..";
      return `${formatOperand(term.target)}[${from}${range}${term.to ? formatTerm(term.to) : ""}]`;
    }
    case "binary": {
      const own = PRECEDENCE[term.operator];
      const left = term.left.kind === "binary" && PRECEDENCE[term.left.operator] < own ? `(${formatTerm(term.left)})` : formatTerm(term.left);
      const right = term.right.kind === "binary" && PRECEDENCE[term.right.operator] <= own ? `(${formatTerm(term.right)})` : formatTerm(term.right);
      return `${left} ${term.operator} ${right}`;
    }
    case "negate":
      return `-${formatOperand(term.operand)}`;
    case "star":
      return "*";
  }
}

/** A term in a position that binds tighter than any operator (before `.`, `[`, after `-`). */
function formatOperand(term: Term): string {
  const printed = formatTerm(term);
  const needsParentheses = term.kind === "binary" || term.kind === "negate" || (term.kind === "literal" && term.value.startsWith("-")) || term.kind === "type-hint";
  return needsParentheses ? `(${printed})` : printed;
}
