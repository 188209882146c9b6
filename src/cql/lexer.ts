// The CQL lexer.
//
// tokens.ts defines the tokens as chevrotain patterns (keywords from a case-insensitive factory with
// `longer_alt: Identifier`); `referenceLexer` below is chevrotain's Lexer over them, and it is the
// specification (createReferenceLexer). `lexCql` produces the same tokens with a hand-written scanner that dispatches on
// the first character and finds keywords with one map lookup per word, instead of trying every
// keyword pattern that starts with the same letter: several times faster, which matters because
// lexing runs over every schema file of every review. A property test checks that both agree.
//
// On top of the token stream, lexCql also does what chevrotain leaves to us: characters no token
// matches become UnknownCharacters tokens (so the parser reports them in place), an unterminated
// string or comment stays in the stream as one token, comments are collected with their ranges, and
// a byte order mark does not shift the columns of line 1.
import { Lexer, type IToken, type TokenType } from "chevrotain";
import type { Comment } from "./ast.js";
import { LineIndex, tokenSpan, type IndexedToken } from "./source-span.js";
import * as T from "./tokens.js";

/** chevrotain's lexer over the token patterns: the reference the fast scanner is tested against. */
export function createReferenceLexer(): Lexer {
  return new Lexer(T.allTokens, { positionTracking: "full", ensureOptimizations: true });
}

export interface LexResult {
  /** significant tokens in source order, including UnknownCharacters and Unterminated* tokens */
  tokens: IToken[];
  comments: Comment[];
}

/** All tokens and comments of a text at once (the parser itself streams, see CqlScanner). */
export function lexCql(text: string): LexResult {
  const scanner = new CqlScanner(text);
  const tokens: IToken[] = [];
  for (let token = scanner.next(); token !== undefined; token = scanner.next()) tokens.push(token);
  return { tokens, comments: commentsOf(scanner) };
}

export function commentsOf(scanner: CqlScanner): Comment[] {
  return scanner.comments.map(toComment);
}

// ---------------------------------------------------------------------------------------------
// The scanner

/** Sticky copies of the patterns that are simpler to run than to re-implement. */
const sticky = (token: TokenType) => new RegExp((token.PATTERN as RegExp).source, `${(token.PATTERN as RegExp).flags}y`);
const UUID = sticky(T.UuidLiteral);
const ISO_DURATION = sticky(T.IsoDurationLiteral);
const DURATION = sticky(T.DurationLiteral);
const FLOAT = sticky(T.FloatLiteral);

const enum Char {
  Tab = 9,
  LineFeed = 10,
  FormFeed = 12,
  CarriageReturn = 13,
  Space = 32,
  Bang = 33,
  DoubleQuote = 34,
  Dollar = 36,
  Percent = 37,
  Quote = 39,
  LParen = 40,
  RParen = 41,
  Star = 42,
  Plus = 43,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  Semicolon = 59,
  Less = 60,
  Equals = 61,
  Greater = 62,
  Question = 63,
  UpperA = 65,
  UpperE = 69,
  UpperF = 70,
  UpperP = 80,
  UpperX = 88,
  UpperZ = 90,
  LBracket = 91,
  RBracket = 93,
  Underscore = 95,
  LowerA = 97,
  LowerE = 101,
  LowerF = 102,
  LowerX = 120,
  LowerZ = 122,
  LBrace = 123,
  RBrace = 125,
  Micro = 0xb5,
  ByteOrderMark = 0xfeff,
}

const SINGLE_CHARACTER_TOKENS: (TokenType | undefined)[] = [];
for (const [char, token] of [
  [Char.Semicolon, T.Semicolon],
  [Char.Comma, T.Comma],
  [Char.LParen, T.LParen],
  [Char.RParen, T.RParen],
  [Char.LBracket, T.LBracket],
  [Char.RBracket, T.RBracket],
  [Char.LBrace, T.LBrace],
  [Char.RBrace, T.RBrace],
  [Char.Star, T.Star],
  [Char.Percent, T.Percent],
  [Char.Question, T.QuestionMark],
  [Char.Colon, T.Colon],
] as const) {
  SINGLE_CHARACTER_TOKENS[char] = token;
}

function isLetter(c: number): boolean {
  return (c >= Char.LowerA && c <= Char.LowerZ) || (c >= Char.UpperA && c <= Char.UpperZ);
}
function isDigit(c: number): boolean {
  return c >= Char.Zero && c <= Char.Nine;
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= Char.LowerA && c <= Char.LowerF) || (c >= Char.UpperA && c <= Char.UpperF);
}
function isWhiteSpace(c: number): boolean {
  return c === Char.Space || c === Char.LineFeed || c === Char.CarriageReturn || c === Char.Tab || c === Char.FormFeed || c === Char.ByteOrderMark;
}

/** Where the last token found by matchToken ends (a module variable: no object per token). */
let matchEnd = 0;
/** The image of the last name found by matchToken, reused as the token's image. */
let matchImage: string | undefined;

function found(type: TokenType, end: number): TokenType {
  matchEnd = end;
  return type;
}

function stickyMatch(pattern: RegExp, text: string, start: number): number {
  pattern.lastIndex = start;
  return pattern.test(text) ? pattern.lastIndex : -1;
}

/** The type of the token at `start` (never whitespace; its end in matchEnd), or undefined. */
function matchToken(text: string, start: number): TokenType | undefined {
  matchImage = undefined;
  const c = text.charCodeAt(start);
  const next = text.charCodeAt(start + 1);
  const single = SINGLE_CHARACTER_TOKENS[c];
  if (single) return found(single, start + 1);
  if (isLetter(c)) {
    // A uuid has a `-` after its first 8 characters; checking that first spares most names the regex.
    if (isHex(c) && text.charCodeAt(start + 8) === Char.Minus) {
      const uuidEnd = stickyMatch(UUID, text, start);
      if (uuidEnd > 0) return found(T.UuidLiteral, uuidEnd);
    }
    if (c === Char.UpperP) {
      const isoEnd = stickyMatch(ISO_DURATION, text, start);
      if (isoEnd > 0) return found(T.IsoDurationLiteral, isoEnd);
    }
    let hasUpperCase = c <= Char.UpperZ;
    let hasLowerCase = !hasUpperCase;
    let hasDigit = false;
    let hash = T.wordHash(0, c);
    let end = start + 1;
    for (; end < text.length; end++) {
      const ch = text.charCodeAt(end);
      if (ch >= Char.LowerA && ch <= Char.LowerZ) hasLowerCase = true;
      else if (ch >= Char.UpperA && ch <= Char.UpperZ) hasUpperCase = true;
      else if (isDigit(ch)) hasDigit = true;
      else if (ch !== Char.Underscore) break;
      hash = T.wordHash(hash, ch);
    }
    // A keyword in one case is found in place and takes the shared spelling as its image: most
    // words are keywords, and copying each one out of the text is garbage.
    if (!hasDigit && hasUpperCase !== hasLowerCase) {
      const keyword = T.keywordInText(text, start, end, hash, hasUpperCase);
      if (keyword !== undefined) {
        matchImage = T.keywordSpelling;
        return found(keyword, end);
      }
      matchImage = text.slice(start, end);
      return found(T.Identifier, end);
    }
    matchImage = text.slice(start, end);
    return found(T.keywordForScannedWord(matchImage, hasDigit, hasUpperCase, hasLowerCase) ?? T.Identifier, end);
  }
  if (isDigit(c)) {
    if (text.charCodeAt(start + 8) === Char.Minus) {
      const uuidEnd = stickyMatch(UUID, text, start);
      if (uuidEnd > 0) return found(T.UuidLiteral, uuidEnd);
    }
    if (c === Char.Zero && (next === Char.LowerX || next === Char.UpperX)) {
      let end = start + 2;
      while (end < text.length && isHex(text.charCodeAt(end))) end++;
      return found(T.BlobLiteral, end);
    }
    let end = start + 1;
    while (end < text.length && isDigit(text.charCodeAt(end))) end++;
    // Only a letter (a unit, or an exponent) or a `.` after the digits makes something else.
    const after = text.charCodeAt(end);
    if (isLetter(after) || after === Char.Micro) {
      const durationEnd = stickyMatch(DURATION, text, start);
      if (durationEnd > 0) return found(T.DurationLiteral, durationEnd);
    }
    if (after === Char.Dot || after === Char.LowerE || after === Char.UpperE) {
      const floatEnd = stickyMatch(FLOAT, text, start);
      if (floatEnd > 0) return found(T.FloatLiteral, floatEnd);
    }
    return found(T.IntegerLiteral, end);
  }
  switch (c) {
    case Char.Quote:
      return quoted(text, start, Char.Quote, T.StringLiteral, T.UnterminatedString);
    case Char.DoubleQuote:
      return quoted(text, start, Char.DoubleQuote, T.QuotedIdentifier, T.UnterminatedQuotedIdentifier);
    case Char.Dollar: {
      if (next !== Char.Dollar) return undefined;
      const close = text.indexOf("$$", start + 2);
      return close < 0 ? found(T.UnterminatedDollarString, text.length) : found(T.DollarStringLiteral, close + 2);
    }
    case Char.Minus:
      if (next === Char.Minus) return found(T.LineComment, lineEnd(text, start + 2));
      if (next === Char.Equals) return found(T.MinusEquals, start + 2);
      return found(T.Minus, start + 1);
    case Char.Slash: {
      if (next === Char.Slash) return found(T.LineComment, lineEnd(text, start + 2));
      if (next !== Char.Star) return found(T.Slash, start + 1);
      const close = text.indexOf("*/", start + 2);
      return close < 0 ? found(T.UnterminatedBlockComment, text.length) : found(T.BlockComment, close + 2);
    }
    case Char.Dot:
      return next === Char.Dot ? found(T.Range, start + 2) : found(T.Dot, start + 1);
    case Char.Less:
      return next === Char.Equals ? found(T.LessEquals, start + 2) : found(T.Less, start + 1);
    case Char.Greater:
      return next === Char.Equals ? found(T.GreaterEquals, start + 2) : found(T.Greater, start + 1);
    case Char.Bang:
      return next === Char.Equals ? found(T.NotEquals, start + 2) : undefined;
    case Char.Plus:
      return next === Char.Equals ? found(T.PlusEquals, start + 2) : found(T.Plus, start + 1);
    case Char.Equals:
      return found(T.Equals, start + 1);
    default:
      return undefined;
  }
}

/** `'…'` / `"…"` with doubled quotes as escapes; without its closing quote it runs to the end. */
function quoted(text: string, start: number, quote: number, closed: TokenType, unterminated: TokenType): TokenType {
  let i = start + 1;
  for (;;) {
    const close = text.indexOf(quote === Char.Quote ? "'" : '"', i);
    if (close < 0) return found(unterminated, text.length);
    if (text.charCodeAt(close + 1) === quote) {
      i = close + 2;
      continue;
    }
    return found(closed, close + 1);
  }
}

function lineEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === Char.LineFeed || c === Char.CarriageReturn) break;
    i++;
  }
  return i;
}

/** By tokenTypeIdx: the tokens that can span lines. */
const MULTI_LINE: boolean[] = [];
for (const type of [
  T.StringLiteral,
  T.DollarStringLiteral,
  T.QuotedIdentifier,
  T.BlockComment,
  T.UnterminatedString,
  T.UnterminatedDollarString,
  T.UnterminatedQuotedIdentifier,
  T.UnterminatedBlockComment,
]) {
  MULTI_LINE[type.tokenTypeIdx!] = true;
}

/**
 * Tokens one at a time, so a caller can parse a statement and let its tokens go before lexing the
 * next one: on a large file, keeping every token alive until the end costs more in garbage
 * collection than lexing itself. Comments are collected as they pass.
 */
export class CqlScanner {
  readonly comments: IToken[] = [];
  private offset = 0;
  private line = 1;
  /**
   * where the text's lines start, filled as the scan goes: tokens and the spans of the AST look
   * their columns up in it (a byte order mark takes no column on line 1: editors do not count it)
   */
  readonly lines: LineIndex;

  constructor(private readonly text: string) {
    this.lines = new LineIndex([0], text.charCodeAt(0) === Char.ByteOrderMark ? 1 : 0);
  }

  /** The next significant token, or undefined at the end of the text. */
  next(): IToken | undefined {
    const text = this.text;
    const length = text.length;
    while (this.offset < length) {
      const offset = this.offset;
      const c = text.charCodeAt(offset);
      if (c === Char.Space || c === Char.Tab || c === Char.FormFeed || c === Char.ByteOrderMark) {
        this.offset++;
        continue;
      }
      // chevrotain's line terminators: \n, \r\n, \r.
      if (c === Char.LineFeed || c === Char.CarriageReturn) {
        if (c === Char.CarriageReturn && text.charCodeAt(offset + 1) === Char.LineFeed) {
          this.offset += 2;
        } else {
          this.offset++;
        }
        this.line++;
        this.lines.starts.push(this.offset);
        continue;
      }
      const type = matchToken(text, offset);
      if (!type) {
        // As chevrotain does: skip to the next character where some token (or space) starts.
        let end = offset + 1;
        while (end < length && !isWhiteSpace(text.charCodeAt(end)) && !matchToken(text, end)) end++;
        return this.emit(text.slice(offset, end), UnknownCharacters, end);
      }
      const newToken = this.emit(matchImage ?? text.slice(offset, matchEnd), type, matchEnd);
      if (type === T.LineComment || type === T.BlockComment) {
        this.comments.push(newToken);
        continue;
      }
      return newToken;
    }
    return undefined;
  }

  private emit(image: string, type: TokenType, end: number): IToken {
    const start = this.offset;
    const newToken = new CqlToken(image, start, end - 1, this.line, this.line, type, this.lines);
    this.offset = end;
    if (MULTI_LINE[type.tokenTypeIdx!] === true) {
      let breaks = 0;
      for (let i = 0; i < image.length; i++) {
        if (isLineBreak(image, i)) {
          breaks++;
          this.lines.starts.push(start + i + 1);
        }
      }
      if (breaks > 0) {
        this.line += breaks;
        // As chevrotain counts: a token ending with its only line break ends on its first line.
        const endsWithBreak = isLineBreak(image, image.length - 1);
        if (!(breaks === 1 && endsWithBreak)) newToken.endLine = endsWithBreak ? this.line - 1 : this.line;
      }
    }
    return newToken;
  }
}

const UnknownCharacters = T.UnknownCharacters;

/** chevrotain's line terminators: \n, \r\n (counted at its \n), \r. */
function isLineBreak(image: string, i: number): boolean {
  const ch = image.charCodeAt(i);
  return ch === Char.LineFeed || (ch === Char.CarriageReturn && image.charCodeAt(i + 1) !== Char.LineFeed);
}

/**
 * Our tokens are of their own class, not object literals. A literal with chevrotain's token shape
 * shares V8's hidden class with chevrotain's placeholder tokens, whose positions are NaN: V8 then
 * stores every position of every token as a boxed number, six extra objects a token.
 *
 * Columns are not stored but computed from the line index, which has every line start the token
 * needs: only tests and the reference comparison read them, and two fields fewer are 15 % of a
 * token (and of the lexer's allocation).
 */
class CqlToken implements IndexedToken {
  readonly tokenTypeIdx: number;
  constructor(
    readonly image: string,
    readonly startOffset: number,
    readonly endOffset: number,
    readonly startLine: number,
    public endLine: number,
    readonly tokenType: TokenType,
    /** for the columns, and the spans made from the token (source-span.ts) */
    readonly lines: LineIndex,
  ) {
    this.tokenTypeIdx = tokenType.tokenTypeIdx!;
  }

  get startColumn(): number {
    const line = this.startLine;
    return this.startOffset - this.lines.starts[line - 1]! + 1 - (line === 1 ? this.lines.firstLineShift : 0);
  }

  get endColumn(): number {
    if (this.endLine === this.startLine) return this.startColumn + this.endOffset - this.startOffset;
    // A token over several lines: chevrotain's count, on the line of its last line break.
    const image = this.image;
    let lastBreak = image.length - 1;
    while (!isLineBreak(image, lastBreak)) lastBreak--;
    return lastBreak === image.length - 1 ? 1 : image.length - lastBreak - 1;
  }
}

function toComment(token: IToken): Comment {
  const image = token.image;
  const block = token.tokenType === T.BlockComment;
  const style = block ? "/*" : image.startsWith("--") ? "--" : "//";
  const body = block ? image.slice(2, -2) : image.slice(2);
  return { text: body.trim(), style, range: tokenSpan(token) };
}

