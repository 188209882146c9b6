// The CQL lexer: chevrotain's Lexer over tokens.ts, plus what chevrotain leaves to us: characters no
// token matches become UnknownCharacters tokens (so the parser reports them in place), unterminated
// strings/comments stay in the stream as one token each, comments are collected with their ranges,
// and a byte order mark does not shift the columns of line 1.
import { createTokenInstance, Lexer, type IToken } from "chevrotain";
import type { Comment, Position, SourceRange } from "./ast.js";
import { allTokens, BlockComment, UnknownCharacters } from "./tokens.js";

const cqlLexer = new Lexer(allTokens, {
  positionTracking: "full",
  // Fails at load time if a pattern defeats chevrotain's first-character dispatch, which is what
  // keeps lexing fast.
  ensureOptimizations: true,
});

export interface LexResult {
  /** significant tokens in source order, including UnknownCharacters and Unterminated* tokens */
  tokens: IToken[];
  comments: Comment[];
}

export function lexCql(text: string): LexResult {
  const lexed = cqlLexer.tokenize(text);
  let tokens = lexed.tokens;
  const unterminated = lexed.groups["unterminated"] ?? [];
  if (lexed.errors.length > 0 || unterminated.length > 0) {
    const extra: IToken[] = lexed.errors.map((error) => {
      const image = text.slice(error.offset, error.offset + error.length);
      const endLine = (error.line ?? 1) + countLineBreaks(image);
      return createTokenInstance(
        UnknownCharacters,
        image,
        error.offset,
        error.offset + error.length - 1,
        error.line ?? 1,
        endLine,
        error.column ?? 1,
        (error.column ?? 1) + error.length - 1,
      );
    });
    tokens = mergeByOffset(tokens, [...extra, ...unterminated].sort((a, b) => a.startOffset - b.startOffset));
  }
  const commentTokens = lexed.groups["comments"] ?? [];
  if (text.charCodeAt(0) === 0xfeff) {
    shiftFirstLineColumns(tokens);
    shiftFirstLineColumns(commentTokens);
  }
  return { tokens, comments: commentTokens.map(toComment) };
}

function countLineBreaks(image: string): number {
  let lines = 0;
  for (let i = 0; i < image.length; i++) {
    const c = image.charCodeAt(i);
    if (c === 10 || (c === 13 && image.charCodeAt(i + 1) !== 10)) lines++;
  }
  return lines;
}

function mergeByOffset(a: IToken[], b: IToken[]): IToken[] {
  const merged: IToken[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.startOffset < b[j]!.startOffset)) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}

/** Editors do not count a byte order mark as a column; offsets still do. */
function shiftFirstLineColumns(tokens: IToken[]): void {
  for (const token of tokens) {
    if (token.startLine !== 1) break;
    token.startColumn = (token.startColumn ?? 2) - 1;
    if (token.endLine === 1) token.endColumn = (token.endColumn ?? 2) - 1;
  }
}

function toComment(token: IToken): Comment {
  const image = token.image;
  const block = token.tokenType === BlockComment;
  const style = block ? "/*" : image.startsWith("--") ? "--" : "//";
  const body = block ? image.slice(2, -2) : image.slice(2);
  return { text: body.trim(), style, range: tokenRange(token) };
}

// ---------------------------------------------------------------------------------------------
// Positions

export function startOf(token: IToken): Position {
  return { line: token.startLine ?? 1, column: token.startColumn ?? 1, offset: token.startOffset };
}

/** Just past the token's last character (chevrotain's end positions are inclusive). */
export function endOf(token: IToken): Position {
  return { line: token.endLine ?? 1, column: (token.endColumn ?? 0) + 1, offset: (token.endOffset ?? token.startOffset) + 1 };
}

export function tokenRange(token: IToken): SourceRange {
  return { start: startOf(token), end: endOf(token) };
}

export function rangeOfTokens(first: IToken, last: IToken): SourceRange {
  return { start: startOf(first), end: endOf(last) };
}
