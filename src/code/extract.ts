// Statements from application code: parse each file with its tree-sitter grammar, find the calls
// into a Cassandra driver, and work out the statement each call receives: string literals, text
// blocks, and `+` of constants (local, of the file, of another class or file). A statement that
// needs a run-time value is listed as dynamic with the reason; nothing is guessed.
//
// A string counts as a statement only when it parses as CQL with src/cql and reaches a driver
// API from a file that imports a Cassandra driver, so log lines and SQL for other databases are
// left alone.
import type { Node, Parser, Tree } from "web-tree-sitter";
import { append } from "../arrays.js";
import type { SourceRange } from "../cql/ast.js";
import { parseCql } from "../cql/index.js";
import { LineIndex, SourceSpan } from "../cql/source-span.js";
import { cqlengineTables } from "./cqlengine.js";
import { cqlengineStatements } from "./cqlengine-queries.js";
import { derivedQueries } from "./derived.js";
import { entityTables } from "./entities.js";
import { kotlinDerivedQueries, kotlinEntityTables } from "./kotlin-spring.js";
import { daoStatements, fillQueryPlaceholders, mapperEntities, type DaoSource, type InterfaceNamed } from "./mapper.js";
import { gocqlxStatement, type BuilderContext } from "./gocqlx.js";
import { holderName } from "./names.js";
import { builtBatches } from "./batches.js";
import { bindSitesOf, type BindReader } from "./bind-arguments.js";
import { runtimeBatches } from "./runtime-batches.js";
import { builtStatements, JAVA_CALLS, KOTLIN_CALLS } from "./querybuilder.js";
import { driverApi, isDriverEntryName, looksLikeCassandraCall, mentionsCassandraDriver, mentionsOtherDatabase } from "./drivers.js";
import { SYNTAX, type Declaration, type Reassignment, type Syntax } from "./syntax.js";
import { enclosingOf, indexTree, parentOf } from "./tree-index.js";
import { argumentsPassed, calledName, helperOf, type WrapperLanguage } from "./wrappers.js";
import { executingFunctions } from "./executed.js";
import { enumDeclarations, withEnumColumns } from "./enums.js";
import { languageOf, type CodeDirective, type CodeExtraction, type CodeFile, type CodeLanguage, type CodeStatement, type DynamicStatement } from "./types.js";

/** Limits per review: a code file past them is skipped with a reason, never read half-way. */
export const CODE_LIMITS = {
  /** bytes of one code file */
  fileBytes: 512 * 1024,
  /** code files in one review (paths: a content met again at another path is read once) */
  files: 5_000,
  /** bytes of the code files read in one review, each content counted once */
  bytesPerReview: 8 * 1024 * 1024,
  /** statements and dynamic statements read from code in one review (a copy of a file counts its statements again) */
  statementsPerReview: 10_000,
  /** syntax nodes of one code file (tree-sitter's, named or not) */
  nodesPerFile: 400_000,
  /** syntax nodes of the code files read in one review */
  nodesPerReview: 2_000_000,
  /** nesting of one code file's syntax tree */
  treeDepth: 1_000,
  /** constants of constants followed for one statement */
  evaluationDepth: 24,
  /** syntax nodes visited for one statement (long `+` chains, many constants) */
  evaluationSteps: 20_000,
} as const;

/** Gets a parser for a language; the shells pass the lazily loading one of grammars.ts. */
export type ParserFor = (language: CodeLanguage) => Promise<Parser>;

interface ParsedFile {
  path: string;
  language: CodeLanguage;
  syntax: Syntax;
  tree: Tree;
  text: string;
  lineStarts: number[];
  lines: LineIndex;
  declarations: Declaration[];
  /** the declarations by scope and name (`scopeKey`) */
  declared: Map<string, Declaration[]>;
  reassigned: Set<string>;
  /** the reassignments by scope and name (`scopeKey`) */
  reassignedBy: Map<string, Reassignment[]>;
  cassandra: boolean;
  /** imports gocqlx: its table models and qb chains are read too */
  gocqlx: boolean;
  /** also imports another database's client: only calls on a session-like receiver count */
  otherDatabase: boolean;
  /** Java's `import static a.b.Owner.NAME;`: the class each imported name belongs to */
  staticOwners: Map<string, string>;
}

/** A value worked out from the source: its text and the literals it is made of, or why it is not known. */
type Value = { text: string; pieces: Piece[] } | { dynamic: string; pieces: Piece[] };
interface Piece {
  file: ParsedFile;
  node: Node;
}

const CQL_START = /^\s*(select|insert|update|delete|begin|create|alter|drop|truncate)\b/i;

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function positionAt(file: ParsedFile, offset: number): { line: number; column: number; offset: number } {
  let low = 0;
  let high = file.lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (file.lineStarts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - file.lineStarts[low]! + 1, offset };
}

/** A span, so that CQL parsed out of the literal can be moved onto it (src/code/entries.ts). */
function rangeOf(file: ParsedFile, node: Node): SourceRange {
  return new SourceSpan(file.lines, node.startIndex, node.endIndex);
}

const scopeKey = (name: string, scope: Node | undefined) => `${scope?.id ?? "file"}:${name}`;

class Project {
  /** by name: file- and class-level declarations of every file */
  private readonly global = new Map<string, { file: ParsedFile; declaration: Declaration }[]>();

  constructor(readonly files: ParsedFile[]) {
    for (const file of files) {
      for (const declaration of file.declarations) {
        if (declaration.scope) continue;
        const list = this.global.get(declaration.name) ?? [];
        list.push({ file, declaration });
        this.global.set(declaration.name, list);
      }
    }
  }

  /** What a name means where it is used: a local of an enclosing function, of the file, of the owner class, then of the project. */
  resolve(file: ParsedFile, at: Node, reference: { name: string; owner?: string }): { file: ParsedFile; declaration: Declaration } | "ambiguous" | "reassigned" | undefined {
    if (!reference.owner) {
      // Through the enclosing functions only (remembered per tree), and each one's declarations by name.
      for (let scope = enclosingOf(at, file.syntax.functionTypes); scope; scope = enclosingOf(scope, file.syntax.functionTypes)) {
        const local = file.declared.get(scopeKey(reference.name, scope)) ?? [];
        if (local.length > 1 || (local.length === 1 && file.reassigned.has(scopeKey(reference.name, scope)))) return "reassigned";
        if (local.length === 1) return { file, declaration: local[0]! };
      }
      const own = file.declared.get(scopeKey(reference.name, undefined)) ?? [];
      if (own.length === 1) return file.reassigned.has(scopeKey(reference.name, undefined)) ? "reassigned" : { file, declaration: own[0]! };
      if (own.length > 1) return "ambiguous";
    }
    // A statically imported constant names its class (`import static …Tables.USERS;`).
    const owner = reference.owner ?? file.staticOwners.get(reference.name);
    const candidates = (this.global.get(reference.name) ?? []).filter(
      (c) => c.file !== file || owner !== undefined,
    );
    const owned = owner ? candidates.filter((c) => c.declaration.owner === owner) : [];
    // Go's `pkg.Name`: the package is the directory of that name.
    const inPackage = owner && file.language === "go" ? candidates.filter((c) => c.file.path.split("/").at(-2) === owner) : [];
    const chosen = owned.length > 0 ? owned : inPackage.length > 0 ? inPackage : this.sameDirectory(file, candidates);
    if (chosen.length === 1) return chosen[0];
    if (chosen.length > 1) return "ambiguous";
    // Go's `s.insertStmt`: the struct field, when the package sets it once (a keyed literal or `x.f = …`).
    if (reference.owner && file.language === "go") {
      const directory = file.path.slice(0, file.path.lastIndexOf("/") + 1);
      const fields = (this.global.get(`.${reference.name}`) ?? []).filter((c) => c.file.path.slice(0, c.file.path.lastIndexOf("/") + 1) === directory);
      if (fields.length === 1) return fields[0];
      return fields.length > 1 ? "ambiguous" : undefined;
    }
    return undefined;
  }

  /**
   * What a bare name means for the values bound with a statement: a local of an enclosing function
   * assigned once, a parameter, or a fixed constant of the file (or statically imported); else nothing known.
   */
  meaningOf(file: ParsedFile, at: Node, name: string): ReturnType<BindReader["name"]> {
    for (let scope = enclosingOf(at, file.syntax.functionTypes); scope; scope = enclosingOf(scope, file.syntax.functionTypes)) {
      const local = file.declared.get(scopeKey(name, scope)) ?? [];
      if (local.length > 1 || (local.length === 1 && file.reassigned.has(scopeKey(name, scope)))) return undefined;
      if (local.length === 1) return { local: local[0]!.value };
      if (declaresParameter(scope, name)) return "parameter";
    }
    const own = file.declared.get(scopeKey(name, undefined)) ?? [];
    if (own.length === 1 && !file.reassigned.has(scopeKey(name, undefined)) && isFixed(file, own[0]!)) return { constant: this.followAcross(file, own[0]!.value) };
    const owner = file.staticOwners.get(name);
    if (owner && own.length === 0) {
      const found = this.resolve(file, at, { name, owner });
      if (found && typeof found !== "string" && isFixed(found.file, found.declaration)) return { constant: this.followAcross(found.file, found.declaration.value) };
    }
    return undefined;
  }

  /** `Owner.NAME` or `pkg.Name` to its value when it is a fixed constant of the code read (never `this.x`, `self.x`). */
  constantOf(file: ParsedFile, node: Node): Node | undefined {
    const reference = file.syntax.reference(node);
    if (!reference?.owner || reference.owner === "this" || reference.owner === "self") return undefined;
    const found = this.resolve(file, node, reference);
    if (!found || typeof found === "string" || found.declaration.scope || !isFixed(found.file, found.declaration)) return undefined;
    if (file.language !== "go" && found.declaration.owner !== reference.owner) return undefined;
    return this.followAcross(found.file, found.declaration.value);
  }

  /** per language, each word of the files' text with the first two files it is in: read once, whatever the number of look-ups */
  private readonly words = new Map<CodeLanguage, Map<string, ParsedFile[]>>();

  /** Files of a language whose text has `name` as a word (at most two: enough to say "another file"). */
  filesMentioning(language: CodeLanguage, name: string): ParsedFile[] {
    let byWord = this.words.get(language);
    if (!byWord) {
      byWord = new Map();
      for (const file of this.files) {
        if (file.language !== language) continue;
        for (const [word] of file.text.matchAll(/[A-Za-z_$][\w$]*/g)) {
          const list = byWord.get(word);
          if (!list) byWord.set(word, [file]);
          else if (list.length < 2 && !list.includes(file)) list.push(file);
        }
      }
      this.words.set(language, byWord);
    }
    return byWord.get(name) ?? [];
  }

  /** Go packages are directories; elsewhere a unique name anywhere will do. */
  private sameDirectory(file: ParsedFile, candidates: { file: ParsedFile; declaration: Declaration }[]) {
    const directory = file.path.slice(0, file.path.lastIndexOf("/") + 1);
    const near = candidates.filter((c) => c.file.path.slice(0, c.file.path.lastIndexOf("/") + 1) === directory);
    return near.length > 0 ? near : candidates;
  }

  /** values of declarations already worked out, by the value node's file and position */
  private readonly known = new Map<string, Value>();

  /**
   * Where a statement is written: through the constants it is passed as, to the first expression
   * that is not just a name (`Q = BASE + " IF NOT EXISTS"` is Q's line, not BASE's).
   */
  anchor(file: ParsedFile, node: Node, depth = 0): Piece {
    // A template filled with constants (`fmt.Sprintf(tmpl, table)`) is written where the template is.
    const inner = file.syntax.unwrap(node) ?? file.syntax.reshape?.(node)?.inner ?? file.syntax.formatting(node)?.template;
    if (inner) return this.anchor(file, inner, depth);
    const reference = file.syntax.reference(node);
    if (!reference || depth > CODE_LIMITS.evaluationDepth) return { file, node };
    const found = this.resolve(file, node, reference);
    if (!found || typeof found === "string") return { file, node };
    return this.anchor(found.file, found.declaration.value, depth + 1);
  }

  /**
   * A local variable set to one of several values (`q = A` in one branch, `q = B` in another):
   * each value, when every assignment is a plain `=`; undefined otherwise.
   */
  alternatives(file: ParsedFile, at: Node): Node[] | undefined {
    const reference = file.syntax.reference(at);
    if (!reference || reference.owner) return undefined;
    for (let scope = enclosingOf(at, file.syntax.functionTypes); scope; scope = enclosingOf(scope, file.syntax.functionTypes)) {
      const declared = (file.declared.get(scopeKey(reference.name, scope)) ?? []).map((d) => d.value);
      const assigned = file.reassignedBy.get(scopeKey(reference.name, scope)) ?? [];
      if (declared.length + assigned.length === 0) continue;
      if (assigned.some((r) => !r.value) || declared.length + assigned.length < 2) return undefined;
      return [...declared, ...assigned.map((r) => r.value!)];
    }
    return undefined;
  }

  /**
   * The statements one argument may stand for: both sides of `c ? A : B` (`A if c else B`), and
   * each statement of a list given to a batch (`[{ query: A }, B]`); else the argument itself.
   */
  branches(file: ParsedFile, node: Node, depth = 0): Node[] {
    if (depth > CODE_LIMITS.evaluationDepth) return [node];
    const target = this.follow(file, node);
    const field = (n: Node, name: string) => n.childForFieldName(name) ?? undefined;
    if (target.type === "ternary_expression") {
      const sides = [field(target, "consequence"), field(target, "alternative")].filter((n): n is Node => n !== undefined);
      return sides.flatMap((side) => this.branches(file, side, depth + 1));
    }
    if (target.type === "conditional_expression" && target.namedChildren.length === 3) {
      return [target.namedChildren[0]!, target.namedChildren[2]!].flatMap((side) => this.branches(file, side, depth + 1));
    }
    if (target.type === "array") {
      const statementOf = (element: Node | null): Node[] => {
        if (!element) return [];
        if (element.type !== "object") return [element];
        const query = element.namedChildren.find((pair) => pair?.type === "pair" && field(pair, "key")?.text.replace(/["']/g, "") === "query");
        const value = query ? field(query, "value") : undefined;
        return value ? [value] : [];
      };
      return [...target.namedChildren, ...this.pushedOnto(file, target)].flatMap(statementOf);
    }
    return [node];
  }

  /**
   * What the code pushes onto a list declared as a local variable (`const queries = []`, then
   * `queries.push({ query: … })`, in a loop or a callback): the Node driver's batch built up.
   */
  private pushedOnto(file: ParsedFile, list: Node): Node[] {
    const declarator = list.parent;
    if (declarator?.type !== "variable_declarator" || declarator.childForFieldName("value")?.id !== list.id) return [];
    const name = declarator.childForFieldName("name")?.text;
    const scope = enclosingOf(list, file.syntax.functionTypes);
    if (!name || !scope) return [];
    const pushed: Node[] = [];
    for (const call of scope.descendantsOfType("call_expression")) {
      const callee = call?.childForFieldName("function");
      if (callee?.type !== "member_expression" || callee.childForFieldName("object")?.text !== name || callee.childForFieldName("property")?.text !== "push") continue;
      for (const argument of call!.childForFieldName("arguments")?.namedChildren ?? []) if (argument && !argument.type.includes("comment")) pushed.push(argument);
    }
    return pushed;
  }

  /** The value a plain name is declared with, followed through names; the node itself otherwise. */
  follow(file: ParsedFile, node: Node, depth = 0): Node {
    if (node.type !== "identifier" || depth > CODE_LIMITS.evaluationDepth) return node;
    const found = this.resolve(file, node, { name: node.text });
    if (!found || typeof found === "string" || found.file !== file) return node;
    return this.follow(file, found.declaration.value, depth + 1);
  }

  /** Like `follow`, also through names of other files and Go's `pkg.Name`: the value's node, read in its own file. */
  followAcross(file: ParsedFile, node: Node, depth = 0): Node {
    const reference = node.type === "identifier" || node.type === "selector_expression" ? file.syntax.reference(node) : undefined;
    if (!reference || depth > CODE_LIMITS.evaluationDepth) return node;
    const found = this.resolve(file, node, reference);
    if (!found || typeof found === "string") return node;
    return this.followAcross(found.file, found.declaration.value, depth + 1);
  }

  /**
   * Go's `fmt.Sprintf(template, a, b)` whose arguments are all constants (strings, integers): the
   * text it makes, for the plain verbs `%s`, `%v`, `%d` and `%%`; undefined otherwise.
   */
  private sprintf(file: ParsedFile, node: Node, template: string, depth: number, budget: { steps: number }): { text: string; pieces: Piece[] } | undefined {
    const args = formatArguments(file, node);
    if (!args) return undefined;
    const values: string[] = [];
    const pieces: Piece[] = [];
    for (const argument of args) {
      if (!argument) return undefined;
      const target = this.followAcross(file, argument);
      if (target.type === "int_literal" || target.type === "decimal_integer_literal") {
        values.push(target.text);
        continue;
      }
      const value = this.evaluate(file, argument, depth + 1, budget);
      if (!("text" in value)) return undefined;
      values.push(value.text);
      append(pieces, value.pieces);
    }
    let next = 0;
    let unknownVerb = false;
    const text = template.replace(/%(.)/g, (_, verb: string) => {
      if (verb === "%") return "%";
      if ((verb !== "s" && verb !== "v" && verb !== "d") || next >= values.length) unknownVerb = true;
      return values[next++] ?? "";
    });
    return unknownVerb || next !== values.length ? undefined : { text, pieces };
  }

  evaluate(file: ParsedFile, node: Node, depth = 0, budget: { steps: number } = { steps: CODE_LIMITS.evaluationSteps }): Value {
    if (depth > CODE_LIMITS.evaluationDepth || --budget.steps < 0) return { dynamic: "its constants nest too deeply to follow", pieces: [] };
    const { syntax } = file;
    const literal = syntax.literal(node);
    if (typeof literal === "string") return { text: literal, pieces: [{ file, node }] };
    if (literal) return { dynamic: literal.dynamic, pieces: [{ file, node }] };
    const inner = syntax.unwrap(node);
    if (inner) return this.evaluate(file, inner, depth, budget);
    const reshaped = syntax.reshape?.(node);
    if (reshaped) {
      const value = this.evaluate(file, reshaped.inner, depth, budget);
      return "text" in value ? { text: reshaped.apply(value.text), pieces: value.pieces } : value;
    }
    const operands = syntax.operands(node);
    if (operands) {
      const values = operands.map((operand) => this.evaluate(file, operand, depth, budget));
      const pieces = values.flatMap((v) => v.pieces);
      const unknown = values.find((v): v is { dynamic: string; pieces: Piece[] } => "dynamic" in v);
      if (unknown) return { dynamic: unknown.dynamic, pieces };
      return { text: values.map((v) => ("text" in v ? v.text : "")).join(""), pieces };
    }
    const formatting = syntax.formatting(node);
    if (formatting) {
      const template = formatting.template ? this.evaluate(file, formatting.template, depth, budget) : undefined;
      const filled = template && "text" in template ? this.sprintf(file, node, template.text, depth, budget) : undefined;
      if (template && filled) return { text: filled.text, pieces: [...template.pieces, ...filled.pieces] };
      return { dynamic: formatting.reason, pieces: template?.pieces ?? [] };
    }
    const reference = syntax.reference(node);
    if (reference) {
      const found = this.resolve(file, node, reference);
      if (found === "ambiguous") return { dynamic: `${reference.name} has several definitions`, pieces: [] };
      if (found === "reassigned") return { dynamic: `${reference.name} is assigned more than once`, pieces: [] };
      if (!found) return { dynamic: `${reference.name} is not a constant of the code read`, pieces: [] };
      const key = `${found.file.path}:${found.declaration.value.startIndex}`;
      let value = this.known.get(key);
      if (!value) {
        value = this.evaluate(found.file, found.declaration.value, depth + 1, budget);
        this.known.set(key, value);
      }
      return value;
    }
    return { dynamic: `computed by \`${clip(node.text)}\``, pieces: [] };
  }
}

/**
 * The arguments that fill a format template: Go's `fmt.Sprintf(template, a, b)`, Java's
 * `String.format(template, a, b)` and `template.formatted(a, b)`; undefined for any other call.
 */
function formatArguments(file: ParsedFile, node: Node): (Node | null)[] | undefined {
  const args = node.childForFieldName("arguments")?.namedChildren.filter((n) => !n || !n.type.includes("comment"));
  if (!args) return undefined;
  if (file.language === "go") return node.childForFieldName("function")?.text === "fmt.Sprintf" ? args.slice(1) : undefined;
  if (file.language !== "java" || node.type !== "method_invocation") return undefined;
  const name = node.childForFieldName("name")?.text;
  const object = node.childForFieldName("object")?.text;
  // String.format(Locale.ROOT, template, …) puts the template second: not read.
  if (name === "format" && (object === "String" || object === "java.lang.String")) return args.slice(1);
  if (name === "formatted") return args;
  return undefined;
}

/** A parameter of the function (its receiver in Go, a lambda's parameters): its value comes from the caller. */
function declaresParameter(scope: Node, name: string): boolean {
  for (const fieldName of ["parameters", "parameter", "receiver"]) {
    const list = scope.childForFieldName(fieldName);
    if (!list) continue;
    if (list.text === name) return true;
    if (list.descendantsOfType(["identifier", "simple_identifier"]).some((n) => n?.text === name)) return true;
  }
  // Kotlin keeps a function's parameters in `function_value_parameters`, without a field name.
  const kotlin = scope.namedChildren.find((c) => c?.type === "function_value_parameters" || c?.type === "lambda_parameters");
  return kotlin ? kotlin.descendantsOfType("simple_identifier").some((n) => n?.text === name) : false;
}

/** A declaration whose value never changes: in Java a `final` field or an interface constant; elsewhere one not assigned again. */
function isFixed(file: ParsedFile, declaration: Declaration): boolean {
  if (file.language !== "java") return true;
  const holder = declaration.value.parent?.parent;
  if (!holder) return false;
  if (holder.type === "constant_declaration") return true;
  return /\bfinal\b/.test(holder.namedChildren.find((c) => c?.type === "modifiers")?.text ?? "");
}

/** Names and constants of one file, for the values bound with its statements (bind-arguments.ts). */
function bindReader(project: Project, file: ParsedFile): BindReader {
  return {
    language: file.language,
    path: file.path,
    root: file.tree.rootNode,
    source: file.text,
    name: (at, name) => project.meaningOf(file, at, name),
    constant: (node) => project.constantOf(file, node),
    mentionedElsewhere: (name) => project.filesMentioning(file.language, name).some((other) => other !== file),
    text: (node) => {
      const literal = file.syntax.literal(node);
      return typeof literal === "string" ? literal : undefined;
    },
    functionName: (node) => file.syntax.functionName(node) ?? "(top level)",
    line: (node) => positionAt(file, node.startIndex).line,
  };
}

/** DataStax Enterprise Search's pseudo-column in a WHERE clause (`WHERE solr_query = ?`). */
function isDseSearch(statement: string): boolean {
  // Two linear searches: one pattern spanning both words backtracks quadratically on repeats.
  const at = statement.search(/\bsolr_query\s*=/i);
  return at > 0 && /\bWHERE\b/i.test(statement.slice(0, at));
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > 40 ? `${oneLine.slice(0, 39)}…` : oneLine;
}

/**
 * The Python driver fills `%s` and `%(name)s` in on the client for statements it does not
 * prepare; as far as the plan goes they are bind markers.
 */
function pythonPlaceholders(text: string): string {
  return text.replace(/%\((\w+)\)s/g, ":$1").replace(/%s/g, "?");
}

/** Whether `text` is exactly one CQL statement that src/cql reads without error. */
export function isCqlStatement(text: string): boolean {
  if (!CQL_START.test(text)) return false;
  const parse = parseCql(text);
  return parse.statements.length === 1 && !parse.diagnostics.some((d) => d.severity === "error");
}

/** Paths whose content is the same as an earlier path's (one git blob at many paths): read once, at the first. */
type Copies = Map<string, string[]>;

async function parseFiles(files: CodeFile[], parserFor: ParserFor, skipped: CodeExtraction["skipped"], copies: Copies): Promise<ParsedFile[]> {
  const parsed: ParsedFile[] = [];
  const parsers = new Map<CodeLanguage, Parser | { failed: string }>();
  /** the first path of each content read, or why that content was not read */
  const firstOf = new Map<string, { path: string } | { skipped: CodeExtraction["skipped"][number] }>();
  let paths = 0;
  let bytes = 0;
  let nodes = 0;
  const parserFailures = new Map<CodeLanguage, number>();
  for (const source of files) {
    const language = languageOf(source.path);
    const syntax = language && SYNTAX[language];
    if (!language || !syntax) continue;
    if (paths >= CODE_LIMITS.files) {
      skipped.push({ file: source.path, reason: `more than ${CODE_LIMITS.files} code files in one review` });
      continue;
    }
    paths++;
    // The same content at another path: its statements are the first path's, at this path.
    const first = firstOf.get(source.content);
    if (first && "path" in first) {
      copies.set(first.path, [...(copies.get(first.path) ?? []), source.path]);
      continue;
    }
    if (first) {
      skipped.push({ ...first.skipped, file: source.path });
      continue;
    }
    const skip = (reason: string, failed?: true) => {
      const entry = { file: source.path, reason, ...(failed ? { failed } : {}) };
      skipped.push(entry);
      firstOf.set(source.content, { skipped: entry });
    };
    if (source.content.length > CODE_LIMITS.fileBytes) {
      skip(`${source.content.length} bytes, over the ${CODE_LIMITS.fileBytes}-byte limit per code file`);
      continue;
    }
    if (bytes + source.content.length > CODE_LIMITS.bytesPerReview) {
      skip(`the code files before it already hold ${bytes} bytes, and with its ${source.content.length} they would be over the ${CODE_LIMITS.bytesPerReview}-byte limit per review`);
      continue;
    }
    if (nodes >= CODE_LIMITS.nodesPerReview) {
      skip(`the code files before it already hold ${nodes} syntax nodes, the limit per review`);
      continue;
    }
    if (!parsers.has(language)) {
      try {
        parsers.set(language, await parserFor(language));
      } catch (error) {
        parsers.set(language, { failed: `the ${language} grammar could not be loaded (${error instanceof Error ? error.message : String(error)})` });
      }
    }
    const parser = parsers.get(language)!;
    // Every file of a language without its grammar is listed, not only the first.
    if ("failed" in parser) {
      skip(parser.failed, true);
      continue;
    }
    let tree: Tree | null;
    try {
      tree = parser.parse(source.content);
    } catch (error) {
      // A parser that failed (a WebAssembly abort) is not used again: the next file asks for a
      // fresh one (grammars.ts loads a new instance), once; after a second failure the language is given up.
      const failures = (parserFailures.get(language) ?? 0) + 1;
      parserFailures.set(language, failures);
      const reason = `tree-sitter failed on it (${error instanceof Error ? error.message : String(error)})`;
      if (failures >= 2) parsers.set(language, { failed: `the ${language} parser failed twice in this review` });
      else parsers.delete(language);
      skip(reason, true);
      continue;
    }
    bytes += source.content.length;
    if (!tree) {
      skip("tree-sitter could not parse it");
      continue;
    }
    // One walk records every node's parent, and stops at the limits on nodes and nesting.
    const index = indexTree(tree, Math.min(CODE_LIMITS.nodesPerFile, CODE_LIMITS.nodesPerReview - nodes), CODE_LIMITS.treeDepth);
    if ("over" in index) {
      tree.delete();
      if (index.over === "depth") skip(`its syntax nests more than ${CODE_LIMITS.treeDepth} deep, over the limit per code file`);
      else if (CODE_LIMITS.nodesPerReview - nodes < CODE_LIMITS.nodesPerFile) skip(`with the code files before it, it would be over the limit of ${CODE_LIMITS.nodesPerReview} syntax nodes per review`);
      else skip(`more than ${CODE_LIMITS.nodesPerFile} syntax nodes, over the limit per code file`);
      continue;
    }
    nodes += index.nodes;
    firstOf.set(source.content, { path: source.path });
    const root = tree.rootNode;
    const imports = syntax.imports(root);
    const lineStarts = lineStartsOf(source.content);
    const declarations = syntax.declarations(root);
    const reassignments = syntax.reassigned(root);
    parsed.push({
      path: source.path,
      language,
      syntax,
      tree,
      text: source.content,
      lineStarts,
      lines: new LineIndex(lineStarts),
      declarations,
      declared: groupBy(declarations, (d) => scopeKey(d.name, d.scope)),
      reassigned: new Set(reassignments.map((r) => scopeKey(r.name, r.scope))),
      reassignedBy: groupBy(reassignments, (r) => scopeKey(r.name, r.scope)),
      cassandra: imports.some(mentionsCassandraDriver),
      otherDatabase: imports.some(mentionsOtherDatabase),
      staticOwners: staticImports(imports),
      gocqlx: language === "go" && imports.some((text) => text.includes("gocqlx")),
    });
  }
  // A Go package is a directory: its files share the driver the package imports in one of them.
  const goDriverDirectories = new Set(parsed.filter((f) => f.language === "go" && f.cassandra).map((f) => directoryOf(f.path)));
  for (const file of parsed) if (file.language === "go" && goDriverDirectories.has(directoryOf(file.path))) file.cassandra = true;
  return parsed;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Java's `import static a.b.Owner.NAME;` as NAME → Owner (split on words, no backtracking pattern). */
function staticImports(imports: string[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const text of imports) {
    const words = text.replace(";", " ").trim().split(/\s+/);
    if (words.length !== 3 || words[0] !== "import" || words[1] !== "static") continue;
    const parts = words[2]!.split(".");
    const [name, owner] = [parts.pop(), parts.pop()];
    if (name && owner && name !== "*") owners.set(name, owner);
  }
  return owners;
}

/** The method an annotation (or any node) belongs to. */
function enclosingMethod(node: Node): Node | undefined {
  return enclosingOf(node, ["method_declaration"]);
}

/** The name of the Java method whose `return` gives this built statement (`return select(…).getQueryString();`), if it does. */
function returningMethod(root: Node): string | undefined {
  let current: Node | null = root;
  // The chain may end in the call that renders it (`.getQueryString()`, `.toString()`).
  while (current && parentOf(current)?.type === "method_invocation" && parentOf(current)?.childForFieldName("object")?.id === current.id) current = parentOf(current) ?? null;
  if (!current || parentOf(current)?.type !== "return_statement") return undefined;
  return enclosingMethod(current)?.childForFieldName("name")?.text;
}

const directoryOf = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);

const COMMENT_TYPES = ["comment", "line_comment", "block_comment", "multiline_comment"];

/** A comment's text without its markers: line comments, `#` and block comments. */
function commentBody(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith("/*")) return trimmed.slice(2, trimmed.endsWith("*/") ? -2 : undefined).trim();
  if (trimmed.startsWith("//")) return trimmed.slice(2).trim();
  if (trimmed.startsWith("#")) return trimmed.slice(1).trim();
  return trimmed;
}

/**
 * The `cql-review-…` comments of a code file. A `disable-next-line` applies to the statement on
 * the next line; annotations and comments in between (`@Select` above a mapper method) are skipped.
 */
function codeDirectives(file: ParsedFile): CodeDirective[] {
  const out: CodeDirective[] = [];
  const lines = file.text.split("\n");
  for (const node of file.tree.rootNode.descendantsOfType(COMMENT_TYPES)) {
    if (!node) continue;
    const text = commentBody(node.text);
    if (!text.startsWith("cql-review-")) continue;
    const range = rangeOf(file, node);
    const from = range.end.line + 1;
    let to = from;
    while (to <= lines.length && /^\s*(@|\/\/|#|\/\*|\*|$)/.test(lines[to - 1] ?? "")) to++;
    out.push({ file: file.path, text, range, nextLines: { from, to }, endOffset: file.text.length });
  }
  return out;
}

/**
 * Reads every code file (by extension; the caller has already applied the config's globs) and
 * returns the statements that reach a Cassandra driver. Pure but for the parsers it is given.
 */
export async function extractStatements(files: CodeFile[], parserFor: ParserFor): Promise<CodeExtraction> {
  const skipped: CodeExtraction["skipped"] = [];
  const copies: Copies = new Map();
  const parsed = await parseFiles(files, parserFor, skipped, copies);
  let read: Read;
  let firstDirectives: CodeDirective[];
  try {
    read = readParsed(parsed);
    firstDirectives = parsed.flatMap(codeDirectives);
  } finally {
    // The trees live in WebAssembly memory, which only they free.
    for (const file of parsed) file.tree.delete();
  }
  const result = withCopies(read, copies, skipped);
  const notRead = new Set(skipped.map((s) => s.file));
  const paths = parsed.flatMap((f) => [f.path, ...(copies.get(f.path) ?? [])].filter((path) => !notRead.has(path)).map((path) => ({ path, language: f.language })));
  // A copy's suppression comments are the same text at the same place: they hold at every path.
  const directives = firstDirectives.flatMap((directive) =>
    [directive.file, ...(copies.get(directive.file) ?? [])].filter((path) => !notRead.has(path)).map((file) => ({ ...directive, file })),
  );
  return { files: paths, ...result, skipped, ...(directives.length ? { directives } : {}) };
}

type Read = Pick<CodeExtraction, "statements" | "dynamic" | "tables">;
type Located = { file: string; id?: string; call?: { file: string; line: number }; executedIn?: string[] };

/**
 * What was read at a content's first path, at each other path with that content too: the
 * statements, dynamic statements and tables it runs or defines itself (a statement it holds for a
 * call in another file stays once, with the first path). Copies cost no parse but their statements
 * cost the review: a copy that would take the review past the statements limit is listed instead.
 */
function withCopies(read: Read, copies: Copies, skipped: CodeExtraction["skipped"]): Read {
  if (copies.size === 0) return read;
  const own = (item: Located) => item.id === undefined || item.id.startsWith(`${item.file}#`);
  const perFile = new Map<string, number>();
  for (const item of [...read.statements, ...read.dynamic]) if (own(item)) perFile.set(item.file, (perFile.get(item.file) ?? 0) + 1);
  let total = read.statements.length + read.dynamic.length;
  const accepted = new Map<string, string[]>();
  for (const [first, paths] of copies) {
    const each = perFile.get(first) ?? 0;
    for (const path of paths) {
      if (total + each > CODE_LIMITS.statementsPerReview) {
        skipped.push({ file: path, reason: `it is a copy of ${first}, whose ${each} statements would take the review past the limit of ${CODE_LIMITS.statementsPerReview} statements read from code` });
        continue;
      }
      total += each;
      accepted.set(first, [...(accepted.get(first) ?? []), path]);
    }
  }
  const at = <T extends Located>(item: T, from: string, to: string): T => ({
    ...item,
    file: to,
    ...(item.id?.startsWith(`${from}#`) ? { id: `${to}${item.id.slice(from.length)}` } : {}),
    ...(item.call ? { call: { ...item.call, file: item.call.file === from ? to : item.call.file } } : {}),
    ...(item.executedIn ? { executedIn: item.executedIn.map((fn) => (fn.startsWith(`${from}#`) ? `${to}${fn.slice(from.length)}` : fn)) } : {}),
  });
  const copied = <T extends Located>(items: T[]) =>
    items.flatMap((item) => [item, ...(own(item) ? (accepted.get(item.file) ?? []) : []).map((path) => at(item, item.file, path))]);
  return { statements: copied(read.statements), dynamic: copied(read.dynamic), tables: copied(read.tables) };
}

/** The statements, dynamic statements and tables of the parsed files. */
function readParsed(parsed: ParsedFile[]): Pick<CodeExtraction, "statements" | "dynamic" | "tables"> {
  const project = new Project(parsed);
  const fileOfTree = new Map(parsed.map((f) => [f.tree, f]));
  const statements: CodeStatement[] = [];
  const dynamic: DynamicStatement[] = [];
  const seen = new Set<string>();
  /** the statement read at each place a text is written, so a second call of it adds its values (bind-arguments.ts) */
  const statementAt = new Map<string, CodeStatement>();
  /** the statement each driver call runs, by `path:offset` of the call, for batches filled with them */
  const callStatements = new Map<string, string>();
  // The calls that run each statement (by its anchor): a statement every call of which adds it to a
  // batch read whole runs only inside that batch. A use through a helper counts as a call of its own.
  const callsOfStatement = new Map<string, Set<string>>();
  const batchMemberCalls = new Set<string>();
  /** the statement of each mapper DAO method, by `Dao.method` */
  const daoMethodStatements = new Map<string, string>();
  /** the statement a Java or Kotlin method returns from a query builder, by the method's name (undefined when two differ) */
  const returnedStatements = new Map<string, string | undefined>();
  const idCounts = new Map<string, number>();
  const nextIdFor = (base: string) => {
    const n = (idCounts.get(base) ?? 0) + 1;
    idCounts.set(base, n);
    return n === 1 ? base : `${base}~${n}`;
  };
  const nextId = (file: ParsedFile, at: Node) => {
    const functionName = file.syntax.functionName(at);
    return nextIdFor(`${file.path}#${holderName(at, functionName) ?? functionName ?? "(top level)"}`);
  };
  /** For a statement prepared into a field: the functions that run it (src/code/executed.ts). */
  const executedIn = (file: ParsedFile, call: Node): { executedIn?: string[] } => {
    const functions = executingFunctions(
      {
        path: file.path,
        root: file.tree.rootNode,
        functionTypes: file.syntax.functionTypes,
        callTypes: file.syntax.callTypes,
        functionName: (node) => file.syntax.functionName(node),
        declaresLocal: (name, scope) => (file.declared.get(scopeKey(name, scope))?.length ?? 0) > 0 || declaresParameter(scope, name),
      },
      call,
    );
    return functions ? { executedIn: functions } : {};
  };

  // Entities first: the mapper's DAO methods and placeholders name their tables.
  const entitySource = (file: ParsedFile) => ({
        path: file.path,
        root: file.tree.rootNode,
        imports: file.syntax.imports(file.tree.rootNode),
        text: (node: Node) => {
          const value = project.evaluate(file, node);
          return "text" in value ? value.text : undefined;
        },
        range: (node: Node) => rangeOf(file, node),
      });
  const enums = parsed.flatMap((file) => (file.language === "java" || file.language === "kotlin" ? enumDeclarations(file.tree.rootNode, file.language, file.path) : []));
  const tables = withEnumColumns(
    [
      ...entityTables(parsed.filter((file) => file.language === "java").map(entitySource)),
      ...kotlinEntityTables(parsed.filter((file) => file.language === "kotlin").map(entitySource)),
      ...cqlengineTables(parsed.filter((file) => file.language === "python").map(entitySource)),
    ],
    enums,
  );
  // Helpers that run the statement they are given: how many functions of each name, and the calls of each name.
  const helperCount = new Map<string, number>();
  const callsByName = new Map<string, { file: ParsedFile; call: Node }[]>();
  for (const file of parsed) {
    if (file.language !== "go" && file.language !== "java") continue;
    const language: WrapperLanguage = file.language;
    for (const fn of file.tree.rootNode.descendantsOfType(language === "go" ? ["function_declaration", "method_declaration"] : ["method_declaration"])) {
      const name = fn?.childForFieldName("name")?.text;
      if (name) helperCount.set(`${language}:${name}`, (helperCount.get(`${language}:${name}`) ?? 0) + 1);
    }
    for (const call of file.tree.rootNode.descendantsOfType(language === "go" ? "call_expression" : "method_invocation")) {
      const name = call && calledName(call, language);
      if (!call || !name) continue;
      const list = callsByName.get(`${language}:${name}`);
      if (list) list.push({ file, call });
      else callsByName.set(`${language}:${name}`, [{ file, call }]);
    }
  }
  const helperCalls = (language: WrapperLanguage, name: string) => callsByName.get(`${language}:${name}`) ?? [];
  // A file that imports no driver may still run statements on a session it is handed (a DAO
  // given its session by a helper module): there, only session-like receivers count.
  const driverLanguages = new Set(parsed.filter((f) => f.cassandra).map((f) => f.language));
  for (const file of parsed) {
    if (!file.cassandra && !driverLanguages.has(file.language)) continue;
    const { syntax } = file;
    const uses: { node: Node; api: string; argument: Node; via?: { file: ParsedFile; call: Node } }[] = [];
    const reader = bindReader(project, file);
    // The values every call of a statement binds; a call whose values are not read makes them all unknown.
    const bindsOf = (node: Node, api: string) => {
      const call = syntax.call(node);
      return call ? bindSitesOf(node, api, call.args, reader) : undefined;
    };
    for (const node of file.tree.rootNode.descendantsOfType(syntax.callTypes)) {
      if (!node) continue;
      const call = syntax.call(node);
      const api = call && driverApi(file.language, call);
      if (!call || !api || ((file.otherDatabase || !file.cassandra) && !looksLikeCassandraCall(call, file.language))) continue;
      for (const argument of api.arguments) {
        // A statement chosen at run time among constants: each of them is a statement the call runs.
        // Each choice on its own: a constant is a statement, a computed one is listed as dynamic.
        const choices = project.alternatives(file, argument) ?? [argument];
        for (const choice of choices) for (const branch of project.branches(file, choice)) uses.push({ node, api: api.name, argument: branch });
        // A helper that runs the statement it is given: the statements are what its callers pass.
        const helper = (file.language === "go" || file.language === "java") && choices.length === 1 ? helperOf(argument, file.language) : undefined;
        if (helper && helperCount.get(`${file.language}:${helper.name}`) === 1 && !isDriverEntryName(file.language, helper.name)) {
          for (const caller of helperCalls(file.language as WrapperLanguage, helper.name)) {
            for (const passed of argumentsPassed(helper, [caller.call], file.language as WrapperLanguage)) {
              for (const branch of project.branches(caller.file, passed.argument)) uses.push({ node, api: api.name, argument: branch, via: { file: caller.file, call: passed.call } });
            }
          }
        }
      }
    }
    if (file.cassandra) for (const annotation of syntax.statementAnnotations?.(file.tree.rootNode) ?? []) uses.push({ node: annotation.node, api: annotation.name, argument: annotation.value });
    uses.sort((a, b) => a.node.startIndex - b.node.startIndex);
    if (file.gocqlx) {
      // Table models are often declared in another package (gocqlx's schemagen writes them to
      // one): names are followed across files, and each value is read in the file it is in.
      const context: BuilderContext = {
        follow: (node) => project.followAcross(fileOfTree.get(node.tree) ?? file, node),
        text: (node) => {
          const value = project.evaluate(fileOfTree.get(node.tree) ?? file, node);
          return "text" in value ? value.text : undefined;
        },
      };
      for (const node of file.tree.rootNode.descendantsOfType("call_expression")) {
        if (!node) continue;
        const found = gocqlxStatement(node, context);
        if (!found) continue;
        const key = `${file.path}:${found.root.startIndex}`;
        if (seen.has(key)) continue;
        if ("cql" in found) {
          if (!isCqlStatement(found.cql)) continue;
          seen.add(key);
          statements.push({ id: nextId(file, found.root), language: file.language, cql: found.cql, file: file.path, range: rangeOf(file, found.root), api: found.api });
        } else {
          seen.add(key);
          dynamic.push({ id: nextId(file, found.root), language: file.language, file: file.path, range: rangeOf(file, found.root), api: found.api, reason: found.dynamic, start: found.start });
        }
      }
    }
    if ((file.language === "java" || file.language === "kotlin") && file.cassandra) {
      const text = (node: Node) => {
        const value = project.evaluate(file, node);
        return "text" in value ? value.text : undefined;
      };
      const shape = file.language === "java" ? JAVA_CALLS : KOTLIN_CALLS;
      for (const built of builtStatements(file.tree.rootNode, syntax.imports(file.tree.rootNode), { text, shape })) {
        const key = `${file.path}:${built.root.startIndex}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if ("cql" in built) {
          const returnedBy = returningMethod(built.root);
          if (returnedBy && isCqlStatement(built.cql)) returnedStatements.set(returnedBy, returnedStatements.has(returnedBy) && returnedStatements.get(returnedBy) !== built.cql ? undefined : built.cql);
          if (isCqlStatement(built.cql)) statements.push({ id: nextId(file, built.root), language: file.language, cql: built.cql, file: file.path, range: rangeOf(file, built.root), api: "QueryBuilder", ...executedIn(file, built.root) });
        } else dynamic.push({ id: nextId(file, built.root), language: file.language, file: file.path, range: rangeOf(file, built.root), api: "QueryBuilder", reason: built.dynamic, start: built.start });
      }
    }
    for (const { node: driverCall, api, argument, via } of uses) {
      {
        // Through a helper, the statement is the caller's: read in its file, named after its call.
        const argumentFile = via?.file ?? file;
        const node = via?.call ?? driverCall;
        const value = project.evaluate(argumentFile, argument);
        const [first] = value.pieces;
        if (!first) continue;
        if ("text" in value) {
          // Spring Data numbers its bind markers (`?0`, `?1`); to the plan they are plain markers.
          const cql = file.language === "python" ? pythonPlaceholders(value.text) : api === "@Query" ? value.text.replace(/\?\d+/g, "?") : value.text;
          const at = project.anchor(argumentFile, argument);
          const key = `${at.file.path}:${at.node.startIndex}`;
          if (!via && api !== "@Query" && isCqlStatement(cql)) callStatements.set(`${file.path}:${driverCall.startIndex}`, cql.trim());
          const calls = callsOfStatement.get(key) ?? new Set<string>();
          calls.add(via ? `via:${via.file.path}:${via.call.startIndex}` : `${file.path}:${driverCall.startIndex}`);
          callsOfStatement.set(key, calls);
          if (seen.has(key)) {
            const earlier = statementAt.get(key);
            // Values bound through a helper are the helper's caller's: not read, so unknown.
            const more = api.startsWith("@") || via ? undefined : bindsOf(driverCall, api);
            if (earlier?.binds && more) for (const site of more) earlier.binds.push(site);
            else if (earlier) delete earlier.binds;
            continue;
          }
          let filled = cql;
          if (api === "@Query" && /[:?]?#\{/.test(cql) && CQL_START.test(cql)) {
            // Spring Data's SpEL expressions (`:#{…}`, `#{tenant}.t`) are evaluated per call.
            seen.add(key);
            dynamic.push({ id: nextId(argumentFile, node), language: file.language, file: at.file.path, range: rangeOf(at.file, at.node), api, reason: "a SpEL expression #{…} is filled in at run time", start: clip(cql.trim()) });
            continue;
          }
          if (api.startsWith("@") && cql.includes("${") && CQL_START.test(cql)) {
            // The DataStax mapper's placeholders (${keyspaceId}, ${tableId}) name the entity of the method's return type.
            const method = enclosingMethod(node);
            const placed = fillQueryPlaceholders(cql, method, mapperEntities(tables, file.path));
            if ("dynamic" in placed) {
              seen.add(key);
              dynamic.push({ id: nextId(argumentFile, node), language: file.language, file: at.file.path, range: rangeOf(at.file, at.node), api, reason: placed.dynamic, start: clip(cql.trim()) });
              continue;
            }
            filled = placed.cql;
          }
          if (!isCqlStatement(filled)) continue;
          seen.add(key);
          if (isDseSearch(filled)) {
            // DSE Search answers `solr_query` from its Solr index: not a column, and not Cassandra's plan.
            dynamic.push({ id: nextId(argumentFile, node), language: file.language, file: at.file.path, range: rangeOf(at.file, at.node), api, reason: "a DSE Search query on solr_query, answered by a search index that cql-review does not plan", answeredElsewhere: true, start: clip(filled.trim()) });
            continue;
          }
          const callLine = positionAt(argumentFile, node.startIndex).line;
          const range = rangeOf(at.file, at.node);
          const binds = api.startsWith("@") || via ? undefined : bindsOf(driverCall, api);
          const statement: CodeStatement = {
            id: nextId(argumentFile, node),
            language: file.language,
            cql: filled.trim(),
            file: at.file.path,
            range,
            api,
            ...(at.file !== argumentFile || range.start.line !== callLine ? { call: { file: argumentFile.path, line: callLine } } : {}),
            ...(binds ? { binds } : {}),
            ...executedIn(argumentFile, node),
          };
          statements.push(statement);
          statementAt.set(key, statement);
        } else {
          // Only a computed text that starts like a statement is worth saying anything about.
          const start = project.evaluate(first.file, first.node);
          if (!("text" in start) && !("dynamic" in start && first.node)) continue;
          const startText = "text" in start ? start.text : first.node.text.replace(/^[a-zA-Z]*["'`]+/, "");
          const key = `${first.file.path}:${first.node.startIndex}`;
          if (!CQL_START.test(startText) || seen.has(key)) continue;
          seen.add(key);
          dynamic.push({
            id: nextId(argumentFile, node),
            language: file.language,
            file: first.file.path,
            range: rangeOf(first.file, first.node),
            api,
            reason: value.dynamic,
            start: clip(startText.trim()),
          });
        }
      }
    }
  }
  for (const file of parsed) {
    if ((file.language !== "java" && file.language !== "kotlin") || tables.length === 0) continue;
    const derived = file.language === "java" ? derivedQueries(file.path, file.tree.rootNode, tables) : kotlinDerivedQueries(file.path, file.tree.rootNode, tables);
    for (const { node, cql } of derived) {
      if (!isCqlStatement(cql)) continue;
      statements.push({ id: nextId(file, node), language: file.language, cql, file: file.path, range: rangeOf(file, node), api: "Spring Data derived query" });
    }
  }
  // The statements cqlengine models run where the Python code calls them.
  if (tables.some((t) => t.framework === "cqlengine")) {
    for (const file of parsed) {
      if (file.language !== "python") continue;
      for (const { node, cql } of cqlengineStatements(file.tree.rootNode, tables)) {
        if (!isCqlStatement(cql)) continue;
        statements.push({ id: nextId(file, node), language: file.language, cql, file: file.path, range: rangeOf(file, node), api: "cqlengine" });
      }
    }
  }
  // Mapper DAOs, with the methods they inherit from generic interfaces of any Java file read.
  const daoSources = new Map<ParsedFile, DaoSource>();
  const daoSource = (file: ParsedFile): DaoSource => {
    let source = daoSources.get(file);
    if (!source) {
      source = { path: file.path, root: file.tree.rootNode, text: (node: Node) => {
        const value = project.evaluate(file, node);
        return "text" in value ? value.text : undefined;
      } };
      daoSources.set(file, source);
    }
    return source;
  };
  const interfaces = new Map<string, { file: ParsedFile; node: Node }[]>();
  for (const file of parsed) {
    if (file.language !== "java") continue;
    for (const node of file.tree.rootNode.descendantsOfType("interface_declaration")) {
      const name = node && node.childForFieldName("name")?.text;
      if (node && name) interfaces.set(name, [...(interfaces.get(name) ?? []), { file, node }]);
    }
  }
  const interfaceNamed: InterfaceNamed = (name) => {
    const list = interfaces.get(name);
    return list?.length === 1 ? { source: daoSource(list[0]!.file), node: list[0]!.node } : undefined;
  };
  const fileOf = new Map(parsed.map((f) => [f.path, f]));
  for (const file of parsed) {
    // Only the DataStax mapper's @Dao: Android Room has annotations of the same names.
    if (file.language !== "java" || !file.syntax.imports(file.tree.rootNode).some((i) => i.includes("com.datastax.oss.driver.api.mapper"))) continue;
    for (const found of daoStatements(daoSource(file), tables, interfaceNamed)) {
      const written = fileOf.get(found.source.path) ?? file;
      const id = nextIdFor(`${file.path}#${found.dao}.${found.method}`);
      const range = rangeOf(written, found.node);
      const call = written !== file ? { call: { file: file.path, line: positionAt(file, found.daoNode.startIndex).line } } : {};
      if ("cql" in found) {
        if (isCqlStatement(found.cql)) {
          statements.push({ id, language: file.language, cql: found.cql, file: written.path, range, api: found.api, ...call });
          daoMethodStatements.set(`${found.dao}.${found.method}`, found.cql);
        }
      } else dynamic.push({ id, language: file.language, file: written.path, range, api: found.api, reason: found.dynamic, start: found.start });
    }
  }
  // Batches filled at run time with statements read above (driver calls, mapper DAO methods): one
  // BATCH when every one is known.
  const javaRoots = parsed.filter((f) => f.language === "java" && f.cassandra).map((f) => f.tree.rootNode);
  for (const file of parsed) {
    if (file.language !== "java" || !file.cassandra) continue;
    const lookup = {
      statementOfCall: (call: Node) => callStatements.get(`${(fileOfTree.get(call.tree) ?? file).path}:${call.startIndex}`),
      daoStatement: (dao: string, method: string) => daoMethodStatements.get(`${dao}.${method}`),
      returnedStatement: (call: Node) => returnedStatements.get(call.childForFieldName("name")?.text ?? ""),
      otherRoots: javaRoots,
    };
    for (const batch of builtBatches(file.tree.rootNode, lookup)) {
      const key = `${file.path}:${batch.root.startIndex}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if ("cql" in batch) {
        if (isCqlStatement(batch.cql)) statements.push({ id: nextId(file, batch.root), language: file.language, cql: batch.cql, file: file.path, range: rangeOf(file, batch.root), api: "BatchStatement" });
      } else dynamic.push({ id: nextId(file, batch.root), language: file.language, file: file.path, range: rangeOf(file, batch.root), api: "BatchStatement", reason: batch.dynamic, start: "BEGIN BATCH …" });
    }
  }
  // The Node driver's client.batch(list, options): one BATCH of the list's statements, at the call.
  for (const file of parsed) {
    if ((file.language !== "javascript" && file.language !== "typescript" && file.language !== "tsx") || !file.cassandra) continue;
    for (const node of file.tree.rootNode.descendantsOfType(file.syntax.callTypes)) {
      const call = node && file.syntax.call(node);
      if (!node || !call || (call.name !== "batch" && call.name !== "batchAsync") || !driverApi(file.language, call)) continue;
      if (file.otherDatabase && !looksLikeCassandraCall(call, file.language)) continue;
      const [list, options] = call.args;
      if (!list || project.follow(file, list).type !== "array") continue;
      const texts: string[] = [];
      let unknown: string | undefined;
      for (const element of project.branches(file, list)) {
        const value = project.evaluate(file, element);
        if (!("text" in value) || !isCqlStatement(value.text)) {
          unknown = element.text;
          break;
        }
        const statement = value.text.trim().replace(/;\s*$/, "");
        if (!texts.includes(statement)) texts.push(statement);
      }
      if (texts.length === 0 && unknown === undefined) continue;
      const key = `${file.path}:${node.startIndex}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const api = `${call.receiver.split(".").pop() ?? "client"}.${call.name}`;
      if (unknown !== undefined) {
        dynamic.push({ id: nextId(file, node), language: file.language, file: file.path, range: rangeOf(file, node), api, reason: `the batch holds \`${clip(unknown)}\`, which is not a statement of the code read`, start: "BEGIN BATCH …" });
        continue;
      }
      // The driver's options: `logged: false` is an unlogged batch, `counter: true` a counter batch.
      const settings = options ? project.follow(file, options) : undefined;
      const option = (name: string) => settings?.type === "object" ? settings.namedChildren.find((p) => p?.type === "pair" && p.childForFieldName("key")?.text.replace(/["']/g, "") === name)?.childForFieldName("value")?.text : undefined;
      const kind = option("counter") === "true" ? "COUNTER " : option("logged") === "false" ? "UNLOGGED " : "";
      const cql = `BEGIN ${kind}BATCH\n${texts.map((t) => `  ${t};\n`).join("")}APPLY BATCH`;
      if (isCqlStatement(cql)) statements.push({ id: nextId(file, node), language: file.language, cql, file: file.path, range: rangeOf(file, node), api });
    }
  }
  // Python and Go batches filled at run time: the same, with functions of the code read followed.
  const functionsByName = new Map<string, Node[]>();
  for (const file of parsed) {
    if (file.language !== "python" && file.language !== "go") continue;
    for (const fn of file.tree.rootNode.descendantsOfType(["function_definition", "function_declaration", "method_declaration"])) {
      const name = fn && fn.childForFieldName("name")?.text;
      if (fn && name) functionsByName.set(`${file.language}:${name}`, [...(functionsByName.get(`${file.language}:${name}`) ?? []), fn]);
    }
  }
  for (const file of parsed) {
    if ((file.language !== "python" && file.language !== "go") || !file.cassandra) continue;
    const language = file.language;
    const lookup = {
      statementOfCall: (call: Node) => callStatements.get(`${(fileOfTree.get(call.tree) ?? file).path}:${call.startIndex}`),
      textOf: (node: Node) => {
        const value = project.evaluate(fileOfTree.get(node.tree) ?? file, node);
        if (!("text" in value)) return undefined;
        const cql = language === "python" ? pythonPlaceholders(value.text) : value.text;
        return isCqlStatement(cql) ? cql.trim() : undefined;
      },
      functionNamed: (name: string) => {
        const list = functionsByName.get(`${language}:${name}`);
        return list?.length === 1 ? list[0] : undefined;
      },
    };
    const api = language === "go" ? "Batch" : "BatchStatement";
    for (const batch of runtimeBatches(file.tree.rootNode, language, lookup)) {
      const key = `${file.path}:${batch.root.startIndex}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if ("cql" in batch) {
        if (!isCqlStatement(batch.cql)) continue;
        statements.push({ id: nextId(file, batch.root), language, cql: batch.cql, file: file.path, range: rangeOf(file, batch.root), api });
        for (const call of batch.memberCalls) batchMemberCalls.add(`${(fileOfTree.get(call.tree) ?? file).path}:${call.startIndex}`);
      } else dynamic.push({ id: nextId(file, batch.root), language, file: file.path, range: rangeOf(file, batch.root), api, reason: batch.dynamic, start: "BEGIN BATCH …" });
    }
  }
  for (const [key, calls] of callsOfStatement) {
    const statement = statementAt.get(key);
    if (statement && [...calls].every((call) => batchMemberCalls.has(call))) statement.batchOnly = true;
  }
  return { statements, dynamic, tables };
}
