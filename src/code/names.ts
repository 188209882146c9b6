// Names a person recognises for a statement of the code. A statement prepared in a constructor, an
// initializer or a field's declaration is known by the field that holds it
// (`UserRepository.findOneByResetKeyStmt`), not by the constructor (`UserRepository.UserRepository~7`);
// elsewhere the function that runs it names it, as before.
import type { Node } from "web-tree-sitter";
import { parentOf } from "./tree-index.js";

/** Nodes a call's value passes through on its way to the name it is assigned to. */
const PASS_THROUGH = new Set([
  // Java
  "method_invocation", "argument_list", "parenthesized_expression", "cast_expression", "object_creation_expression",
  // Go, JavaScript, TypeScript, Python
  "call_expression", "selector_expression", "arguments", "argument", "await_expression", "member_expression", "call", "attribute", "expression_list", "as_expression", "non_null_expression",
  // Kotlin
  "navigation_expression", "navigation_suffix", "call_suffix", "value_arguments", "value_argument",
]);

/** Set-up code: a constructor or initializer, which runs once and stores what it prepares. */
const SETUP_FUNCTIONS = new Set(["constructor_declaration", "compact_constructor_declaration", "static_initializer", "secondary_constructor", "anonymous_initializer"]);
/** Any other function: its name is the statement's name. */
const FUNCTIONS = new Set([
  "method_declaration", "lambda_expression", "function_declaration", "func_literal", "function_definition", "lambda", "function_expression", "arrow_function",
  "method_definition", "generator_function_declaration", "lambda_literal", "anonymous_function", "getter", "setter",
]);

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

/** Whether the code around `node` runs once to set things up: a constructor, an initializer, a field's declaration, the top level. */
function inSetupCode(node: Node): boolean {
  for (let parent = parentOf(node); parent; parent = parentOf(parent)) {
    if (SETUP_FUNCTIONS.has(parent.type)) return true;
    if (!FUNCTIONS.has(parent.type)) continue;
    const name = field(parent, "name")?.text;
    return name === "constructor" || name === "__init__";
  }
  return true;
}

/** The last plain name of an assignment's target: `x`, `this.x`, `self.x`, `s.x`. */
function targetName(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === "identifier" || node.type === "simple_identifier" || node.type === "property_identifier" || node.type === "field_identifier") return node.text;
  const last = node.namedChildren.filter((c): c is Node => c !== null).at(-1);
  if (["field_access", "attribute", "member_expression", "selector_expression", "directly_assignable_expression", "navigation_expression", "expression_list", "navigation_suffix"].includes(node.type)) {
    return targetName(field(node, "field") ?? field(node, "attribute") ?? field(node, "property") ?? last);
  }
  if (node.type === "variable_declaration") return targetName(node.namedChildren.find((c) => c?.type === "simple_identifier") ?? undefined);
  return undefined;
}

/** The name a call's result is stored under (`stmt = session.prepare(…)`, `PreparedStatement stmt = …`), or undefined. */
function holderOf(call: Node): string | undefined {
  let node = call;
  for (let depth = 0; depth < 12; depth++) {
    const parent = parentOf(node);
    if (!parent) break;
    switch (parent.type) {
      case "assignment_expression":
      case "assignment":
      case "augmented_assignment": {
        const left = field(parent, "left") ?? parent.namedChildren[0] ?? undefined;
        return left && left.id !== node.id ? targetName(left) : undefined;
      }
      case "variable_declarator":
        return targetName(field(parent, "name"));
      case "public_field_definition":
      case "field_definition":
        return targetName(field(parent, "name") ?? field(parent, "property"));
      case "property_declaration":
        return targetName(parent.namedChildren.find((c) => c?.type === "variable_declaration") ?? undefined);
      case "short_var_declaration":
      case "assignment_statement":
      case "var_spec":
      case "const_spec":
        return targetName(field(parent, "left")?.namedChildren[0] ?? field(parent, "name") ?? undefined);
    }
    if (!PASS_THROUGH.has(parent.type)) return undefined;
    node = parent;
  }
  return undefined;
}

/**
 * The name for a statement run by `call` in set-up code: the field or variable that keeps it, with
 * the enclosing function's class (`UserRepository.findOneByResetKeyStmt`); undefined when the
 * function that runs it is the better name.
 */
export function holderName(call: Node, functionName: string | undefined): string | undefined {
  if (!inSetupCode(call)) return undefined;
  const holder = holderOf(call);
  if (!holder) return undefined;
  const owner = functionName?.split(".")[0];
  return owner && owner !== holder ? `${owner}.${holder}` : holder;
}
