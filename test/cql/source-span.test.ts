import { describe, expect, it } from "vitest";
import { lexCql } from "../../src/cql/lexer.js";
import { parseCql } from "../../src/cql/index.js";
import { collectSpans, moveSpan, shiftSpan, SourceSpan, spanBetween, tokenSpan } from "../../src/cql/source-span.js";

describe("SourceSpan", () => {
  it("makes its positions when read, and serialises as { start, end }", () => {
    const span = new SourceSpan(2, 5, 14, 3, 1, 30);
    expect(span.start).toStrictEqual({ line: 2, column: 5, offset: 14 });
    expect(span.end).toStrictEqual({ line: 3, column: 1, offset: 30 });
    expect(JSON.parse(JSON.stringify({ range: span }))).toStrictEqual({ range: { start: span.start, end: span.end } });
  });

  it("is compared with plain ranges by its positions in tests, and a different range still fails", () => {
    const span = new SourceSpan(1, 1, 0, 1, 7, 6);
    expect(span).toEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 7, offset: 6 } });
    expect(span).not.toEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 8, offset: 7 } });
  });

  it("spans tokens, ranges and positions alike", () => {
    const { tokens } = lexCql("SELECT a\n  FROM t");
    const [select, , from, table] = tokens;
    expect(tokenSpan(select!, table!).toJSON()).toStrictEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 2, column: 9, offset: 17 } });
    const plain = { start: { line: 2, column: 3, offset: 11 }, end: { line: 2, column: 7, offset: 15 } };
    expect(spanBetween(tokenSpan(select!), plain).toJSON()).toStrictEqual({ start: { line: 1, column: 1, offset: 0 }, end: plain.end });
    expect(spanBetween(plain.start, tokenSpan(table!)).toJSON()).toStrictEqual({ start: plain.start, end: { line: 2, column: 9, offset: 17 } });
    expect(tokenSpan(from!).toJSON()).toStrictEqual(plain);
  });

  it("ends a token that runs to a line break where the next line starts", () => {
    const { comments } = lexCql("SELECT 1 -- to the end\nFROM t");
    expect(comments[0]!.range.end).toStrictEqual({ line: 1, column: 23, offset: 22 });
    const unterminated = lexCql("SELECT 'open\n").tokens.at(-1)!;
    expect(tokenSpan(unterminated).end).toStrictEqual({ line: 2, column: 1, offset: 13 });
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
      return { inner, own: new SourceSpan(1, 1, 0, 1, 2, 1) };
    });
    const { result, spans } = outer.result.inner;
    expect(outer.spans).toEqual([outer.result.own]);
    const statement = result.statements[0]!;
    expect(spans).toContain(statement.range);

    // `cql: SELECT …` on line 4 at column 10 (offset 40): a shift; elsewhere a move.
    for (const span of spans) shiftSpan(span, 40, 4, 9);
    expect({ start: statement.range.start, end: statement.range.end }).toStrictEqual({ start: { line: 4, column: 10, offset: 40 }, end: { line: 4, column: 37, offset: 67 } });
    moveSpan(spans[0]!, new SourceSpan(7, 3, 90, 8, 5, 110));
    expect(spans[0]!.toJSON()).toStrictEqual({ start: { line: 7, column: 3, offset: 90 }, end: { line: 8, column: 5, offset: 110 } });
  });
});
