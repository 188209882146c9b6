import { describe, expect, it } from "vitest";
import { lexCql } from "../../src/cql/lexer.js";
import { parseCql } from "../../src/cql/index.js";
import { collectSpans, LineIndex, moveSpan, pointAfter, pointBefore, shiftSpan, SourceSpan, spanBetween, tokenSpan } from "../../src/cql/source-span.js";

// "ab\ncd\r\nef": lines start at 0, 3 and 7.
const lines = new LineIndex([0, 3, 7]);

describe("LineIndex", () => {
  it("gives the line and column of an offset: a line break belongs to the line it ends", () => {
    expect([0, 2, 3, 4, 6, 7, 9].map((offset) => lines.position(offset))).toStrictEqual([
      { line: 1, column: 1, offset: 0 },
      { line: 1, column: 3, offset: 2 },
      { line: 2, column: 1, offset: 3 },
      { line: 2, column: 2, offset: 4 },
      { line: 2, column: 4, offset: 6 },
      { line: 3, column: 1, offset: 7 },
      { line: 3, column: 3, offset: 9 },
    ]);
  });

  it("takes a byte order mark's column off line 1 only, and answers line 0 before any line start", () => {
    const withMark = new LineIndex([0, 5], 1);
    expect(withMark.position(1)).toStrictEqual({ line: 1, column: 1, offset: 1 });
    expect(withMark.position(6)).toStrictEqual({ line: 2, column: 2, offset: 6 });
    expect(new LineIndex([]).position(4)).toStrictEqual({ line: 0, column: 4, offset: 4 });
  });
});

describe("SourceSpan", () => {
  it("makes its positions when read, and serialises as { start, end }", () => {
    const span = new SourceSpan(lines, 4, 7);
    expect(span.start).toStrictEqual({ line: 2, column: 2, offset: 4 });
    expect(span.end).toStrictEqual({ line: 3, column: 1, offset: 7 });
    expect(JSON.parse(JSON.stringify({ range: span }))).toStrictEqual({ range: { start: span.start, end: span.end } });
  });

  it("is compared with plain ranges by its positions in tests, and a different range still fails", () => {
    const span = new SourceSpan(lines, 0, 2);
    expect(span).toEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 3, offset: 2 } });
    expect(span).not.toEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 4, offset: 3 } });
  });

  it("spans tokens, and joins spans of the same text", () => {
    const { tokens } = lexCql("SELECT a\n  FROM t");
    const [select, a, from, table] = tokens;
    expect(tokenSpan(select!, table!)).toEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 2, column: 9, offset: 17 } });
    expect(tokenSpan(from!)).toEqual({ start: { line: 2, column: 3, offset: 11 }, end: { line: 2, column: 7, offset: 15 } });
    expect(spanBetween(tokenSpan(a!), tokenSpan(table!))).toEqual({ start: { line: 1, column: 8, offset: 7 }, end: { line: 2, column: 9, offset: 17 } });
    expect(pointAfter(a!)).toEqual({ start: { line: 1, column: 9, offset: 8 }, end: { line: 1, column: 9, offset: 8 } });
    expect(pointBefore(from!).end).toStrictEqual({ line: 2, column: 3, offset: 11 });
    expect(() => spanBetween(tokenSpan(a!), { start: lines.position(0), end: lines.position(1) })).toThrow(/parser's spans only/);
  });

  it("ends a token that runs to a line break where the next line starts", () => {
    const { comments } = lexCql("SELECT 1 -- to the end\nFROM t");
    expect(comments[0]!.range.end).toStrictEqual({ line: 1, column: 23, offset: 22 });
    const unterminated = lexCql("SELECT 'open\r\n").tokens.at(-1)!;
    expect(tokenSpan(unterminated).end).toStrictEqual({ line: 2, column: 1, offset: 14 });
  });

  it("is what the parser puts on nodes: one object per range, not three", () => {
    const [statement] = parseCql("CREATE TABLE ks.t (id int PRIMARY KEY)").statements;
    if (statement?.kind !== "create-table") throw new Error("expected a table");
    expect(statement.range).toBeInstanceOf(SourceSpan);
    expect(statement.columns[0]!.range).toBeInstanceOf(SourceSpan);
    expect(statement.name.range.start).toStrictEqual({ line: 1, column: 14, offset: 13 });
  });

  it("collects the spans a parse makes, so text parsed out of place can be moved in one pass", () => {
    const outer = collectSpans(() => {
      const inner = collectSpans(() => parseCql("SELECT a FROM t WHERE k = ?"));
      return { inner, own: new SourceSpan(lines, 0, 1) };
    });
    const { result, spans } = outer.result.inner;
    expect(outer.spans).toEqual([outer.result.own]);
    const statement = result.statements[0]!;
    expect(spans).toContain(statement.range);

    // `cql: SELECT …` written at offset 40 of a manifest whose line 4 starts at offset 31.
    const manifestLines = new LineIndex([0, 10, 20, 31, 80]);
    for (const span of spans) shiftSpan(span, 40, manifestLines);
    expect({ start: statement.range.start, end: statement.range.end }).toStrictEqual({ start: { line: 4, column: 10, offset: 40 }, end: { line: 4, column: 37, offset: 67 } });
    moveSpan(spans[0]!, new SourceSpan(manifestLines, 82, 85));
    expect(spans[0]!.toJSON()).toStrictEqual({ start: { line: 5, column: 3, offset: 82 }, end: { line: 5, column: 6, offset: 85 } });
  });
});
