// The parser's SourceRange: six numbers in one object.
//
// A plain range is three objects (the range and its two positions), and an AST is mostly ranges:
// on a large schema they were two thirds of its objects, and every one of them survives the young
// generation and is copied by V8's scavenger. A SourceSpan keeps the same six numbers in one
// object and makes `start` and `end` when they are read, which only findings, fixes and reports do.
// Consumers see an ordinary SourceRange: `range.start.line` works, JSON keeps the {start, end} shape.
import type { IToken } from "chevrotain";
import type { Position, SourceRange } from "./ast.js";

export class SourceSpan implements SourceRange {
  constructor(
    readonly startLine: number,
    readonly startColumn: number,
    readonly startOffset: number,
    readonly endLine: number,
    readonly endColumn: number,
    readonly endOffset: number,
  ) {
    collecting?.push(this);
  }

  get start(): Position {
    return { line: this.startLine, column: this.startColumn, offset: this.startOffset };
  }

  get end(): Position {
    return { line: this.endLine, column: this.endColumn, offset: this.endOffset };
  }

  toJSON(): { start: Position; end: Position } {
    return { start: this.start, end: this.end };
  }
}

// ---------------------------------------------------------------------------------------------
// Moving the spans of text parsed out of its place (CQL inside a YAML manifest)

let collecting: SourceSpan[] | undefined;

/** Runs `work` and returns, with its result, every SourceSpan made meanwhile. */
export function collectSpans<T>(work: () => T): { result: T; spans: SourceSpan[] } {
  const outer = collecting;
  const spans: SourceSpan[] = [];
  collecting = spans;
  try {
    return { result: work(), spans };
  } finally {
    collecting = outer;
  }
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Gives `span` the place of `to`. Spans are values, so this is only for spans nobody has read
 * yet: moving the spans collectSpans returned is one pass over them, with no walk of the tree
 * that holds them and no second copy of each.
 */
export function moveSpan(span: SourceSpan, to: SourceSpan): void {
  const moved = span as Writable<SourceSpan>;
  moved.startLine = to.startLine;
  moved.startColumn = to.startColumn;
  moved.startOffset = to.startOffset;
  moved.endLine = to.endLine;
  moved.endColumn = to.endColumn;
  moved.endOffset = to.endOffset;
}

/** Moves `span`, made on one line, by `offset` characters and to `line`, shifting columns by `columns`. */
export function shiftSpan(span: SourceSpan, offset: number, line: number, columns: number): void {
  const moved = span as Writable<SourceSpan>;
  moved.startLine = line;
  moved.startColumn += columns;
  moved.startOffset += offset;
  moved.endLine = line;
  moved.endColumn += columns;
  moved.endOffset += offset;
}

// ---------------------------------------------------------------------------------------------
// Making spans

/** From the start of one range or position to the end of another. */
export function spanBetween(from: SourceRange | Position, to: SourceRange | Position): SourceSpan {
  if (from instanceof SourceSpan && to instanceof SourceSpan) {
    return new SourceSpan(from.startLine, from.startColumn, from.startOffset, to.endLine, to.endColumn, to.endOffset);
  }
  const start = "start" in from ? from.start : from;
  const end = "end" in to ? to.end : to;
  return new SourceSpan(start.line, start.column, start.offset, end.line, end.column, end.offset);
}

/** From the first character of `first` to just past the last character of `last`. */
export function tokenSpan(first: IToken, last: IToken = first): SourceSpan {
  const image = last.image;
  const lastChar = image.charCodeAt(image.length - 1);
  const endOffset = (last.endOffset ?? last.startOffset) + 1;
  if (lastChar === LINE_FEED || lastChar === CARRIAGE_RETURN) {
    // A token that ends with a line break (an unterminated string or comment running to the end of
    // the file) ends where the next line starts: chevrotain's end line and column say otherwise.
    return new SourceSpan(first.startLine ?? 1, first.startColumn ?? 1, first.startOffset, (last.startLine ?? 1) + lineBreaks(image), 1, endOffset);
  }
  return new SourceSpan(first.startLine ?? 1, first.startColumn ?? 1, first.startOffset, last.endLine ?? 1, (last.endColumn ?? 0) + 1, endOffset);
}

/** The token's first character (startOf) or just past its last one (endOf), as a position. */
export function startOf(token: IToken): Position {
  return { line: token.startLine ?? 1, column: token.startColumn ?? 1, offset: token.startOffset };
}

export function endOf(token: IToken): Position {
  return tokenSpan(token).end;
}

const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;

function lineBreaks(image: string): number {
  let breaks = 0;
  for (let i = 0; i < image.length; i++) {
    const ch = image.charCodeAt(i);
    if (ch === LINE_FEED || (ch === CARRIAGE_RETURN && image.charCodeAt(i + 1) !== LINE_FEED)) breaks++;
  }
  return breaks;
}
