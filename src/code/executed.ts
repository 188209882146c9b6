// Where a statement prepared once is run. A DAO often prepares its statements in its constructor,
// a field's declaration or a set-up method (`this.findByEmail = session.prepare("SELECT …")`) and
// runs them in its methods (`session.execute(findByEmail.bind(email))`). The statement's id names
// the field (src/code/names.ts); the functions that bind or execute the field are what runs it
// together with the method's other statements, so src/rule-engine/flows.ts groups it by them.
import type { Node } from "web-tree-sitter";
import { parentOf } from "./tree-index.js";

/** What this module needs of a parsed file. */
export interface ExecutionSource {
  path: string;
  root: Node;
  functionTypes: readonly string[];
  callTypes: readonly string[];
  /** `Class.method` of the function a node is in */
  functionName(node: Node): string | undefined;
  /** whether `name` is declared as a local (or parameter) of the function `scope` */
  declaresLocal(name: string, scope: Node): boolean;
}

const NAME_TYPES = ["identifier", "simple_identifier", "property_identifier", "field_identifier"];
/** A member access (`this.x`, `self.x`, `obj.x`) in the languages read. */
const MEMBER_TYPES = new Set(["field_access", "attribute", "member_expression", "navigation_expression"]);
const CLASS_TYPES = new Set(["class_declaration", "class_definition", "class", "object_declaration", "record_declaration", "enum_declaration"]);
/** Nodes between a value and the call it is passed to, or whose receiver it is. */
const TO_CALL = new Set([
  "argument_list", "arguments", "argument", "value_argument", "value_arguments", "call_suffix", "navigation_suffix", "parenthesized_expression", "cast_expression",
  "field_access", "attribute", "member_expression", "navigation_expression", "await_expression", "as_expression", "non_null_expression",
]);
const ASSIGNMENTS = new Set(["assignment_expression", "assignment", "augmented_assignment", "assignment_statement"]);
const SELF = new Set(["this", "self"]);

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

function enclosing(node: Node, types: ReadonlySet<string> | readonly string[]): Node | undefined {
  const has = (type: string) => (types instanceof Set ? types.has(type) : (types as readonly string[]).includes(type));
  for (let parent = parentOf(node); parent; parent = parentOf(parent)) if (has(parent.type)) return parent;
  return undefined;
}

/** `this.x`, `self.x` (Kotlin's `this.x` is a navigation with a suffix); undefined for any other object. */
function selfMember(member: Node): boolean {
  const object = field(member, "object") ?? member.namedChildren[0] ?? undefined;
  return object !== undefined && (SELF.has(object.type) || SELF.has(object.text));
}

/**
 * The field (or file-level variable) a prepare call's result is stored in, with the class or file
 * whose code may use it; undefined for a local variable, which only its own function can run.
 */
function storage(source: ExecutionSource, call: Node): { name: string; scope: Node; preparedIn?: Node } | undefined {
  let node = call;
  for (let depth = 0; depth < 12; depth++) {
    const parent = parentOf(node);
    if (!parent) return undefined;
    const preparedIn = enclosing(parent, source.functionTypes);
    const scope = enclosing(parent, CLASS_TYPES) ?? source.root;
    if (ASSIGNMENTS.has(parent.type)) {
      const left = field(parent, "left") ?? parent.namedChildren[0] ?? undefined;
      if (!left || left.id === node.id) return undefined;
      const target = left.type === "directly_assignable_expression" ? (left.namedChildren[0] ?? undefined) : left;
      if (!target) return undefined;
      if (MEMBER_TYPES.has(target.type) || target.type === "directly_assignable_expression") {
        const name = memberName(target);
        return name && selfMember(target) ? { name, scope, ...(preparedIn ? { preparedIn } : {}) } : undefined;
      }
      if (!NAME_TYPES.includes(target.type)) return undefined;
      // A bare name assigned in a function: a field unless the function declares it (Python has no such fields).
      if (preparedIn && (source.path.endsWith(".py") || source.declaresLocal(target.text, preparedIn))) return undefined;
      return { name: target.text, scope, ...(preparedIn ? { preparedIn } : {}) };
    }
    if (parent.type === "variable_declarator" || parent.type === "property_declaration" || parent.type === "public_field_definition" || parent.type === "field_definition") {
      // A declaration inside a function is a local; a class's field or the file's variable is not.
      if (preparedIn) return undefined;
      const nameNode =
        parent.type === "property_declaration"
          ? parent.namedChildren.find((c) => c?.type === "variable_declaration")?.namedChildren.find((c) => c !== null && NAME_TYPES.includes(c.type))
          : (field(parent, "name") ?? field(parent, "property"));
      return nameNode && NAME_TYPES.includes(nameNode.type) ? { name: nameNode.text, scope } : undefined;
    }
    if (!TO_CALL.has(parent.type) && !source.callTypes.includes(parent.type) && parent.type !== "expression_list") return undefined;
    node = parent;
  }
  return undefined;
}

/** The member's name: `x` of `this.x`, `self.x`, Kotlin's `this.x`. */
function memberName(member: Node): string | undefined {
  const named = field(member, "field") ?? field(member, "attribute") ?? field(member, "property");
  if (named) return named.text;
  const suffix = member.namedChildren.at(-1);
  const name = suffix?.type === "navigation_suffix" ? suffix.namedChildren.at(-1) : suffix;
  return name && NAME_TYPES.includes(name.type) ? name.text : undefined;
}

/** Each class's (or file's) names by their text, read once per scope: a DAO prepares many statements. */
const namesByScope = new WeakMap<Node["tree"], Map<number, Map<string, Node[]>>>();

function namesIn(scope: Node): Map<string, Node[]> {
  let scopes = namesByScope.get(scope.tree);
  if (!scopes) namesByScope.set(scope.tree, (scopes = new Map()));
  let names = scopes.get(scope.id);
  if (!names) {
    names = new Map();
    for (const name of scope.descendantsOfType(NAME_TYPES)) {
      if (!name) continue;
      const list = names.get(name.text);
      if (list) list.push(name);
      else names.set(name.text, [name]);
    }
    scopes.set(scope.id, names);
  }
  return names;
}

/** Whether a use of the held statement reaches a call: passed to it (`execute(stmt)`) or its receiver (`stmt.bind(…)`). */
function reachesCall(source: ExecutionSource, use: Node): boolean {
  let node = use;
  for (let depth = 0; depth < 6; depth++) {
    const parent = parentOf(node);
    if (!parent) return false;
    if (source.callTypes.includes(parent.type)) return true;
    if (ASSIGNMENTS.has(parent.type) && (field(parent, "left") ?? parent.namedChildren[0])?.id === node.id) return false;
    if (!TO_CALL.has(parent.type)) return false;
    node = parent;
  }
  return false;
}

/**
 * The functions (`path#Class.method`, as statement ids name them) that bind or execute the
 * statement prepared by `call`, when its result is kept in a field or a file-level variable;
 * undefined when it is not kept there or no function uses it (the statement keeps its own grouping).
 */
export function executingFunctions(source: ExecutionSource, call: Node): string[] | undefined {
  const held = storage(source, call);
  if (!held) return undefined;
  const found = new Set<string>();
  for (const name of namesIn(held.scope).get(held.name) ?? []) {
    const fn = enclosing(name, source.functionTypes);
    if (!fn || fn.id === held.preparedIn?.id) continue;
    let use: Node = name;
    const parent = parentOf(name);
    const grand = parent && parentOf(parent);
    if (parent && MEMBER_TYPES.has(parent.type) && memberName(parent) === held.name && parent.namedChildren[0]?.id !== name.id) {
      // `this.x` / `self.x`: the field; `other.x` is another object's.
      if (!selfMember(parent)) continue;
      use = parent;
    } else if (parent?.type === "navigation_suffix" && grand?.type === "navigation_expression") {
      if (!selfMember(grand)) continue;
      use = grand;
    } else if (source.declaresLocal(held.name, fn)) continue;
    if (!reachesCall(source, use)) continue;
    const functionName = source.functionName(name);
    if (functionName) found.add(`${source.path}#${functionName}`);
  }
  return found.size > 0 ? [...found].sort() : undefined;
}
