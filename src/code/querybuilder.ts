// The DataStax Java driver's QueryBuilder, where one chain of calls builds the whole statement:
// driver 4's `selectFrom("t").all().whereColumn("a").isEqualTo(bindMarker()).build()` and driver
// 3's `QueryBuilder.select().from("t").where(eq("a", bindMarker()))`. The statement is written
// out when its shape is fixed in the source: names are constants, and a value is a constant, a
// bind marker, or a run-time value (written `?`: it is bound, or inlined, without changing which
// columns are restricted and how). A chain with a name, a raw fragment or a method this reader
// does not know, or one that later statements extend, is listed as not analysed with the reason.
import type { Node } from "web-tree-sitter";
import { parentOf } from "./tree-index.js";

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

export interface QueryBuilderContext {
  /** the constant text of an expression, or undefined */
  text(node: Node): string | undefined;
  /** how the host language's tree writes calls (Java or Kotlin) */
  shape: CallShape;
}

/** The few facts of a grammar's calls the chain reader needs. */
export interface CallShape {
  /** the node type of a call */
  callType: string;
  /** the method a call invokes; undefined when the node is no call */
  method(node: Node): string | undefined;
  /** what the method is called on: `a` of `a.b()`; undefined for a bare call */
  receiver(call: Node): Node | undefined;
  args(call: Node): Node[];
  /** the call made on this call's result (`x.next()` around `x`), if any */
  outer(call: Node): Node | undefined;
  /** a number or boolean literal, written as CQL writes it */
  plainLiteral(node: Node): string | undefined;
  /** the variable a chain is stored in, and the declaration or assignment that stores it */
  storedIn(outermost: Node): { variable: string; holder: Node } | undefined;
  /** node types that bound a variable's later uses */
  blocks: string[];
  /** the names of the methods the file declares itself */
  ownMethods(root: Node): Set<string>;
  /** the QueryBuilder methods the file imports for bare calls (`*` for all) */
  imported(imports: string[]): string[];
}

export const JAVA_CALLS: CallShape = {
  callType: "method_invocation",
  method: (node) => (node.type === "method_invocation" ? field(node, "name")?.text : undefined),
  receiver: (call) => field(call, "object"),
  args: (call) => (field(call, "arguments")?.namedChildren ?? []).filter((n): n is Node => n !== null && !n.type.includes("comment")),
  outer(call) {
    const parent = parentOf(call);
    return parent?.type === "method_invocation" && field(parent, "object")?.id === call.id ? parent : undefined;
  },
  plainLiteral(node) {
    if (/^(?:decimal|hex|octal|binary)_integer_literal$|floating_point_literal$/.test(node.type)) return node.text.replace(/[lLfFdD]$/, "");
    if (node.type === "true" || node.type === "false") return node.type;
    return undefined;
  },
  storedIn(outermost) {
    const holder = parentOf(outermost);
    if (holder?.type === "variable_declarator") {
      const variable = field(holder, "name")?.text;
      return variable ? { variable, holder } : undefined;
    }
    if (holder?.type === "assignment_expression" && field(holder, "right")?.id === outermost.id) {
      const variable = field(holder, "left")?.text;
      return variable ? { variable, holder } : undefined;
    }
    return undefined;
  },
  blocks: ["block", "class_body", "lambda_expression"],
  ownMethods: (root) => new Set(root.descendantsOfType("method_declaration").map((m) => (m && field(m, "name")?.text) ?? "")),
  imported: (imports) =>
    imports.filter((i) => /\bstatic\b/.test(i) && /\.QueryBuilder\.(?:\*|\w+)\s*;/.test(i)).map((i) => /\.QueryBuilder\.(\*|\w+)/.exec(i)![1]!),
};

/** Kotlin: `a.b(x)` is a call_expression around a navigation_expression `a.b`. */
const kotlinCallee = (call: Node) => (call.type === "call_expression" ? (call.namedChildren[0] ?? undefined) : undefined);

export const KOTLIN_CALLS: CallShape = {
  callType: "call_expression",
  method(node) {
    const callee = kotlinCallee(node);
    if (callee?.type === "identifier") return callee.text;
    if (callee?.type === "navigation_expression") {
      const last = callee.namedChildren[callee.namedChildren.length - 1];
      return last?.type === "identifier" ? last.text : undefined;
    }
    return undefined;
  },
  receiver(call) {
    const callee = kotlinCallee(call);
    return callee?.type === "navigation_expression" && callee.namedChildren.length === 2 ? (callee.namedChildren[0] ?? undefined) : undefined;
  },
  args(call) {
    const list = call.namedChildren.find((c) => c?.type === "value_arguments");
    return (list?.namedChildren ?? []).flatMap((argument) => {
      const last = argument?.namedChildren.filter((c) => c !== null && !c.type.includes("comment")).pop();
      return last ? [last] : [];
    });
  },
  outer(call) {
    const navigation = parentOf(call);
    const outer = navigation && parentOf(navigation);
    return navigation?.type === "navigation_expression" && navigation.namedChildren[0]?.id === call.id && outer?.type === "call_expression" && outer.namedChildren[0]?.id === navigation.id
      ? outer
      : undefined;
  },
  plainLiteral(node) {
    if (node.type === "number_literal") return node.text.replace(/[lLfF]$/, "").replace(/_/g, "");
    if (node.type === "boolean_literal" || node.text === "true" || node.text === "false") return node.text === "true" || node.text === "false" ? node.text : undefined;
    return undefined;
  },
  storedIn(outermost) {
    const holder = parentOf(outermost);
    if (holder?.type === "property_declaration") {
      const variable = holder.namedChildren.find((c) => c?.type === "variable_declaration")?.namedChildren.find((c) => c?.type === "identifier")?.text;
      return variable ? { variable, holder } : undefined;
    }
    if (holder?.type === "assignment" && field(holder, "right")?.id === outermost.id) {
      const variable = field(holder, "left")?.text;
      return variable ? { variable, holder } : undefined;
    }
    return undefined;
  },
  blocks: ["block", "class_body", "lambda_literal", "function_body"],
  ownMethods: (root) => new Set(root.descendantsOfType("function_declaration").map((m) => (m && field(m, "name")?.text) ?? "")),
  imported: (imports) => imports.flatMap((i) => /\.QueryBuilder\.(\*|\w+)\s*$/.exec(i.trim())?.[1] ?? []),
};

export type BuiltStatement = { root: Node; cql: string } | { root: Node; dynamic: string; start: string };

/** The drivers' builder packages, as imported. */
export function queryBuilderVersion(imports: string[]): 3 | 4 | undefined {
  const text = imports.join("\n");
  if (text.includes("com.datastax.oss.driver.api.querybuilder")) return 4;
  if (text.includes("com.datastax.driver.core.querybuilder")) return 3;
  return undefined;
}

const ROOTS: Record<3 | 4, Set<string>> = {
  4: new Set(["selectFrom", "insertInto", "deleteFrom", "update", "truncate"]),
  3: new Set(["select", "insertInto", "delete", "update", "truncate"]),
};

/**
 * Calls that finish a chain: the statement is built (driver 4), or its text taken (driver 3's
 * `getQueryString()`, `toString()`, e.g. `session.prepare(select.toString())`).
 */
const TERMINALS = new Set(["build", "asCql", "builder", "getQueryString", "toString"]);
/** Statement options after the statement is complete: they do not change its text. */
const OPTIONS =
  /^(?:setConsistencyLevel|setSerialConsistencyLevel|setFetchSize|setPageSize|setIdempotent|setTimeout|setReadTimeoutMillis|setRetryPolicy|setForceNoValues|setDefaultTimestamp|setQueryTimestamp|setTracing|setRoutingKey|setKeyspace|setExecutionProfileName|setOutgoingPayload|setNode|enableTracing|disableTracing|addPositionalValues?|addNamedValue)$/;

/** Builder methods that, called on a variable that holds a chain, extend it in a later statement. */
const EXTENDING = new Set([
  "where", "and", "whereColumn", "value", "values", "with", "setColumn", "limit", "orderBy", "from", "onlyIf", "using", "ifNotExists", "ifExists",
  "column", "columns", "all", "allowFiltering", "usingTtl", "usingTimestamp", "perPartitionLimit", "distinct", "countAll", "whereColumns",
]);


class Unknown extends Error {}

/** What reading a chain needs beyond the host language: which calls are QueryBuilder's own. */
interface Reading extends QueryBuilderContext {
  isBuilderCall(call: Node): boolean;
}

/** QueryBuilder's functions that make a term or a selector, for a file importing `QueryBuilder.*`. */
const BUILDER_FUNCTIONS = new Set([
  "bindMarker", "literal", "raw", "function", "fcall", "now", "uuid", "token", "ttl", "writetime", "quote", "column", "path", "cast",
  "typeHint", "tuple", "udt", "add", "subtract", "multiply", "divide", "remainder", "negate", "currentDate", "currentTime",
  "currentTimestamp", "currentTimeUuid", "minTimeUuid", "maxTimeUuid", "toDate", "toTimestamp", "toUnixTimestamp", "timestamp",
]);

/**
 * A CQL term from a value argument: a bind marker, a constant, driver 4's literal(…), or a value
 * the application computes at run time (a variable, a field, a method's result), which does not
 * change the statement's shape and is written as a bind marker. Calls of QueryBuilder's own
 * functions (`now()`, `fcall(…)`, `function(…)`) write CQL this reader does not, so stay unknown.
 */
function term(node: Node, context: Reading, version: 3 | 4): string {
  const { shape } = context;
  const name = shape.method(node);
  if (name !== undefined) {
    const args = shape.args(node);
    if (name === "bindMarker") {
      if (args.length === 0) return "?";
      const marker = context.text(args[0]!);
      if (marker === undefined) throw new Unknown("a bind marker's name is not a constant of the code read");
      return `:${marker}`;
    }
    if (name === "literal" && args.length >= 1) return constantOrBound(args[0]!, context);
    if (name === "raw" && args.length === 1) {
      const raw = context.text(args[0]!);
      if (raw === undefined) throw new Unknown(`the raw fragment \`${clip(args[0]!.text)}\` is computed at run time`);
      return raw;
    }
    if (context.isBuilderCall(node)) throw new Unknown(`a value is computed by ${name}()`);
    return "?";
  }
  // Driver 4 takes terms only; driver 3 also takes plain Java values, inlined as literals when constant.
  if (version === 3 || shape.plainLiteral(node) !== undefined) return constantOrBound(node, context);
  return "?";
}

function constantOrBound(node: Node, context: QueryBuilderContext): string {
  const plain = context.shape.plainLiteral(node);
  if (plain !== undefined) return plain;
  if (node.type === "null_literal" || node.text === "null") return "null";
  const text = context.text(node);
  return text === undefined ? "?" : `'${text.replace(/'/g, "''")}'`;
}

function name(node: Node | undefined, context: QueryBuilderContext, what: string): string {
  const text = node ? context.text(node) : undefined;
  if (text === undefined) throw new Unknown(`the ${what} name${node ? ` \`${clip(node.text)}\`` : ""} is not a constant of the code read`);
  return text;
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > 30 ? `${oneLine.slice(0, 29)}…` : oneLine;
}

/** `("ks", "t")` or `("t")`. */
function tableOf(args: Node[], context: QueryBuilderContext): string {
  if (args.length === 2) return `${name(args[0], context, "keyspace")}.${name(args[1], context, "table")}`;
  if (args.length === 1) return name(args[0], context, "table");
  throw new Unknown("the table is not given as a constant");
}

const RELATIONS_4: Record<string, string> = {
  isEqualTo: "=",
  isNotEqualTo: "!=",
  isLessThan: "<",
  isLessThanOrEqualTo: "<=",
  isGreaterThan: ">",
  isGreaterThanOrEqualTo: ">=",
  in: "IN",
  contains: "CONTAINS",
  containsKey: "CONTAINS KEY",
  like: "LIKE",
};

const CLAUSES_3: Record<string, string> = { eq: "=", ne: "!=", lt: "<", lte: "<=", gt: ">", gte: ">=", in: "IN", contains: "CONTAINS", containsKey: "CONTAINS KEY", like: "LIKE" };

/** Driver 4's `Relation.column("a").isEqualTo(x)`. */
function relation4(node: Node, context: Reading): string {
  const { shape } = context;
  const operator = RELATIONS_4[shape.method(node) ?? ""];
  const inner = operator ? shape.receiver(node) : undefined;
  if (!operator || !inner || shape.method(inner) !== "column") throw new Unknown(`\`${clip(node.text)}\` is not a relation this reader knows`);
  return condition(name(shape.args(inner)[0], context, "column"), operator, shape.args(node), context, 4);
}

function condition(column: string, operator: string, args: Node[], context: Reading, version: 3 | 4): string {
  if (operator === "IN") {
    if (args.length === 1) {
      const value = term(args[0]!, context, version);
      return value === "?" || value.startsWith(":") ? `${column} IN ${value}` : `${column} IN (${value})`;
    }
    return `${column} IN (${args.map((a) => term(a, context, version)).join(", ")})`;
  }
  if (args.length !== 1) throw new Unknown(`${column} ${operator} takes one value`);
  return `${column} ${operator} ${term(args[0]!, context, version)}`;
}

/** Driver 3's `eq("a", x)` (also `QueryBuilder.eq`). */
function clause3(node: Node, context: Reading): string {
  const operator = CLAUSES_3[context.shape.method(node) ?? ""];
  if (!operator) throw new Unknown(`\`${clip(node.text)}\` is not a clause this reader knows`);
  const [column, ...values] = context.shape.args(node);
  return condition(name(column, context, "column"), operator, values, context, 3);
}

/** Driver 3's assignments: `set("a", x)`, counters and collections, as the driver writes them. */
function assignment3(node: Node, context: Reading): string {
  const method = context.shape.method(node) ?? "";
  const [columnNode, ...args] = context.shape.args(node);
  const known = /^(?:set|setIdx|incr|decr|add|addAll|append|appendAll|prepend|prependAll|remove|removeAll|discard|discardAll|put|putAll)$/.test(method);
  const arity = method === "setIdx" || method === "put" ? 2 : method === "incr" || method === "decr" ? Math.min(args.length, 1) : 1;
  if (!known || args.length !== arity) throw new Unknown(`\`${clip(node.text)}\` is not an assignment this reader knows`);
  const c = name(columnNode, context, "column");
  const [v, w] = args.map((a) => term(a, context, 3));
  switch (method) {
    case "set": return `${c} = ${v}`;
    case "setIdx": return `${c}[${v}] = ${w}`;
    case "incr": return `${c} = ${c} + ${v ?? 1}`;
    case "decr": return `${c} = ${c} - ${v ?? 1}`;
    case "add": return `${c} = ${c} + {${v}}`;
    case "append": return `${c} = ${c} + [${v}]`;
    case "prepend": return `${c} = [${v}] + ${c}`;
    case "remove": return `${c} = ${c} - {${v}}`;
    case "discard": return `${c} = ${c} - [${v}]`;
    case "put": return `${c} = ${c} + {${v}: ${w}}`;
    case "prependAll": return `${c} = ${v} + ${c}`;
    case "removeAll": case "discardAll": return `${c} = ${c} - ${v}`;
    default: return `${c} = ${c} + ${v}`; // addAll, appendAll, putAll
  }
}

/** The elements of `new String[] {…}`, `Arrays.asList(…)`, `List.of(…)`, or undefined for any other expression. */
function elements(node: Node, shape: CallShape): Node[] | undefined {
  if (node.type === "array_creation_expression") {
    const initializer = field(node, "value");
    return initializer ? initializer.namedChildren.filter((n): n is Node => n !== null && !n.type.includes("comment")) : undefined;
  }
  if (node.type === "array_initializer") return node.namedChildren.filter((n): n is Node => n !== null && !n.type.includes("comment"));
  const method = shape.method(node);
  const receiver = shape.receiver(node)?.text.split(".").pop();
  if ((method === "asList" && receiver === "Arrays") || (method === "of" && (receiver === "List" || receiver === "ImmutableList"))) return shape.args(node);
  return undefined;
}

/** Driver 3's `ttl(n)` or `timestamp(n)` in `using(…)`. */
function usingOption3(node: Node, context: Reading): string {
  const option = context.shape.method(node);
  const [value, ...more] = context.shape.args(node);
  if ((option !== "ttl" && option !== "timestamp") || !value || more.length) throw new Unknown("a USING option this reader does not know");
  return `${option.toUpperCase()} ${term(value, context, 3)}`;
}

function orderTerm3(node: Node, context: QueryBuilderContext): string {
  const method = context.shape.method(node);
  if (method !== "asc" && method !== "desc") throw new Unknown(`\`${clip(node.text)}\` is not an ordering this reader knows`);
  return `${name(context.shape.args(node)[0], context, "column")} ${method.toUpperCase()}`;
}

interface Parts {
  verb: "SELECT" | "INSERT" | "UPDATE" | "DELETE" | "TRUNCATE";
  table?: string;
  columns: string[];
  deleted: string[];
  values: [string, string][];
  assignments: string[];
  where: string[];
  conditions: string[];
  orderBy: string[];
  limit?: string;
  perPartitionLimit?: string;
  using: string[];
  ifNotExists: boolean;
  ifExists: boolean;
  allowFiltering: boolean;
  distinct: boolean;
}

/** The calls of a chain, first (the root) to last, from its outermost call. */
function stepsOf(outermost: Node, shape: CallShape): { method: string; call: Node }[] {
  const steps: { method: string; call: Node }[] = [];
  for (let current: Node | undefined = outermost; current && shape.method(current) !== undefined; current = shape.receiver(current)) {
    steps.push({ method: shape.method(current)!, call: current });
  }
  return steps.reverse();
}

function written(parts: Parts): string {
  const where = parts.where.length ? ` WHERE ${parts.where.join(" AND ")}` : "";
  const using = parts.using.length ? ` USING ${parts.using.join(" AND ")}` : "";
  const conditions = parts.ifExists ? " IF EXISTS" : parts.conditions.length ? ` IF ${parts.conditions.join(" AND ")}` : "";
  switch (parts.verb) {
    case "SELECT":
      if (parts.columns.length === 0) throw new Unknown("the chain selects no column");
      return [
        `SELECT ${parts.distinct ? "DISTINCT " : ""}${parts.columns.join(", ")} FROM ${parts.table}${where}`,
        parts.orderBy.length ? ` ORDER BY ${parts.orderBy.join(", ")}` : "",
        parts.perPartitionLimit ? ` PER PARTITION LIMIT ${parts.perPartitionLimit}` : "",
        parts.limit ? ` LIMIT ${parts.limit}` : "",
        parts.allowFiltering ? " ALLOW FILTERING" : "",
      ].join("");
    case "INSERT":
      if (parts.values.length === 0) throw new Unknown("the chain inserts no column");
      return `INSERT INTO ${parts.table} (${parts.values.map(([c]) => c).join(", ")}) VALUES (${parts.values.map(([, v]) => v).join(", ")})${parts.ifNotExists ? " IF NOT EXISTS" : ""}${using}`;
    case "UPDATE":
      if (parts.assignments.length === 0 || !where) throw new Unknown("the chain sets no column or has no WHERE clause");
      return `UPDATE ${parts.table}${using} SET ${parts.assignments.join(", ")}${where}${conditions}`;
    case "TRUNCATE":
      return `TRUNCATE ${parts.table}`;
    case "DELETE":
      if (!where) throw new Unknown("the chain has no WHERE clause");
      return `DELETE ${parts.deleted.length ? `${parts.deleted.join(", ")} ` : ""}FROM ${parts.table}${using}${where}${conditions}`;
  }
}

/** Reads one chain into its parts; throws Unknown with the reason for anything it cannot. */
function read(steps: { method: string; call: Node }[], version: 3 | 4, context: Reading): Parts {
  const [root, ...rest] = steps;
  const verbs: Record<string, Parts["verb"]> = { selectFrom: "SELECT", select: "SELECT", insertInto: "INSERT", deleteFrom: "DELETE", delete: "DELETE", update: "UPDATE", truncate: "TRUNCATE" };
  const parts: Parts = {
    verb: verbs[root!.method]!,
    columns: [], deleted: [], values: [], assignments: [], where: [], conditions: [], orderBy: [], using: [],
    ifNotExists: false, ifExists: false, allowFiltering: false, distinct: false,
  };
  const rootArgs = context.shape.args(root!.call);
  if (version === 4 || parts.verb === "INSERT" || parts.verb === "UPDATE" || parts.verb === "TRUNCATE") parts.table = tableOf(rootArgs, context);
  else if (parts.verb === "SELECT") parts.columns = rootArgs.map((a) => name(a, context, "column"));
  else parts.deleted = rootArgs.map((a) => name(a, context, "column"));
  let pendingColumn: string | undefined;
  // Driver 3's `and` adds to what was last opened: WHERE clauses, SET assignments, IF conditions or USING options.
  let opened: "where" | "set" | "if" | "using" | undefined;
  for (const { method, call } of rest) {
    const args = context.shape.args(call);
    if (pendingColumn !== undefined) {
      const operator = RELATIONS_4[method];
      if (!operator) throw new Unknown(`whereColumn(…).${method}() is not a relation this reader knows`);
      parts.where.push(condition(pendingColumn, operator, args, context, 4));
      pendingColumn = undefined;
      continue;
    }
    switch (method) {
      case "all":
        if (parts.verb === "SELECT") parts.columns = ["*"];
        break;
      case "column":
      case "columns":
        for (const a of args) (parts.verb === "DELETE" ? parts.deleted : parts.columns).push(name(a, context, "column"));
        break;
      case "countAll":
        parts.columns = ["count(*)"];
        break;
      case "distinct":
        parts.distinct = true;
        break;
      case "from":
        parts.table = tableOf(args, context);
        break;
      case "whereColumn":
        pendingColumn = name(args[0], context, "column");
        break;
      case "where":
        opened = "where";
        for (const a of args) parts.where.push(version === 4 ? relation4(a, context) : clause3(a, context));
        break;
      case "and":
        if (version !== 3 || !opened) throw new Unknown("and() outside a where, with, onlyIf or using");
        for (const a of args) {
          if (opened === "where") parts.where.push(clause3(a, context));
          else if (opened === "set") parts.assignments.push(assignment3(a, context));
          else if (opened === "if") parts.conditions.push(clause3(a, context));
          else parts.using.push(usingOption3(a, context));
        }
        break;
      case "with":
        opened = "set";
        for (const a of args) parts.assignments.push(assignment3(a, context));
        break;
      case "onlyIf":
        opened = "if";
        for (const a of args) parts.conditions.push(clause3(a, context));
        break;
      case "value":
        parts.values.push([name(args[0], context, "column"), term(args[1]!, context, version)]);
        break;
      case "values": {
        // Driver 3's values(names, values): the names must be listed in the code; values may be computed.
        const names = args[0] ? elements(args[0], context.shape) : undefined;
        if (!names || args.length !== 2) throw new Unknown("the column names of values() are not listed in the code");
        const given = elements(args[1]!, context.shape);
        if (given && given.length !== names.length) throw new Unknown("values() is given more or fewer values than names");
        names.forEach((column, i) => parts.values.push([name(column, context, "column"), given ? term(given[i]!, context, version) : "?"]));
        break;
      }
      case "setColumn":
        parts.assignments.push(`${name(args[0], context, "column")} = ${term(args[1]!, context, version)}`);
        break;
      case "limit":
        parts.limit = term(args[0]!, context, version);
        break;
      case "perPartitionLimit":
        parts.perPartitionLimit = term(args[0]!, context, version);
        break;
      case "orderBy":
        if (version === 4) {
          const direction = args[1]?.text.split(".").pop();
          if (args.length !== 2 || (direction !== "ASC" && direction !== "DESC")) throw new Unknown("an orderBy this reader does not know");
          parts.orderBy.push(`${name(args[0], context, "column")} ${direction}`);
        } else for (const a of args) parts.orderBy.push(orderTerm3(a, context));
        break;
      case "allowFiltering":
        parts.allowFiltering = true;
        break;
      case "ifNotExists":
        parts.ifNotExists = true;
        break;
      case "ifExists":
        parts.ifExists = true;
        break;
      case "usingTtl":
        parts.using.push(`TTL ${term(args[0]!, context, version)}`);
        break;
      case "usingTimestamp":
        parts.using.push(`TIMESTAMP ${term(args[0]!, context, version)}`);
        break;
      case "using": {
        opened = "using";
        for (const a of args) parts.using.push(usingOption3(a, context));
        break;
      }
      default:
        throw new Unknown(`the builder method ${method}() is not one this reader knows`);
    }
  }
  if (pendingColumn !== undefined) throw new Unknown(`whereColumn("${pendingColumn}") has no relation`);
  if (parts.table === undefined) throw new Unknown("the chain names no table");
  // Driver 3's `select().from(t)` selects every column.
  if (version === 3 && parts.verb === "SELECT" && parts.columns.length === 0) parts.columns = ["*"];
  return parts;
}

/** How the uses of one variable in one block go on, from each use to the block's end. */
interface UsesFrom {
  /** the uses' start offsets, in source order */
  starts: number[];
  /** whether a use at this index or later extends the chain */
  extendedFrom: boolean[];
  /** whether a use at this index or later is neither an extension nor a terminal call */
  elsewhereFrom: boolean[];
}

/**
 * The uses of each variable in each block, worked out once per block and variable: a file with
 * thousands of chains stored in one variable is read in one pass, not once per chain.
 */
type UsesCache = Map<number, Map<string, UsesFrom>>;

function usesIn(scope: Node, variable: string, shape: CallShape, cache: UsesCache): UsesFrom {
  let byName = cache.get(scope.id);
  if (!byName) {
    byName = new Map();
    cache.set(scope.id, byName);
    const references = new Map<string, Node[]>();
    for (const reference of scope.descendantsOfType(["identifier", "simple_identifier"])) {
      if (!reference) continue;
      const list = references.get(reference.text) ?? [];
      list.push(reference);
      references.set(reference.text, list);
    }
    for (const [name, list] of references) {
      const extendedFrom = new Array<boolean>(list.length + 1).fill(false);
      const elsewhereFrom = new Array<boolean>(list.length + 1).fill(false);
      for (let i = list.length - 1; i >= 0; i--) {
        const call = callOn(list[i]!, shape);
        const method = call ? shape.method(call) : undefined;
        extendedFrom[i] = extendedFrom[i + 1]! || (method !== undefined && EXTENDING.has(method));
        elsewhereFrom[i] = elsewhereFrom[i + 1]! || method === undefined || !TERMINALS.has(method);
      }
      byName.set(name, { starts: list.map((r) => r.startIndex), extendedFrom, elsewhereFrom });
    }
  }
  return byName.get(variable) ?? { starts: [], extendedFrom: [false], elsewhereFrom: [false] };
}

/** The index of the first of `starts` (ascending) at or after `offset`. */
function firstAtOrAfter(starts: number[], offset: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (starts[middle]! < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * How a chain stored in a variable is used: extended by a later statement (`select =
 * select.whereColumn(…)`, `insert.value(…)` in a loop), only finished (`select.build()`), or
 * handed elsewhere (passed to a method that may extend it).
 */
function laterUse(outermost: Node, shape: CallShape, cache: UsesCache): { variable: string; use: "extended" | "finished" | "elsewhere" } | undefined {
  const stored = shape.storedIn(outermost);
  if (!stored) return undefined;
  const { variable, holder } = stored;
  let scope: Node | undefined = holder;
  while (scope && !shape.blocks.includes(scope.type)) scope = parentOf(scope);
  if (!scope) return { variable, use: "finished" };
  // Uses after the chain, within the block that declares or assigns the variable.
  const uses = usesIn(scope, variable, shape, cache);
  const first = firstAtOrAfter(uses.starts, holder.endIndex);
  if (uses.extendedFrom[first]) return { variable, use: "extended" };
  return { variable, use: uses.elsewhereFrom[first] ? "elsewhere" : "finished" };
}

/** The call made on `reference` (`reference.build()`), if it is the receiver of one. */
function callOn(reference: Node, shape: CallShape): Node | undefined {
  for (let node = parentOf(reference); node && node.startIndex === reference.startIndex; node = parentOf(node)) {
    if (shape.method(node) !== undefined) return shape.receiver(node)?.id === reference.id ? node : undefined;
  }
  return undefined;
}

/** The statements the builder chains of one Java or Kotlin file build, each at its chain's first call. */
export function builtStatements(root: Node, imports: string[], context: QueryBuilderContext): BuiltStatement[] {
  const version = queryBuilderVersion(imports);
  if (!version) return [];
  const { shape } = context;
  // A root without a receiver must be QueryBuilder's, imported (statically, in Java).
  const statics = shape.imported(imports);
  // The file's own methods of the same name (`delete(id)`) are not QueryBuilder's.
  const own = shape.ownMethods(root);
  const isBuilderCall = (call: Node) => {
    const method = shape.method(call);
    const object = shape.receiver(call);
    if (method === undefined) return false;
    if (object) return object.text.split(".").pop() === "QueryBuilder";
    return !own.has(method) && statics.some((s) => s === method || (s === "*" && BUILDER_FUNCTIONS.has(method)));
  };
  const reading: Reading = { ...context, isBuilderCall };
  const found: BuiltStatement[] = [];
  const uses: UsesCache = new Map();
  for (const call of root.descendantsOfType(shape.callType)) {
    const method = call ? shape.method(call) : undefined;
    if (!call || !method || !ROOTS[version].has(method)) continue;
    const object = shape.receiver(call);
    // `QueryBuilder.selectFrom(…)` or an imported one; anything else is some other `update(…)`.
    if (object ? object.text.split(".").pop() !== "QueryBuilder" : own.has(method) || !statics.some((s) => s === "*" || s === method)) continue;
    let outermost = call;
    for (let outer = shape.outer(outermost); outer; outer = shape.outer(outermost)) outermost = outer;
    const steps = stepsOf(outermost, shape);
    // Stop at the statement: driver 4's build(), or options set on a finished statement.
    const end = steps.findIndex((s, i) => i > 0 && (TERMINALS.has(s.method) || OPTIONS.test(s.method)));
    const chain = end < 0 ? steps : steps.slice(0, end);
    const start = `${chain[0]!.method === "selectFrom" || chain[0]!.method === "select" ? "SELECT" : chain[0]!.method.replace(/Into|From/, "").toUpperCase()} …`;
    const later = laterUse(outermost, shape, uses);
    if (later?.use === "extended") {
      found.push({ root: call, dynamic: `built across statements: ${later.variable} is extended after the chain`, start });
      continue;
    }
    // A driver 4 chain is finished by build(): in the chain, or on the variable that holds it and is used for nothing else.
    if (version === 4 && end < 0 && later?.use !== "finished") {
      found.push({ root: call, dynamic: "the chain does not end in build() or asCql(): the statement is finished elsewhere", start });
      continue;
    }
    try {
      found.push({ root: call, cql: written(read(chain, version, reading)) });
    } catch (error) {
      if (!(error instanceof Unknown)) throw error;
      found.push({ root: call, dynamic: error.message, start });
    }
  }
  return found;
}
