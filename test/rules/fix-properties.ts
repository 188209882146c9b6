// Shared by the fix property tests: schema texts laid out the ways real files are (trailing
// comments of every kind, odd spacing, CRLF line ends), and the properties every fix must keep:
// the fixed file parses, the finding goes away, the text outside the fix's range is where it was,
// and no comment of the file is lost.
import fc from "fast-check";
import { expect } from "vitest";
import { parseCql } from "../../src/cql/index.js";
import type { Fix } from "../../src/findings.js";
import type { RuleModule } from "../../src/rule-engine/types.js";
import { applyFixes, runRule, type RuleTestCase } from "../rule-tester.js";

// Comment words include the characters a careless edit would trip on: commas, parentheses, quotes.
const word = fc.stringMatching(/^[a-z0-9,()'.;:-]{1,12}$/);
const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(" "));
export const trailingComment = fc.oneof(
  fc.constant(""),
  words.map((w) => ` -- ${w}`),
  words.map((w) => ` // ${w}`),
  words.map((w) => ` /* ${w} */`),
);
export const blank = fc.constantFrom(" ", "  ", "\t", " \t ");
export const indent = fc.constantFrom("", " ", "  ", "    ", "\t");
export const lineEnd = fc.constantFrom("\n", "\r\n");

/** One line of a statement: its tokens (joined by odd blanks), and whether it may end in a comment. */
export interface LaidLine {
  tokens: string[];
  /** false on a line whose end a line comment would swallow (e.g. the last key column before the key) */
  comment?: boolean;
}

/** The lines laid out with random indents, blanks between tokens, trailing comments and line ends. */
export function laidOut(lines: readonly LaidLine[]): fc.Arbitrary<string> {
  const line = (l: LaidLine) =>
    fc
      .record({ pad: indent, gaps: fc.array(blank, { minLength: l.tokens.length, maxLength: l.tokens.length }), comment: l.comment === false ? fc.constant("") : trailingComment })
      .map(({ pad, gaps, comment }) => `${pad}${l.tokens.map((t, i) => (i === 0 ? t : `${gaps[i]}${t}`)).join("")}${comment}`);
  return fc.tuple(fc.tuple(...lines.map(line)), lineEnd).map(([texts, eol]) => `${texts.join(eol)}${eol}`);
}

/** The comments of a CQL text (the generated texts hold no `--`, `//` or `/*` inside strings). */
function lineComments(cql: string): string[] {
  return [...cql.matchAll(/--[^\r\n]*|\/\/[^\r\n]*|\/\*[\s\S]*?\*\//g)].map((m) => m[0]);
}

function syntaxErrors(cql: string) {
  return parseCql(cql).diagnostics.filter((d) => d.code === "cql-syntax-error");
}

/**
 * Checks one generated case: the text parses, the rule reports `messageId` with exactly one fix in
 * the schema file; applied, it leaves everything outside its range and every comment in place,
 * keeps the file's line ends, parses, and the finding is gone.
 */
export function expectCleanFix(rule: RuleModule, testCase: RuleTestCase & { cql: string }, messageId: string): Fix {
  const { cql } = testCase;
  expect(syntaxErrors(cql)).toEqual([]);
  const fixes = runRule(rule, testCase).findings.filter((f) => f.messageId === messageId && f.fix);
  expect(fixes).toHaveLength(1);
  const fix = fixes[0]!.fix!;
  const fixed = applyFixes(cql, [fix]);

  const start = fix.range.start.offset;
  const end = fix.range.end.offset;
  expect(fixed.slice(0, start)).toBe(cql.slice(0, start));
  expect(fixed.slice(fixed.length - (cql.length - end))).toBe(cql.slice(end));
  // A comment inside the range is written back by the replacement, never dropped.
  for (const comment of lineComments(cql.slice(start, end))) expect(fix.replacement).toContain(comment);
  if (cql.includes("\r\n")) expect(fix.replacement.replace(/\r\n/g, "")).not.toContain("\n");

  expect(syntaxErrors(fixed)).toEqual([]);
  expect(runRule(rule, { ...testCase, cql: fixed }).findings.filter((f) => f.messageId === messageId)).toEqual([]);
  return fix;
}
