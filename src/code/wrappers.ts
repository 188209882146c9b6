// Helpers that run the statement they are given: `func (s *Store) exec(stmt string, args ...any)
// { s.session.Query(stmt, args...).Exec() }` in Go, `private ResultSet run(String cql) { return
// session.execute(cql); }` in Java. The driver call's argument is then a parameter, and the
// statements are the arguments the code read passes at each call of the helper. Only a helper
// whose name is unique among the functions of its language read is followed, one level deep, and
// only when the parameter is not assigned in the helper's body.
import type { Node } from "web-tree-sitter";
import { parentOf } from "./tree-index.js";

export type WrapperLanguage = "go" | "java";

const FUNCTION_TYPES: Record<WrapperLanguage, string[]> = {
  go: ["function_declaration", "method_declaration"],
  java: ["method_declaration"],
};
const CALL_TYPE: Record<WrapperLanguage, string> = { go: "call_expression", java: "method_invocation" };

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

function enclosingFunction(node: Node, language: WrapperLanguage): Node | undefined {
  for (let current = parentOf(node); current; current = parentOf(current)) {
    if (FUNCTION_TYPES[language].includes(current.type)) return current;
    // A closure's parameters are not the helper's.
    if (current.type === "func_literal" || current.type === "lambda_expression") return undefined;
  }
  return undefined;
}

/** The names of a function's parameters, in order. */
function parameterNames(fn: Node, language: WrapperLanguage): string[] {
  const list = field(fn, "parameters")?.namedChildren ?? [];
  if (language === "go") return list.flatMap((p) => (p ? p.childrenForFieldName("name").map((n) => n?.text ?? "") : []));
  return list.map((p) => (p && (p.type === "formal_parameter" || p.type === "spread_parameter") ? (field(p, "name")?.text ?? p.namedChildren.at(-1)?.text ?? "") : ""));
}

function assigns(body: Node, name: string, language: WrapperLanguage): boolean {
  const types = language === "go" ? ["assignment_statement", "short_var_declaration"] : ["assignment_expression"];
  for (const node of body.descendantsOfType(types)) {
    const left = node && field(node, "left");
    if (!left) continue;
    const names = left.type === "expression_list" ? left.namedChildren.map((n) => n?.text) : [left.text];
    if (names.includes(name)) return true;
  }
  return false;
}

/** The called name of a call: `h.exec(…)`, `exec(…)`, `this.run(…)`. */
export function calledName(call: Node, language: WrapperLanguage): string | undefined {
  if (language === "java") return field(call, "name")?.text;
  const fn = field(call, "function");
  if (fn?.type === "identifier") return fn.text;
  if (fn?.type === "selector_expression") return field(fn, "field")?.text;
  return undefined;
}

export interface Helper {
  name: string;
  /** the position of the parameter the driver call runs */
  index: number;
  /** how many parameters the helper declares (a call with another count is another function) */
  count: number;
  /** a Go method (called `x.name(…)`) rather than a function (called `name(…)` in its package) */
  method: boolean;
}

/** When a driver call's statement argument is a parameter of the function around it, that helper. */
export function helperOf(argument: Node, language: WrapperLanguage): Helper | undefined {
  if (argument.type !== "identifier") return undefined;
  const fn = enclosingFunction(argument, language);
  const name = fn && field(fn, "name")?.text;
  const body = fn && field(fn, "body");
  if (!fn || !name || !body) return undefined;
  const names = parameterNames(fn, language);
  const index = names.indexOf(argument.text);
  if (index < 0 || assigns(body, argument.text, language)) return undefined;
  return { name, index, count: names.length, method: fn.type === "method_declaration" };
}

/** The arguments the helper's callers pass at its statement parameter, among the calls given. */
export function argumentsPassed(helper: Helper, calls: Node[], language: WrapperLanguage): { call: Node; argument: Node }[] {
  const found: { call: Node; argument: Node }[] = [];
  for (const call of calls) {
    if (call.type !== CALL_TYPE[language] || calledName(call, language) !== helper.name) continue;
    // Go: a function of another package with the same name is `pkg.name(…)`, not this helper.
    if (language === "go" && (field(call, "function")?.type === "selector_expression") !== helper.method) continue;
    const args = (field(call, "arguments")?.namedChildren ?? []).filter((n): n is Node => n !== null && !n.type.includes("comment"));
    const argument = args[helper.index];
    // A Go variadic tail (`args...`) may make the count differ: the statement comes first anyway.
    if (argument && (args.length === helper.count || (language === "go" && args.length > helper.index))) found.push({ call, argument });
  }
  return found;
}
