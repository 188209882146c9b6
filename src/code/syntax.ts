// The few facts of each host language's tree-sitter grammar that extraction needs: which nodes are
// string literals (and their value), which join strings, which declare a constant, which call a
// function, and how a function is named. Everything else is shared (extract.ts).
import type { Node } from "web-tree-sitter";
import { ancestorsOf, enclosingOf, parentOf } from "./tree-index.js";
import type { CodeLanguage } from "./types.js";

/** A call: the called name, what it is called on (source text), its positional and named arguments. */
export interface CallParts {
  name: string;
  receiver: string;
  args: Node[];
  named: Map<string, Node>;
}

/** A name bound to a value: `static final String Q = …`, `const q = …`, `Q = …`. */
export interface Declaration {
  name: string;
  value: Node;
  /** the class or object that holds it (Java, Kotlin, Python), for `Queries.FIND` */
  owner?: string;
  /** the function it is local to; undefined at file or class level */
  scope?: Node;
}

export interface Reassignment {
  name: string;
  scope?: Node;
  value?: Node;
}

export interface Syntax {
  /** the literal's value; `{ dynamic }` for an interpolated literal (f-string, `${}`); undefined when the node is no string literal */
  literal(node: Node): string | { dynamic: string } | undefined;
  /** the operands of a string concatenation (`+`, adjacent literals), or undefined */
  operands(node: Node): Node[] | undefined;
  /** the inside of parentheses (and of casts or type assertions that do not change a string) */
  unwrap(node: Node): Node | undefined;
  /** a call that reshapes a string it is given without adding anything (Kotlin's `trimIndent()`): the string and how */
  reshape?(node: Node): { inner: Node; apply: (text: string) => string } | undefined;
  /** `NAME` or `Owner.NAME` */
  reference(node: Node): { name: string; owner?: string } | undefined;
  /** a call that formats a string at run time: the reason, with the template argument */
  formatting(node: Node): { reason: string; template?: Node } | undefined;
  call(node: Node): CallParts | undefined;
  callTypes: string[];
  declarations(root: Node): Declaration[];
  /** names assigned again after their declaration, by scope; `value` only for a plain `=` of one value */
  reassigned(root: Node): Reassignment[];
  /** the function, method or lambda-free enclosing definition and its class: `Class.method` */
  functionName(node: Node): string | undefined;
  /** node types that open a function scope */
  functionTypes: string[];
  /** the file's imports, as written */
  imports(root: Node): string[];
  /** annotations that carry a statement (`@Query("…")`): the annotation's name and its value */
  statementAnnotations?(root: Node): { name: string; node: Node; value: Node }[];
}

/** Spring Data Cassandra's and the DataStax mapper's `@Query`: the statement is the annotation's value. */
const STATEMENT_ANNOTATIONS = new Set(["Query"]);

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

function namedArgs(list: Node | undefined, positional: string[], keyword: string, keyField: string, valueField: string): { args: Node[]; named: Map<string, Node> } {
  const args: Node[] = [];
  const named = new Map<string, Node>();
  for (const child of list?.namedChildren ?? []) {
    if (!child) continue;
    if (child.type === keyword) {
      const key = field(child, keyField);
      const value = field(child, valueField);
      if (key && value) named.set(key.text, value);
    } else if (positional.length === 0 || positional.includes(child.type) || !child.type.includes("comment")) {
      if (!child.type.includes("comment")) args.push(child);
    }
  }
  return { args, named };
}

// Climbing goes through the tree's index (tree-index.ts): tree-sitter's own `parent` searches from the root.
const ancestors = ancestorsOf;
const enclosing = enclosingOf;

/** Java and Kotlin escapes, Go's interpreted strings, Python's and JavaScript's: the common C-like set. */
function unescape(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\" || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const next = body[++i]!;
    switch (next) {
      case "n":
        out += "\n";
        break;
      case "t":
        out += "\t";
        break;
      case "r":
        out += "\r";
        break;
      case "u": {
        const hex = body.slice(i + 1, i + 5);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
        } else out += "u";
        break;
      }
      case "\n":
        break;
      default:
        out += next;
    }
  }
  return out;
}

/** A Java or Kotlin text block's value: the incidental indentation removed, the first line break dropped. */
function textBlock(body: string): string {
  const lines = body.replace(/^[ \t]*\n/, "").split("\n");
  const significant = lines.filter((line, index) => line.trim() !== "" || index === lines.length - 1);
  const indent = significant.reduce((least, line) => Math.min(least, line.trim() === "" ? line.length : line.length - line.trimStart().length), Infinity);
  return lines.map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)).trimEnd()).join("\n");
}

const collectDeclarations = (root: Node, types: string[], each: (node: Node) => Declaration[]): Declaration[] =>
  root.descendantsOfType(types).flatMap((node) => (node ? each(node) : []));

/** The two sides of `a + b` for a grammar whose binary node is `type` (a concatenation candidate). */
function plusOperands(type: string): (node: Node) => Node[] | undefined {
  return (node) => {
    if (node.type !== type || field(node, "operator")?.text !== "+") return undefined;
    return [field(node, "left"), field(node, "right")].filter((n): n is Node => n !== undefined);
  };
}

/** `(expression)` is the expression, in every grammar read here. */
function insideParentheses(node: Node): Node | undefined {
  return node.type === "parenthesized_expression" ? (node.namedChildren[0] ?? undefined) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Java

const JAVA_FUNCTIONS = ["method_declaration", "constructor_declaration", "lambda_expression", "static_initializer"];
const JAVA_CLASSES = ["class_declaration", "interface_declaration", "enum_declaration", "record_declaration"];

const java: Syntax = {
  literal(node) {
    if (node.type !== "string_literal") return undefined;
    const text = node.text;
    if (text.startsWith('"""')) return unescape(textBlock(text.slice(3, -3)));
    return unescape(text.slice(1, -1));
  },
  operands: plusOperands("binary_expression"),
  unwrap: insideParentheses,
  reference(node) {
    if (node.type === "identifier") return { name: node.text };
    if (node.type === "field_access") {
      const name = field(node, "field")?.text;
      const object = field(node, "object");
      if (name && object) return { name, owner: object.text.split(".").pop() };
    }
    return undefined;
  },
  formatting(node) {
    if (node.type !== "method_invocation") return undefined;
    const name = field(node, "name")?.text;
    const object = field(node, "object");
    const args = field(node, "arguments")?.namedChildren ?? [];
    if (name === "format" && object?.text === "String") return { reason: "formatted with String.format", template: args[0] ?? undefined };
    if (name === "formatted" && object) return { reason: "formatted with String.formatted", template: object };
    return undefined;
  },
  callTypes: ["method_invocation", "object_creation_expression"],
  call(node) {
    const list = field(node, "arguments");
    const { args, named } = namedArgs(list, [], "", "", "");
    if (node.type === "object_creation_expression") {
      const type = field(node, "type")?.text ?? "";
      return { name: `new ${type.split(".").pop()}`, receiver: "", args, named };
    }
    const name = field(node, "name")?.text;
    if (!name) return undefined;
    return { name, receiver: field(node, "object")?.text ?? "", args, named };
  },
  declarations(root) {
    return collectDeclarations(root, ["field_declaration", "constant_declaration", "local_variable_declaration"], (node) => {
      const scope = enclosing(node, JAVA_FUNCTIONS);
      const owner = enclosing(node, JAVA_CLASSES);
      // The declaration's own declarators, its direct children (a lambda in a value declares its own).
      return node.namedChildren.flatMap((declarator) => {
        if (declarator?.type !== "variable_declarator") return [];
        const name = field(declarator, "name")?.text;
        const value = field(declarator, "value");
        return name && value ? [{ name, value, scope, owner: owner ? field(owner, "name")?.text : undefined }] : [];
      });
    });
  },
  reassigned(root) {
    return root.descendantsOfType(["assignment_expression", "update_expression"]).flatMap((node) => {
      const left = node && (field(node, "left") ?? node.namedChildren[0]);
      const plain = node?.type === "assignment_expression" && field(node, "operator")?.text === "=";
      return left?.type === "identifier" ? [{ name: left.text, scope: enclosing(node!, JAVA_FUNCTIONS), value: plain ? field(node!, "right") : undefined }] : [];
    });
  },
  functionName(node) {
    const method = enclosing(node, ["method_declaration", "constructor_declaration"]);
    const owner = enclosing(node, JAVA_CLASSES);
    const ownerName = owner ? field(owner, "name")?.text : undefined;
    const methodName = method ? field(method, "name")?.text : undefined;
    return [ownerName, methodName].filter(Boolean).join(".") || undefined;
  },
  functionTypes: JAVA_FUNCTIONS,
  imports(root) {
    return root.descendantsOfType("import_declaration").map((node) => node?.text ?? "");
  },
  statementAnnotations(root) {
    return root.descendantsOfType("annotation").flatMap((node) => {
      const name = node && field(node, "name")?.text.split(".").pop();
      if (!node || !name || !STATEMENT_ANNOTATIONS.has(name)) return [];
      const args = field(node, "arguments")?.namedChildren.filter((c): c is Node => c !== null) ?? [];
      const pair = args.find((c) => c.type === "element_value_pair" && field(c, "key")?.text === "value");
      const value = pair ? field(pair, "value") : args.find((c) => c.type !== "element_value_pair");
      return value ? [{ name: `@${name}`, node, value }] : [];
    });
  },
};

// ---------------------------------------------------------------------------------------------
// Go

const GO_FUNCTIONS = ["function_declaration", "method_declaration", "func_literal"];

const go: Syntax = {
  literal(node) {
    if (node.type === "raw_string_literal") return node.text.slice(1, -1).replace(/\r/g, "");
    if (node.type === "interpreted_string_literal") return unescape(node.text.slice(1, -1));
    return undefined;
  },
  operands: plusOperands("binary_expression"),
  unwrap: insideParentheses,
  reference(node) {
    if (node.type === "identifier") return { name: node.text };
    if (node.type === "selector_expression") {
      const name = field(node, "field")?.text;
      const operand = field(node, "operand");
      if (name && operand?.type === "identifier") return { name, owner: operand.text };
    }
    return undefined;
  },
  formatting(node) {
    if (node.type !== "call_expression") return undefined;
    const fn = field(node, "function")?.text;
    if (fn !== "fmt.Sprintf" && fn !== "fmt.Sprint" && fn !== "strings.Join" && fn !== "strings.Replace" && fn !== "strings.ReplaceAll") return undefined;
    const args = field(node, "arguments")?.namedChildren ?? [];
    return { reason: `built with ${fn}`, template: args[0] ?? undefined };
  },
  callTypes: ["call_expression"],
  call(node) {
    const fn = field(node, "function");
    if (!fn) return undefined;
    const { args, named } = namedArgs(field(node, "arguments"), [], "", "", "");
    if (fn.type === "selector_expression") {
      const name = field(fn, "field")?.text;
      return name ? { name, receiver: field(fn, "operand")?.text ?? "", args, named } : undefined;
    }
    if (fn.type === "identifier") return { name: fn.text, receiver: "", args, named };
    return undefined;
  },
  declarations(root) {
    const specs = collectDeclarations(root, ["const_spec", "var_spec"], (node) => {
      const names = node.childrenForFieldName("name").filter((n): n is Node => n !== null);
      const values = field(node, "value")?.namedChildren ?? [];
      const scope = enclosing(node, GO_FUNCTIONS);
      return names.flatMap((name, index) => (values[index] ? [{ name: name.text, value: values[index]!, scope }] : []));
    });
    const short = collectDeclarations(root, ["short_var_declaration"], (node) => {
      const names = field(node, "left")?.namedChildren ?? [];
      const values = field(node, "right")?.namedChildren ?? [];
      const scope = enclosing(node, GO_FUNCTIONS);
      return names.flatMap((name, index) => (name?.type === "identifier" && values[index] && names.length === values.length ? [{ name: name.text, value: values[index]!, scope }] : []));
    });
    // A struct field set to a statement (`&Store{insertStmt: insertUser}`, `s.insertStmt = …`) and
    // run as `s.insertStmt`: kept as `.insertStmt`, apart from the package's names (Project.resolve).
    const fields = collectDeclarations(root, ["keyed_element", "assignment_statement"], (node) => {
      if (node.type === "keyed_element") {
        const [key, value] = node.namedChildren.map((c) => (c?.type === "literal_element" ? (c.namedChildren[0] ?? c) : c));
        const literal = node.parent?.parent;
        if (literal?.type !== "composite_literal" || (key?.type !== "field_identifier" && key?.type !== "identifier") || !value) return [];
        return [{ name: `.${key.text}`, value, owner: field(literal, "type")?.text ?? "" }];
      }
      const lefts = field(node, "left")?.namedChildren ?? [];
      const rights = field(node, "right")?.namedChildren ?? [];
      if (field(node, "operator")?.text !== "=" || lefts.length !== rights.length) return [];
      return lefts.flatMap((left, index) => {
        const name = left?.type === "selector_expression" ? field(left, "field")?.text : undefined;
        return name && rights[index] ? [{ name: `.${name}`, value: rights[index]! }] : [];
      });
    });
    return [...specs, ...short, ...fields];
  },
  reassigned(root) {
    return root.descendantsOfType("assignment_statement").flatMap((node) => {
      const lefts = field(node!, "left")?.namedChildren ?? [];
      const rights = field(node!, "right")?.namedChildren ?? [];
      const plain = field(node!, "operator")?.text === "=" && lefts.length === rights.length;
      return lefts.flatMap((left, index) =>
        left?.type === "identifier" ? [{ name: left.text, scope: enclosing(node!, GO_FUNCTIONS), value: plain ? (rights[index] ?? undefined) : undefined }] : [],
      );
    });
  },
  functionName(node) {
    const fn = enclosing(node, ["function_declaration", "method_declaration"]);
    if (!fn) return undefined;
    const name = field(fn, "name")?.text;
    if (fn.type === "method_declaration") {
      const receiver = field(fn, "receiver")?.descendantsOfType("type_identifier")[0]?.text;
      return [receiver, name].filter(Boolean).join(".");
    }
    return name;
  },
  functionTypes: GO_FUNCTIONS,
  imports(root) {
    return root.descendantsOfType("import_spec").map((node) => node?.text ?? "");
  },
};

// ---------------------------------------------------------------------------------------------
// Python

const PYTHON_FUNCTIONS = ["function_definition", "lambda"];

function pythonString(node: Node): string | { dynamic: string } | undefined {
  if (node.type === "concatenated_string") {
    let text = "";
    for (const part of node.namedChildren) {
      const value = part && pythonString(part);
      if (value === undefined || typeof value !== "string") return value ?? { dynamic: "joins a value that is not a string literal" };
      text += value;
    }
    return text;
  }
  if (node.type !== "string") return undefined;
  const start = node.namedChildren.find((c) => c?.type === "string_start")?.text ?? '"';
  // The prefix letters (f, b, r, u) come before the quotes: cut at the first quote.
  const firstQuote = [...start].findIndex((character) => character === '"' || character === "'");
  const prefix = (firstQuote < 0 ? start : start.slice(0, firstQuote)).toLowerCase();
  if (node.namedChildren.some((c) => c?.type === "interpolation") || prefix.includes("f")) return { dynamic: "an f-string fills values in at run time" };
  if (prefix.includes("b")) return undefined;
  const quote = start.slice(prefix.length);
  const body = node.text.slice(start.length, node.text.length - quote.length);
  return prefix.includes("r") ? body : unescape(body);
}

const python: Syntax = {
  literal: pythonString,
  operands: plusOperands("binary_operator"),
  unwrap: insideParentheses,
  reference(node) {
    if (node.type === "identifier") return { name: node.text };
    if (node.type === "attribute") {
      const name = field(node, "attribute")?.text;
      const object = field(node, "object");
      if (name && object) return { name, owner: object.text.split(".").pop() };
    }
    return undefined;
  },
  formatting(node) {
    if (node.type === "binary_operator" && field(node, "operator")?.text === "%") return { reason: "formatted with the % operator", template: field(node, "left") };
    if (node.type === "call") {
      const fn = field(node, "function");
      if (fn?.type === "attribute" && field(fn, "attribute")?.text === "format") return { reason: "formatted with str.format", template: field(fn, "object") };
    }
    return undefined;
  },
  callTypes: ["call"],
  call(node) {
    const fn = field(node, "function");
    if (!fn) return undefined;
    const { args, named } = namedArgs(field(node, "arguments"), [], "keyword_argument", "name", "value");
    if (fn.type === "attribute") {
      const name = field(fn, "attribute")?.text;
      return name ? { name, receiver: field(fn, "object")?.text ?? "", args, named } : undefined;
    }
    if (fn.type === "identifier") return { name: fn.text, receiver: "", args, named };
    return undefined;
  },
  declarations(root) {
    return collectDeclarations(root, ["assignment"], (node) => {
      const left = field(node, "left");
      const right = field(node, "right");
      if (left?.type !== "identifier" || !right) return [];
      const scope = enclosing(node, PYTHON_FUNCTIONS);
      const owner = scope ? undefined : enclosing(node, ["class_definition"]);
      return [{ name: left.text, value: right, scope, owner: owner ? field(owner, "name")?.text : undefined }];
    });
  },
  reassigned(root) {
    return root.descendantsOfType("augmented_assignment").flatMap((node) => {
      const left = field(node!, "left");
      return left?.type === "identifier" ? [{ name: left.text, scope: enclosing(node!, PYTHON_FUNCTIONS) }] : [];
    });
  },
  functionName(node) {
    const names = ancestors(node)
      .filter((n) => n.type === "function_definition" || n.type === "class_definition")
      .map((n) => field(n, "name")?.text)
      .reverse();
    return names.filter(Boolean).join(".") || undefined;
  },
  functionTypes: PYTHON_FUNCTIONS,
  imports(root) {
    return root.descendantsOfType(["import_statement", "import_from_statement"]).map((node) => node?.text ?? "");
  },
};

// ---------------------------------------------------------------------------------------------
// JavaScript and TypeScript

const JS_FUNCTIONS = ["function_declaration", "function_expression", "arrow_function", "method_definition", "generator_function_declaration"];

const javascript: Syntax = {
  literal(node) {
    if (node.type === "string") return unescape(node.text.slice(1, -1));
    if (node.type === "template_string") {
      if (node.namedChildren.some((c) => c?.type === "template_substitution")) return { dynamic: "a template literal fills values in at run time" };
      return unescape(node.text.slice(1, -1));
    }
    return undefined;
  },
  operands: plusOperands("binary_expression"),
  unwrap(node) {
    if (node.type === "parenthesized_expression" || node.type === "as_expression" || node.type === "satisfies_expression" || node.type === "non_null_expression")
      return node.namedChildren[0] ?? undefined;
    return undefined;
  },
  reference(node) {
    if (node.type === "identifier") return { name: node.text };
    if (node.type === "member_expression") {
      const name = field(node, "property")?.text;
      const object = field(node, "object");
      if (name && object) return { name, owner: object.text.split(".").pop() };
    }
    return undefined;
  },
  formatting(node) {
    if (node.type !== "call_expression") return undefined;
    const fn = field(node, "function");
    if (fn?.type === "member_expression" && ["replace", "replaceAll", "concat", "join"].includes(field(fn, "property")?.text ?? ""))
      return { reason: `built with ${field(fn, "property")!.text}()`, template: field(fn, "object") };
    if (fn?.text === "util.format" || fn?.text === "format") return { reason: `formatted with ${fn.text}`, template: field(node, "arguments")?.namedChildren[0] ?? undefined };
    return undefined;
  },
  callTypes: ["call_expression"],
  call(node) {
    const fn = field(node, "function");
    if (!fn) return undefined;
    const { args, named } = namedArgs(field(node, "arguments"), [], "", "", "");
    if (fn.type === "member_expression") {
      const name = field(fn, "property")?.text;
      return name ? { name, receiver: field(fn, "object")?.text ?? "", args, named } : undefined;
    }
    if (fn.type === "identifier") return { name: fn.text, receiver: "", args, named };
    return undefined;
  },
  declarations(root) {
    const variables = collectDeclarations(root, ["variable_declarator"], (node) => {
      const name = field(node, "name");
      const value = field(node, "value");
      if (name?.type !== "identifier" || !value) return [];
      return [{ name: name.text, value, scope: enclosing(node, JS_FUNCTIONS) }];
    });
    const fields = collectDeclarations(root, ["public_field_definition", "field_definition"], (node) => {
      const name = field(node, "name") ?? field(node, "property");
      const value = field(node, "value");
      const owner = enclosing(node, ["class_declaration", "class"]);
      return name && value ? [{ name: name.text, value, owner: owner ? field(owner, "name")?.text : undefined }] : [];
    });
    return [...variables, ...fields];
  },
  reassigned(root) {
    return root.descendantsOfType(["assignment_expression", "augmented_assignment_expression"]).flatMap((node) => {
      const left = field(node!, "left");
      const value = node!.type === "assignment_expression" ? field(node!, "right") : undefined;
      return left?.type === "identifier" ? [{ name: left.text, scope: enclosing(node!, JS_FUNCTIONS), value }] : [];
    });
  },
  functionName(node) {
    for (const parent of ancestors(node)) {
      if (parent.type === "function_declaration" || parent.type === "method_definition" || parent.type === "generator_function_declaration") {
        const name = field(parent, "name")?.text;
        const owner = parent.type === "method_definition" ? enclosing(parent, ["class_declaration", "class"]) : undefined;
        return [owner ? field(owner, "name")?.text : undefined, name].filter(Boolean).join(".") || undefined;
      }
      if ((parent.type === "arrow_function" || parent.type === "function_expression") && parentOf(parent)?.type === "variable_declarator")
        return field(parentOf(parent)!, "name")?.text;
    }
    return undefined;
  },
  functionTypes: JS_FUNCTIONS,
  imports(root) {
    const statements = root.descendantsOfType("import_statement").map((node) => node?.text ?? "");
    const requires = root
      .descendantsOfType("call_expression")
      .filter((node) => node && field(node, "function")?.text === "require")
      .map((node) => node!.text);
    return [...statements, ...requires];
  },
};

// ---------------------------------------------------------------------------------------------
// Kotlin (the tree-sitter-grammars grammar)

const KOTLIN_FUNCTIONS = ["function_declaration", "lambda_literal", "anonymous_function", "secondary_constructor", "anonymous_initializer", "getter", "setter"];
const KOTLIN_CLASSES = ["class_declaration", "object_declaration"];

/**
 * A Kotlin string's value, or why it is not known: `$name` and `${…}` templates fill values in at
 * run time. The grammar reads `$name` as a `$` piece followed by text starting with the name.
 */
function kotlinString(node: Node): string | { dynamic: string } | undefined {
  const raw = node.type === "multiline_string_literal";
  if (node.type !== "string_literal" && !raw) return undefined;
  let text = "";
  const parts = node.namedChildren.filter((c): c is Node => c !== null);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.type === "interpolation") return { dynamic: "a string template fills values in at run time" };
    if (part.type === "escape_sequence") text += unescape(part.text);
    else if (part.text === "$" && /^[A-Za-z_`]/.test(parts[i + 1]?.text ?? "") && parts[i + 1]!.startIndex === part.endIndex)
      return { dynamic: "a string template fills values in at run time" };
    else text += part.text;
  }
  // A raw string has no escapes: its pieces are its text.
  return text;
}

/** `"""…""".trimIndent()`: the common indentation and the blank first and last lines removed, as Kotlin does. */
function trimIndent(text: string): string {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[0]!.trim() === "") lines.shift();
  if (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  const indent = lines.filter((l) => l.trim() !== "").reduce((least, l) => Math.min(least, l.length - l.trimStart().length), Infinity);
  return lines.map((l) => (l.trim() === "" ? "" : l.slice(indent === Infinity ? 0 : indent))).join("\n");
}

/** `"""|…""".trimMargin()`: each line up to its `|` removed. */
function trimMargin(text: string): string {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[0]!.trim() === "") lines.shift();
  if (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  return lines.map((l) => (l.trimStart().startsWith("|") ? l.trimStart().slice(1) : l)).join("\n");
}

/** A call's callee and arguments: `session.execute(…)` → session, execute. */
function kotlinCallee(node: Node): { name: string; receiver: string } | undefined {
  const callee = node.namedChildren[0];
  if (!callee) return undefined;
  if (callee.type === "identifier") return { name: callee.text, receiver: "" };
  if (callee.type === "navigation_expression") {
    const parts = callee.namedChildren.filter((c): c is Node => c !== null);
    const last = parts[parts.length - 1];
    if (last?.type === "identifier" && parts.length >= 2) return { name: last.text, receiver: parts.slice(0, -1).map((p) => p.text).join(".") };
  }
  return undefined;
}

function kotlinArguments(node: Node): { args: Node[]; named: Map<string, Node> } {
  const args: Node[] = [];
  const named = new Map<string, Node>();
  const list = node.namedChildren.find((c) => c?.type === "value_arguments");
  for (const argument of list?.namedChildren ?? []) {
    if (argument?.type !== "value_argument") continue;
    const parts = argument.namedChildren.filter((c): c is Node => c !== null && !c.type.includes("comment"));
    const isNamed = argument.children.some((c) => c?.type === "=") && parts.length === 2 && parts[0]!.type === "identifier";
    if (isNamed) named.set(parts[0]!.text, parts[1]!);
    else if (parts[parts.length - 1]) args.push(parts[parts.length - 1]!);
  }
  return { args, named };
}

/** The name of a class, object or companion object that holds a declaration (a companion's is its class's). */
function kotlinOwner(node: Node): string | undefined {
  for (let parent = parentOf(node); parent; parent = parentOf(parent)) {
    if (KOTLIN_FUNCTIONS.includes(parent.type)) return undefined;
    if (KOTLIN_CLASSES.includes(parent.type)) return field(parent, "name")?.text ?? parent.namedChildren.find((c) => c?.type === "identifier")?.text;
  }
  return undefined;
}

const kotlin: Syntax = {
  literal: kotlinString,
  reshape(node) {
    // `"""…""".trimIndent()`, `QUERY.trimMargin()`: the trimmed text.
    if (node.type !== "call_expression" || (node.namedChildren.find((c) => c?.type === "value_arguments")?.namedChildren.length ?? 0) > 0) return undefined;
    const callee = node.namedChildren[0];
    if (callee?.type !== "navigation_expression") return undefined;
    const [target, method] = callee.namedChildren;
    if (!target || (method?.text !== "trimIndent" && method?.text !== "trimMargin")) return undefined;
    return { inner: target, apply: method.text === "trimIndent" ? trimIndent : trimMargin };
  },
  operands: plusOperands("binary_expression"),
  unwrap: insideParentheses,
  reference(node) {
    if (node.type === "identifier") return { name: node.text };
    if (node.type === "navigation_expression") {
      const parts = node.namedChildren.filter((c): c is Node => c !== null);
      const last = parts[parts.length - 1];
      if (last?.type === "identifier" && parts.length === 2 && parts[0]!.type === "identifier") return { name: last.text, owner: parts[0]!.text };
    }
    return undefined;
  },
  formatting(node) {
    if (node.type !== "call_expression") return undefined;
    const callee = kotlinCallee(node);
    const { args } = kotlinArguments(node);
    if (callee?.name === "format" && callee.receiver === "String") return { reason: "formatted with String.format", template: args[0] };
    if (callee?.name === "format") return { reason: "formatted with .format", template: node.namedChildren[0]?.namedChildren[0] ?? undefined };
    return undefined;
  },
  callTypes: ["call_expression"],
  call(node) {
    const callee = kotlinCallee(node);
    if (!callee) return undefined;
    return { ...callee, ...kotlinArguments(node) };
  },
  declarations(root) {
    return collectDeclarations(root, ["property_declaration"], (node) => {
      const name = node.namedChildren.find((c) => c?.type === "variable_declaration")?.namedChildren.find((c) => c?.type === "identifier")?.text;
      const children = node.children.filter((c): c is Node => c !== null);
      const equals = children.findIndex((c) => c.type === "=");
      const value = equals >= 0 ? children.slice(equals + 1).find((c) => c.isNamed) : undefined;
      if (!name || !value) return [];
      return [{ name, value, scope: enclosing(node, KOTLIN_FUNCTIONS), owner: kotlinOwner(node) }];
    });
  },
  reassigned(root) {
    return root.descendantsOfType("assignment").flatMap((node) => {
      const left = node && field(node, "left");
      if (left?.type !== "identifier") return [];
      const plain = !field(node!, "operator") || field(node!, "operator")?.text === "=";
      return [{ name: left.text, scope: enclosing(node!, KOTLIN_FUNCTIONS), value: plain ? field(node!, "right") : undefined }];
    });
  },
  functionName(node) {
    const fn = enclosing(node, ["function_declaration"]);
    const owner = enclosing(node, KOTLIN_CLASSES);
    const ownerName = owner ? (field(owner, "name")?.text ?? owner.namedChildren.find((c) => c?.type === "identifier")?.text) : undefined;
    const name = fn ? field(fn, "name")?.text : undefined;
    return [ownerName, name].filter(Boolean).join(".") || undefined;
  },
  functionTypes: KOTLIN_FUNCTIONS,
  imports(root) {
    return root.descendantsOfType("import").map((node) => node?.text ?? "");
  },
  statementAnnotations(root) {
    return root.descendantsOfType("annotation").flatMap((node) => {
      const invocation = node?.namedChildren.find((c) => c?.type === "constructor_invocation");
      const name = invocation?.namedChildren.find((c) => c?.type === "user_type")?.text.split(".").pop();
      if (!node || !invocation || !name || !STATEMENT_ANNOTATIONS.has(name)) return [];
      const { args, named } = kotlinArguments(invocation);
      const value = named.get("value") ?? args[0];
      return value ? [{ name: `@${name}`, node, value }] : [];
    });
  },
};

export const SYNTAX: Record<CodeLanguage, Syntax | undefined> = {
  java,
  kotlin,
  go,
  python,
  javascript,
  typescript: javascript,
  tsx: javascript,
};
