// The statements Python cqlengine models run (the cassandra-driver's object mapper, "Making
// Queries" in its docs: https://docs.datastax.com/en/developer/python-driver/latest/cqlengine/queryset/):
//   Model.objects.filter(a=x, b__gt=y).limit(n), Model.objects(a=x), Model.filter(…), Model.get(…),
//   .first(), .count(), .all(), .allow_filtering(), .order_by("-b")        → SELECT
//   Model.create(a=x, …), Model.if_not_exists().create(…), .ttl(n)          → INSERT
//   Model(a=x).update(c=y), Model.objects(a=x).update(c=y), .iff(c=z)        → UPDATE
//   Model(a=x).delete(), Model.objects(a=x).delete()                         → DELETE
// `.batch(b)`, `.consistency(…)`, `.timeout(…)` change how a statement runs, not its text. A
// counter column's update is `c = c + ?`. A chain with `**kwargs`, an attribute the model does not
// map, or a method this reader does not know gives nothing; a query set kept in a variable (and
// perhaps filtered further) is read only where it is finished (`.get`, `.first`, `.count`, …).
import type { Node } from "web-tree-sitter";
import { parentOf } from "./tree-index.js";
import type { CodeTable } from "./types.js";

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

interface Step {
  name: string;
  call?: Node;
}

const OPERATORS: Record<string, string> = { gt: ">", gte: ">=", lt: "<", lte: "<=", in: "IN", contains: "CONTAINS", like: "LIKE" };
/** Calls that change how a statement runs, not its text. */
const RUN_OPTIONS = new Set(["batch", "consistency", "timeout", "using"]);
const FINISHING = new Set(["get", "first", "count", "all", "create", "update", "delete", "save", "limit"]);

function keywords(call: Node | undefined): { name: string; value: Node }[] | undefined {
  const out: { name: string; value: Node }[] = [];
  for (const argument of field(call!, "arguments")?.namedChildren ?? []) {
    if (!argument || argument.type.includes("comment")) continue;
    if (argument.type !== "keyword_argument") return undefined; // `**kwargs`, positional values
    const name = field(argument, "name")?.text;
    const value = field(argument, "value");
    if (!name || !value) return undefined;
    out.push({ name, value });
  }
  return out;
}

/** `a.b(…).c(…)` from its outermost call: the base expression and the steps after it. */
function chainOf(node: Node): { base: Node; steps: Step[] } | undefined {
  const steps: Step[] = [];
  let current: Node | undefined = node;
  while (current) {
    if (current.type === "call") {
      const fn = field(current, "function");
      if (fn?.type !== "attribute") return { base: current, steps: steps.reverse() };
      steps.push({ name: field(fn, "attribute")?.text ?? "", call: current });
      current = field(fn, "object");
    } else if (current.type === "attribute") {
      steps.push({ name: field(current, "attribute")?.text ?? "" });
      current = field(current, "object");
    } else return { base: current, steps: steps.reverse() };
  }
  return undefined;
}

/** Whether a node is the outermost part of its chain (nothing is called or read on it). */
function outermost(node: Node): boolean {
  const parent = parentOf(node);
  return !(parent?.type === "attribute" && field(parent, "object")?.id === node.id);
}

export function cqlengineStatements(root: Node, tables: CodeTable[]): { node: Node; cql: string }[] {
  const models = new Map<string, CodeTable[]>();
  for (const table of tables) if (table.framework === "cqlengine") models.set(table.entity, [...(models.get(table.entity) ?? []), table]);
  const found: { node: Node; cql: string }[] = [];
  for (const node of root.descendantsOfType("call")) {
    if (!node || !outermost(node)) continue;
    const chain = chainOf(node);
    if (!chain || chain.steps.length === 0) continue;
    let { base } = chain;
    // `Model(a=x)`: an instance whose keys are the values given.
    let instance: { name: string; value: Node }[] | undefined;
    if (base.type === "call") {
      instance = keywords(base);
      base = field(base, "function") ?? base;
    }
    if (base.type !== "identifier") continue;
    const candidates = models.get(base.text);
    if (candidates?.length !== 1) continue;
    // `….update(…).batch(b)`: options after the call that makes the statement.
    while (chain.steps.length > 1 && RUN_OPTIONS.has(chain.steps.at(-1)!.name)) chain.steps.pop();
    const last = chain.steps.at(-1)!.name;
    // A query set handed on or kept unfinished may be filtered further elsewhere.
    if (!FINISHING.has(last) && !["filter", "objects", "allow_filtering", "order_by"].includes(last)) continue;
    if (!FINISHING.has(last) && parentOf(node)?.type === "assignment") continue;
    const cql = statementOf(candidates[0]!, chain.steps, instance);
    if (cql) found.push({ node, cql });
  }
  return found;
}

function statementOf(table: CodeTable, steps: Step[], instance: { name: string; value: Node }[] | undefined): string | undefined {
  const column = (property: string) => table.columns.find((c) => c.property === property);
  const from = table.keyspace ? `${table.keyspace}.${table.name}` : table.name;
  const where: string[] = [];
  const conditions: string[] = [];
  const order: string[] = [];
  let limit: string | undefined;
  let allowFiltering = false;
  let ifNotExists = false;
  let ifExists = false;
  let ttl = false;
  let timestamp = false;
  const addFilters = (call: Node | undefined) => {
    const given = call ? keywords(call) : [];
    if (!given) return false;
    for (const { name } of given) {
      const [property, operator] = name.split("__");
      const target = column(property ?? "");
      if (!target || (operator && !OPERATORS[operator])) return false;
      where.push(operator ? `${target.name} ${OPERATORS[operator]} ?` : `${target.name} = ?`);
    }
    return true;
  };
  if (instance) {
    // An instance's update and delete name its primary key.
    for (const { name } of instance) {
      const target = column(name);
      if (!target) return undefined;
      if ((table.partitionKey ?? []).includes(target.name) || (table.clustering ?? []).some((c) => c.name === target.name)) where.push(`${target.name} = ?`);
    }
  }
  for (const [index, step] of steps.entries()) {
    const final = index === steps.length - 1;
    switch (step.name) {
      case "objects":
      case "filter":
        if (step.call && !addFilters(step.call)) return undefined;
        break;
      case "all":
      case "batch":
        break;
      case "limit": {
        const [value] = field(step.call!, "arguments")?.namedChildren ?? [];
        limit = value?.type === "integer" ? value.text : "?";
        break;
      }
      case "allow_filtering":
        allowFiltering = true;
        break;
      case "order_by":
        for (const argument of field(step.call!, "arguments")?.namedChildren ?? []) {
          const text = argument?.type === "string" ? argument.text.slice(1, -1) : undefined;
          const target = text !== undefined ? column(text.replace(/^-/, "")) : undefined;
          if (!target) return undefined;
          order.push(`${target.name} ${text!.startsWith("-") ? "DESC" : "ASC"}`);
        }
        break;
      case "if_not_exists":
        ifNotExists = true;
        break;
      case "if_exists":
        ifExists = true;
        break;
      case "ttl":
        ttl = true;
        break;
      case "timestamp":
        timestamp = true;
        break;
      case "iff": {
        const given = keywords(step.call);
        if (!given) return undefined;
        for (const { name } of given) {
          const target = column(name);
          if (!target) return undefined;
          conditions.push(`${target.name} = ?`);
        }
        break;
      }
      case "get":
      case "first":
      case "count": {
        if (!final || instance) return undefined;
        if (step.name === "get" && !addFilters(step.call)) return undefined;
        const select = step.name === "count" ? "COUNT(*)" : "*";
        const shown = step.name === "first" ? "1" : limit;
        return selectText(select, from, where, order, shown, allowFiltering);
      }
      case "create":
      case "save": {
        if (!final) return undefined;
        const given = step.name === "create" ? keywords(step.call) : instance;
        if (!given || given.length === 0 || (step.name === "create" && instance)) return undefined;
        const names: string[] = [];
        for (const { name } of given) {
          const target = column(name);
          if (!target) return undefined;
          names.push(target.name);
        }
        const using = [ttl ? "TTL ?" : "", timestamp ? "TIMESTAMP ?" : ""].filter(Boolean).join(" AND ");
        return `INSERT INTO ${from} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})${ifNotExists ? " IF NOT EXISTS" : ""}${using ? ` USING ${using}` : ""}`;
      }
      case "update": {
        if (!final) return undefined;
        const given = keywords(step.call);
        if (!given || given.length === 0 || where.length === 0) return undefined;
        const sets: string[] = [];
        for (const { name } of given) {
          const target = column(name);
          if (!target) return undefined;
          sets.push(target.counter ? `${target.name} = ${target.name} + ?` : `${target.name} = ?`);
        }
        const using = [ttl ? "TTL ?" : "", timestamp ? "TIMESTAMP ?" : ""].filter(Boolean).join(" AND ");
        const condition = ifExists ? " IF EXISTS" : conditions.length > 0 ? ` IF ${conditions.join(" AND ")}` : "";
        return `UPDATE ${from}${using ? ` USING ${using}` : ""} SET ${sets.join(", ")} WHERE ${where.join(" AND ")}${condition}`;
      }
      case "delete": {
        if (!final || where.length === 0) return undefined;
        const condition = ifExists ? " IF EXISTS" : conditions.length > 0 ? ` IF ${conditions.join(" AND ")}` : "";
        return `DELETE FROM ${from}${timestamp ? " USING TIMESTAMP ?" : ""} WHERE ${where.join(" AND ")}${condition}`;
      }
      default:
        if (!RUN_OPTIONS.has(step.name)) return undefined;
    }
  }
  // A query set iterated where it is written: every row it selects.
  if (instance) return undefined;
  return selectText("*", from, where, order, limit, allowFiltering);
}

function selectText(select: string, from: string, where: string[], order: string[], limit: string | undefined, allowFiltering: boolean): string {
  return [
    `SELECT ${select} FROM ${from}`,
    where.length > 0 ? ` WHERE ${where.join(" AND ")}` : "",
    order.length > 0 ? ` ORDER BY ${order.join(", ")}` : "",
    limit ? ` LIMIT ${limit}` : "",
    allowFiltering ? " ALLOW FILTERING" : "",
  ].join("");
}
