// CST → AST for the parts statements share: names, types, terms, relations, options, USING.
import type { CstElement, CstNode, IToken } from "chevrotain";
import type {
  BindMarker,
  ColumnRelation,
  CqlType,
  FunctionCall,
  Identifier,
  Literal,
  LiteralType,
  MultiColumnRelation,
  NativeTypeName,
  OptionEntry,
  ParseDiagnostic,
  QualifiedName,
  Relation,
  RelationOperator,
  SourceRange,
  Term,
  TupleLiteral,
  UsingClause,
  WhereClause,
} from "./ast.js";
import { child, childNodes, has, IncompleteTreeError, isToken, nodeRange, required, requiredTok, span, tok, toks } from "./cst.js";
import { tokenRange } from "./lexer.js";
import * as T from "./tokens.js";

/** A construct the grammar accepts as a superset but CQL does not; reported as a syntax error. */
export class AstSyntaxError extends Error {
  override name = "AstSyntaxError";
  constructor(
    message: string,
    readonly range: SourceRange,
  ) {
    super(message);
  }
}

/** State of one conversion: the source (for statement text) and the notes it produces. */
export interface AstContext {
  text: string;
  /** vendor clauses and options found inside otherwise valid statements */
  notes: ParseDiagnostic[];
}

// ---------------------------------------------------------------------------------------------
// Names

export function unquoteIdentifier(image: string): string {
  return image.slice(1, -1).replace(/""/g, '"');
}

export function unquoteString(image: string): string {
  const content = image.slice(1, -1);
  return content.includes("''") ? content.replace(/''/g, "'") : content;
}

export function identifier(token: IToken): Identifier {
  if (token.isInsertedInRecovery) throw new IncompleteTreeError("name inserted by recovery");
  const range = tokenRange(token);
  if (token.tokenType === T.QuotedIdentifier) return { name: unquoteIdentifier(token.image), text: token.image, quoted: true, range };
  if (token.tokenType === T.StringLiteral) return { name: unquoteString(token.image), text: token.image, quoted: true, range };
  return { name: token.image.toLowerCase(), text: token.image, quoted: false, range };
}

export function qualifiedName(node: CstNode): QualifiedName {
  const first = identifier(requiredTok(node, "first"));
  const second = tok(node, "second");
  const range = nodeRange(node);
  return second ? { keyspace: first, name: identifier(second), range } : { name: first, range };
}

/** Parser.g `functionName`: `[ks.]name`, where name may be the reserved word `token`. */
export function functionName(node: CstNode): QualifiedName {
  const first = tok(node, "first");
  const second = tok(node, "second");
  const range = nodeRange(node);
  if (first && second) return { keyspace: identifier(first), name: identifier(second), range };
  const only = first ?? second;
  if (!only) throw new IncompleteTreeError("function name");
  return { name: identifier(only), range };
}

/** A single name as a QualifiedName (keyspaces, roles, triggers have no keyspace part). */
export function bareQualifiedName(token: IToken): QualifiedName {
  const name = identifier(token);
  return { name, range: name.range };
}

// ---------------------------------------------------------------------------------------------
// Types

export function nativeType(token: IToken): CqlType {
  return { kind: "native", name: token.image.toLowerCase() as NativeTypeName, range: tokenRange(token) };
}

export function comparatorType(node: CstNode): CqlType {
  const native = tok(node, "native");
  if (native) return nativeType(native);
  const range = nodeRange(node);
  const elements = childNodes(node, "element").map(comparatorType);
  if (has(node, "map")) return { kind: "collection", collection: "map", elements, range };
  if (has(node, "list")) return { kind: "collection", collection: "list", elements, range };
  if (has(node, "set")) return { kind: "collection", collection: "set", elements, range };
  if (has(node, "frozen")) return { kind: "frozen", inner: first(elements), range };
  if (has(node, "tuple")) return { kind: "tuple", elements, range };
  if (has(node, "vector")) {
    const dimension = requiredTok(node, "dimension");
    return { kind: "vector", element: first(elements), dimension: Number.parseInt(dimension.image, 10), range };
  }
  const custom = tok(node, "custom");
  if (custom) return { kind: "custom", className: unquoteString(custom.image), range };
  return { kind: "user", name: qualifiedName(required(node, "user")), range };
}

function first<T>(list: T[]): T {
  const item = list[0];
  if (item === undefined) throw new IncompleteTreeError("missing element");
  return item;
}

// ---------------------------------------------------------------------------------------------
// Terms

/** A value read by grammar/terms.ts `literalOrTerm`: a literal token, or a `term` node. */
export function valueTerm(element: CstElement, context: AstContext): Term {
  return isToken(element) ? literal(element) : term(element, context);
}

export function valueTerms(node: CstNode, label: string, context: AstContext): Term[] {
  return (node.children[label] ?? []).map((element) => valueTerm(element, context));
}

const BINARY_PRECEDENCE: Record<string, number> = { "+": 1, "-": 1, "*": 2, "/": 2, "%": 2 };

/** `a + b * c`: the grammar reads a flat list; precedence and left associativity are applied here. */
export function term(node: CstNode, context: AstContext): Term {
  // The first operand's parts are the term node's own children (see grammar/terms.ts).
  const first = operandTerm(node, context);
  const rest = childNodes(node, "operand");
  if (rest.length === 0) return first;
  const operands = [first, ...rest.map((operand) => operandTerm(operand, context))];
  const operators = toks(node, "operator").map((operator) => operator.image as "+" | "-" | "*" | "/" | "%");
  if (operands.length === 0) throw new IncompleteTreeError("term without operand");
  if (operators.length === 0) return operands[0]!;
  // Shunting-yard over two precedence levels.
  const output: Term[] = [operands[0]!];
  const pending: ("+" | "-" | "*" | "/" | "%")[] = [];
  const reduce = () => {
    const operator = pending.pop()!;
    const right = output.pop()!;
    const left = output.pop()!;
    output.push({ kind: "binary", operator, left, right, range: span(left.range, right.range) });
  };
  operators.forEach((operator, i) => {
    while (pending.length > 0 && BINARY_PRECEDENCE[pending.at(-1)!]! >= BINARY_PRECEDENCE[operator]!) reduce();
    pending.push(operator);
    const operand = operands[i + 1];
    if (!operand) throw new IncompleteTreeError("operator without operand");
    output.push(operand);
  });
  while (pending.length > 0) reduce();
  return output[0]!;
}

const LITERAL_TYPES = new Map<unknown, LiteralType>([
  [T.StringLiteral, "string"],
  [T.DollarStringLiteral, "string"],
  [T.IntegerLiteral, "integer"],
  [T.FloatLiteral, "float"],
  [T.True, "boolean"],
  [T.False, "boolean"],
  [T.UuidLiteral, "uuid"],
  [T.BlobLiteral, "blob"],
  [T.DurationLiteral, "duration"],
  [T.IsoDurationLiteral, "duration"],
  [T.Null, "null"],
  [T.NanKw, "nan"],
  [T.InfinityKw, "infinity"],
]);

export function literal(token: IToken): Literal {
  if (token.isInsertedInRecovery) throw new IncompleteTreeError("literal inserted by recovery");
  const type = LITERAL_TYPES.get(token.tokenType);
  if (!type) throw new IncompleteTreeError(`not a literal: ${token.tokenType.name}`);
  let value = token.image;
  if (token.tokenType === T.StringLiteral) value = unquoteString(token.image);
  else if (token.tokenType === T.DollarStringLiteral) value = token.image.slice(2, -2);
  return { kind: "literal", type, value, range: tokenRange(token) };
}

const NEGATABLE: ReadonlySet<LiteralType> = new Set(["integer", "float", "duration", "nan", "infinity"]);

function operandTerm(node: CstNode, context: AstContext): Term {
  let base = primary(node, context);
  // Postfix accessors in source order: `.field` and `[…]` are separate child lists.
  const fields = toks(node, "field");
  const subscripts = childNodes(node, "subscript");
  if (fields.length + subscripts.length === 0) return base;
  const accessors: ({ offset: number; field: IToken } | { offset: number; subscript: CstNode })[] = [
    ...fields.map((field) => ({ offset: field.startOffset, field })),
    ...subscripts.map((subscript) => ({ offset: subscript.location?.startOffset ?? 0, subscript })),
  ].sort((a, b) => a.offset - b.offset);
  for (const accessor of accessors) {
    if ("field" in accessor) {
      const field = identifier(accessor.field);
      base = { kind: "field", target: base, field, range: span(base.range, field.range) };
      continue;
    }
    const subscript = accessor.subscript;
    const range = span(base.range, nodeRange(subscript));
    const from = child(subscript, "from");
    const to = child(subscript, "to");
    if (has(subscript, "Range")) {
      base = {
        kind: "slice",
        target: base,
        ...(from ? { from: term(from, context) } : {}),
        ...(to ? { to: term(to, context) } : {}),
        range,
      };
    } else {
      base = { kind: "element", target: base, index: term(required(subscript, "from"), context), range };
    }
  }
  return base;
}

function primary(node: CstNode, context: AstContext): Term {
  const negate = tok(node, "negate");
  if (negate) {
    const operand = operandTerm(required(node, "negated"), context);
    const range = span(tokenRange(negate), operand.range);
    // `-12`, `-1.5`, `-1h`, `-NaN`: a negative literal, as Cassandra's lexer reads it.
    if (operand.kind === "literal" && NEGATABLE.has(operand.type) && !operand.value.startsWith("-")) {
      return { kind: "literal", type: operand.type, value: `-${operand.value}`, range };
    }
    return { kind: "negate", operand, range };
  }
  const constant = tok(node, "constant");
  if (constant) return literal(constant);
  const marker = tok(node, "marker");
  if (marker) return bindMarker(marker, tok(node, "markerName"));
  const parenthesized = child(node, "parenthesizedTerm");
  if (parenthesized) return parenthesizedTerm(parenthesized, context);
  const list = child(node, "listLiteral");
  if (list) return { kind: "list", elements: valueTerms(list, "element", context), range: nodeRange(list) };
  const brace = child(node, "braceLiteral");
  if (brace) return braceLiteral(brace, context);
  const names = toks(node, "name");
  const tokenFunction = tok(node, "functionName");
  const args = child(node, "functionArgs");
  if (tokenFunction) {
    const name = bareQualifiedName(tokenFunction);
    return functionCall(name, required(node, "functionArgs"), nodeRange(node), context);
  }
  if (names.length === 0) throw new IncompleteTreeError("operand");
  if (!args) {
    const name = identifier(names[0]!);
    return { kind: "column", name, range: name.range };
  }
  const qualified: QualifiedName =
    names.length === 2
      ? { keyspace: identifier(names[0]!), name: identifier(names[1]!), range: span(tokenRange(names[0]!), tokenRange(names[1]!)) }
      : bareQualifiedName(names[0]!);
  return functionCall(qualified, args, span(qualified.range, nodeRange(args)), context);
}

export function bindMarker(marker: IToken, name: IToken | undefined): BindMarker {
  if (!name) return { kind: "bind", range: tokenRange(marker) };
  return { kind: "bind", name: identifier(name).name, range: span(tokenRange(marker), tokenRange(name)) };
}

export function functionCall(name: QualifiedName, args: CstNode, range: SourceRange, context: AstContext): Term {
  const castType = child(args, "castType");
  const argumentNodes = args.children["argument"] ?? [];
  if (castType) {
    if (name.keyspace || name.name.quoted || name.name.name !== "cast" || argumentNodes.length !== 1) {
      throw new AstSyntaxError("`AS type` is only valid in CAST(value AS type)", nodeRange(castType));
    }
    return { kind: "cast", value: valueTerm(argumentNodes[0]!, context), type: comparatorType(castType), range };
  }
  const star = tok(args, "star");
  const callArgs: Term[] = star ? [{ kind: "star", range: tokenRange(star) }] : argumentNodes.map((a) => valueTerm(a, context));
  const call: FunctionCall = { kind: "function", name, args: callArgs, range };
  return call;
}

function parenthesizedTerm(node: CstNode, context: AstContext): Term {
  const range = nodeRange(node);
  const hint = child(node, "hint");
  if (hint) return { kind: "type-hint", type: comparatorType(hint), value: operandTerm(required(node, "hinted"), context), range };
  const elements = childNodes(node, "element").map((e) => term(e, context));
  return elements.length === 1 ? elements[0]! : { kind: "tuple", elements, range };
}

function braceLiteral(node: CstNode, context: AstContext): Term {
  const range = nodeRange(node);
  const keys = valueTerms(node, "key", context);
  const values = valueTerms(node, "value", context);
  if (keys.length === 0) return { kind: "map", entries: [], range };
  if (values.length === 0) return { kind: "set", elements: keys, range };
  if (values.length !== keys.length) throw new IncompleteTreeError("map entry without value");
  // `{street: 'x'}`: bare names as keys make a user type literal (Parser.g `usertypeLiteral`).
  if (keys.every((k) => k.kind === "column")) {
    return {
      kind: "udt",
      fields: keys.map((k, i) => ({ name: (k as { name: Identifier }).name, value: values[i]! })),
      range,
    };
  }
  return { kind: "map", entries: keys.map((key, i) => ({ key, value: values[i]! })), range };
}

/**
 * A value in a multi-column relation is a tuple: in `(a) = (1)` the `(1)` is a one-element tuple,
 * though elsewhere it is just a parenthesised 1.
 */
function tupleValue(node: CstNode, context: AstContext): Term {
  const value = term(node, context);
  if (value.kind === "tuple" || value.kind === "bind") return value;
  const parenthesized = onlyOperand(node) && child(node, "parenthesizedTerm");
  if (!parenthesized) return value;
  const tuple: TupleLiteral = { kind: "tuple", elements: [value], range: nodeRange(parenthesized) };
  return tuple;
}

/** A term node with a single operand and no operator. */
function onlyOperand(node: CstNode): boolean {
  return !has(node, "operator");
}

// ---------------------------------------------------------------------------------------------
// Relations and WHERE

export function whereClause(node: CstNode, context: AstContext): WhereClause {
  const relations: Relation[] = [];
  const or: SourceRange[] = [];
  collectRelations(node, relations, or, context);
  return { relations, or, range: nodeRange(node) };
}

/** Groups `( … )` are flattened: their relations and OR positions join the enclosing clause. */
function collectRelations(node: CstNode, relations: Relation[], or: SourceRange[], context: AstContext): void {
  const items = childNodes(node, "relationOrExpression");
  const orTokens = toks(node, "or");
  let nextOr = 0;
  for (const item of items) {
    const itemStart = item.location?.startOffset ?? 0;
    while (nextOr < orTokens.length && orTokens[nextOr]!.startOffset < itemStart) or.push(tokenRange(orTokens[nextOr++]!));
    const group = child(item, "group");
    if (group) {
      collectRelations(group, relations, or, context);
      continue;
    }
    const custom = child(item, "customIndexExpression");
    if (custom) {
      relations.push({
        kind: "custom-index-expression",
        index: qualifiedName(required(custom, "index")),
        expression: term(required(custom, "expression"), context),
        range: nodeRange(custom),
      });
      continue;
    }
    relations.push(relation(item, context));
  }
  while (nextOr < orTokens.length) or.push(tokenRange(orTokens[nextOr++]!));
}

function relation(node: CstNode, context: AstContext): Relation {
  const condition = child(node, "columnCondition");
  if (condition) return columnCondition(condition, context);
  const range = nodeRange(node);
  const columns = toks(required(node, "tupleOfIdentifiers"), "column").map(identifier);
  const operationNode = required(node, "relationOperation");
  const operation = relationOperation(operationNode, context);
  if (has(node, "token")) return { kind: "token", columns, ...operation, range };
  // Multi-column values are tuples (or markers), even when written `(1)`.
  const relation: MultiColumnRelation = { kind: "multi-column", columns, operator: operation.operator, range };
  const value = child(operationNode, "value");
  const inValues = child(operationNode, "inValues");
  if (operation.values && operation.operator === "BETWEEN") {
    relation.values = [tupleValue(required(operationNode, "low"), context), tupleValue(required(operationNode, "high"), context)];
  } else if (operation.values && inValues) {
    relation.values = (inValues.children["element"] ?? []).map((element) => (isToken(element) ? literal(element) : tupleValue(element, context)));
  } else if (value) {
    relation.value = tupleValue(value, context);
  } else if (operation.value) {
    relation.value = operation.value;
  }
  return relation;
}

export function columnCondition(node: CstNode, context: AstContext): ColumnRelation {
  const key = child(node, "key");
  const field = tok(node, "field");
  return {
    kind: "column",
    column: identifier(requiredTok(node, "column")),
    ...(key ? { key: term(key, context) } : {}),
    ...(field ? { field: identifier(field) } : {}),
    ...relationOperation(node, context),
    range: nodeRange(node),
  };
}

function relationOperation(
  node: CstNode,
  context: AstContext,
): { operator: RelationOperator; value?: Term; values?: Term[] } {
  const not = has(node, "not");
  const value = child(node, "value");
  if (has(node, "in")) {
    const operator: RelationOperator = not ? "NOT IN" : "IN";
    const values = required(node, "inValues");
    const marker = tok(values, "marker");
    if (marker) return { operator, value: bindMarker(marker, tok(values, "markerName")) };
    return { operator, values: valueTerms(values, "element", context) };
  }
  if (has(node, "contains")) {
    const key = has(node, "containsKey");
    const operator = `${not ? "NOT " : ""}CONTAINS${key ? " KEY" : ""}` as RelationOperator;
    return { operator, value: term(required(node, "value"), context) };
  }
  if (has(node, "like")) return { operator: "LIKE", value: term(required(node, "value"), context) };
  if (has(node, "is")) return { operator: "IS NOT NULL" };
  if (has(node, "between")) {
    return { operator: "BETWEEN", values: [term(required(node, "low"), context), term(required(node, "high"), context)] };
  }
  const operator = requiredTok(node, "operator").image as RelationOperator;
  if (!value) throw new IncompleteTreeError("relation without value");
  return { operator, value: term(value, context) };
}

// ---------------------------------------------------------------------------------------------
// Options and USING

export function property(node: CstNode, context: AstContext): OptionEntry {
  return {
    name: identifier(requiredTok(node, "name")),
    value: term(required(node, "value"), context),
    range: nodeRange(node),
  };
}

export function properties(node: CstNode | undefined, context: AstContext): OptionEntry[] {
  return node ? childNodes(node, "property").map((p) => property(p, context)) : [];
}

/** `USING TTL … AND TIMESTAMP …`; several USING clauses (INSERT allows USING before IF) merge. */
export function usingClause(nodes: CstNode[], context: AstContext, statement: string): UsingClause | undefined {
  if (nodes.length === 0) return undefined;
  const clause: UsingClause = { range: span(nodeRange(nodes[0]!), nodeRange(nodes.at(-1)!)) };
  for (const node of nodes) {
    for (const objective of childNodes(node, "usingClauseObjective")) {
      const kind = requiredTok(objective, "kind");
      const value = term(required(objective, "value"), context);
      if (kind.tokenType === T.Ttl) {
        if (statement === "select") throw new AstSyntaxError("USING TTL is not allowed in SELECT", nodeRange(objective));
        clause.ttl = value;
      } else if (kind.tokenType === T.Timestamp) {
        if (statement === "select") throw new AstSyntaxError("USING TIMESTAMP is not allowed in SELECT", nodeRange(objective));
        clause.timestamp = value;
      } else {
        clause.timeout = value;
        context.notes.push({
          code: "cql-unsupported-statement",
          severity: "info",
          message: "USING TIMEOUT is a ScyllaDB clause; Apache Cassandra does not accept it",
          range: nodeRange(objective),
        });
      }
    }
  }
  return clause;
}

/** Options that only one vendor's CQL accepts, reported so a team knows its schema is not portable. */
const VENDOR_OPTIONS = new Map<string, string>([
  ["tags", "Amazon Keyspaces"],
  ["custom_properties", "Amazon Keyspaces"],
  ["nodesync", "DataStax Enterprise"],
  ["tombstone_gc", "ScyllaDB"],
  ["per_partition_rate_limit", "ScyllaDB"],
  ["synchronous_updates", "ScyllaDB"],
]);

export function noteVendorOptions(options: OptionEntry[], context: AstContext): void {
  for (const option of options) {
    const vendor = VENDOR_OPTIONS.get(option.name.name);
    if (!vendor) continue;
    context.notes.push({
      code: "cql-unsupported-statement",
      severity: "info",
      message: `option ${option.name.name} is specific to ${vendor}; Apache Cassandra rejects it`,
      range: option.range,
    });
  }
}
