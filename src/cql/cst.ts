// Reading chevrotain's concrete syntax tree: children by label, and source ranges.
import type { CstElement, CstNode, IToken } from "chevrotain";
import type { Position, SourceRange } from "./ast.js";
import { endOf, startOf } from "./lexer.js";

export function child(node: CstNode, label: string): CstNode | undefined {
  return node.children[label]?.[0] as CstNode | undefined;
}

export function childNodes(node: CstNode, label: string): CstNode[] {
  return (node.children[label] as CstNode[] | undefined) ?? [];
}

export function tok(node: CstNode, label: string): IToken | undefined {
  return node.children[label]?.[0] as IToken | undefined;
}

export function toks(node: CstNode, label: string): IToken[] {
  return (node.children[label] as IToken[] | undefined) ?? [];
}

export function has(node: CstNode, label: string): boolean {
  const list = node.children[label];
  return list !== undefined && list.length > 0;
}

/** A child that the grammar guarantees; its absence means a recovered tree, which is dropped. */
export function required(node: CstNode, label: string): CstNode {
  const found = child(node, label);
  if (!found) throw new IncompleteTreeError(`${node.name} has no ${label}`);
  return found;
}

export function requiredTok(node: CstNode, label: string): IToken {
  const found = tok(node, label);
  if (!found || found.isInsertedInRecovery) throw new IncompleteTreeError(`${node.name} has no ${label}`);
  return found;
}

/** The tree lacks a part the grammar requires: error recovery left it incomplete. */
export class IncompleteTreeError extends Error {
  override name = "IncompleteTreeError";
}

export function isToken(element: CstElement): element is IToken {
  return (element as IToken).image !== undefined;
}

/** The tokens of the statement being converted, to share their positions (see PositionedToken). */
let statementTokens: readonly IToken[] = [];
/** The offset of statementTokens[0]; the two tables below are indexed by offset minus this. */
let statementStart = 0;
/** Index in statementTokens of the token that starts / ends at an offset (entries elsewhere are stale). */
let tokenStartingAt = new Int32Array(1024);
let tokenEndingAt = new Int32Array(1024);

/** Runs `convert` with the statement's tokens at hand for nodeRange. */
export function withStatementTokens<T>(tokens: readonly IToken[], convert: () => T): T {
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  if (first && last) {
    const length = (last.endOffset ?? last.startOffset) - first.startOffset + 1;
    if (length > tokenStartingAt.length) {
      tokenStartingAt = new Int32Array(length * 2);
      tokenEndingAt = new Int32Array(length * 2);
    }
    statementStart = first.startOffset;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      tokenStartingAt[token.startOffset - statementStart] = i;
      tokenEndingAt[(token.endOffset ?? token.startOffset) - statementStart] = i;
    }
  }
  statementTokens = tokens;
  try {
    return convert();
  } finally {
    statementTokens = [];
  }
}

/** The token of the statement that starts (or, with `byEnd`, ends) at `offset`. */
function tokenAt(offset: number, byEnd: boolean): IToken | undefined {
  const relative = offset - statementStart;
  if (relative < 0 || relative >= tokenStartingAt.length) return undefined;
  const token = statementTokens[byEnd ? tokenEndingAt[relative]! : tokenStartingAt[relative]!];
  // The tables are reused across statements: check the entry belongs to this one.
  if (token === undefined || (byEnd ? (token.endOffset ?? token.startOffset) : token.startOffset) !== offset) return undefined;
  return token;
}

export function nodeRange(node: CstNode): SourceRange {
  const location = node.location;
  if (!location || Number.isNaN(location.startOffset) || location.endOffset === undefined || Number.isNaN(location.endOffset)) {
    throw new IncompleteTreeError(`${node.name} has no location`);
  }
  // The parser tracks offsets only (cheaper); lines and columns come from the statement's tokens.
  const first = tokenAt(location.startOffset, false);
  const last = tokenAt(location.endOffset, true);
  if (!first || !last) throw new IncompleteTreeError(`${node.name} has a location outside its statement`);
  return { start: startOf(first), end: endOf(last) };
}

export function span(start: SourceRange | Position, end: SourceRange | Position): SourceRange {
  // Positions are shared, never copied (see PositionedToken).
  const from = "start" in start ? start.start : start;
  const to = "end" in end ? end.end : end;
  return { start: from, end: to };
}
