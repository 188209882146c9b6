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

/** Runs `convert` with the statement's tokens at hand for nodeRange. */
export function withStatementTokens<T>(tokens: readonly IToken[], convert: () => T): T {
  const outer = statementTokens;
  statementTokens = tokens;
  try {
    return convert();
  } finally {
    statementTokens = outer;
  }
}

/** The token of the statement that starts (or, with `byEnd`, ends) at `offset`. */
function tokenAt(offset: number, byEnd: boolean): IToken | undefined {
  let low = 0;
  let high = statementTokens.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const token = statementTokens[middle]!;
    const at = byEnd ? (token.endOffset ?? token.startOffset) : token.startOffset;
    if (at === offset) return token;
    if (at < offset) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

export function nodeRange(node: CstNode): SourceRange {
  const location = node.location;
  if (!location || Number.isNaN(location.startOffset) || location.endOffset === undefined || Number.isNaN(location.endOffset)) {
    throw new IncompleteTreeError(`${node.name} has no location`);
  }
  const first = tokenAt(location.startOffset, false);
  const last = tokenAt(location.endOffset, true);
  return {
    start: first ? startOf(first) : { line: location.startLine ?? 1, column: location.startColumn ?? 1, offset: location.startOffset },
    end: last ? endOf(last) : { line: location.endLine ?? 1, column: (location.endColumn ?? 0) + 1, offset: location.endOffset + 1 },
  };
}

export function span(start: SourceRange | Position, end: SourceRange | Position): SourceRange {
  // Positions are shared, never copied (see PositionedToken).
  const from = "start" in start ? start.start : start;
  const to = "end" in end ? end.end : end;
  return { start: from, end: to };
}
