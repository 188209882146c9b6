// Where statements start and end in a token stream, before any parsing: `;` at top level (strings,
// `$$` bodies and comments are single tokens, so their `;` never count), BEGIN BATCH … APPLY BATCH,
// cqlsh shell commands that end at the line break, vendor statements, and the line-initial
// keywords that begin a new statement when a `;` is missing.
import type { IToken, TokenType } from "chevrotain";
import { CqlScanner } from "./lexer.js";
import { isToken } from "./grammar/lookahead.js";
import * as T from "./tokens.js";

/** Random access to tokens by index: an array (a statement's tokens) or a TokenStream (a file). */
export interface TokenSource {
  at(index: number): IToken | undefined;
}

/**
 * The tokens of a file, lexed on demand as statements are cut. Tokens before the statement being
 * parsed are released, so they die young instead of living (and being copied by the garbage
 * collector) until the whole file is parsed.
 */
export class TokenStream implements TokenSource {
  /**
   * The buffered tokens are buffer[0, count); the array is never shortened, so that compacting it
   * allocates nothing and pushing rarely grows it (a fresh array per compaction, grown again token
   * by token, was a twelfth of a parse's allocation).
   */
  private readonly buffer: (IToken | undefined)[] = [];
  private count = 0;
  /** index in the file of buffer[0] */
  private base = 0;
  /** tokens before this index are released (they stay in the buffer until it is compacted) */
  private released = 0;
  private ended = false;

  constructor(private readonly scanner: CqlScanner) {}

  at(index: number): IToken | undefined {
    const at = index - this.base;
    // The last released token stays readable, for "does this token start a line?".
    if (index < this.released - 1) return undefined;
    if (at < this.count) return this.buffer[at];
    while (at >= this.count && !this.ended) {
      const token = this.scanner.next();
      if (token === undefined) this.ended = true;
      else this.buffer[this.count++] = token;
    }
    return at < this.count ? this.buffer[at] : undefined;
  }

  /**
   * Tokens [start, end) as an array (end is never past the last token). The array has room for
   * two more: chevrotain appends two EOF tokens to a parser's input (and removes them after), and
   * an array made to size would be copied to grow.
   */
  slice(start: number, end: number): IToken[] {
    this.at(end + 1);
    const tokens = this.buffer.slice(start - this.base, Math.min(end + 2, this.base + this.count) - this.base) as IToken[];
    tokens.length = end - start;
    return tokens;
  }

  /** Forgets the tokens before `index`. */
  release(index: number): void {
    if (index <= this.released) return;
    this.released = index;
    // Compact when the dead part is most of the buffer: amortised constant time per token.
    const dead = index - 1 - this.base;
    if (dead > 64 && dead * 2 > this.count) {
      const buffer = this.buffer;
      const live = this.count - dead;
      for (let i = 0; i < live; i++) buffer[i] = buffer[i + dead];
      // Released tokens must not be kept alive by the unused end of the array.
      for (let i = live; i < this.count; i++) buffer[i] = undefined;
      this.count = live;
      this.base += dead;
    }
  }
}

function get(tokens: TokenSource, index: number): IToken | undefined {
  return index < 0 ? undefined : tokens.at(index);
}

function word(token: IToken | undefined): string {
  return token && (token.tokenType === T.Identifier || T.keywordFor(token.image) === token.tokenType) ? token.image.toUpperCase() : "";
}

function startsLine(tokens: TokenSource, index: number): boolean {
  const previous = get(tokens, index - 1);
  return previous === undefined || (previous.endLine ?? 0) < (tokens.at(index)!.startLine ?? 0);
}

// ---------------------------------------------------------------------------------------------
// cqlsh commands

const CQLSH_COMMANDS = new Set([
  "SOURCE", "COPY", "EXPAND", "PAGING", "TRACING", "CAPTURE", "LOGIN", "CONSISTENCY", "SHOW", "CLEAR", "CLS",
  "EXIT", "QUIT", "HELP",
]);

export interface CqlshCommand {
  name: string;
  /** index just past the command */
  end: number;
}

/**
 * A cqlsh command at `index`: it runs to the end of its line (or its `;`), except COPY, which
 * runs to its `;` like a statement.
 */
export function cqlshCommandAt(tokens: TokenSource, index: number): CqlshCommand | undefined {
  const token = tokens.at(index);
  // cqlsh command words are names, except LOGIN.
  if (token === undefined || (token.tokenType !== T.Identifier && token.tokenType !== T.Login)) return undefined;
  const first = word(token);
  let name: string;
  if (first === "SERIAL" && word(tokens.at(index + 1)) === "CONSISTENCY") name = "SERIAL CONSISTENCY";
  else if (CQLSH_COMMANDS.has(first)) name = first;
  else return undefined;
  if (name === "COPY") return { name, end: statementEnd(tokens, index) };
  const line = tokens.at(index)!.startLine;
  let end = index + 1;
  for (let token = tokens.at(end); token !== undefined && token.startLine === line; token = tokens.at(end)) {
    end++;
    if (token.tokenType === T.Semicolon) break;
  }
  return { name, end };
}

/**
 * A cqlsh prompt pasted from a shell session (`cqlsh>`, `cqlsh:ks>`) at the start of a line: the
 * index just past its `>`, so the statement typed after it can still be read.
 */
export function cqlshPromptAt(tokens: TokenSource, index: number): number | undefined {
  const token = tokens.at(index);
  if (token === undefined || token.tokenType !== T.Identifier || token.image.toLowerCase() !== "cqlsh" || !startsLine(tokens, index)) {
    return undefined;
  }
  // The prompt is written without spaces: each part starts where the previous one ends.
  const adjacent = (at: number, type: TokenType | undefined) => {
    const part = tokens.at(at);
    return part !== undefined && (type === undefined || part.tokenType === type) && part.startOffset === (tokens.at(at - 1)!.endOffset ?? -2) + 1;
  };
  if (adjacent(index + 1, T.Greater)) return index + 2;
  if (adjacent(index + 1, T.Colon) && adjacent(index + 2, undefined) && adjacent(index + 3, T.Greater)) return index + 4;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Vendor statements

export interface VendorStatement {
  /** e.g. "CREATE SEARCH INDEX is DataStax Enterprise syntax" */
  description: string;
  end: number;
}

const vendorSyntax = (what: string, vendor: string, end: number): VendorStatement => ({ description: `${what} is ${vendor} syntax`, end });

/** Statements of DataStax Enterprise, ScyllaDB, Amazon Keyspaces and Cassandra's Accord, by their first words. */
const VENDOR_FIRST_WORDS = new Set<unknown>([T.Create, T.Alter, T.Drop, T.ListKw, T.Begin, T.Identifier]);

export function vendorStatementAt(tokens: TokenSource, index: number): VendorStatement | undefined {
  if (!VENDOR_FIRST_WORDS.has(tokens.at(index)?.tokenType)) return undefined;
  // Vendor statements have a name as their first or second word, except ALTER … TAGS and LIST ALL ….
  const firstType = tokens.at(index)!.tokenType;
  const secondType = tokens.at(index + 1)?.tokenType;
  if (firstType !== T.Identifier && firstType !== T.Alter && firstType !== T.ListKw && secondType !== T.Identifier) return undefined;
  const w = (offset: number) => word(tokens.at(index + offset));
  const first = w(0);
  const end = () => statementEnd(tokens, index);
  if (["CREATE", "ALTER", "DROP", "COMMIT", "RELOAD", "REBUILD"].includes(first) && w(1) === "SEARCH" && w(2) === "INDEX") {
    return vendorSyntax(`${first} SEARCH INDEX`, "DataStax Enterprise", end());
  }
  if ((first === "RESTRICT" || first === "UNRESTRICT") && tokens.at(index + 1) !== undefined) {
    return vendorSyntax(w(1) === "ROWS" ? `${first} ROWS` : first, "DataStax Enterprise", end());
  }
  if (["CREATE", "ALTER", "DROP", "ATTACH", "DETACH"].includes(first) && w(1) === "SERVICE" && w(2).startsWith("LEVEL")) {
    return vendorSyntax(`${first} SERVICE LEVEL`, "ScyllaDB", end());
  }
  if (first === "LIST" && (w(1) === "SERVICE" || ((w(1) === "ATTACHED" || w(1) === "ALL") && w(2) === "SERVICE"))) {
    return vendorSyntax("LIST SERVICE LEVELS", "ScyllaDB", end());
  }
  if (first === "PRUNE" && w(1) === "MATERIALIZED" && w(2) === "VIEW") {
    return vendorSyntax("PRUNE MATERIALIZED VIEW", "ScyllaDB", end());
  }
  // Amazon Keyspaces: ALTER TABLE|KEYSPACE name ADD TAGS {…} / DROP TAGS {…}
  if (first === "ALTER" && (w(1) === "TABLE" || w(1) === "KEYSPACE")) {
    const stop = end();
    for (let i = index + 2; i < stop - 1; i++) {
      const action = word(tokens.at(i));
      if ((action === "ADD" || action === "DROP") && word(tokens.at(i + 1)) === "TAGS" && tokens.at(i + 2)?.tokenType === T.LBrace) {
        return vendorSyntax(`ALTER ${w(1)} … ${action} TAGS`, "Amazon Keyspaces", stop);
      }
    }
  }
  if (first === "BEGIN" && w(1) === "TRANSACTION") {
    // Accord transactions are Apache Cassandra, but only after 5.0 (the versions reviewed are 3.11–5.0).
    return { description: "BEGIN TRANSACTION … COMMIT TRANSACTION is an Accord transaction (Apache Cassandra after 5.0)", end: transactionEnd(tokens, index) };
  }
  return undefined;
}

function transactionEnd(tokens: TokenSource, index: number): number {
  for (let i = index + 2; tokens.at(i + 1) !== undefined; i++) {
    if (word(tokens.at(i)) === "COMMIT" && word(tokens.at(i + 1)) === "TRANSACTION") {
      return tokens.at(i + 2)?.tokenType === T.Semicolon ? i + 3 : i + 2;
    }
  }
  return statementEnd(tokens, index);
}

// ---------------------------------------------------------------------------------------------
// Statement boundaries

const OBJECTS_AFTER_ALTER_OR_DROP = [T.Table, T.Keyspace, T.Materialized, T.Index] as const;
const STATEMENT_KEYWORDS = new Set([T.Create, T.Insert, T.Update, T.Use, T.Truncate, T.Begin, T.Grant, T.Revoke, T.Alter, T.Drop]);
/** STATEMENT_KEYWORDS by tokenTypeIdx: statementEnd asks for every token, and this is one load. */
const IS_STATEMENT_KEYWORD: boolean[] = [];
for (let i = 0; i <= Math.max(...T.parserVocabulary.map((type) => type.tokenTypeIdx!)); i++) IS_STATEMENT_KEYWORD.push(false);
for (const type of STATEMENT_KEYWORDS) IS_STATEMENT_KEYWORD[type.tokenTypeIdx!] = true;

/**
 * A line-initial keyword that begins a statement and cannot continue the one before: where a
 * statement ends when its `;` is missing. Only reserved words qualify (a column may be called
 * `type` or `source`); SELECT does not (it continues `CREATE MATERIALIZED VIEW … AS`).
 */
export function beginsStatementForSure(tokens: TokenSource, index: number): boolean {
  const token = tokens.at(index);
  if (token === undefined || !STATEMENT_KEYWORDS.has(token.tokenType) || !startsLine(tokens, index)) return false;
  const next = tokens.at(index + 1);
  switch (token.tokenType) {
    case T.Create:
      return next !== undefined && next.tokenType !== T.On && next.tokenType !== T.Comma && next.tokenType !== T.Permission;
    case T.Insert:
      return next?.tokenType === T.Into;
    case T.Update:
    case T.Use:
    case T.Truncate:
    case T.Begin:
    case T.Grant:
    case T.Revoke:
      return true;
    case T.Alter:
    case T.Drop:
      return next !== undefined && OBJECTS_AFTER_ALTER_OR_DROP.some((object) => isToken(next, object));
    default:
      return false;
  }
}

const OBJECTS_NAMED_LIKE_COLUMNS = [T.Type, T.FunctionKw, T.Aggregate, T.Role, T.User, T.Trigger, T.Identity] as const;

/**
 * Where to resume after a syntax error: a line-initial token that looks like the start of a
 * statement, read more liberally than beginsStatementForSure (a broken statement is lost anyway).
 */
export function looksLikeStatementStart(tokens: TokenSource, index: number): boolean {
  if (beginsStatementForSure(tokens, index)) return true;
  const token = tokens.at(index);
  if (token === undefined || !startsLine(tokens, index)) return false;
  const next = tokens.at(index + 1);
  switch (token.tokenType) {
    case T.Identifier:
      return cqlshPromptAt(tokens, index) !== undefined;
    case T.Select:
      return get(tokens, index - 1)?.tokenType !== T.As;
    case T.Delete:
    case T.Describe:
    case T.Desc:
    case T.ListKw:
      return next !== undefined && next.tokenType !== T.Comma && next.tokenType !== T.On && next.tokenType !== T.Less;
    case T.Alter:
    case T.Drop:
      return next !== undefined && OBJECTS_NAMED_LIKE_COLUMNS.some((object) => next.tokenType === object);
    default:
      return false;
  }
}

/** Index just past the statement starting at `index`: after its `;`, or before the next statement. */
export function statementEnd(tokens: TokenSource, index: number): number {
  const first = tokens.at(index);
  if (first?.tokenType === T.Begin) return batchEnd(tokens, index);
  if (first?.tokenType === T.Describe || first?.tokenType === T.Desc) return describeEnd(tokens, index);
  let i = index + 1;
  for (let token = tokens.at(i); token !== undefined; token = tokens.at(++i)) {
    if (token.tokenType === T.Semicolon) return i + 1;
    if (IS_STATEMENT_KEYWORD[token.tokenTypeIdx!] === true && beginsStatementForSure(tokens, i)) return i;
  }
  return i;
}

/** cqlsh users end DESCRIBE at the line break as often as with a `;`; both are accepted. */
function describeEnd(tokens: TokenSource, index: number): number {
  const line = tokens.at(index)!.startLine;
  let i = index + 1;
  for (let token = tokens.at(i); token !== undefined && token.startLine === line; token = tokens.at(++i)) {
    if (token.tokenType === T.Semicolon) return i + 1;
  }
  return tokens.at(i)?.tokenType === T.Semicolon ? i + 1 : i;
}

const BATCH_MEMBERS = [T.Insert, T.Update, T.Delete, T.Apply, T.Semicolon] as const;

/**
 * BEGIN … BATCH runs to APPLY BATCH, across the `;` of its members. A batch without APPLY BATCH
 * ends where a `;` is followed by something that is not a batch member, so it cannot swallow the
 * rest of the file.
 */
function batchEnd(tokens: TokenSource, index: number): number {
  let i = index + 1;
  for (let token = tokens.at(i); token !== undefined; token = tokens.at(++i)) {
    if (token.tokenType === T.Apply && tokens.at(i + 1)?.tokenType === T.Batch) {
      return tokens.at(i + 2)?.tokenType === T.Semicolon ? i + 3 : i + 2;
    }
    if (token.tokenType === T.Semicolon) {
      const next = tokens.at(i + 1);
      if (next === undefined || !BATCH_MEMBERS.some((member) => next.tokenType === member)) return i + 1;
    }
    if (token.tokenType !== T.Insert && token.tokenType !== T.Update && token.tokenType !== T.Delete && beginsStatementForSure(tokens, i)) {
      return i;
    }
  }
  return i;
}
