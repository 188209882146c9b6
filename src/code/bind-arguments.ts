// The values application code binds to a statement's markers, each classified without guessing
// from names: a fixed value (a literal, or a constant that is one), a value computed from the
// current time (`Instant.now()`, `time.Now()`, `datetime.utcnow()`, `Date.now()`, a timeuuid made
// now, and locals or helper calls of the same function computed from them), or unknown. Only the
// binding function's own body is read: a value that arrives as a parameter, a field or from another
// function is unknown, whatever it is called.
import type { Node } from "web-tree-sitter";
import type { BindSite, BoundArgument } from "../manifest/types.js";
import { parentOf } from "./tree-index.js";
import type { CodeLanguage } from "./types.js";

/** What extract.ts knows about names and constants, for one file. */
export interface BindReader {
  language: CodeLanguage;
  path: string;
  root: Node;
  /** what a bare name means where it is used: a local of an enclosing function with its one value, a parameter, a constant's literal, or nothing known */
  name(at: Node, name: string): { local: Node } | { constant: Node } | "parameter" | undefined;
  /** `Owner.NAME` or `pkg.Name`: the literal of the constant it names, or undefined */
  constant(node: Node): Node | undefined;
  /** the file's text */
  source: string;
  /** whether another file of the same language mentions the name: a statement kept under it may be bound there */
  mentionedElsewhere(name: string): boolean;
  /** a string literal's value; undefined for anything else and for interpolated strings */
  text(node: Node): string | undefined;
  functionName(node: Node): string;
  line(node: Node): number;
}

/** Locals followed for one argument (`day` from `ts` from `Instant.now()`). */
const MAX_DEPTH = 8;
/** Syntax nodes looked at for one argument. */
const MAX_STEPS = 2_000;

// Calls that read the wall clock, by their callee as written. A `Clock` or a mockable time source
// injected into the object is not listed: its value arrives from outside the function.
const NOW_CALLS: Record<"java" | "go" | "python" | "js", RegExp> = {
  java: /^(System\.currentTimeMillis|(java\.time\.)?(Instant|LocalDate|LocalDateTime|ZonedDateTime|OffsetDateTime|YearMonth|Year)\.now|(Uuids|UUIDs)\.timeBased|Calendar\.getInstance|DateTime\.now)$/,
  go: /^(time\.Now|gocql\.TimeUUID)$/,
  python: /^((datetime\.)?datetime\.(now|utcnow|today)|(datetime\.)?date\.today|time\.time(_ns)?|(uuid\.)?uuid1)$/,
  js: /^(Date\.now|((cassandra\.)?types\.)?TimeUuid\.now)$/,
};

function family(language: CodeLanguage): keyof typeof NOW_CALLS {
  if (language === "java" || language === "kotlin") return "java";
  if (language === "go" || language === "python") return language;
  return "js";
}

const NUMBER_TYPES = new Set(["decimal_integer_literal", "hex_integer_literal", "decimal_floating_point_literal", "int_literal", "float_literal", "integer", "float", "number", "integer_literal", "long_literal", "real_literal"]);
const BOOLEAN_TYPES = new Set(["true", "false", "boolean_literal"]);
const IDENTIFIER_TYPES = new Set(["identifier", "simple_identifier"]);
const PARENTHESES = new Set(["parenthesized_expression", "cast_expression"]);
/** Function literals: what they compute is not this function's value. */
const FUNCTION_LITERALS = new Set(["lambda_expression", "lambda", "arrow_function", "function_expression", "func_literal", "lambda_literal", "anonymous_function"]);

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;
const named = (node: Node | undefined) => (node?.namedChildren ?? []).filter((c): c is Node => c !== null && !c.type.includes("comment"));

/** A literal as CQL writes it (`0`, `'all'`, `true`), or undefined for anything else. */
function literalValue(node: Node, reader: BindReader): string | undefined {
  if (NUMBER_TYPES.has(node.type)) {
    // Java's `0L` and digit separators, Go's and Python's `_`: the number, as CQL writes it.
    const digits = node.text.replace(/_/g, "").replace(/[lL]$/, "");
    return /^-?(0x[0-9a-f]+|\d+(\.\d+)?([eE][-+]?\d+)?)$/i.test(digits) ? digits : undefined;
  }
  if (BOOLEAN_TYPES.has(node.type)) return node.text.toLowerCase();
  if (node.type === "unary_expression" && node.text.startsWith("-")) {
    const inner = named(node)[0];
    const value = inner && NUMBER_TYPES.has(inner.type) ? literalValue(inner, reader) : undefined;
    return value === undefined ? undefined : `-${value}`;
  }
  const text = reader.text(node);
  return text === undefined ? undefined : `'${text.replaceAll("'", "''")}'`;
}

/** The callee of a call as written (`Instant.now`, `new Date` with no arguments), or undefined when the node is no call. */
function calleeOf(node: Node): { callee: string; receiver?: Node; args: Node[]; function?: Node } | undefined {
  switch (node.type) {
    case "method_invocation": {
      const object = field(node, "object");
      const name = field(node, "name")?.text ?? "";
      return { callee: object ? `${object.text}.${name}` : name, ...(object ? { receiver: object } : {}), args: named(field(node, "arguments")) };
    }
    case "object_creation_expression":
    case "new_expression": {
      const type = field(node, "type") ?? field(node, "constructor");
      const args = named(field(node, "arguments"));
      return { callee: `new ${type?.text ?? ""}${args.length > 0 ? "(…)" : ""}`, args };
    }
    case "call_expression":
    case "call": {
      const fn = field(node, "function") ?? named(node)[0];
      const args = named(field(node, "arguments") ?? named(node).find((c) => c.type === "call_suffix" || c.type === "value_arguments"));
      return { callee: (fn?.text ?? "").replace(/\s+/g, ""), args, ...(fn ? { function: fn } : {}) };
    }
    default:
      return undefined;
  }
}

function isNowCall(node: Node, language: CodeLanguage): boolean {
  const call = calleeOf(node);
  if (!call) return false;
  // `new Date()` with no arguments is now, in Java and JavaScript alike.
  if (call.callee === "new Date" || call.callee === "new java.util.Date") return true;
  return NOW_CALLS[family(language)].test(call.callee);
}

/** A member access: its object and whether the member is a call's callee (`x.f(…)`). */
function memberOf(node: Node): { object: Node; member: Node } | undefined {
  if (node.type === "field_access") return optional(field(node, "object"), field(node, "field"));
  if (node.type === "selector_expression") return optional(field(node, "operand"), field(node, "field"));
  if (node.type === "attribute") return optional(field(node, "object"), field(node, "attribute"));
  if (node.type === "member_expression") return optional(field(node, "object"), field(node, "property"));
  if (node.type === "navigation_expression") {
    const [object, suffix] = named(node);
    return optional(object, suffix);
  }
  return undefined;
}

function optional(object: Node | undefined, member: Node | undefined) {
  return object && member ? { object, member } : undefined;
}

interface Walk {
  steps: number;
  depth: number;
  time: string[];
  unknown: boolean;
}

/** What one argument expression is. */
export function classifyArgument(node: Node, reader: BindReader): BoundArgument {
  return classify(node, reader, { steps: MAX_STEPS, depth: 0, time: [], unknown: false });
}

function classify(node: Node, reader: BindReader, walk: Walk): BoundArgument {
  const source = node.text.replace(/\s+/g, " ");
  let target = node;
  while (PARENTHESES.has(target.type)) {
    const inner = target.type === "cast_expression" ? field(target, "value") : named(target)[0];
    if (!inner) break;
    target = inner;
  }
  const literal = literalValue(target, reader);
  if (literal !== undefined) return { kind: "constant", value: literal, source };
  if (IDENTIFIER_TYPES.has(target.type) || memberOf(target)) {
    const name = valueOfName(target, reader, walk);
    if (name.kind === "constant") return { ...name, source };
    if (name.kind === "time") return { kind: "time", source };
    return { kind: "unknown" };
  }
  // A computed value: time when something in it reads the clock and nothing in it comes from outside.
  const inner: Walk = { ...walk, time: [], unknown: false };
  visit(target, reader, inner);
  walk.steps = inner.steps;
  return inner.time.length > 0 && !inner.unknown ? { kind: "time", source } : { kind: "unknown" };
}

/** A bare name or `Owner.NAME` in a value's place. */
function valueOfName(node: Node, reader: BindReader, walk: Walk): BoundArgument {
  if (IDENTIFIER_TYPES.has(node.type)) {
    const meaning = reader.name(node, node.text);
    if (meaning === "parameter" || meaning === undefined) return { kind: "unknown" };
    if ("constant" in meaning) {
      const value = literalValue(meaning.constant, reader);
      return value === undefined ? { kind: "unknown" } : { kind: "constant", value, source: node.text };
    }
    if (walk.depth >= MAX_DEPTH) return { kind: "unknown" };
    return classify(meaning.local, reader, { ...walk, depth: walk.depth + 1 });
  }
  const constant = reader.constant(node);
  const value = constant ? literalValue(constant, reader) : undefined;
  return value === undefined ? { kind: "unknown" } : { kind: "constant", value, source: node.text };
}

function visit(node: Node, reader: BindReader, walk: Walk): void {
  if (--walk.steps < 0 || walk.unknown) {
    walk.unknown = true;
    return;
  }
  if (isNowCall(node, reader.language)) {
    walk.time.push(node.text);
    return;
  }
  if (literalValue(node, reader) !== undefined) return;
  if (FUNCTION_LITERALS.has(node.type)) {
    walk.unknown = true;
    return;
  }
  if (IDENTIFIER_TYPES.has(node.type)) {
    const meaning = reader.name(node, node.text);
    // A name the function does not define: a class or package (`Math`, `ChronoUnit`) when capitalised, else something from outside.
    if (meaning === undefined) {
      if (!/^[A-Z]/.test(node.text)) walk.unknown = true;
      return;
    }
    take(valueOfName(node, reader, walk), walk);
    return;
  }
  const call = calleeOf(node);
  if (call) {
    // A method's receiver is looked at for the clock it may hold (`now.truncatedTo(DAYS)`), but a
    // receiver from outside (`this`, a parameter) only names whose method runs: its arguments decide.
    const receiver = call.receiver ?? (call.function ? memberOf(call.function)?.object : undefined);
    if (receiver) visitReceiver(receiver, reader, walk);
    for (const argument of call.args) visit(argument.type === "keyword_argument" ? (field(argument, "value") ?? argument) : argument, reader, walk);
    return;
  }
  const member = memberOf(node);
  if (member) {
    // `ChronoUnit.DAYS`, `time.Hour`: a constant of a class or package; `req.day`, `this.bucket`: from outside.
    const constant = reader.constant(node);
    if (constant && literalValue(constant, reader) !== undefined) return;
    visitReceiver(member.object, reader, walk, true);
    return;
  }
  if (node.type === "this" || node.type === "self" || node.type === "this_expression") {
    walk.unknown = true;
    return;
  }
  for (const child of named(node)) visit(child, reader, walk);
}

/** The object of `x.f(…)` or `x.f`: a local is followed, a parameter or a field is from outside when read as a value. */
function visitReceiver(node: Node, reader: BindReader, walk: Walk, readAsValue = false): void {
  if (IDENTIFIER_TYPES.has(node.type)) {
    const meaning = reader.name(node, node.text);
    if (meaning === undefined) return;
    if (meaning === "parameter") {
      if (readAsValue) walk.unknown = true;
      return;
    }
    take(valueOfName(node, reader, walk), walk);
    return;
  }
  if (node.type === "this" || node.type === "this_expression") {
    if (readAsValue) walk.unknown = true;
    return;
  }
  visit(node, reader, walk);
}

function take(value: BoundArgument, walk: Walk): void {
  if (value.kind === "time") walk.time.push(value.source);
  else if (value.kind === "unknown") walk.unknown = true;
}

// ---------------------------------------------------------------------------------------------
// Where the values are bound

function site(at: Node, reader: BindReader, positional: Node[], byName?: Map<string, Node>, partial?: true): BindSite {
  const result: BindSite = {
    function: reader.functionName(at),
    file: reader.path,
    line: reader.line(at),
    positional: positional.map((n) => classifyArgument(n, reader)),
  };
  if (byName && byName.size > 0) result.named = Object.fromEntries([...byName].map(([name, node]) => [name, classifyArgument(node, reader)]));
  if (partial) result.partial = true;
  return result;
}

/** Values that nothing is known of: every marker unknown. */
function unknownSite(at: Node, reader: BindReader): BindSite {
  return { function: reader.functionName(at), file: reader.path, line: reader.line(at), positional: [], partial: true };
}

/** A collection of values written out: a tuple or list by position, a dict or object by name; a local holding one is followed. */
function valuesOf(node: Node | undefined, reader: BindReader, at: Node, depth = 0): BindSite {
  if (!node) return unknownSite(at, reader);
  if (IDENTIFIER_TYPES.has(node.type) && depth < MAX_DEPTH) {
    const meaning = reader.name(node, node.text);
    if (meaning && meaning !== "parameter" && "local" in meaning) return valuesOf(meaning.local, reader, at, depth + 1);
    return unknownSite(at, reader);
  }
  if (node.type === "tuple" || node.type === "list" || node.type === "array" || node.type === "parenthesized_expression") {
    const elements = named(node);
    if (elements.some((e) => e.type === "list_splat" || e.type === "spread_element")) return unknownSite(at, reader);
    return site(at, reader, elements);
  }
  if (node.type === "dictionary" || node.type === "object") {
    const byName = new Map<string, Node>();
    for (const pair of named(node)) {
      if (pair.type !== "pair") return unknownSite(at, reader);
      const key = field(pair, "key");
      const value = field(pair, "value");
      const name = key ? (reader.text(key) ?? (key.type === "property_identifier" ? key.text : undefined)) : undefined;
      if (!name || !value) return unknownSite(at, reader);
      byName.set(name, value);
    }
    return site(at, reader, [], byName, true);
  }
  return unknownSite(at, reader);
}

/** Setters chained on a bound statement (`.setString(0, id).setLong("day", d)`), from `start` up: by index and by name. */
function setterChain(start: Node, reader: BindReader): BindSite {
  const byIndex: Node[] = [];
  const byName = new Map<string, Node>();
  let current = start;
  for (let parent = parentOf(current); parent?.type === "method_invocation" && field(parent, "object")?.id === current.id; parent = parentOf(current)) {
    current = parent;
    const name = field(parent, "name")?.text ?? "";
    const args = named(field(parent, "arguments"));
    if (!/^set[A-Z]?\w*$/.test(name) || args.length < 2) continue;
    const index = literalValue(args[0]!, reader);
    if (index === undefined) continue;
    if (index.startsWith("'")) byName.set(index.slice(1, -1), args[1]!);
    else if (/^\d+$/.test(index)) byIndex[Number(index)] = args[1]!;
  }
  const positional = Array.from({ length: byIndex.length }, (_, i) => byIndex[i]);
  const result = site(start, reader, [], byName, true);
  result.positional = positional.map((n) => (n ? classifyArgument(n, reader) : { kind: "unknown" }));
  return result;
}

/** The name a call's result is kept in: `ps = session.prepare(…)`, `this.ps = …`, `self.ps = …`, `PreparedStatement ps = …`. */
function storedAs(call: Node): string | undefined {
  let value = call;
  // `session.prepare(Q).setConsistencyLevel(…)` still keeps the prepared statement.
  for (let up = parentOf(value); up?.type === "method_invocation" && field(up, "object")?.id === value.id; up = parentOf(value)) value = up;
  const parent = parentOf(value);
  if (!parent) return undefined;
  if (parent.type === "variable_declarator" && field(parent, "value")?.id === value.id) return field(parent, "name")?.text;
  if ((parent.type === "assignment_expression" || parent.type === "assignment") && field(parent, "right")?.id === value.id) {
    const left = field(parent, "left");
    if (!left) return undefined;
    if (IDENTIFIER_TYPES.has(left.type)) return left.text;
    return memberOf(left)?.member.text;
  }
  return undefined;
}

const PYTHON_EXECUTE = new Set(["execute", "execute_async"]);

/** The arguments of a call node (Java, Python, Go, JavaScript), without comments. */
function argumentsOf(call: Node): Node[] {
  return named(field(call, "arguments"));
}

function calledName(call: Node): string | undefined {
  if (call.type === "method_invocation") return field(call, "name")?.text;
  const fn = field(call, "function");
  if (!fn) return undefined;
  return memberOf(fn)?.member.text ?? fn.text;
}

/**
 * Every place a statement kept in `name` (a prepared statement, a Python SimpleStatement) is bound,
 * in the file it is kept in. A use of the name that is not one of the bindings read (passed on,
 * stored elsewhere) is a site of unknown values, so nothing is concluded from the others alone.
 */
function storedBindings(call: Node, name: string, reader: BindReader): BindSite[] {
  const sites = bindingsOfName(reader.root, name, reader, 0);
  // A prepared statement other classes or modules can reach may be bound there too.
  if ((reader.language === "java" && exposedField(reader, name)) || reader.mentionedElsewhere(name)) sites.push(unknownSite(call, reader));
  return sites;
}

/** Helpers a statement is handed to, followed (`bindDataPoint(insertData, …)` then `statement.bind(…)` in it). */
const MAX_HELPERS = 2;

/** Whether a character code is part of an identifier (ASCII letters, digits, `_`, `$`). */
function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}

/**
 * The identifiers of a file spelled `name`: found in the text and then in the tree, which costs
 * far less than walking every node of a large DAO once per statement it prepares.
 */
function identifiersNamed(reader: BindReader, name: string): Node[] {
  const found: Node[] = [];
  const text = reader.source;
  for (let at = text.indexOf(name); at >= 0 && name.length > 0; at = text.indexOf(name, at + name.length)) {
    if (isWordCode(text.charCodeAt(at - 1)) || isWordCode(text.charCodeAt(at + name.length))) continue;
    const node = reader.root.descendantForIndex(at, at + name.length);
    if (node && IDENTIFIER_TYPES.has(node.type) && node.text === name) found.push(node);
  }
  return found;
}

/** The bindings of a statement held in `name`, within `scope` (the file, or a helper's body). */
function bindingsOfName(scope: Node, name: string, reader: BindReader, depth: number): BindSite[] {
  const sites: BindSite[] = [];
  for (const occurrence of identifiersNamed(reader, name)) {
    if (occurrence.startIndex < scope.startIndex || occurrence.endIndex > scope.endIndex) continue;
    const parent = parentOf(occurrence);
    // The use is the name or the member access that ends in it (`this.ps`, `self.ps`, `factory.ps`).
    const use = parent && memberOf(parent)?.member.id === occurrence.id ? parent : occurrence;
    const holder = parentOf(use);
    if (!holder) continue;
    // Where it is declared or kept, not used.
    if (holder.type === "variable_declarator" && field(holder, "name")?.id === use.id) continue;
    if ((holder.type === "assignment_expression" || holder.type === "assignment") && field(holder, "left")?.id === use.id) continue;
    if (holder.type === "formal_parameter" || holder.type === "parameters" || holder.type === "method_declaration") continue;
    // A method of the same name (`insertData(…)` beside the field `insertData`).
    if (holder.type === "method_invocation" && field(holder, "name")?.id === use.id) continue;
    // Java: `ps.bind(a, b)`, `ps.bind()` or `ps.boundStatementBuilder()` followed by setters.
    if (holder.type === "method_invocation" && field(holder, "object")?.id === use.id) {
      sites.push(javaBinding(holder, use, reader) ?? unknownSite(use, reader));
      continue;
    }
    if (holder.type === "argument_list" && reader.language === "java") {
      // `new BoundStatement(ps).bind(a, b)`
      const creation = parentOf(holder);
      const invocation = creation?.type === "object_creation_expression" ? parentOf(creation) : undefined;
      if (invocation?.type === "method_invocation" && field(invocation, "object")?.id === creation!.id) {
        sites.push(javaBinding(invocation, creation!, reader) ?? unknownSite(use, reader));
      } else for (const site of handedToHelper(holder, use, reader, depth) ?? [unknownSite(use, reader)]) sites.push(site);
      continue;
    }
    if (reader.language === "python") {
      const callNode = holder.type === "argument_list" ? parentOf(holder) : holder.type === "attribute" ? parentOf(holder) : undefined;
      if (holder.type === "argument_list" && callNode?.type === "call" && PYTHON_EXECUTE.has(calledName(callNode) ?? "") && argumentsOf(callNode)[0]?.id === use.id) {
        sites.push(pythonValues(callNode, reader));
        continue;
      }
      if (holder.type === "attribute" && field(holder, "attribute")?.text === "bind" && callNode?.type === "call") {
        sites.push(valuesOf(argumentsOf(callNode)[0], reader, callNode));
        continue;
      }
    }
    sites.push(unknownSite(use, reader));
  }
  return sites;
}

/**
 * A statement passed to a method of the same file (`bindDataPoint(insertData, metric, value)`):
 * the bindings of that parameter in the method's body, the one method of that name taking that
 * many arguments. Values the method takes as parameters stay unknown; its constants and clock reads count.
 */
function handedToHelper(list: Node, use: Node, reader: BindReader, depth: number): BindSite[] | undefined {
  const invocation = parentOf(list);
  if (depth >= MAX_HELPERS || invocation?.type !== "method_invocation") return undefined;
  const object = field(invocation, "object");
  if (object && object.type !== "this") return undefined;
  const args = named(list);
  const index = args.findIndex((a) => a.id === use.id);
  const methodName = field(invocation, "name")?.text;
  const candidates = identifiersNamed(reader, methodName ?? "").map((n) => parentOf(n)).filter((m): m is Node => {
    if (m?.type !== "method_declaration" || field(m, "name")?.text !== methodName) return false;
    const parameters = named(field(m, "parameters"));
    return parameters.length === args.length && parameters.every((p) => p.type === "formal_parameter");
  });
  if (candidates.length !== 1 || index < 0) return undefined;
  const method = candidates[0]!;
  const parameter = field(named(field(method, "parameters"))[index]!, "name")?.text;
  const body = field(method, "body");
  if (!parameter || !body) return undefined;
  const sites = bindingsOfName(body, parameter, reader, depth + 1);
  return sites.length > 0 ? sites : undefined;
}

/** A Java field of that name declared public or protected. */
function exposedField(reader: BindReader, name: string): boolean {
  return identifiersNamed(reader, name).some((identifier) => {
    const declarator = parentOf(identifier);
    const declaration = declarator?.type === "variable_declarator" ? parentOf(declarator) : undefined;
    return declaration?.type === "field_declaration" && /\b(public|protected)\b/.test(named(declaration).find((c) => c.type === "modifiers")?.text ?? "");
  });
}

/** `ps.bind(a, b)` by position, or `ps.bind()` / `ps.boundStatementBuilder()` / `new BoundStatement(ps)` and the setters after it. */
function javaBinding(invocation: Node | undefined, receiver: Node, reader: BindReader): BindSite | undefined {
  if (!invocation) return undefined;
  const name = field(invocation, "name")?.text;
  const args = argumentsOf(invocation);
  if (name === "bind" && args.length > 0) return site(invocation, reader, args);
  if (name === "bind" || name === "boundStatementBuilder") return setterChain(invocation, reader);
  // `new BoundStatement(ps).setLong(…)`
  if (receiver.type === "object_creation_expression" && /^set/.test(name ?? "")) return setterChain(receiver, reader);
  return undefined;
}

/** Python's `session.execute(statement, parameters)`: the second argument or `parameters=`. */
function pythonValues(call: Node, reader: BindReader): BindSite {
  const args = field(call, "arguments");
  const list = named(args);
  const keyword = list.find((a) => a.type === "keyword_argument" && field(a, "name")?.text === "parameters");
  const values = keyword ? field(keyword, "value") : list[1]?.type === "keyword_argument" ? undefined : list[1];
  return valuesOf(values, reader, call);
}

/**
 * The places a driver call's statement is bound, with the values of each; undefined when the
 * statement is not bound where the code can be read (a prepared statement kept nowhere, a
 * statement handed to another function).
 */
export function bindSitesOf(call: Node, api: string, args: Node[], reader: BindReader): BindSite[] | undefined {
  const method = api.split(".").pop() ?? api;
  const { language } = reader;
  if (method === "prepare" || method === "prepareAsync" || (language === "python" && method === "SimpleStatement")) {
    if (language === "python" && method === "SimpleStatement") {
      // `session.execute(SimpleStatement(q), (a, b))`: the values are the enclosing call's.
      const outer = parentOf(call)?.type === "argument_list" ? parentOf(parentOf(call)!) : undefined;
      if (outer?.type === "call" && PYTHON_EXECUTE.has(calledName(outer) ?? "") && argumentsOf(outer)[0]?.id === call.id) return [pythonValues(outer, reader)];
    }
    if (language !== "java" && language !== "python") return undefined;
    const name = storedAs(call);
    if (!name) return undefined;
    const sites = storedBindings(call, name, reader);
    return sites.length > 0 ? sites : undefined;
  }
  switch (language) {
    case "java":
    case "kotlin": {
      // `session.execute(q, a, b)` (driver 3), `new SimpleStatement(q, a, b)`, `SimpleStatement.newInstance(q, a, b)`.
      if (!["execute", "executeAsync", "new SimpleStatement", "SimpleStatement", "newInstance"].includes(method)) return undefined;
      return [site(call, reader, args.slice(1))];
    }
    case "go": {
      if (method !== "Query") return undefined;
      // `session.Query(stmt).Bind(a, b)`
      const selector = parentOf(call)?.type === "selector_expression" ? parentOf(call) : undefined;
      const bindCall = selector && field(selector, "field")?.text === "Bind" && parentOf(selector)?.type === "call_expression" ? parentOf(selector) : undefined;
      const values = bindCall ? argumentsOf(bindCall) : args.slice(1);
      // `args...` spreads a slice built elsewhere: its values are not read.
      if (values.some((v) => v.type === "variadic_argument")) return [unknownSite(call, reader)];
      return [site(call, reader, values)];
    }
    case "python":
      if (!PYTHON_EXECUTE.has(method)) return undefined;
      return [pythonValues(call, reader)];
    default:
      // The Node driver: `client.execute(q, params, options)`.
      if (!["execute", "executeAsync", "eachRow", "stream"].includes(method)) return undefined;
      return [valuesOf(args[1], reader, call)];
  }
}
