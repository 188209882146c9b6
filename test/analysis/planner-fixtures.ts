// Test fixtures for the planner tests: TableModel objects from a compact CREATE TABLE body and
// SelectStatement ASTs from SELECT text. A deliberately small reader of the CQL the tests write,
// so the planner can be tested on its own; the end-to-end tests go through parseCql/buildSchema.
import type {
  ColumnRelation,
  Identifier,
  Ordering,
  Relation,
  Selector,
  SelectStatement,
  SourceRange,
  Term,
  WhereClause,
} from "../../src/cql/ast.js";
import type { ColumnKind, ColumnModel, ColumnType, IndexModel, TableModel } from "../../src/schema/model.js";

const RANGE: SourceRange = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } };

// ---------------------------------------------------------------------------------------------
// Types and tables

function splitTopLevel(text: string, separator = ","): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of text) {
    if (ch === "<" || ch === "(") depth++;
    if (ch === ">" || ch === ")") depth--;
    if (ch === separator && depth === 0) {
      parts.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

export function parseType(text: string, udts: Record<string, { name: string; type: string }[]> = {}): ColumnType {
  const t = text.trim();
  const generic = /^(\w+)\s*<(.*)>$/s.exec(t);
  if (generic) {
    const [, outer, inner] = generic as unknown as [string, string, string];
    const args = splitTopLevel(inner);
    switch (outer.toLowerCase()) {
      case "frozen": {
        const type = parseType(args[0]!, udts);
        return type.kind === "list" || type.kind === "set" || type.kind === "map" || type.kind === "udt" ? freeze(type) : type;
      }
      case "list":
      case "set":
        return { kind: outer.toLowerCase() as "list" | "set", frozen: false, element: parseType(args[0]!, udts) };
      case "map":
        return { kind: "map", frozen: false, key: parseType(args[0]!, udts), value: parseType(args[1]!, udts) };
      case "tuple":
        return { kind: "tuple", elements: args.map((a) => parseType(a, udts)) };
      case "vector":
        return { kind: "vector", element: parseType(args[0]!, udts), dimension: Number(args[1]) };
    }
  }
  const udt = udts[t];
  if (udt) return { kind: "udt", keyspace: "ks", name: t, frozen: false, fields: udt.map((f) => ({ name: f.name, type: parseType(f.type, udts) })) };
  return { kind: "native", name: t.toLowerCase() as never };
}

function freeze(type: ColumnType): ColumnType {
  switch (type.kind) {
    case "list":
    case "set":
      return { ...type, frozen: true, element: freeze(type.element) };
    case "map":
      return { ...type, frozen: true, key: freeze(type.key), value: freeze(type.value) };
    case "udt":
      return { ...type, frozen: true };
    default:
      return type;
  }
}

export interface IndexSpec {
  column: string;
  name?: string;
  target?: IndexModel["target"];
  using?: "legacy" | "sai" | "sasi" | "custom";
  options?: Record<string, string>;
}

export interface TableSpec {
  name?: string;
  keyspace?: string;
  /** clustering order, e.g. { c: "desc" } */
  order?: Record<string, "asc" | "desc">;
  indexes?: IndexSpec[];
  udts?: Record<string, { name: string; type: string }[]>;
  kind?: "table" | "view";
}

/** `makeTable("k int, c int, v int, PRIMARY KEY (k, c)")`; `x int PRIMARY KEY` and `s int static` work too. */
export function makeTable(body: string, spec: TableSpec = {}): TableModel {
  const keyspace = spec.keyspace ?? "ks";
  const name = spec.name ?? "t";
  const defs: { name: string; type: string; isStatic: boolean }[] = [];
  let partition: string[] = [];
  let clustering: string[] = [];
  for (const part of splitTopLevel(body)) {
    const pk = /^PRIMARY KEY\s*\((.*)\)$/is.exec(part);
    if (pk) {
      const items = splitTopLevel(pk[1]!);
      const first = items[0]!.trim();
      partition = first.startsWith("(") ? splitTopLevel(first.slice(1, -1)) : [first];
      clustering = items.slice(1).map((s) => s.trim());
      continue;
    }
    const inline = /^(\w+)\s+(.*?)\s+PRIMARY KEY$/is.exec(part);
    if (inline) {
      defs.push({ name: inline[1]!, type: inline[2]!, isStatic: false });
      partition = [inline[1]!];
      continue;
    }
    const stat = /^(\w+)\s+(.*?)\s+static$/is.exec(part);
    if (stat) {
      defs.push({ name: stat[1]!, type: stat[2]!, isStatic: true });
      continue;
    }
    const m = /^(\w+)\s+(.*)$/s.exec(part)!;
    defs.push({ name: m[1]!, type: m[2]!, isStatic: false });
  }
  const source = { file: "schema.cql", range: RANGE };
  const columns: ColumnModel[] = defs.map((d) => {
    const kind: ColumnKind = partition.includes(d.name) ? "partition" : clustering.includes(d.name) ? "clustering" : d.isStatic ? "static" : "regular";
    const position = kind === "partition" ? partition.indexOf(d.name) : kind === "clustering" ? clustering.indexOf(d.name) : -1;
    return {
      name: d.name,
      type: parseType(d.type, spec.udts),
      declaredType: { kind: "native", name: "int", range: RANGE },
      kind,
      position,
      ...(kind === "clustering" ? { order: spec.order?.[d.name] ?? "asc" } : {}),
      masked: false,
      source,
    };
  });
  const byName = (n: string) => columns.find((c) => c.name === n)!;
  const indexes: IndexModel[] = (spec.indexes ?? []).map((i) => ({
    keyspace,
    name: i.name ?? `${name}_${i.column}_idx`,
    table: name,
    column: i.column,
    target: i.target ?? "simple",
    implementation: i.using ?? "legacy",
    ...(i.using === "sai" ? { className: "StorageAttachedIndex" } : i.using === "sasi" ? { className: "org.apache.cassandra.index.sasi.SASIIndex" } : {}),
    options: i.options ?? {},
    source,
  }));
  return {
    keyspace,
    name,
    qualifiedName: `${keyspace}.${name}`,
    kind: spec.kind ?? "table",
    columns,
    partitionKey: partition.map(byName),
    clustering: clustering.map(byName),
    static: columns.filter((c) => c.kind === "static"),
    regular: columns.filter((c) => c.kind === "regular"),
    options: {},
    defaultTtlSeconds: 0,
    compactStorage: false,
    indexes,
    views: [],
    source,
    statement: { kind: "use", keyspace: ident(keyspace), text: "", range: RANGE },
  };
}

// ---------------------------------------------------------------------------------------------
// SELECT text → AST

interface Token {
  kind: "word" | "quoted" | "string" | "number" | "uuid" | "duration" | "symbol" | "marker";
  text: string;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re =
    /\s*(?:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})|(\d+(?:y|mo|w|d|h|m|s|ms|us|ns))+(?![\w.])|(-?\d+(?:\.\d+)?(?:e-?\d+)?)|'((?:[^']|'')*)'|"((?:[^"]|"")*)"|(\?|:\w+)|([A-Za-z_]\w*)|(<=|>=|!=|[(),.;<>=*\[\]{}:+-]))/iy;
  let pos = 0;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) {
      if (/^\s*$/.test(text.slice(pos))) break;
      throw new Error(`cannot tokenize at ${text.slice(pos)}`);
    }
    pos = re.lastIndex;
    if (m[1]) tokens.push({ kind: "uuid", text: m[1] });
    else if (m[2] !== undefined && /[a-z]/i.test(m[0])) tokens.push({ kind: "duration", text: m[0].trim() });
    else if (m[3] !== undefined) tokens.push({ kind: "number", text: m[3] });
    else if (m[4] !== undefined) tokens.push({ kind: "string", text: m[4].replace(/''/g, "'") });
    else if (m[5] !== undefined) tokens.push({ kind: "quoted", text: m[5].replace(/""/g, '"') });
    else if (m[6] !== undefined) tokens.push({ kind: "marker", text: m[6] });
    else if (m[7] !== undefined) tokens.push({ kind: "word", text: m[7] });
    else if (m[8] !== undefined) tokens.push({ kind: "symbol", text: m[8] });
  }
  return tokens;
}

function ident(name: string, quoted = false): Identifier {
  return { name: quoted ? name : name.toLowerCase(), text: name, quoted, range: RANGE };
}

class Reader {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}
  peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  next(): Token {
    const t = this.tokens[this.i++];
    if (!t) throw new Error("unexpected end");
    return t;
  }
  isWord(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t?.kind === "word" && t.text.toUpperCase() === word;
  }
  isSymbol(symbol: string): boolean {
    const t = this.peek();
    return t?.kind === "symbol" && t.text === symbol;
  }
  eatWord(word: string): boolean {
    if (this.isWord(word)) {
      this.i++;
      return true;
    }
    return false;
  }
  eatSymbol(symbol: string): boolean {
    if (this.isSymbol(symbol)) {
      this.i++;
      return true;
    }
    return false;
  }
  expectWord(word: string): void {
    if (!this.eatWord(word)) throw new Error(`expected ${word}, found ${this.peek()?.text}`);
  }
  expectSymbol(symbol: string): void {
    if (!this.eatSymbol(symbol)) throw new Error(`expected ${symbol}, found ${this.peek()?.text}`);
  }
  done(): boolean {
    return this.i >= this.tokens.length;
  }
  name(): Identifier {
    const t = this.next();
    if (t.kind === "quoted") return ident(t.text, true);
    if (t.kind !== "word") throw new Error(`expected a name, found ${t.text}`);
    return ident(t.text);
  }
}

function lit(type: Extract<Term, { kind: "literal" }>["type"], value: string): Term {
  return { kind: "literal", type, value, range: RANGE };
}

function parseTerm(r: Reader): Term {
  const t = r.peek();
  if (!t) throw new Error("expected a term");
  if (t.kind === "symbol" && t.text === "-") {
    r.next();
    const inner = r.next();
    return lit(inner.text.includes(".") ? "float" : "integer", "-" + inner.text);
  }
  if (t.kind === "symbol" && t.text === "[") {
    r.next();
    const elements: Term[] = [];
    while (!r.eatSymbol("]")) {
      elements.push(parseTerm(r));
      r.eatSymbol(",");
    }
    return { kind: "list", elements, range: RANGE };
  }
  if (t.kind === "symbol" && t.text === "{") {
    r.next();
    if (r.eatSymbol("}")) return { kind: "map", entries: [], range: RANGE };
    if (r.peek()?.kind === "word" && r.peek(1)?.text === ":") {
      const fields: { name: Identifier; value: Term }[] = [];
      while (!r.eatSymbol("}")) {
        const name = r.name();
        r.expectSymbol(":");
        fields.push({ name, value: parseTerm(r) });
        r.eatSymbol(",");
      }
      return { kind: "udt", fields, range: RANGE };
    }
    const first = parseTerm(r);
    if (r.eatSymbol(":")) {
      const entries = [{ key: first, value: parseTerm(r) }];
      while (r.eatSymbol(",")) {
        const key = parseTerm(r);
        r.expectSymbol(":");
        entries.push({ key, value: parseTerm(r) });
      }
      r.expectSymbol("}");
      return { kind: "map", entries, range: RANGE };
    }
    const elements = [first];
    while (r.eatSymbol(",")) elements.push(parseTerm(r));
    r.expectSymbol("}");
    return { kind: "set", elements, range: RANGE };
  }
  if (t.kind === "symbol" && t.text === "(") {
    r.next();
    const elements: Term[] = [];
    while (!r.eatSymbol(")")) {
      elements.push(parseTerm(r));
      r.eatSymbol(",");
    }
    return { kind: "tuple", elements, range: RANGE };
  }
  r.next();
  switch (t.kind) {
    case "number":
      return lit(/[.e]/i.test(t.text) ? "float" : "integer", t.text);
    case "string":
      return lit("string", t.text);
    case "uuid":
      return lit("uuid", t.text);
    case "duration":
      return lit("duration", t.text);
    case "marker":
      return t.text === "?" ? { kind: "bind", range: RANGE } : { kind: "bind", name: t.text.slice(1), range: RANGE };
    case "quoted":
      return { kind: "column", name: ident(t.text, true), range: RANGE };
    case "word": {
      const upper = t.text.toUpperCase();
      if (upper === "NULL") return lit("null", "null");
      if (upper === "TRUE" || upper === "FALSE") return lit("boolean", t.text.toLowerCase());
      if (upper === "NAN") return lit("nan", "NaN");
      if (upper === "INFINITY") return lit("infinity", "Infinity");
      if (r.eatSymbol("(")) {
        const args: Term[] = [];
        while (!r.eatSymbol(")")) {
          if (r.eatSymbol("*")) args.push({ kind: "star", range: RANGE });
          else args.push(parseTerm(r));
          r.eatSymbol(",");
        }
        return { kind: "function", name: { name: ident(t.text), range: RANGE }, args, range: RANGE };
      }
      return { kind: "column", name: ident(t.text), range: RANGE };
    }
    default:
      throw new Error(`unexpected ${t.text}`);
  }
}

const OPERATORS = ["<=", ">=", "!=", "=", "<", ">"];

function parseRightHandSide(r: Reader): { operator: ColumnRelation["operator"]; value?: Term; values?: Term[] } {
  if (r.eatWord("IS")) {
    r.expectWord("NOT");
    r.expectWord("NULL");
    return { operator: "IS NOT NULL" };
  }
  if (r.eatWord("NOT")) {
    if (r.eatWord("IN")) return { operator: "NOT IN", ...parseInValues(r) };
    r.expectWord("CONTAINS");
    if (r.eatWord("KEY")) return { operator: "NOT CONTAINS KEY", value: parseTerm(r) };
    return { operator: "NOT CONTAINS", value: parseTerm(r) };
  }
  if (r.eatWord("IN")) return { operator: "IN", ...parseInValues(r) };
  if (r.eatWord("CONTAINS")) {
    if (r.eatWord("KEY")) return { operator: "CONTAINS KEY", value: parseTerm(r) };
    return { operator: "CONTAINS", value: parseTerm(r) };
  }
  if (r.eatWord("LIKE")) return { operator: "LIKE", value: parseTerm(r) };
  if (r.eatWord("BETWEEN")) {
    const low = parseTerm(r);
    r.expectWord("AND");
    return { operator: "BETWEEN", values: [low, parseTerm(r)] };
  }
  const op = r.next();
  if (!OPERATORS.includes(op.text)) throw new Error(`unknown operator ${op.text}`);
  return { operator: op.text as ColumnRelation["operator"], value: parseTerm(r) };
}

function parseInValues(r: Reader): { value?: Term; values?: Term[] } {
  if (r.peek()?.kind === "marker") return { value: parseTerm(r) };
  r.expectSymbol("(");
  const values: Term[] = [];
  while (!r.eatSymbol(")")) {
    values.push(parseTerm(r));
    r.eatSymbol(",");
  }
  return { values };
}

function parseRelation(r: Reader): Relation {
  if (r.isSymbol("(")) {
    r.next();
    const columns: Identifier[] = [];
    while (!r.eatSymbol(")")) {
      columns.push(r.name());
      r.eatSymbol(",");
    }
    return { kind: "multi-column", columns, ...parseRightHandSide(r), range: RANGE };
  }
  if (r.isWord("TOKEN") && r.peek(1)?.text === "(") {
    r.next();
    r.next();
    const columns: Identifier[] = [];
    while (!r.eatSymbol(")")) {
      columns.push(r.name());
      r.eatSymbol(",");
    }
    return { kind: "token", columns, ...parseRightHandSide(r), range: RANGE };
  }
  if (r.isWord("EXPR") && r.peek(1)?.text === "(") {
    r.next();
    r.next();
    const index = r.name();
    r.expectSymbol(",");
    const expression = parseTerm(r);
    r.expectSymbol(")");
    return { kind: "custom-index-expression", index: { name: index, range: RANGE }, expression, range: RANGE };
  }
  const column = r.name();
  let key: Term | undefined;
  if (r.eatSymbol("[")) {
    key = parseTerm(r);
    r.expectSymbol("]");
  }
  return { kind: "column", column, ...(key ? { key } : {}), ...parseRightHandSide(r), range: RANGE };
}

/** Reads the SELECT statements the tests write (SELECT … FROM … WHERE … GROUP BY … ORDER BY … LIMIT … ALLOW FILTERING). */
export function parseSelect(text: string): SelectStatement {
  const r = new Reader(tokenize(text));
  r.expectWord("SELECT");
  const json = r.eatWord("JSON");
  const distinct = r.eatWord("DISTINCT");
  let star = false;
  const selectors: Selector[] = [];
  if (r.eatSymbol("*")) star = true;
  else {
    do {
      const expression = parseTerm(r);
      const alias = r.eatWord("AS") ? r.name() : undefined;
      selectors.push({ expression, ...(alias ? { alias } : {}), range: RANGE });
    } while (r.eatSymbol(","));
  }
  r.expectWord("FROM");
  let first = r.name();
  let keyspace: Identifier | undefined;
  if (r.eatSymbol(".")) {
    keyspace = first;
    first = r.name();
  }
  let where: WhereClause | undefined;
  if (r.eatWord("WHERE")) {
    const relations: Relation[] = [];
    const or: SourceRange[] = [];
    relations.push(parseRelation(r));
    for (;;) {
      if (r.eatWord("AND")) relations.push(parseRelation(r));
      else if (r.eatWord("OR")) {
        or.push(RANGE);
        relations.push(parseRelation(r));
      } else break;
    }
    where = { relations, or, range: RANGE };
  }
  const groupBy: Term[] = [];
  if (r.eatWord("GROUP")) {
    r.expectWord("BY");
    do groupBy.push(parseTerm(r));
    while (r.eatSymbol(","));
  }
  const orderBy: Ordering[] = [];
  if (r.eatWord("ORDER")) {
    r.expectWord("BY");
    do {
      const column = r.name();
      let ann: Term | undefined;
      if (r.eatWord("ANN")) {
        r.expectWord("OF");
        ann = parseTerm(r);
      }
      const direction = r.eatWord("DESC") ? "desc" : (r.eatWord("ASC"), "asc");
      orderBy.push({ column, direction, ...(ann ? { ann } : {}), range: RANGE });
    } while (r.eatSymbol(","));
  }
  let perPartitionLimit: Term | undefined;
  if (r.eatWord("PER")) {
    r.expectWord("PARTITION");
    r.expectWord("LIMIT");
    perPartitionLimit = parseTerm(r);
  }
  let limit: Term | undefined;
  if (r.eatWord("LIMIT")) limit = parseTerm(r);
  let allowFiltering = false;
  if (r.eatWord("ALLOW")) {
    r.expectWord("FILTERING");
    allowFiltering = true;
  }
  r.eatSymbol(";");
  if (!r.done()) throw new Error(`unexpected ${r.peek()?.text}`);
  return {
    kind: "select",
    text,
    range: RANGE,
    json,
    distinct,
    star,
    selectors,
    table: { ...(keyspace ? { keyspace } : {}), name: first, range: RANGE },
    ...(where ? { where } : {}),
    groupBy,
    orderBy,
    ...(perPartitionLimit ? { perPartitionLimit } : {}),
    ...(limit ? { limit } : {}),
    allowFiltering,
  };
}
