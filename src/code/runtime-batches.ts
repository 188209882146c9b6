// Batches the Python and Go drivers fill at run time:
//   Python cassandra-driver: `batch = BatchStatement(batch_type=BatchType.UNLOGGED)`, then
//     `batch.add(prepared, params)` (in a loop or an `if`), `session.execute(batch)`;
//   Go gocql: `b := session.NewBatch(gocql.LoggedBatch)` (also `gocql.NewBatch(…)`, the newer
//     `session.Batch(…)`, and `.WithContext(ctx)` after it), then `b.Query(stmt, args…)` or
//     `b.Entries = append(b.Entries, gocql.BatchEntry{Stmt: …})`, `session.ExecuteBatch(b)`.
// When every statement the code may add is one the reader knows, the batch is one BATCH of them
// all, at the line that creates it; when one is not, or the batch is handed to code that is not
// read, it is listed as dynamic with the reason. A batch handed to a function of the code read
// (`db.addRows(batch, …)`) is followed into it, a few calls deep.
import type { Node } from "web-tree-sitter";
import { parentOf } from "./tree-index.js";

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

export interface RuntimeBatchLookup {
  /** the CQL of a driver call the reader has read (`session.prepare("…")`, `b.Query(stmt, …)`), by the call node */
  statementOfCall(call: Node): string | undefined;
  /** the CQL a value stands for when it is a constant text, else undefined */
  textOf(node: Node): string | undefined;
  /** the one function or method of this name among the files read in the language, else undefined */
  functionNamed(name: string): Node | undefined;
}

/**
 * A batch read whole (`cql`), with the calls that added a statement of their own to it (Go's
 * `b.Query(stmt, …)`, Python's `batch.add("…")`): those run inside the batch, not on their own.
 */
export type RuntimeBatch = { root: Node; cql: string; memberCalls: Node[] } | { root: Node; dynamic: string };

type Language = "python" | "go";

/** Calls that run or time a batch without changing what it holds. */
const RUNS = new Set(["execute", "execute_async", "ExecuteBatch", "ExecuteBatchCAS", "MapExecuteBatchCAS", "Exec", "ExecContext", "ExecCAS", "MapExecCAS"]);
/** Go's batch options, chained after the creation (`.WithContext(ctx)`). */
const GO_OPTIONS = /^(?:WithContext|WithTimestamp|SetConsistency|SerialConsistency|Observer|RetryPolicy|Trace|Idempotent|SpeculativeExecutionPolicy|Size|DefaultTimestamp|Keyspace|SetHostID)$/;
const MAX_FOLLOW = 3;

function argumentNodes(call: Node): Node[] {
  return (field(call, "arguments")?.namedChildren ?? []).filter((n): n is Node => n !== null && !n.type.includes("comment"));
}

/** `a.b.c(…)`: the called name and the receiver's node. */
function callee(call: Node, language: Language): { name: string; receiver?: Node } | undefined {
  const fn = field(call, "function");
  if (!fn) return undefined;
  if (fn.type === "identifier") return { name: fn.text };
  if (language === "python" && fn.type === "attribute") return { name: field(fn, "attribute")?.text ?? "", receiver: field(fn, "object") };
  if (language === "go" && fn.type === "selector_expression") return { name: field(fn, "field")?.text ?? "", receiver: field(fn, "operand") };
  return undefined;
}

/** The batch type a creation call gives, or undefined when the call does not create a batch. */
function batchCreation(call: Node, language: Language): string | undefined {
  const called = callee(call, language);
  if (!called) return undefined;
  const args = argumentNodes(call);
  if (language === "python") {
    if (called.name !== "BatchStatement") return undefined;
    const typed = args.find((a) => a.type === "keyword_argument" && field(a, "name")?.text === "batch_type");
    const type = typed ? field(typed, "value") : args.find((a) => a.type !== "keyword_argument");
    return type?.text ?? "LOGGED";
  }
  // gocql: Session.NewBatch(typ), the package's NewBatch(typ), and Session.Batch(typ) of later versions.
  if (called.name !== "NewBatch" && called.name !== "Batch") return undefined;
  const type = args[0]?.text ?? "";
  return /(?:Logged|Unlogged|Counter)Batch$/.test(type) ? type : undefined;
}

function keyword(type: string): string {
  if (/UNLOGGED|Unlogged/.test(type)) return "UNLOGGED ";
  if (/COUNTER|Counter/.test(type)) return "COUNTER ";
  return "";
}

/** The variable a creation (with Go's chained options) is stored in. */
function storedIn(creation: Node, language: Language): string | undefined {
  let value = creation;
  for (let parent = parentOf(value); language === "go" && parent?.type === "selector_expression"; parent = parentOf(value)) {
    const chained = parentOf(parent);
    if (chained?.type !== "call_expression" || !GO_OPTIONS.test(field(parent, "field")?.text ?? "")) break;
    value = chained;
  }
  const holder = parentOf(value);
  if (language === "python") return holder?.type === "assignment" && field(holder, "right")?.id === value.id ? field(holder, "left")?.text : undefined;
  // Go: `b := …`, `b = …`, `var b = …`, with one name on the left.
  const list = holder?.type === "expression_list" ? parentOf(holder) : holder;
  if (!list) return undefined;
  if (list.type === "short_var_declaration" || list.type === "assignment_statement") {
    const left = field(list, "left")?.namedChildren ?? [];
    return left.length === 1 ? left[0]?.text : undefined;
  }
  if (list.type === "var_spec") return field(list, "name")?.text;
  return undefined;
}

function enclosingFunction(node: Node, language: Language): Node | undefined {
  const types = language === "python" ? ["function_definition"] : ["function_declaration", "method_declaration", "func_literal"];
  for (let current = parentOf(node); current; current = parentOf(current)) if (types.includes(current.type)) return current;
  return undefined;
}

interface Collected {
  added: { node: Node; call: Node }[];
  /** why the contents are not all in the code read */
  escape?: string;
}

/** Every statement added to `variable` in `scope` after `after`, following the batch into functions of the code read. */
function collect(scope: Node, variable: string, after: number, language: Language, lookup: RuntimeBatchLookup, depth: number, out: Collected): void {
  const callType = language === "python" ? "call" : "call_expression";
  for (const call of scope.descendantsOfType(callType)) {
    if (!call || call.startIndex < after || out.escape) continue;
    const called = callee(call, language);
    if (!called) continue;
    const args = argumentNodes(call);
    if (called.receiver?.text === variable) {
      if ((language === "python" && called.name === "add") || (language === "go" && called.name === "Query")) {
        const statement = language === "python" ? (args.find((a) => a.type === "keyword_argument" && field(a, "name")?.text === "statement") ?? args[0]) : args[0];
        if (statement) out.added.push({ node: statement.type === "keyword_argument" ? (field(statement, "value") ?? statement) : statement, call });
      } else if (called.name === "add_all") out.escape = `${variable}.add_all(…) adds statements chosen at run time`;
      continue;
    }
    // `append(b.Entries, gocql.BatchEntry{Stmt: …})`
    if (language === "go" && called.name === "append" && args[0]?.text === `${variable}.Entries`) {
      for (const entry of args.slice(1)) {
        const stmt = entry.type === "composite_literal" ? entryStatement(entry) : undefined;
        if (stmt) out.added.push({ node: stmt, call: entry });
        else out.escape = `the batch appends \`${clip(entry.text)}\`, which is not a statement of the code read`;
      }
      continue;
    }
    const handedAt = args.findIndex((a) => a.text === variable || a.text === `&${variable}`);
    if (handedAt < 0 || RUNS.has(called.name)) continue;
    const target = depth < MAX_FOLLOW ? lookup.functionNamed(called.name) : undefined;
    const parameter = target ? parameterAt(target, handedAt, language) : undefined;
    const body = target && field(target, "body");
    if (!parameter || !body) {
      out.escape = `the batch is handed to ${called.name}(…), which is not read`;
      return;
    }
    collect(body, parameter, body.startIndex, language, lookup, depth + 1, out);
  }
}

function entryStatement(literal: Node): Node | undefined {
  const type = field(literal, "type")?.text ?? "";
  if (!type.endsWith("BatchEntry")) return undefined;
  for (const element of field(literal, "body")?.namedChildren ?? []) {
    if (element?.type !== "keyed_element") continue;
    const [key, value] = element.namedChildren;
    if (key?.text === "Stmt" && value) return value.type === "literal_element" ? (value.namedChildren[0] ?? value) : value;
  }
  return undefined;
}

/** The name of a function's parameter at a position (Python methods skip `self`/`cls`). */
function parameterAt(fn: Node, index: number, language: Language): string | undefined {
  const parameters = field(fn, "parameters")?.namedChildren.filter((p): p is Node => p !== null && !p.type.includes("comment")) ?? [];
  if (language === "python") {
    const names = parameters.map((p) => (p.type === "identifier" ? p.text : (field(p, "name")?.text ?? p.namedChildren[0]?.text ?? "")));
    const own = names[0] === "self" || names[0] === "cls" ? names.slice(1) : names;
    return own[index];
  }
  // Go: `(ctx context.Context, b gocql.Batch, x, y int)`: names in order.
  const names = parameters.flatMap((p) => p.childrenForFieldName("name").map((n) => n?.text ?? ""));
  return names[index];
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > 40 ? `${oneLine.slice(0, 39)}…` : oneLine;
}

/** The statement an added value stands for. */
function addedStatement(added: { node: Node; call: Node }, language: Language, root: Node, lookup: RuntimeBatchLookup): string | undefined {
  // Go's b.Query(stmt, …) and Python's batch.add("…") are driver calls of their own.
  const own = lookup.statementOfCall(added.call);
  if (own !== undefined) return own;
  let current = added.node;
  // Python: `prepared.bind(params)` → `prepared`.
  while (language === "python" && current.type === "call" && callee(current, language)?.name === "bind") {
    const receiver = callee(current, language)?.receiver;
    if (!receiver) break;
    current = receiver;
  }
  if (current.type === "call" || current.type === "call_expression") return lookup.statementOfCall(current);
  const constant = lookup.textOf(current);
  if (constant !== undefined) return constant;
  // A prepared statement kept in a variable or an attribute: the one statement call assigned to it in the file.
  const name = current.type === "identifier" ? current.text : current.type === "attribute" ? field(current, "attribute")?.text : undefined;
  if (language !== "python" || !name) return undefined;
  const texts = new Set<string>();
  for (const assignment of root.descendantsOfType("assignment")) {
    const left = assignment && field(assignment, "left");
    const right = assignment && field(assignment, "right");
    const leftName = left?.type === "attribute" ? field(left, "attribute")?.text : left?.text;
    if (!right || leftName !== name) continue;
    const text = right.type === "call" ? lookup.statementOfCall(right) : undefined;
    if (text === undefined) return undefined;
    texts.add(text);
  }
  return texts.size === 1 ? [...texts][0] : undefined;
}

/** The batches one Python or Go file fills at run time. */
export function runtimeBatches(root: Node, language: Language, lookup: RuntimeBatchLookup): RuntimeBatch[] {
  const found: RuntimeBatch[] = [];
  for (const call of root.descendantsOfType(language === "python" ? "call" : "call_expression")) {
    const type = call && batchCreation(call, language);
    if (!call || type === undefined) continue;
    const variable = storedIn(call, language);
    if (!variable) continue;
    const scope = enclosingFunction(call, language) ?? root;
    const collected: Collected = { added: [] };
    collect(scope, variable, call.endIndex, language, lookup, 0, collected);
    if (collected.escape) {
      found.push({ root: call, dynamic: collected.escape });
      continue;
    }
    if (collected.added.length === 0) continue;
    const texts: string[] = [];
    const memberCalls: Node[] = [];
    let unknown: Node | undefined;
    for (const added of collected.added) {
      if (lookup.statementOfCall(added.call) !== undefined) memberCalls.push(added.call);
      const text = addedStatement(added, language, root, lookup);
      if (text === undefined) {
        unknown = added.node;
        break;
      }
      const statement = text.trim().replace(/;\s*$/, "");
      if (!texts.includes(statement)) texts.push(statement);
    }
    if (unknown) {
      found.push({ root: call, dynamic: `the batch adds \`${clip(unknown.text)}\`, which is not a statement of the code read` });
      continue;
    }
    found.push({ root: call, cql: `BEGIN ${keyword(type)}BATCH\n${texts.map((t) => `  ${t};\n`).join("")}APPLY BATCH`, memberCalls });
  }
  return found;
}
