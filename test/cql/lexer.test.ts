import fc from "fast-check";
import type { IToken } from "chevrotain";
import { describe, expect, it } from "vitest";
import { createReferenceLexer, lexCql } from "../../src/cql/lexer.js";
import * as T from "../../src/cql/tokens.js";
import { generateCql } from "../../bench/generate-cql.js";

const types = (text: string) => lexCql(text).tokens.map((t) => t.tokenType.name);
const single = (text: string) => {
  const { tokens } = lexCql(text);
  expect(tokens).toHaveLength(1);
  return tokens[0]!;
};

describe("literals", () => {
  it.each([
    ["'it''s'", "StringLiteral"],
    ["'multi\nline'", "StringLiteral"],
    ["'héllo wörld ✓'", "StringLiteral"],
    ["$$ return a; $$", "DollarStringLiteral"],
    ['"Quoted ""Name"""', "QuotedIdentifier"],
    ["0xCAFEbabe", "BlobLiteral"],
    ["123e4567-e89b-12d3-a456-426614174000", "UuidLiteral"],
    ["f47ac10b-58cc-4372-a567-0e02b2c3d479", "UuidLiteral"],
    ["42", "IntegerLiteral"],
    ["1.5", "FloatLiteral"],
    ["2.", "FloatLiteral"],
    ["1e10", "FloatLiteral"],
    ["1.5E-3", "FloatLiteral"],
    ["1h30m", "DurationLiteral"],
    ["12mo", "DurationLiteral"],
    ["500ms", "DurationLiteral"],
    ["3us", "DurationLiteral"],
    ["7\u00b5s", "DurationLiteral"],
    ["P1Y2M3D", "IsoDurationLiteral"],
    ["PT2H30M", "IsoDurationLiteral"],
    ["P2W", "IsoDurationLiteral"],
    ["P0001-02-03T04:05:06", "IsoDurationLiteral"],
    ["NaN", "NAN"],
    ["Infinity", "INFINITY"],
    ["true", "TRUE"],
    ["FALSE", "FALSE"],
  ])("%s is one %s", (text, type) => {
    const token = single(text);
    expect(token.tokenType.name).toBe(type);
    expect(token.image).toBe(text);
  });

  it("does not read the `..` of a slice as a decimal point", () => {
    expect(types("c[1..5]")).toEqual(["Identifier", "LBracket", "IntegerLiteral", "Range", "IntegerLiteral", "RBracket"]);
  });

  it("keeps a minus sign as its own token (the parser makes negative literals)", () => {
    expect(types("-12")).toEqual(["Minus", "IntegerLiteral"]);
  });

  it("reads names that merely look like durations or uuids as names", () => {
    expect(types("p1 PT pt1h deadbeef")).toEqual(["Identifier", "Identifier", "Identifier", "Identifier"]);
    expect(types("3days")).toEqual(["IntegerLiteral", "Identifier"]);
  });
});

describe("keywords and names", () => {
  it("matches keywords in any case", () => {
    expect(types("select SeLeCt SELECT")).toEqual(["SELECT", "SELECT", "SELECT"]);
  });

  it("prefers the longer name over a keyword prefix", () => {
    expect(types("keyspace keyspaces keyspace_name selected order ordering select_masked")).toEqual([
      "KEYSPACE",
      "KEYSPACES",
      "Identifier",
      "Identifier",
      "ORDER",
      "Identifier",
      "SELECT_MASKED",
    ]);
  });

  it("gives unreserved keywords the Name category, reserved ones not", () => {
    const [key, select] = lexCql("key select").tokens;
    expect(T.Key.CATEGORIES).toContain(T.UnreservedKeyword);
    expect(key!.tokenType).toBe(T.Key);
    expect(select!.tokenType.CATEGORIES).not.toContain(T.UnreservedKeyword);
  });

  it("knows SCHEMA as KEYSPACE and COLUMNFAMILY as TABLE", () => {
    expect(T.Schema.CATEGORIES).toContain(T.Keyspace);
    expect(T.ColumnFamily.CATEGORIES).toContain(T.Table);
  });
});

describe("comments", () => {
  it("collects the three styles with their text and ranges", () => {
    const { tokens, comments } = lexCql("-- dash\nSELECT // slash\n/* block\n  comment */ 1");
    expect(tokens.map((t) => t.image)).toEqual(["SELECT", "1"]);
    expect(comments.map((c) => [c.style, c.text])).toEqual([
      ["--", "dash"],
      ["//", "slash"],
      ["/*", "block\n  comment"],
    ]);
    expect(comments[2]!.range).toEqual({ start: { line: 3, column: 1, offset: 24 }, end: { line: 4, column: 13, offset: 45 } });
  });

  it("keeps suppression comments verbatim", () => {
    const { comments } = lexCql("-- cql-review-disable-next-line table-unbounded-partition -- reason here\n");
    expect(comments[0]!.text).toBe("cql-review-disable-next-line table-unbounded-partition -- reason here");
  });
});

describe("positions", () => {
  it("counts lines across \\n, \\r\\n and \\r, and columns in characters (a tab is one)", () => {
    const tokens = lexCql("a\r\n\tb\rc\n  d").tokens;
    expect(tokens.map((t) => [t.image, t.startLine, t.startColumn, t.startOffset])).toEqual([
      ["a", 1, 1, 0],
      ["b", 2, 2, 4],
      ["c", 3, 1, 6],
      ["d", 4, 3, 10],
    ]);
  });

  it("ends multi-line tokens on their last line", () => {
    const [, string, after] = lexCql("x 'one\r\ntwo' y").tokens;
    expect([string!.endLine, string!.endColumn]).toEqual([2, 4]);
    expect([after!.startLine, after!.startColumn]).toEqual([2, 6]);
  });

  it("does not count a byte order mark as a column, but keeps true offsets", () => {
    const [create, table] = lexCql("\uFEFFCREATE TABLE").tokens;
    expect([create!.startColumn, create!.endColumn, create!.startOffset]).toEqual([1, 6, 1]);
    expect([table!.startColumn, table!.startOffset]).toEqual([8, 8]);
  });
});

describe("bad input", () => {
  it("turns characters no token starts with into one token per run", () => {
    const tokens = lexCql("a #!@ b ${x}").tokens;
    expect(tokens.map((t) => [t.tokenType.name, t.image])).toEqual([
      ["Identifier", "a"],
      ["UnknownCharacters", "#!@"],
      ["Identifier", "b"],
      ["UnknownCharacters", "$"],
      ["LBrace", "{"],
      ["Identifier", "x"],
      ["RBrace", "}"],
    ]);
  });

  it.each([
    ["'never closed\nSELECT 1;", "UnterminatedString"],
    ["$$ never closed", "UnterminatedDollarString"],
    ['"never closed', "UnterminatedQuotedIdentifier"],
    ["/* never closed\nSELECT 1;", "UnterminatedBlockComment"],
  ])("keeps an unterminated %j as one token to the end", (text, type) => {
    const tokens = lexCql(`x ${text}`).tokens;
    expect(tokens.map((t) => t.tokenType.name)).toEqual(["Identifier", type]);
    expect(tokens[1]!.endOffset).toBe(text.length + 1);
  });
});

// The hand-written scanner must produce exactly what chevrotain's lexer produces from the token
// patterns in tokens.ts.
describe("agreement with the reference lexer", () => {
  const reference = createReferenceLexer();
  const key = (t: IToken) => [t.tokenType.name, t.image, t.startOffset, t.endOffset, t.startLine, t.endLine, t.startColumn, t.endColumn].join("|");

  function expectAgreement(text: string): void {
    const fast = lexCql(text);
    const expected = reference.tokenize(text);
    const expectedTokens = [...expected.tokens, ...(expected.groups["unterminated"] ?? [])].sort((a, b) => a.startOffset - b.startOffset);
    expect(fast.tokens.filter((t) => t.tokenType !== T.UnknownCharacters).map(key)).toEqual(expectedTokens.map(key));
    expect(fast.tokens.filter((t) => t.tokenType === T.UnknownCharacters).map((t) => [t.startOffset, t.image.length, t.startLine, t.startColumn])).toEqual(
      expected.errors.map((e) => [e.offset, e.length, e.line, e.column]),
    );
    expect(fast.comments.map((c) => c.range.start.offset)).toEqual((expected.groups["comments"] ?? []).map((t) => t.startOffset));
  }

  it("on a generated schema", () => {
    expectAgreement(generateCql(60_000, 7).text);
  });

  it("on every keyword in lower, upper and mixed case, and on names one character longer", () => {
    // The scanner finds one-case keywords by a hash of the word (tokens.ts keywordInText).
    const words = T.keywordTokens.map((token) => (token.PATTERN as RegExp).source);
    const forms = words.flatMap((word) => [word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1), `${word}s`, `${word.toUpperCase()}_X`, `x${word}`]);
    expectAgreement(forms.join(" "));
    const lexed = lexCql(forms.join(" ")).tokens;
    expect(lexed.map((token) => token.image)).toEqual(forms);
  });

  it("on random text from CQL's alphabet", () => {
    const pieces = [
      "SELECT", "select_x", "key", "KEYSPACE", "p1", "P1D", "PT2H", "1h", "1d5", "12", "1.5", "1..2", "1e5", "0x", "0xAF", "'", "''", "\"", "$$", "$", "--", "//",
      "/*", "*/", "-", "-=", "+=", "!=", "!", "<=", ">=", "<", ">", "=", ".", "..", ",", ";", "(", ")", "{", "}", "[", "]", "?", ":", "#", "é", "_",
      " ", "\t", "\n", "\r\n", "\r", "123e4567-e89b-12d3-a456-426614174000", "abcdef12-", "\u00b5s",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        expectAgreement(parts.join(""));
      }),
      { seed: 20240601, numRuns: 300 },
    );
  });
});
