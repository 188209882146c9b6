// Batches the Java drivers build at run time: `BatchStatement.builder(DefaultBatchType.LOGGED)`
// (driver 4) or `new BatchStatement()` (driver 3) kept in a variable, then `batch.addStatement(…)`
// / `batch.add(…)` with bound prepared statements, in a loop or an `if`. When every statement the
// code may add is one the reader knows (a prepared statement's text, a SimpleStatement), the batch
// is one BATCH of them all, at the line that creates it; when one is not, it is listed as dynamic.
// A prepared statement is found through the wrappers real DAOs put around it: options set on the
// prepared or simple statement (`session.prepare(SimpleStatement.builder("…").setIdempotence(true)
// .build()).setConsistencyLevel(…)`), a method of the code read that returns a built statement
// (`session.prepare(statements.getInsertTask())`), and a field of another class read
// (`segmentDao.insertSegmentStmt.bind(…)`), when the field's name holds one statement only.
import type { Node } from "web-tree-sitter";
import { append } from "../arrays.js";
import { parentOf } from "./tree-index.js";

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

export interface BatchLookup {
  /** the CQL of a driver call the reader has read (`session.prepare("…")`, `SimpleStatement.newInstance("…")`), by the call node */
  statementOfCall(call: Node): string | undefined;
  /** the statement of a mapper DAO's method, by the DAO interface and the method */
  daoStatement(dao: string, method: string): string | undefined;
  /** the statement a method of the code read returns (`statements.getInsertTask()`), by the call */
  returnedStatement?(call: Node): string | undefined;
  /** the roots of the other Java files read, where a field of another class is assigned */
  otherRoots?: Node[];
}

export type BuiltBatch = { root: Node; cql: string } | { root: Node; dynamic: string };

const ADD_METHODS = new Set(["add", "addStatement"]);
/** Calls on a bound or simple statement that set options, not its text. */
const STATEMENT_OPTIONS = /^(?:bind|set\w*|boundStatementBuilder|build|enableTracing|disableTracing)$/;
/** Calls that prepare the statement they are given. */
const PREPARE = new Set(["prepare", "prepareAsync"]);
const MAX_PEEL = 8;

function argumentsOf(call: Node): Node[] {
  return (field(call, "arguments")?.namedChildren ?? []).filter((n): n is Node => n !== null && !n.type.includes("comment"));
}

/** `BatchStatement.builder(type)`, `BatchStatement.newInstance(type, …)`, `new BatchStatement(type?)`: the batch type, or undefined. */
function batchCreation(node: Node): { type: string; initial: Node[] } | undefined {
  if (node.type === "object_creation_expression" && field(node, "type")?.text.split(".").pop() === "BatchStatement") {
    const [type] = argumentsOf(node);
    return { type: type?.text ?? "LOGGED", initial: [] };
  }
  if (node.type !== "method_invocation" || field(node, "object")?.text.split(".").pop() !== "BatchStatement") return undefined;
  const method = field(node, "name")?.text;
  if (method !== "builder" && method !== "newInstance") return undefined;
  const [type, ...initial] = argumentsOf(node);
  return { type: type?.text ?? "LOGGED", initial: method === "newInstance" ? initial : [] };
}

/** The variable a creation is stored in, and the block its later uses are in. */
function storedIn(creation: Node): { variable: string; scope: Node } | undefined {
  const holder = parentOf(creation);
  let variable: string | undefined;
  if (holder?.type === "variable_declarator" && field(holder, "value")?.id === creation.id) variable = field(holder, "name")?.text;
  else if (holder?.type === "assignment_expression" && field(holder, "right")?.id === creation.id) variable = field(holder, "left")?.text;
  if (!variable) return undefined;
  let scope: Node | undefined = holder;
  while (scope && scope.type !== "block" && scope.type !== "constructor_body") scope = parentOf(scope);
  return scope ? { variable, scope } : undefined;
}

/** The statement a value stands for once its options and its `prepare(…)` are peeled off. */
function statementOfValue(value: Node, lookup: BatchLookup): string | undefined {
  let current = value;
  for (let depth = 0; depth < MAX_PEEL; depth++) {
    const own = lookup.statementOfCall(current);
    if (own !== undefined) return own;
    if (current.type !== "method_invocation") return undefined;
    const method = field(current, "name")?.text ?? "";
    const next = PREPARE.has(method) ? argumentsOf(current)[0] : STATEMENT_OPTIONS.test(method) ? field(current, "object") : undefined;
    if (!next) return lookup.returnedStatement?.(current);
    current = next;
  }
  return undefined;
}

/** The one statement assigned to a field or variable of this name in a file, null when there is none, undefined when it is not one known statement. */
function assignedStatement(root: Node, name: string, lookup: BatchLookup): string | null | undefined {
  const texts = new Set<string>();
  for (const holder of root.descendantsOfType(["variable_declarator", "assignment_expression"])) {
    if (!holder) continue;
    const target = holder.type === "variable_declarator" ? field(holder, "name") : field(holder, "left");
    const targetName = target?.type === "field_access" ? field(target, "field")?.text : target?.text;
    const value = holder.type === "variable_declarator" ? field(holder, "value") : field(holder, "right");
    if (targetName !== name || !value || value.type !== "method_invocation") continue;
    const text = statementOfValue(value, lookup);
    if (text === undefined) return undefined;
    texts.add(text);
  }
  if (texts.size === 0) return null;
  return texts.size === 1 ? [...texts][0] : undefined;
}

/** The text of an added statement: `ps.bind(…).setString(…)` of a prepared statement, or a statement call the reader has read. */
function addedStatement(node: Node, root: Node, lookup: BatchLookup): string | undefined {
  let current = node;
  // Peel the options off: `insertStmt.bind().setString("id", id)` → `insertStmt`.
  while (current.type === "method_invocation" && STATEMENT_OPTIONS.test(field(current, "name")?.text ?? "")) {
    const object = field(current, "object");
    if (!object) break;
    current = object;
  }
  if (current.type === "method_invocation" || current.type === "object_creation_expression") return statementOfValue(current, lookup) ?? daoCall(current, root, lookup);
  const name = current.type === "identifier" ? current.text : current.type === "field_access" ? field(current, "field")?.text : undefined;
  if (!name) return undefined;
  // The prepared statement's field or variable: the one prepare call assigned to it in the file,
  // else, for a field of another object (`segmentDao.insertStmt`), in the other files read.
  const own = assignedStatement(root, name, lookup);
  if (own !== null) return own;
  const object = current.type === "field_access" ? field(current, "object") : undefined;
  if (!object || object.type === "this") return undefined;
  const texts = new Set<string>();
  for (const other of lookup.otherRoots ?? []) {
    if (other.tree === root.tree) continue;
    const text = assignedStatement(other, name, lookup);
    if (text === undefined) return undefined;
    if (text !== null) texts.add(text);
  }
  return texts.size === 1 ? [...texts][0] : undefined;
}

/** `userDao.saveQuery(user)`: a mapper DAO's method, the DAO found by the declared type of the field or variable. */
function daoCall(call: Node, root: Node, lookup: BatchLookup): string | undefined {
  const object = field(call, "object");
  const method = field(call, "name")?.text;
  const name = object?.type === "identifier" ? object.text : object?.type === "field_access" ? field(object, "field")?.text : undefined;
  if (!name || !method) return undefined;
  const types = new Set<string>();
  for (const declaration of root.descendantsOfType(["field_declaration", "local_variable_declaration", "formal_parameter"])) {
    if (!declaration) continue;
    const declared = declaration.type === "formal_parameter" ? [field(declaration, "name")] : declaration.childrenForFieldName("declarator").map((d) => d && field(d, "name"));
    if (declared.some((n) => n?.text === name)) types.add(field(declaration, "type")?.text.split(".").pop() ?? "");
  }
  return types.size === 1 ? lookup.daoStatement([...types][0]!, method) : undefined;
}

function batchKeyword(type: string): string {
  const last = type.split(".").pop() ?? "";
  if (last === "UNLOGGED") return "UNLOGGED ";
  if (last === "COUNTER") return "COUNTER ";
  return "";
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > 40 ? `${oneLine.slice(0, 39)}…` : oneLine;
}

/** The batches one Java file builds from statements added one by one. */
export function builtBatches(root: Node, lookup: BatchLookup): BuiltBatch[] {
  const found: BuiltBatch[] = [];
  for (const node of root.descendantsOfType(["method_invocation", "object_creation_expression"])) {
    const creation = node && batchCreation(node);
    if (!node || !creation) continue;
    const stored = storedIn(node);
    const added: Node[] = [...creation.initial];
    if (stored) {
      for (const call of stored.scope.descendantsOfType("method_invocation")) {
        if (!call || call.startIndex < node.endIndex) continue;
        const object = field(call, "object");
        const method = field(call, "name")?.text ?? "";
        if (object?.text !== stored.variable) continue;
        if (ADD_METHODS.has(method)) append(added, argumentsOf(call));
        else if (method === "addAll" || method === "addStatements") {
          found.push({ root: node, dynamic: `${stored.variable}.${method}(…) adds statements chosen at run time` });
          added.length = 0;
          break;
        }
      }
    }
    if (added.length === 0) continue;
    const texts: string[] = [];
    let unknown: Node | undefined;
    for (const statement of added) {
      const text = addedStatement(statement, root, lookup);
      if (text === undefined) {
        unknown = statement;
        break;
      }
      if (!texts.includes(text)) texts.push(text);
    }
    if (unknown) {
      found.push({ root: node, dynamic: `the batch adds \`${clip(unknown.text)}\`, which is not a statement of the code read` });
      continue;
    }
    const body = texts.map((t) => `  ${t.trim().replace(/;\s*$/, "")};\n`).join("");
    found.push({ root: node, cql: `BEGIN ${batchKeyword(creation.type)}BATCH\n${body}APPLY BATCH` });
  }
  return found;
}
