// gocqlx statements built from fixed parts: a `table.New(table.Metadata{…})` model's Get, Select,
// SelectAll, Insert, Update and Delete (with their `…Query`, `…QueryContext` and `…Builder`
// forms), and `qb` chains (`qb.Select("t").Columns(…).Where(qb.Eq("c")).ToCql()`, `.Query(session)`,
// `qb.Batch().Add(…)`). The statement is written out the way gocqlx writes it (table/table.go and
// qb/*.go of github.com/scylladb/gocqlx). A chain with a part that is not fixed is listed with the
// reason; a receiver that is not known to be a gocqlx table or builder gives nothing.
import type { Node } from "web-tree-sitter";
import { append } from "../arrays.js";

export interface BuilderContext {
  /** the value a name stands for (a local, package-level or other package's declaration), or the node itself */
  follow(node: Node): Node;
  /** the constant text of an expression, or undefined */
  text(node: Node): string | undefined;
}

interface TableModel {
  name: string;
  columns: string[];
  partKey: string[];
  sortKey: string[];
}

/** A statement a chain has built so far, in gocqlx's own terms. */
interface Builder {
  kind: "select" | "insert" | "update" | "delete" | "batch";
  table: string;
  json: boolean;
  distinct: string[];
  /** selected, inserted or deleted columns; `[name, value]` for inserts */
  columns: string[];
  values: string[];
  /** SET assignments of an UPDATE */
  assignments: string[];
  where: string[];
  conditions: string[];
  ifExists: boolean;
  ifNotExists: boolean;
  using: string[];
  groupBy: string[];
  orderBy: string[];
  limit: string;
  perPartitionLimit: string;
  allowFiltering: boolean;
  /** statements of a batch */
  statements: string[];
  batchType: "" | "UNLOGGED " | "COUNTER ";
}

type Built = { builder: Builder } | { dynamic: string };

/** A statement written out, or why not, and where the chain starts. */
export type GocqlxStatement = { cql: string; root: Node; api: string } | { dynamic: string; root: Node; api: string; start: string };

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;
const MAX_DEPTH = 64;

function argumentsOf(call: Node): Node[] {
  return (field(call, "arguments")?.namedChildren ?? []).filter((n): n is Node => n !== null && !n.type.includes("comment"));
}

function methodOf(call: Node): { method: string; operand: Node } | undefined {
  const fn = field(call, "function");
  if (fn?.type !== "selector_expression") return undefined;
  const method = field(fn, "field")?.text;
  const operand = field(fn, "operand");
  return method && operand ? { method, operand } : undefined;
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > 40 ? `${oneLine.slice(0, 39)}…` : oneLine;
}

const notConstant = (node: Node) => `${clip(node.text)} is not a constant of the code read`;

/** `[]string{"a", "b"}`, or `m.Columns` of a metadata literal or a table model's `Metadata()`. */
function stringList(node: Node, context: BuilderContext): string[] | undefined {
  const target = context.follow(node);
  if (target.type === "selector_expression") {
    const operand = field(target, "operand");
    const model = operand && (metadataOf(operand, context) ?? metadataCall(operand, context));
    const name = field(target, "field")?.text;
    if (model && name === "Columns") return model.columns;
    if (model && name === "PartKey") return model.partKey;
    if (model && name === "SortKey") return model.sortKey;
    return undefined;
  }
  if (target.type !== "composite_literal") return undefined;
  const items: string[] = [];
  for (const element of field(target, "body")?.namedChildren ?? []) {
    if (!element || element.type.includes("comment")) continue;
    const value = element.type === "literal_element" ? element.namedChildren[0] : element;
    const text = value ? context.text(value) : undefined;
    if (text === undefined) return undefined;
    items.push(text);
  }
  return items;
}

function metadataOf(node: Node, context: BuilderContext): TableModel | undefined {
  const target = context.follow(node);
  if (target.type !== "composite_literal" || !field(target, "type")?.text.endsWith("Metadata")) return undefined;
  const model: TableModel = { name: "", columns: [], partKey: [], sortKey: [] };
  for (const element of field(target, "body")?.namedChildren ?? []) {
    if (element?.type !== "keyed_element") continue;
    const [key, value] = element.namedChildren;
    const inner = value?.type === "literal_element" ? value.namedChildren[0] : value;
    if (!key || !inner) continue;
    switch (key.text) {
      case "Name":
        model.name = context.text(inner) ?? "";
        break;
      case "Columns":
        model.columns = stringList(inner, context) ?? [];
        break;
      case "PartKey":
        model.partKey = stringList(inner, context) ?? [];
        break;
      case "SortKey":
        model.sortKey = stringList(inner, context) ?? [];
        break;
    }
  }
  return model.name && model.partKey.length > 0 ? model : undefined;
}

/** `t.Metadata()` of a table model. */
function metadataCall(node: Node, context: BuilderContext): TableModel | undefined {
  const target = context.follow(node);
  if (target.type !== "call_expression") return undefined;
  const called = methodOf(target);
  return called?.method === "Metadata" && argumentsOf(target).length === 0 ? tableOf(called.operand, context) : undefined;
}

/** `table.New(m)`, through the names (of this package or another) it is assigned to. */
function tableOf(node: Node, context: BuilderContext): TableModel | undefined {
  const target = context.follow(node);
  if (target.type !== "call_expression" || !field(target, "function")?.text.endsWith("table.New")) return undefined;
  const [metadata] = argumentsOf(target);
  return metadata ? metadataOf(metadata, context) : undefined;
}

/** Column names passed as arguments (`"a", "b"`, or `m.Columns...`); the reason when one is not fixed. */
function columnArguments(args: Node[], context: BuilderContext): string[] | { dynamic: string } {
  const columns: string[] = [];
  for (const argument of args) {
    if (argument.type === "variadic_argument") {
      const inner = argument.namedChildren[0];
      const list = inner ? stringList(inner, context) : undefined;
      if (!list) return { dynamic: notConstant(inner ?? argument) };
      append(columns, list);
      continue;
    }
    const text = context.text(argument);
    if (text === undefined) return { dynamic: notConstant(argument) };
    columns.push(text);
  }
  return columns;
}

/** A table name: a constant, `m.Name` of a metadata literal, or `t.Name()` of a table model. */
function tableText(node: Node, context: BuilderContext): string | undefined {
  const target = context.follow(node);
  if (target.type === "selector_expression" && field(target, "field")?.text === "Name") {
    const operand = field(target, "operand");
    const model = operand && (metadataOf(operand, context) ?? metadataCall(operand, context));
    if (model) return model.name;
  }
  if (target.type === "call_expression") {
    const called = methodOf(target);
    if (called?.method === "Name" && argumentsOf(target).length === 0) {
      const model = tableOf(called.operand, context);
      if (model) return model.name;
    }
  }
  return context.text(node);
}

function emptyBuilder(kind: Builder["kind"], table: string): Builder {
  return {
    kind,
    table,
    json: false,
    distinct: [],
    columns: [],
    values: [],
    assignments: [],
    where: [],
    conditions: [],
    ifExists: false,
    ifNotExists: false,
    using: [],
    groupBy: [],
    orderBy: [],
    limit: "",
    perPartitionLimit: "",
    allowFiltering: false,
    statements: [],
    batchType: "",
  };
}

const keyEq = (columns: string[]) => columns.map((c) => `${c}=?`);

/** What a table model's `…Builder(columns…)` method starts, as table/table.go builds it. */
function modelBuilder(method: string, model: TableModel, columns: string[]): Builder | undefined {
  const primaryKey = keyEq([...model.partKey, ...model.sortKey]);
  switch (method) {
    case "GetBuilder":
      return { ...emptyBuilder("select", model.name), columns, where: primaryKey };
    case "SelectBuilder":
      return { ...emptyBuilder("select", model.name), columns, where: keyEq(model.partKey) };
    case "InsertBuilder":
      return model.columns.length ? { ...emptyBuilder("insert", model.name), columns: model.columns, values: model.columns.map(() => "?") } : undefined;
    case "UpdateBuilder":
      return { ...emptyBuilder("update", model.name), assignments: columns.map((c) => `${c}=?`), where: primaryKey };
    case "DeleteBuilder":
      return { ...emptyBuilder("delete", model.name), columns, where: primaryKey };
  }
  return undefined;
}

/** A literal value argument (`SetLit("c", "0")`): the CQL text gocqlx pastes in. */
function literalArgument(node: Node | undefined, context: BuilderContext, quoted: boolean): string | undefined {
  const text = node ? context.text(node) : undefined;
  if (text === undefined) return undefined;
  return quoted ? `'${text.replace(/'/g, "''")}'` : text;
}

const OPERATORS: Record<string, string> = { Eq: "=", Ne: "!=", Lt: "<", LtOrEq: "<=", Gt: ">", GtOrEq: ">=", In: " IN ", Contains: " CONTAINS ", ContainsKey: " CONTAINS KEY ", Like: " LIKE " };
const CMP_FORMS = ["TupleNamed", "LitString", "Named", "Tuple", "Lit", "Func", ""];

/** `qb.Eq("c")` → `c=?` (and the Named, Lit, LitString and Tuple forms); the reason when not fixed. */
function comparison(node: Node, context: BuilderContext): string | { dynamic: string } {
  const target = context.follow(node);
  const called = target.type === "call_expression" ? methodOf(target) : undefined;
  if (!called || called.operand.text !== "qb") return { dynamic: notConstant(node) };
  const form = CMP_FORMS.find((suffix) => called.method.endsWith(suffix) && OPERATORS[called.method.slice(0, called.method.length - suffix.length)] !== undefined);
  if (form === undefined) return { dynamic: `qb.${called.method} is not read` };
  const operator = OPERATORS[called.method.slice(0, called.method.length - form.length)]!;
  const [column, second] = argumentsOf(target);
  const name = column ? context.text(column) : undefined;
  if (name === undefined) return { dynamic: notConstant(column ?? target) };
  let value = "?";
  if (form === "Func") return { dynamic: `a function value (qb.${called.method}) is not read` };
  if (form === "Lit" || form === "LitString") {
    const literal = literalArgument(second, context, form === "LitString");
    if (literal === undefined) return { dynamic: notConstant(second ?? target) };
    value = literal;
  } else if (form === "Tuple" || form === "TupleNamed") {
    const count = second?.type === "int_literal" ? Number(second.text) : NaN;
    if (!(count > 0 && count < 100)) return { dynamic: notConstant(second ?? target) };
    value = `(${Array.from({ length: count }, () => "?").join(",")})`;
  }
  return `${name}${operator}${value}`;
}

/** The comparisons of a `Where(…)`/`If(…)`, with `t.PrimaryKeyCmp()...` of a table model. */
function comparisons(args: Node[], context: BuilderContext): string[] | { dynamic: string } {
  const out: string[] = [];
  for (const argument of args) {
    if (argument.type === "variadic_argument") {
      const inner = argument.namedChildren[0] ? context.follow(argument.namedChildren[0]) : undefined;
      const called = inner?.type === "call_expression" ? methodOf(inner) : undefined;
      const model = called && (called.method === "PrimaryKeyCmp" || called.method === "PartKeyCmp") ? tableOf(called.operand, context) : undefined;
      if (!model) return { dynamic: notConstant(argument) };
      append(out, keyEq(called!.method === "PrimaryKeyCmp" ? [...model.partKey, ...model.sortKey] : model.partKey));
      continue;
    }
    const text = comparison(argument, context);
    if (typeof text !== "string") return text;
    out.push(text);
  }
  return out;
}

/** A number argument (`Limit(10)`) as written, else a bind marker. */
const numberOrMarker = (node: Node | undefined) => (node?.type === "int_literal" ? node.text : "?");

/** Options that do not change the statement's plan: ScyllaDB's `USING TIMEOUT` and `BYPASS CACHE`. */
const PLAN_NEUTRAL = new Set(["Timeout", "TimeoutNamed", "BypassCache"]);

/** Applies one method of the chain to the builder so far. */
function apply(builder: Builder, method: string, call: Node, context: BuilderContext): Built {
  const args = argumentsOf(call);
  const b = { ...builder };
  const columns = () => columnArguments(args, context);
  if (PLAN_NEUTRAL.has(method)) return { builder: b };
  switch (method) {
    case "Columns": {
      const list = columns();
      if (!Array.isArray(list)) return list;
      b.columns = [...b.columns, ...list];
      if (b.kind === "insert") b.values = [...b.values, ...list.map(() => "?")];
      return { builder: b };
    }
    case "Json":
      b.json = true;
      return { builder: b };
    case "Distinct": {
      const list = columns();
      if (!Array.isArray(list)) return list;
      b.distinct = [...b.distinct, ...list];
      return { builder: b };
    }
    case "Count":
    case "Min":
    case "Max":
    case "Avg":
    case "Sum": {
      const list = columns();
      if (!Array.isArray(list) || list.length !== 1) return Array.isArray(list) ? { dynamic: `${method} takes one column` } : list;
      b.columns = [...b.columns, `${method.toLowerCase()}(${list[0]})`];
      return { builder: b };
    }
    case "CountAll":
      b.columns = [...b.columns, "count(*)"];
      return { builder: b };
    case "Where":
    case "If": {
      const list = comparisons(args, context);
      if (!Array.isArray(list)) return list;
      if (method === "Where") b.where = [...b.where, ...list];
      else b.conditions = [...b.conditions, ...list];
      return { builder: b };
    }
    case "Existing":
      b.ifExists = true;
      return { builder: b };
    case "Unique":
      b.ifNotExists = true;
      return { builder: b };
    case "GroupBy": {
      const list = columns();
      if (!Array.isArray(list)) return list;
      b.groupBy = [...b.groupBy, ...list];
      return { builder: b };
    }
    case "OrderBy": {
      const [column, order] = args;
      const name = column ? context.text(column) : undefined;
      const direction = order?.text === "qb.DESC" ? " DESC" : order?.text === "qb.ASC" ? " ASC" : undefined;
      if (name === undefined || direction === undefined) return { dynamic: notConstant(column && name === undefined ? column : (order ?? call)) };
      b.orderBy = [...b.orderBy, `${name}${direction}`];
      return { builder: b };
    }
    case "Limit":
    case "LimitNamed":
      b.limit = method === "Limit" ? numberOrMarker(args[0]) : "?";
      return { builder: b };
    case "LimitPerPartition":
    case "LimitPerPartitionNamed":
      b.perPartitionLimit = method === "LimitPerPartition" ? numberOrMarker(args[0]) : "?";
      return { builder: b };
    case "AllowFiltering":
      b.allowFiltering = true;
      return { builder: b };
    case "TTL":
    case "TTLNamed":
      b.using = [...b.using.filter((u) => !u.startsWith("TTL")), "TTL ?"];
      return { builder: b };
    case "Timestamp":
    case "TimestampNamed":
      b.using = [...b.using.filter((u) => !u.startsWith("TIMESTAMP")), "TIMESTAMP ?"];
      return { builder: b };
    case "Set": {
      const list = columns();
      if (!Array.isArray(list)) return list;
      b.assignments = [...b.assignments, ...list.map((c) => `${c}=?`)];
      return { builder: b };
    }
    case "SetNamed":
    case "SetLit":
    case "SetLitString":
    case "Add":
    case "AddNamed":
    case "AddLit":
    case "Remove":
    case "RemoveNamed":
    case "RemoveLit": {
      const [column, value] = args;
      const name = column ? context.text(column) : undefined;
      if (name === undefined) return { dynamic: notConstant(column ?? call) };
      const literal = method.endsWith("Lit") || method.endsWith("LitString") ? literalArgument(value, context, method.endsWith("LitString")) : "?";
      if (literal === undefined) return { dynamic: notConstant(value ?? call) };
      const operation = method.startsWith("Add") ? `${name}+` : method.startsWith("Remove") ? `${name}-` : "";
      b.assignments = [...b.assignments, `${name}=${operation}${literal}`];
      return { builder: b };
    }
    case "NamedColumn":
    case "LitColumn":
    case "StringLitColumn": {
      const [column, value] = args;
      const name = column ? context.text(column) : undefined;
      if (name === undefined) return { dynamic: notConstant(column ?? call) };
      const literal = method === "NamedColumn" ? "?" : literalArgument(value, context, method === "StringLitColumn");
      if (literal === undefined) return { dynamic: notConstant(value ?? call) };
      b.columns = [...b.columns, name];
      b.values = [...b.values, literal];
      return { builder: b };
    }
    case "UnLogged":
      b.batchType = "UNLOGGED ";
      return { builder: b };
    case "Counter":
      b.batchType = "COUNTER ";
      return { builder: b };
  }
  return { dynamic: `${method}(…) is not read` };
}

/** A batch's `Add(builder)`, `AddWithPrefix(p, builder)` and `AddStmt(stmt, names)`. */
function addToBatch(builder: Builder, method: string, call: Node, context: BuilderContext, depth: number): Built | undefined {
  const args = argumentsOf(call);
  const added = method === "Add" ? args[0] : method === "AddWithPrefix" ? args[1] : method === "AddStmt" ? args[0] : undefined;
  if (!added) return undefined;
  let statement: string | undefined;
  if (method === "AddStmt") {
    const target = context.follow(added);
    const fromModel = target.type === "call_expression" ? modelStatement(target, context) : undefined;
    if (fromModel && "dynamic" in fromModel) return fromModel;
    statement = fromModel?.cql ?? context.text(added);
  } else {
    const inner = builderOf(added, context, depth + 1);
    if (!inner) return { dynamic: notConstant(added) };
    if ("dynamic" in inner) return inner;
    statement = render(inner.builder);
  }
  if (statement === undefined) return { dynamic: notConstant(added) };
  return { builder: { ...builder, statements: [...builder.statements, statement] } };
}

/** The builder an expression holds: a `qb.Select/Insert/Update/Delete/Batch(…)` chain, or a table model's `…Builder(…)`. */
function builderOf(node: Node, context: BuilderContext, depth = 0): Built | undefined {
  if (depth > MAX_DEPTH || node.type !== "call_expression") return undefined;
  const called = methodOf(node);
  if (!called) return undefined;
  const { method, operand } = called;
  const args = argumentsOf(node);
  if (operand.type === "identifier" && operand.text === "qb") {
    const roots: Record<string, Builder["kind"]> = { Select: "select", Insert: "insert", Update: "update", Delete: "delete", Batch: "batch" };
    const kind = roots[method];
    if (!kind) return undefined;
    if (kind === "batch") return { builder: emptyBuilder("batch", "") };
    const table = args[0] ? tableText(args[0], context) : undefined;
    if (table === undefined) return { dynamic: args[0] ? `the table ${notConstant(args[0])}` : "no table is named" };
    return { builder: emptyBuilder(kind, table) };
  }
  if (method.endsWith("Builder")) {
    const model = tableOf(operand, context);
    if (model) {
      const list = columnArguments(args, context);
      if (!Array.isArray(list)) return list;
      const builder = modelBuilder(method, model, list);
      return builder ? { builder } : undefined;
    }
  }
  const inner = builderOf(operand, context, depth + 1);
  if (!inner || "dynamic" in inner) return inner;
  if (inner.builder.kind === "batch" && (method === "Add" || method === "AddWithPrefix" || method === "AddStmt")) return addToBatch(inner.builder, method, node, context, depth);
  return apply(inner.builder, method, node, context);
}

/** The CQL text gocqlx writes for a builder. */
function render(b: Builder): string | undefined {
  const where = b.where.length ? ` WHERE ${b.where.join(" AND ")}` : "";
  const conditions = b.ifExists ? " IF EXISTS" : b.conditions.length ? ` IF ${b.conditions.join(" AND ")}` : "";
  const using = b.using.length ? ` USING ${b.using.join(" AND ")}` : "";
  switch (b.kind) {
    case "select": {
      const columns = b.distinct.length ? `DISTINCT ${b.distinct.join(",")}` : b.columns.length ? b.columns.join(",") : "*";
      return (
        `SELECT ${b.json ? "JSON " : ""}${columns} FROM ${b.table}${where}` +
        (b.groupBy.length ? ` GROUP BY ${b.groupBy.join(",")}` : "") +
        (b.orderBy.length ? ` ORDER BY ${b.orderBy.join(",")}` : "") +
        (b.perPartitionLimit ? ` PER PARTITION LIMIT ${b.perPartitionLimit}` : "") +
        (b.limit ? ` LIMIT ${b.limit}` : "") +
        (b.allowFiltering ? " ALLOW FILTERING" : "")
      );
    }
    case "insert":
      if (b.json) return `INSERT INTO ${b.table} JSON ?${b.ifNotExists ? " IF NOT EXISTS" : ""}${using}`;
      return b.columns.length ? `INSERT INTO ${b.table} (${b.columns.join(",")}) VALUES (${b.values.join(",")})${b.ifNotExists ? " IF NOT EXISTS" : ""}${using}` : undefined;
    case "update":
      return b.assignments.length && where ? `UPDATE ${b.table}${using} SET ${b.assignments.join(",")}${where}${conditions}` : undefined;
    case "delete":
      return where ? `DELETE ${b.columns.length ? `${b.columns.join(",")} ` : ""}FROM ${b.table}${using}${where}${conditions}` : undefined;
    case "batch":
      return b.statements.length ? `BEGIN ${b.batchType}BATCH${using} ${b.statements.map((s) => `${s}; `).join("")}APPLY BATCH` : undefined;
  }
}

const MODEL_METHODS = new Set(["Get", "Select", "SelectAll", "Insert", "Update", "Delete"]);

/** The statement of a table model's method call (`t.Insert()`, `t.GetQuery(session, "c")`), per table/table.go. */
function modelStatement(call: Node, context: BuilderContext): { cql: string } | { dynamic: string } | undefined {
  const called = methodOf(call);
  if (!called) return undefined;
  const base = called.method.replace(/Query(Context)?$/, "");
  if (!MODEL_METHODS.has(base)) return undefined;
  const model = tableOf(called.operand, context);
  if (!model) return undefined;
  const skip = called.method.endsWith("QueryContext") ? 2 : called.method.endsWith("Query") ? 1 : 0;
  const columns = columnArguments(argumentsOf(call).slice(skip), context);
  if (!Array.isArray(columns)) return columns;
  const primaryKey = keyEq([...model.partKey, ...model.sortKey]);
  let builder: Builder | undefined;
  switch (base) {
    case "Get":
      builder = { ...emptyBuilder("select", model.name), columns, where: primaryKey };
      break;
    case "Select":
      builder = { ...emptyBuilder("select", model.name), columns, where: keyEq(model.partKey) };
      break;
    case "SelectAll":
      builder = emptyBuilder("select", model.name);
      break;
    case "Insert":
      builder = modelBuilder("InsertBuilder", model, []);
      break;
    case "Update":
      builder = modelBuilder("UpdateBuilder", model, columns);
      break;
    case "Delete":
      builder = modelBuilder("DeleteBuilder", model, columns);
      break;
  }
  const cql = builder && render(builder);
  return cql === undefined ? undefined : { cql };
}

/** The first call of a chain (`qb.Select(…)`, `t.SelectBuilder(…)`), where it is reported. */
function rootOf(node: Node): Node {
  let current = node;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const called = current.type === "call_expression" ? methodOf(current) : undefined;
    if (!called || called.operand.type !== "call_expression") return current;
    current = called.operand;
  }
  return current;
}

const TERMINALS = new Set(["ToCql", "Query", "QueryContext"]);

/**
 * The statement a call runs, when it is a gocqlx table model's statement method or the end of a
 * builder chain (`ToCql()`, `Query(session)`, `QueryContext(ctx, session)`); undefined for any
 * other call.
 */
export function gocqlxStatement(call: Node, context: BuilderContext): GocqlxStatement | undefined {
  const called = methodOf(call);
  if (!called) return undefined;
  const model = modelStatement(call, context);
  if (model) {
    const api = `gocqlx table.${called.method}`;
    return "cql" in model ? { cql: model.cql, root: call, api } : { dynamic: model.dynamic, root: call, api, start: clip(call.text) };
  }
  if (!TERMINALS.has(called.method)) return undefined;
  const built = builderOf(called.operand, context);
  if (!built) return undefined;
  const root = rootOf(called.operand);
  const api = "gocqlx qb";
  if ("dynamic" in built) return { dynamic: built.dynamic, root, api, start: clip(root.text) };
  const cql = render(built.builder);
  return cql === undefined ? undefined : { cql, root, api };
}
