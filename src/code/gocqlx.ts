// gocqlx statements built from fixed parts: a `table.New(table.Metadata{…})` model's Insert, Get,
// Select, Delete and Update, and `qb` chains (`qb.Select("t").Columns(…).Where(qb.Eq("c")).ToCql()`).
// The statement is written out the way gocqlx writes it; a chain with a part that is not fixed,
// or a method this reader does not know, gives nothing rather than a guess.
import type { Node } from "web-tree-sitter";
import { append } from "../arrays.js";

export interface BuilderContext {
  /** the value a name stands for (a local or package-level declaration), or the node itself */
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

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

/** `[]string{"a", "b"}`, or `m.Columns` of a metadata literal. */
function stringList(node: Node, context: BuilderContext): string[] | undefined {
  const target = context.follow(node);
  if (target.type === "selector_expression") {
    const model = metadataOf(field(target, "operand"), context);
    const name = field(target, "field")?.text;
    if (model && name === "Columns") return model.columns;
    if (model && name === "PartKey") return model.partKey;
    if (model && name === "SortKey") return model.sortKey;
    return undefined;
  }
  if (target.type !== "composite_literal") return undefined;
  const items: string[] = [];
  for (const element of field(target, "body")?.namedChildren ?? []) {
    const value = element?.namedChildren[0];
    const text = value ? context.text(value) : undefined;
    if (text === undefined) return undefined;
    items.push(text);
  }
  return items;
}

function metadataOf(node: Node | undefined, context: BuilderContext): TableModel | undefined {
  if (!node) return undefined;
  const target = context.follow(node);
  if (target.type !== "composite_literal" || !field(target, "type")?.text.endsWith("Metadata")) return undefined;
  const model: TableModel = { name: "", columns: [], partKey: [], sortKey: [] };
  for (const element of field(target, "body")?.namedChildren ?? []) {
    if (element?.type !== "keyed_element") continue;
    const [key, value] = element.namedChildren;
    const inner = value?.namedChildren[0];
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

/** `table.New(m)` (through the names it is assigned to). */
function tableOf(node: Node, context: BuilderContext): TableModel | undefined {
  const target = context.follow(node);
  if (target.type !== "call_expression" || !field(target, "function")?.text.endsWith("table.New")) return undefined;
  return metadataOf(field(target, "arguments")?.namedChildren[0] ?? undefined, context);
}

function argumentsOf(call: Node): Node[] {
  return (field(call, "arguments")?.namedChildren ?? []).filter((n): n is Node => n !== null);
}

/** Column names passed as arguments (`"a", "b"`, or `m.Columns...`). */
function columnArguments(args: Node[], context: BuilderContext): string[] | undefined {
  const columns: string[] = [];
  for (const argument of args) {
    if (argument.type === "variadic_argument") {
      const list = argument.namedChildren[0] ? stringList(argument.namedChildren[0], context) : undefined;
      if (!list) return undefined;
      append(columns, list);
      continue;
    }
    const text = context.text(argument);
    if (text === undefined) return undefined;
    columns.push(text);
  }
  return columns;
}

const keyWhere = (columns: string[]) => columns.map((c) => `${c}=?`).join(" AND ");

const TABLE_METHODS = new Set(["Insert", "InsertQuery", "Get", "GetQuery", "Select", "SelectQuery", "Delete", "DeleteQuery", "Update", "UpdateQuery"]);

/** The statement of a table model's method call, e.g. `tbl.Insert()`. */
export function tableStatement(call: Node, context: BuilderContext): string | undefined {
  const fn = field(call, "function");
  const method = fn?.type === "selector_expression" ? field(fn, "field")?.text : undefined;
  const operand = fn ? field(fn, "operand") : undefined;
  if (!method || !operand || !TABLE_METHODS.has(method)) return undefined;
  const model = tableOf(operand, context);
  if (!model) return undefined;
  const wanted = method.endsWith("Query") ? argumentsOf(call).slice(1) : argumentsOf(call);
  const columns = columnArguments(wanted, context);
  if (columns === undefined) return undefined;
  const key = [...model.partKey, ...model.sortKey];
  switch (method.replace(/Query$/, "")) {
    case "Insert":
      return `INSERT INTO ${model.name} (${model.columns.join(",")}) VALUES (${model.columns.map(() => "?").join(",")})`;
    case "Get":
      return `SELECT ${columns.length ? columns.join(",") : model.columns.join(",")} FROM ${model.name} WHERE ${keyWhere(key)}`;
    case "Select":
      return `SELECT ${columns.length ? columns.join(",") : model.columns.join(",")} FROM ${model.name} WHERE ${keyWhere(model.partKey)}`;
    case "Delete":
      return `DELETE ${columns.join(",")}${columns.length ? " " : ""}FROM ${model.name} WHERE ${keyWhere(key)}`;
    case "Update":
      return columns.length ? `UPDATE ${model.name} SET ${columns.map((c) => `${c}=?`).join(",")} WHERE ${keyWhere(key)}` : undefined;
  }
  return undefined;
}

const COMPARATORS: Record<string, string> = { Eq: "=", Lt: "<", LtOrEq: "<=", Gt: ">", GtOrEq: ">=", In: "IN", Contains: "CONTAINS", ContainsKey: "CONTAINS KEY" };

/** `qb.Eq("c")` → `c=?`. */
function condition(node: Node, context: BuilderContext): string | undefined {
  if (node.type !== "call_expression") return undefined;
  const fn = field(node, "function");
  if (fn?.type !== "selector_expression" || field(fn, "operand")?.text !== "qb") return undefined;
  const operator = COMPARATORS[field(fn, "field")?.text ?? ""];
  const [column] = argumentsOf(node);
  const name = column ? context.text(column) : undefined;
  if (!operator || name === undefined) return undefined;
  return operator === "IN" ? `${name} IN ?` : `${name}${operator.length > 2 ? ` ${operator} ` : operator}?`;
}

/**
 * The statement of a `qb` chain ending in `.ToCql()`, and the chain's first call (`qb.Select(…)`),
 * where it is reported.
 */
export function qbStatement(call: Node, context: BuilderContext): { cql: string; root: Node } | undefined {
  const fn = field(call, "function");
  if (fn?.type !== "selector_expression" || field(fn, "field")?.text !== "ToCql") return undefined;
  const steps: { method: string; call: Node }[] = [];
  let current = field(fn, "operand");
  while (current?.type === "call_expression") {
    const inner = field(current, "function");
    if (inner?.type !== "selector_expression") return undefined;
    const method = field(inner, "field")?.text ?? "";
    const operand = field(inner, "operand");
    steps.unshift({ method, call: current });
    if (operand?.type === "identifier" && operand.text === "qb") break;
    current = operand;
  }
  const [root, ...rest] = steps;
  if (!root) return undefined;
  const [tableArgument] = argumentsOf(root.call);
  const table = tableArgument ? tableText(tableArgument, context) : undefined;
  if (!table) return undefined;
  let columns: string[] = [];
  const where: string[] = [];
  let limit = "";
  let allowFiltering = false;
  for (const step of rest) {
    if (step.method === "Columns" || step.method === "Set") {
      const list = columnArguments(argumentsOf(step.call), context);
      if (!list) return undefined;
      columns = [...columns, ...list];
    } else if (step.method === "Where") {
      for (const argument of argumentsOf(step.call)) {
        const text = condition(argument, context);
        if (!text) return undefined;
        where.push(text);
      }
    } else if (step.method === "Limit") {
      limit = " LIMIT ?";
    } else if (step.method === "AllowFiltering") {
      allowFiltering = true;
    } else return undefined;
  }
  const whereText = where.length ? ` WHERE ${where.join(" AND ")}` : "";
  switch (root.method) {
    case "Select":
      return { cql: `SELECT ${columns.length ? columns.join(",") : "*"} FROM ${table}${whereText}${limit}${allowFiltering ? " ALLOW FILTERING" : ""}`, root: root.call };
    case "Insert":
      return columns.length ? { cql: `INSERT INTO ${table} (${columns.join(",")}) VALUES (${columns.map(() => "?").join(",")})`, root: root.call } : undefined;
    case "Delete":
      return where.length ? { cql: `DELETE FROM ${table}${whereText}`, root: root.call } : undefined;
    case "Update":
      return columns.length && where.length ? { cql: `UPDATE ${table} SET ${columns.map((c) => `${c}=?`).join(",")}${whereText}`, root: root.call } : undefined;
  }
  return undefined;
}

/** A table name: a constant, or `m.Name` of a metadata literal. */
function tableText(node: Node, context: BuilderContext): string | undefined {
  if (node.type === "selector_expression" && field(node, "field")?.text === "Name") {
    const model = metadataOf(field(node, "operand"), context);
    if (model) return model.name;
  }
  return context.text(node);
}
