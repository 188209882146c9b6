// CQL written inside the manifest: parse it with the project's parser and move every position
// (diagnostics and AST ranges) from "offset in the CQL text" to "line and column in the manifest".
//
// How exact the mapping is depends on how the YAML scalar is written:
// - plain and literal block (`|`) scalars: exact, character for character;
// - single- and double-quoted scalars: exact, escapes (`''`, `\"`, `\n`, `\u00e9` …) included,
//   except that a line break folded into a space maps to the end of the line it replaces;
// - folded block scalars (`>`): each line's text is exact; a folded line break maps to the end of
//   the line it replaces.
// A value reached through an alias or a merge key has no text of its own: every position maps to
// the place the alias is written.
import type { SourceRange } from "../cql/ast.js";
import type { ParseResult } from "../cql/ast.js";
import { parseCql } from "../cql/index.js";
import { collectSpans, moveSpan, shiftSpan, type SourceSpan } from "../cql/source-span.js";
import type { PositionedYaml, YamlPath } from "./yaml-positions.js";

export interface EmbeddedCqlParse {
  /** the parse result with every range in manifest coordinates */
  result: ParseResult;
  /** the whole scalar in the manifest */
  range: SourceRange;
}

/** Parses `text`, the value at `path`, and maps its positions into the manifest. Never throws. */
export function parseEmbeddedCql(yaml: PositionedYaml, path: YamlPath, text: string): EmbeddedCqlParse {
  const scalar = yaml.scalarAt(path);
  const range = scalar?.range ? yaml.range(scalar.range[0], scalar.range[1]) : yaml.locate(path);
  let parsed: { result: ParseResult; spans: SourceSpan[] };
  try {
    parsed = collectSpans(() => parseCql(text));
  } catch (error) {
    // parseCql promises never to throw; if it ever does, the manifest review still goes on.
    const message = error instanceof Error ? error.message : String(error);
    const result: ParseResult = { statements: [], diagnostics: [{ code: "cql-syntax-error", severity: "error", message: `the CQL could not be parsed (${message})`, range }], comments: [] };
    return { result, range };
  }
  // Every range of the result (nodes, clauses, diagnostics, comments) is one of the spans made
  // while parsing; each is moved once, in place, before anyone reads it.
  const start = scalar?.range?.[0];
  if (start !== undefined && typeof scalar?.value === "string" && isVerbatimLine(yaml.text, start, text)) {
    // The usual `cql: SELECT …` on one line: the value is the source, shifted.
    for (const span of parsed.spans) shiftSpan(span, start, yaml.lines);
  } else {
    const toFile = offsetMapper(yaml, path, text);
    for (const span of parsed.spans) {
      const from = toFile(span.startOffset);
      const to = span.endOffset > span.startOffset ? toFile(span.endOffset - 1) + 1 : from;
      moveSpan(span, yaml.range(from, Math.max(from, to)));
    }
  }
  return { result: parsed.result, range };
}

/** Whether `value` is written as is at `start`, within one line. */
function isVerbatimLine(source: string, start: number, value: string): boolean {
  if (!source.startsWith(value, start)) return false;
  // A loop, not a regex: this runs for every query and write, on short texts.
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x0a || code === 0x0d) return false;
  }
  return true;
}

/** A function from an offset in the scalar's value to an offset in the manifest text. */
export function offsetMapper(yaml: PositionedYaml, path: YamlPath, value: string): (offset: number) => number {
  const scalar = yaml.scalarAt(path);
  const fallback = scalar?.range?.[0] ?? yaml.locate(path).start.offset;
  if (!scalar?.range || typeof scalar.value !== "string") return () => fallback;
  const [start, end] = scalar.range;
  const map = alignValueToSource(value, yaml.text, start, end, scalar.type);
  return (offset) => {
    if (offset <= 0) return map[0] ?? fallback;
    if (offset >= value.length) return offset === value.length ? (map[value.length - 1] ?? fallback) + 1 : end;
    return map[offset]!;
  };
}

const WHITESPACE = /[ \t\r\n]/;

/**
 * For each character of `value`, the offset in `source[start, end)` it was read from. Walks both
 * texts once: characters that YAML removed (quotes, indentation, escape backslashes, the block
 * header) are skipped in the source; line breaks folded into spaces pair with the break.
 */
export function alignValueToSource(value: string, source: string, start: number, end: number, type: string | undefined): number[] {
  const map = new Array<number>(value.length);
  let j = start;
  if (type === "BLOCK_LITERAL" || type === "BLOCK_FOLDED") {
    const header = source.indexOf("\n", start);
    j = header === -1 || header >= end ? end : header + 1;
  } else if (type === "QUOTE_DOUBLE" || type === "QUOTE_SINGLE") {
    j = start + 1;
  }
  let i = 0;
  while (i < value.length && j < end) {
    const c = source[j]!;
    if (type === "QUOTE_DOUBLE" && c === "\\") {
      const consumed = doubleQuotedEscape(source, j, end);
      if (consumed.produces === 0) {
        j += consumed.length; // an escaped line break: joins the lines, produces nothing
        while (j < end && (source[j] === " " || source[j] === "\t")) j++;
        continue;
      }
      for (let k = 0; k < consumed.produces && i < value.length; k++) map[i++] = j;
      j += consumed.length;
      continue;
    }
    if (type === "QUOTE_SINGLE" && c === "'" && source[j + 1] === "'" && value[i] === "'") {
      map[i++] = j;
      j += 2;
      continue;
    }
    if (value[i] === c || (WHITESPACE.test(value[i]!) && (c === "\n" || c === "\r"))) {
      map[i++] = j++;
      continue;
    }
    j++;
  }
  // Anything left unmatched (it should not happen) points at the end of the scalar.
  for (; i < value.length; i++) map[i] = Math.max(start, end - 1);
  return map;
}

/** Length in the source of the escape at `at`, and how many UTF-16 units of value it produces. */
function doubleQuotedEscape(source: string, at: number, end: number): { length: number; produces: number } {
  const next = source[at + 1];
  if (next === undefined || at + 1 >= end) return { length: 1, produces: 1 };
  if (next === "\n") return { length: 2, produces: 0 };
  if (next === "\r") return { length: source[at + 2] === "\n" ? 3 : 2, produces: 0 };
  const hexDigits = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
  if (hexDigits > 0) {
    const code = Number.parseInt(source.slice(at + 2, at + 2 + hexDigits), 16);
    return { length: 2 + hexDigits, produces: Number.isFinite(code) && code > 0xffff ? 2 : 1 };
  }
  return { length: 2, produces: 1 };
}
