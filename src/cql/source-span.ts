// The parser's SourceRange: two offsets and the line index of their text, in one object.
//
// A plain range is three objects (the range and its two positions), and an AST is mostly ranges:
// on a large schema they were two thirds of its objects, and every one of them survives the young
// generation and is copied by V8's scavenger. A SourceSpan keeps only where it starts and ends;
// lines and columns are looked up in the text's LineIndex when `start` or `end` is read, which only
// findings, fixes and reports do. Consumers see an ordinary SourceRange: `range.start.line` works,
// and JSON keeps the {start, end} shape.
import type { IToken } from "chevrotain";
import type { Position, SourceRange } from "./ast.js";

/**
 * Where the lines of one text start, for positions from offsets. The lexer appends to it as it
 * scans; a position is only looked up for text already scanned.
 */
export class LineIndex {
  /**
   * @param starts the offset where each line starts, ascending (line 1 first)
   * @param firstLineShift columns line 1 loses to a byte order mark, which editors do not count
   */
  constructor(
    readonly starts: number[],
    readonly firstLineShift = 0,
  ) {}

  position(offset: number): Position {
    const starts = this.starts;
    // How many lines start at or before the offset: the last of them holds it.
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (starts[middle]! <= offset) low = middle + 1;
      else high = middle;
    }
    // Before any line start (an index with none yet): line 0, as the `yaml` package answers.
    if (low === 0) return { line: 0, column: offset, offset };
    return { line: low, column: offset - starts[low - 1]! + 1 - (low === 1 ? this.firstLineShift : 0), offset };
  }
}

/** Set while collectSpans runs: every span made is added to it. */
let collecting: SourceSpan[] | undefined;

/** An index for a text without line breaks. */
const ONE_LINE = new LineIndex([0]);

export class SourceSpan implements SourceRange {
  constructor(
    readonly lines: LineIndex,
    readonly startOffset: number,
    readonly endOffset: number,
  ) {
    collecting?.push(this);
  }

  get start(): Position {
    return this.lines.position(this.startOffset);
  }

  get end(): Position {
    return this.lines.position(this.endOffset);
  }

  toJSON(): { start: Position; end: Position } {
    return { start: this.start, end: this.end };
  }
}

/** The empty span at the start of a text: where findings about a whole file point. */
export const TEXT_START = new SourceSpan(ONE_LINE, 0, 0);

// ---------------------------------------------------------------------------------------------
// Moving the spans of text parsed out of its place (CQL inside a YAML manifest)

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
  moved.lines = to.lines;
  moved.startOffset = to.startOffset;
  moved.endOffset = to.endOffset;
}

/** Moves `span` by `offset` characters into the text `lines` indexes (see moveSpan). */
export function shiftSpan(span: SourceSpan, offset: number, lines: LineIndex): void {
  const moved = span as Writable<SourceSpan>;
  moved.lines = lines;
  moved.startOffset += offset;
  moved.endOffset += offset;
}

// ---------------------------------------------------------------------------------------------
// Making spans from the lexer's tokens (CqlToken, lexer.ts)

/** A token that knows the line index of its text, as the lexer's tokens do. */
export interface IndexedToken extends IToken {
  lines: LineIndex;
}

function linesOf(token: IToken): LineIndex {
  const lines = (token as Partial<IndexedToken>).lines;
  if (lines === undefined) throw new Error(`token ${JSON.stringify(token.image)} has no line index: only the lexer's tokens make spans`);
  return lines;
}

/** From the first character of `first` to just past the last character of `last`. */
export function tokenSpan(first: IToken, last: IToken = first): SourceSpan {
  return new SourceSpan(linesOf(first), first.startOffset, (last.endOffset ?? last.startOffset) + 1);
}

/** The empty span just before the token's first character. */
export function pointBefore(token: IToken): SourceSpan {
  return new SourceSpan(linesOf(token), token.startOffset, token.startOffset);
}

/** The empty span just past the token's last character. */
export function pointAfter(token: IToken): SourceSpan {
  const end = (token.endOffset ?? token.startOffset) + 1;
  return new SourceSpan(linesOf(token), end, end);
}

/** From the start of one span to the end of another, of the same text. */
export function spanBetween(from: SourceRange, to: SourceRange): SourceSpan {
  if (!(from instanceof SourceSpan) || !(to instanceof SourceSpan)) throw new Error("spanBetween joins the parser's spans only");
  return new SourceSpan(from.lines, from.startOffset, to.endOffset);
}
