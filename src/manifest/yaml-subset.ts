// A fast reader for the plain YAML that manifests and configs are written in: block mappings and
// lists, plain and one-line quoted scalars, `|`/`>` block scalars (clip or strip), comments, and
// one-line flow lists and mappings. The `yaml` package reads about 2 MB/s, which made it a third
// of a large review; this reader is a single pass over the text.
//
// It answers only when it is sure to produce what the `yaml` package would: the same data (YAML
// 1.2 core schema) and the same key and value offsets. At the first thing outside the subset
// (anchors, aliases, tags, directives, `---`, `? ` keys, multi-line plain or quoted scalars,
// keys that are not plain strings, duplicate or `__proto__` keys, tabs, carriage returns …) it
// gives up and returns undefined, and the caller reads the file with the full parser, which also
// owns every diagnostic. test/manifest/yaml-subset.test.ts compares the two on generated files.
import type { PositionedScalar } from "./yaml-positions.js";

export interface SubsetDocument {
  data: unknown;
  /** every key and list item, with its offsets */
  index: SubsetIndex;
}

/** Thrown inside the reader to give up; never escapes readYamlSubset. */
class OutsideSubset {}
const OUTSIDE = new OutsideSubset();

const SPACE = 0x20;
const NEWLINE = 0x0a;
const HASH = 0x23;
const DASH = 0x2d;
const COLON = 0x3a;
const COMMA = 0x2c;
const QUOTE_SINGLE = 0x27;
const QUOTE_DOUBLE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;

/**
 * Characters the reader accepts anywhere: printable ASCII, line feeds, and Unicode text. Tabs,
 * carriage returns, control characters, NEL, the line and paragraph separators and the byte-order
 * mark each have rules of their own in YAML; files holding them go to the full parser.
 */
const OUTSIDE_CHARACTERS = /[^\n\x20-\x7e\u00a0-\u2027\u202a-\ufefe\uff00-\uffff]/;

/** A plain scalar cannot start with these (YAML 1.2 §7.3.3 c-indicator); `-` is checked apart. */
function isIndicator(code: number): boolean {
  switch (code) {
    case 0x3f: // ?
    case COLON:
    case COMMA:
    case OPEN_SQUARE:
    case CLOSE_SQUARE:
    case OPEN_CURLY:
    case CLOSE_CURLY:
    case HASH:
    case 0x26: // &
    case 0x2a: // *
    case 0x21: // !
    case 0x7c: // |
    case 0x3e: // >
    case QUOTE_SINGLE:
    case QUOTE_DOUBLE:
    case 0x25: // %
    case 0x40: // @
    case 0x60: // `
      return true;
    default:
      return false;
  }
}

function isFlowIndicator(code: number): boolean {
  return code === COMMA || code === OPEN_SQUARE || code === CLOSE_SQUARE || code === OPEN_CURLY || code === CLOSE_CURLY;
}

// The YAML 1.2 core schema (§10.3.2), in the order the `yaml` package tries its tags.
const CORE_NULL = /^(?:~|[Nn]ull|NULL)$/;
const CORE_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const CORE_INT_OCTAL = /^0o[0-7]+$/;
const CORE_INT = /^[-+]?[0-9]+$/;
const CORE_INT_HEX = /^0x[0-9a-fA-F]+$/;
const CORE_FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const CORE_FLOAT_EXPONENT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const CORE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** The value of a plain scalar under the core schema. */
export function resolvePlainScalar(text: string): unknown {
  const first = text.charCodeAt(0);
  if (first >= 0x30 && first <= 0x39) {
    // Most plain values starting with a digit are counts or figures such as `300/s` and `365d`.
    const digits = leadingDigits(text);
    if (digits === text.length && digits <= 15) return wholeNumber(text); // as parseInt, exact to 15 digits
    if (!mayBeNumber(text, digits)) return text;
  } else if (!"~nNtTfF+-.".includes(text[0]!)) {
    return text; // only these first characters can start a null, a boolean or a number
  }
  if (CORE_NULL.test(text)) return null;
  if (CORE_BOOL.test(text)) return first === 0x74 || first === 0x54;
  if (CORE_INT_OCTAL.test(text)) return parseInt(text.slice(2), 8);
  if (CORE_INT.test(text)) return parseInt(text, 10);
  if (CORE_INT_HEX.test(text)) return parseInt(text.slice(2), 16);
  if (CORE_FLOAT_SPECIAL.test(text)) {
    if (text.slice(-3).toLowerCase() === "nan") return NaN;
    return first === DASH ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (CORE_FLOAT_EXPONENT.test(text) || CORE_FLOAT.test(text)) return parseFloat(text);
  return text;
}

function leadingDigits(text: string): number {
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code < 0x30 || code > 0x39) break;
    at++;
  }
  return at;
}

function wholeNumber(digits: string): number {
  let value = 0;
  for (let at = 0; at < digits.length; at++) value = value * 10 + (digits.charCodeAt(at) - 0x30);
  return value;
}

/**
 * Whether the rest of a text starting with a digit holds only characters the core schema's
 * numbers use (`0x1F`, `0o17`, `1.5e-3`): any other (`/`, `_`, a space) makes it text.
 */
function mayBeNumber(text: string, from: number): boolean {
  for (let at = from; at < text.length; at++) {
    // | 0x20 lower-cases letters; the few other characters it lets through go to the patterns.
    const code = text.charCodeAt(at) | 0x20;
    const isDigit = code >= 0x30 && code <= 0x39;
    const isHexLetter = code >= 0x61 && code <= 0x66;
    if (!isDigit && !isHexLetter && code !== 0x2e && code !== 0x2b && code !== 0x2d && code !== 0x78 && code !== 0x6f) return false;
  }
  return true;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};

interface ScalarRead {
  value: unknown;
  start: number;
  end: number;
  type: NonNullable<PositionedScalar["type"]>;
}

interface NodeRead {
  value: unknown;
  start: number;
  /** where the node's range ends (see readYamlSubset on block collections) */
  end: number;
  /** the start of the next content line after the node, or the text's length */
  next: number;
}

/**
 * Reads `text` if it lies inside the subset, else undefined. A block collection's end offset is
 * the end of its last value's line, where the full parser's may also cover comment lines after
 * it; locate() reads a range only up to its first line break, so what it reports is the same.
 */
export function readYamlSubset(text: string, maxDepth: number): SubsetDocument | undefined {
  if (OUTSIDE_CHARACTERS.test(text)) return undefined;
  const reader = new SubsetReader(text, maxDepth);
  try {
    return reader.read();
  } catch (error) {
    if (error === OUTSIDE) return undefined;
    throw error;
  }
}

const KNOWN_KEY_SLOTS = 512;

class SubsetReader {
  private readonly length: number;
  /** Where the key blockKey last read ends, and where its colon does: one result object less per key. */
  private keyEnd = 0;
  private keyAfter = 0;
  /** Plain key names read so far, by a hash of their text (see plainKeyName). */
  private readonly knownKeys = new Array<string | undefined>(KNOWN_KEY_SLOTS).fill(undefined);
  readonly index: SubsetIndex;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {
    this.length = text.length;
    // About one node per ten characters in manifests; the index grows if there are more.
    this.index = new SubsetIndex(text.length >> 3);
  }

  read(): SubsetDocument {
    const first = this.nextContentLine(0);
    if (first >= this.length) throw OUTSIDE; // empty or only comments: the full reader says so
    const root = this.index.add(NO_NODE, "", -1, -1);
    const read = this.blockCollection(first, this.indentAt(first), root, 0);
    if (read.next < this.length) throw OUTSIDE; // content less indented than the root
    return { data: read.value, index: this.index };
  }

  // ---- lines ----

  private indentAt(lineStart: number): number {
    let at = lineStart;
    while (this.text.charCodeAt(at) === SPACE) at++;
    return at - lineStart;
  }

  /** The offset after the line break that ends the line holding `at`, or the text's length. */
  private afterLine(at: number): number {
    const newline = this.text.indexOf("\n", at);
    return newline === -1 ? this.length : newline + 1;
  }

  /** The start of the first line at or after `lineStart` that is neither blank nor a comment. */
  private nextContentLine(lineStart: number): number {
    const { text, length } = this;
    let line = lineStart;
    while (line < length) {
      let at = line;
      while (text.charCodeAt(at) === SPACE) at++;
      if (at >= length) return length;
      const code = text.charCodeAt(at);
      if (code === NEWLINE) {
        line = at + 1;
        continue;
      }
      if (code === HASH) {
        line = this.afterLine(at);
        continue;
      }
      if (at === line && (text.startsWith("---", at) || text.startsWith("...", at) || code === 0x25)) {
        throw OUTSIDE; // document markers and directives
      }
      return line;
    }
    return length;
  }

  /**
   * After a value on one line: only spaces and a comment (after a space) may follow. Returns the
   * offset after the line break.
   */
  private endOfValueLine(at: number): number {
    const { text } = this;
    let position = at;
    while (text.charCodeAt(position) === SPACE) position++;
    if (position >= this.length) return this.length;
    const code = text.charCodeAt(position);
    if (code === NEWLINE) return position + 1;
    if (code === HASH && position > at) return this.afterLine(position);
    throw OUTSIDE;
  }

  // ---- block collections ----
  // Each method reads the value of `node` (created by its parent under its key or position) and
  // fills in its range, its scalar and its children.

  private blockCollection(lineStart: number, indent: number, node: number, depth: number): NodeRead {
    if (depth >= this.maxDepth) throw OUTSIDE;
    const at = lineStart + indent;
    const read = this.isListItem(at) ? this.blockList(lineStart, indent, node, depth) : this.blockMap(at, indent, node, depth);
    this.index.setRange(node, read.start, read.end);
    return read;
  }

  private isListItem(at: number): boolean {
    if (this.text.charCodeAt(at) !== DASH) return false;
    const next = this.text.charCodeAt(at + 1);
    return at + 1 >= this.length || next === SPACE || next === NEWLINE;
  }

  /** A mapping whose first key is at `firstKey` and whose other keys start lines at `indent`. */
  private blockMap(firstKey: number, indent: number, node: number, depth: number): NodeRead {
    const map: Record<string, unknown> = {};
    this.index.setKind(node, KIND_MAP);
    let keyAt = firstKey;
    let end = firstKey;
    for (;;) {
      const name = this.blockKey(keyAt);
      if (Object.prototype.hasOwnProperty.call(map, name)) throw OUTSIDE; // the full reader reports duplicates
      const entry = this.index.add(node, name, keyAt, this.keyEnd);
      const value = this.mapValue(this.keyAfter, indent, entry, depth);
      map[name] = value.value;
      end = value.end;
      const line = value.next;
      if (line >= this.length) return { value: map, start: firstKey, end, next: line };
      const lineIndent = this.indentAt(line);
      if (lineIndent < indent) return { value: map, start: firstKey, end, next: line };
      if (lineIndent > indent) throw OUTSIDE;
      keyAt = line + lineIndent;
      if (this.isListItem(keyAt)) return { value: map, start: firstKey, end, next: line }; // the enclosing list's next item
    }
  }

  /** The value after `key:`; `after` is the offset after the colon. */
  private mapValue(after: number, indent: number, node: number, depth: number): NodeRead {
    const { text } = this;
    let at = after;
    while (text.charCodeAt(at) === SPACE) at++;
    const code = text.charCodeAt(at);
    if (at >= this.length || code === NEWLINE || code === HASH) {
      const next = this.nextContentLine(this.afterLine(at));
      if (next < this.length) {
        const nextIndent = this.indentAt(next);
        // A nested collection, or a list at the key's own indentation (`key:\n- item`).
        if (nextIndent > indent || (nextIndent === indent && this.isListItem(next + nextIndent))) {
          return this.blockCollection(next, nextIndent, node, depth + 1);
        }
      }
      // An empty value: the full reader's range for it also covers a comment after it.
      if (code === HASH) throw OUTSIDE;
      this.index.setScalar(node, at, at, null, "PLAIN");
      return { value: null, start: at, end: at, next };
    }
    return this.inlineValue(at, indent, node, depth);
  }

  private blockList(lineStart: number, indent: number, node: number, depth: number): NodeRead {
    const { text } = this;
    const list: unknown[] = [];
    this.index.setKind(node, KIND_LIST);
    const start = lineStart + indent;
    let line = lineStart;
    let end = start;
    for (;;) {
      const dash = line + indent;
      const itemIndex = this.index.add(node, "", -1, -1);
      let at = dash + 1;
      while (text.charCodeAt(at) === SPACE) at++;
      const code = text.charCodeAt(at);
      let item: NodeRead;
      if (at >= this.length || code === NEWLINE || code === HASH) {
        const next = this.nextContentLine(this.afterLine(at));
        const nextIndent = next < this.length ? this.indentAt(next) : -1;
        if (nextIndent > indent) {
          item = this.blockCollection(next, nextIndent, itemIndex, depth + 1);
        } else {
          if (code === HASH) throw OUTSIDE; // as for an empty mapping value
          this.index.setScalar(itemIndex, at, at, null, "PLAIN");
          item = { value: null, start: at, end: at, next };
        }
      } else if (this.isListItem(at)) {
        throw OUTSIDE; // `- - item`
      } else if (this.startsKey(at)) {
        // `- key: value`: a mapping whose keys line up with this first one.
        if (depth + 1 >= this.maxDepth) throw OUTSIDE;
        item = this.blockMap(at, at - line, itemIndex, depth + 1);
        this.index.setRange(itemIndex, item.start, item.end);
      } else {
        item = this.inlineValue(at, indent, itemIndex, depth);
      }
      list.push(item.value);
      end = item.end;
      line = item.next;
      if (line >= this.length) break;
      const lineIndent = this.indentAt(line);
      if (lineIndent < indent) break;
      if (lineIndent > indent) throw OUTSIDE;
      if (!this.isListItem(line + lineIndent)) break; // a key of the mapping that holds this list
    }
    return { value: list, start, end, next: line };
  }

  // ---- keys ----

  /** Whether the text at `at` (inside a list item) is a mapping key followed by `:`. */
  private startsKey(at: number): boolean {
    const { text } = this;
    const code = text.charCodeAt(at);
    if (code === QUOTE_SINGLE || code === QUOTE_DOUBLE) {
      const closed = code === QUOTE_SINGLE ? this.singleQuotedEnd(at) : this.doubleQuotedEnd(at);
      return text.charCodeAt(closed) === COLON;
    }
    if (isIndicator(code)) return false; // a flow collection or block scalar, or outside the subset
    const lineEnd = this.afterLine(at);
    for (let position = at; position < lineEnd; position++) {
      const c = text.charCodeAt(position);
      if (c === HASH && text.charCodeAt(position - 1) === SPACE) return false;
      if (c === COLON) {
        const next = text.charCodeAt(position + 1);
        if (position + 1 >= this.length || next === SPACE || next === NEWLINE) return true;
      }
    }
    return false;
  }

  /**
   * A block mapping key and its colon; anything but a plain or quoted string key gives up. Returns
   * the name, and leaves the key's end and the offset after the colon in keyEnd and keyAfter.
   */
  private blockKey(at: number): string {
    const { text } = this;
    const code = text.charCodeAt(at);
    if (code === QUOTE_SINGLE || code === QUOTE_DOUBLE) {
      const scalar = code === QUOTE_SINGLE ? this.singleQuoted(at) : this.doubleQuoted(at);
      if (text.charCodeAt(scalar.end) !== COLON) throw OUTSIDE;
      const afterColon = text.charCodeAt(scalar.end + 1);
      if (scalar.end + 1 < this.length && afterColon !== SPACE && afterColon !== NEWLINE) throw OUTSIDE;
      const name = scalar.value as string;
      this.checkKeyName(name);
      this.keyEnd = scalar.end;
      this.keyAfter = scalar.end + 1;
      return name;
    }
    if (isIndicator(code) || code === DASH || code === SPACE) throw OUTSIDE;
    let hash = code;
    for (let position = at + 1; position < this.length; position++) {
      const c = text.charCodeAt(position);
      if (c === NEWLINE || c === HASH) throw OUTSIDE; // a line that is not `key:`, or a key holding `#`
      if (c === COLON) {
        const next = text.charCodeAt(position + 1);
        if (position + 1 >= this.length || next === SPACE || next === NEWLINE) {
          if (text.charCodeAt(position - 1) === SPACE) throw OUTSIDE; // `key :`
          const name = this.plainKeyName(at, position, hash);
          this.keyEnd = position;
          this.keyAfter = position + 1;
          return name;
        }
      }
      hash = (Math.imul(hash, 31) + c) | 0;
    }
    throw OUTSIDE;
  }

  /**
   * The name of the plain key `text[start, end)`, whose text hashes to `hash`. A name read before
   * is given again: keys repeat (every query has an `id:`), and the same string spares a copy and
   * V8's lookup of a fresh string each time it names a property.
   */
  private plainKeyName(start: number, end: number, hash: number): string {
    const slot = hash & (KNOWN_KEY_SLOTS - 1);
    const known = this.knownKeys[slot];
    if (known !== undefined && known.length === end - start && this.text.startsWith(known, start)) return known;
    const name = this.text.slice(start, end);
    if (typeof resolvePlainScalar(name) !== "string") throw OUTSIDE; // `1:`, `true:`, `null:`
    this.checkKeyName(name);
    this.knownKeys[slot] = name;
    return name;
  }

  /** Names the full reader treats specially: merge keys, `__proto__`, and "" (pathKey([""]) is the document's own key). */
  private checkKeyName(name: string): void {
    if (name === "" || name === "<<" || name === "__proto__") throw OUTSIDE;
  }

  // ---- values on one line ----

  /**
   * A scalar or flow collection starting at `at`, on the line of its key or list dash. `indent` is
   * the indentation of the collection holding it: lines after it must not be more indented.
   */
  private inlineValue(at: number, indent: number, node: number, depth: number): NodeRead {
    const { text } = this;
    const code = text.charCodeAt(at);
    if (code === 0x7c || code === 0x3e) return this.blockScalar(at, indent, node);
    let value: unknown;
    let lineEnd: number;
    if (code === OPEN_SQUARE || code === OPEN_CURLY) {
      const flow = this.flowCollection(at, node, depth + 1);
      value = flow.value;
      lineEnd = this.endOfValueLine(flow.end);
    } else if (code === QUOTE_SINGLE || code === QUOTE_DOUBLE) {
      const scalar = code === QUOTE_SINGLE ? this.singleQuoted(at) : this.doubleQuoted(at);
      this.index.setScalar(node, scalar.start, scalar.end, scalar.value, scalar.type);
      value = scalar.value;
      lineEnd = this.endOfValueLine(scalar.end);
    } else {
      const scalar = this.blockPlain(at);
      this.index.setScalar(node, scalar.start, scalar.end, scalar.value, scalar.type);
      value = scalar.value;
      lineEnd = this.afterLine(scalar.end);
    }
    const next = this.nextContentLine(lineEnd);
    // A more indented line would continue a plain scalar over lines, or be an error.
    if (next < this.length && this.indentAt(next) > indent) throw OUTSIDE;
    return { value, start: at, end: lineEnd, next };
  }


  /** A plain scalar in block context, to the end of its line or a comment. */
  private blockPlain(at: number): ScalarRead {
    const { text } = this;
    const code = text.charCodeAt(at);
    if (isIndicator(code)) throw OUTSIDE;
    if (code === DASH) {
      const next = text.charCodeAt(at + 1);
      if (at + 1 >= this.length || next === SPACE || next === NEWLINE) throw OUTSIDE;
    }
    const newline = text.indexOf("\n", at);
    const lineEnd = newline === -1 ? this.length : newline;
    let end = lineEnd;
    for (let position = at + 1; position < lineEnd; position++) {
      const c = text.charCodeAt(position);
      if (c === HASH && text.charCodeAt(position - 1) === SPACE) {
        end = position;
        break;
      }
      if (c === COLON) {
        const next = text.charCodeAt(position + 1);
        if (position + 1 >= lineEnd || next === SPACE) throw OUTSIDE; // `a: b: c`, or a key
      }
    }
    while (text.charCodeAt(end - 1) === SPACE) end--;
    return { value: resolvePlainScalar(text.slice(at, end)), start: at, end, type: "PLAIN" };
  }


  // ---- quoted scalars (one line) ----

  /** The offset after the closing quote, or -1 when the scalar does not close on its line. */
  private singleQuotedEnd(at: number): number {
    const { text } = this;
    for (let position = at + 1; position < this.length; position++) {
      const c = text.charCodeAt(position);
      if (c === NEWLINE) return -1;
      if (c !== QUOTE_SINGLE) continue;
      if (text.charCodeAt(position + 1) === QUOTE_SINGLE) {
        position++;
        continue;
      }
      return position + 1;
    }
    return -1;
  }

  private doubleQuotedEnd(at: number): number {
    const { text } = this;
    for (let position = at + 1; position < this.length; position++) {
      const c = text.charCodeAt(position);
      if (c === NEWLINE) return -1;
      if (c === BACKSLASH) position++;
      else if (c === QUOTE_DOUBLE) return position + 1;
    }
    return -1;
  }

  private singleQuoted(at: number): ScalarRead {
    const end = this.singleQuotedEnd(at);
    if (end === -1) throw OUTSIDE;
    const value = this.text.slice(at + 1, end - 1).replaceAll("''", "'");
    return { value, start: at, end, type: "QUOTE_SINGLE" };
  }

  private doubleQuoted(at: number): ScalarRead {
    const { text } = this;
    const end = this.doubleQuotedEnd(at);
    if (end === -1) throw OUTSIDE;
    const body = text.slice(at + 1, end - 1);
    if (!body.includes("\\")) return { value: body, start: at, end, type: "QUOTE_DOUBLE" };
    let value = "";
    for (let i = 0; i < body.length; i++) {
      const c = body[i]!;
      if (c !== "\\") {
        value += c;
        continue;
      }
      const escape = body[++i];
      if (escape === undefined) throw OUTSIDE;
      const simple = SIMPLE_ESCAPES[escape];
      if (simple !== undefined) {
        value += simple;
        continue;
      }
      const digits = escape === "x" ? 2 : escape === "u" ? 4 : escape === "U" ? 8 : 0;
      const hex = body.slice(i + 1, i + 1 + digits);
      if (digits === 0 || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) throw OUTSIDE;
      const codePoint = parseInt(hex, 16);
      if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) throw OUTSIDE;
      value += String.fromCodePoint(codePoint);
      i += digits;
    }
    return { value, start: at, end, type: "QUOTE_DOUBLE" };
  }

  // ---- block scalars ----

  /**
   * `|` or `>` with clip or strip chomping and no indentation indicator, holding at least one
   * line. Folded scalars with more indented lines, and leading blank lines, go to the full reader.
   */
  private blockScalar(at: number, indent: number, node: number): NodeRead {
    const { text } = this;
    const folded = text.charCodeAt(at) === 0x3e;
    let position = at + 1;
    const strip = text.charCodeAt(position) === DASH;
    if (strip) position++;
    const contentStart = this.endOfValueLine(position);
    if (contentStart >= this.length) throw OUTSIDE;
    const contentIndent = this.indentAt(contentStart);
    const firstCode = text.charCodeAt(contentStart + contentIndent);
    if (contentIndent <= indent || contentStart + contentIndent >= this.length || firstCode === NEWLINE) throw OUTSIDE;

    // The scalar's lines: blank ones, and those indented at least as much as the first.
    const lines: { start: number; end: number }[] = [];
    let line = contentStart;
    while (line < this.length) {
      const newline = text.indexOf("\n", line);
      const lineEnd = newline === -1 ? this.length : newline;
      const lineIndent = this.indentAt(line);
      const blank = line + lineIndent >= lineEnd;
      if (!blank && lineIndent < contentIndent) break;
      lines.push({ start: line, end: lineEnd });
      line = newline === -1 ? this.length : newline + 1;
    }
    // Trailing blank lines no longer than the content's indentation are not part of it.
    while (lines.length > 0) {
      const last = lines[lines.length - 1]!;
      if (last.end - last.start > contentIndent || this.indentAt(last.start) < last.end - last.start) break;
      lines.pop();
    }
    const last = lines[lines.length - 1]!;
    const end = last.end < this.length ? last.end + 1 : this.length;

    let value = "";
    if (folded) {
      let breaks = -1; // line breaks since the last text line; -1 before the first
      for (const { start, end: lineEnd } of lines) {
        if (lineEnd - start > contentIndent && text.charCodeAt(start + contentIndent) === SPACE) throw OUTSIDE; // more indented
        if (lineEnd - start <= contentIndent) {
          breaks++;
          continue;
        }
        if (breaks >= 0) value += breaks === 0 ? " " : "\n".repeat(breaks);
        value += text.slice(start + contentIndent, lineEnd);
        breaks = 0;
      }
    } else {
      value = lines.map(({ start, end: lineEnd }) => (lineEnd - start > contentIndent ? text.slice(start + contentIndent, lineEnd) : "")).join("\n");
    }
    if (!strip) value += "\n";

    const type = folded ? "BLOCK_FOLDED" : "BLOCK_LITERAL";
    this.index.setScalar(node, at, end, value, type);
    const next = this.nextContentLine(end);
    if (next < this.length && this.indentAt(next) > indent) throw OUTSIDE;
    return { value, start: at, end, next };
  }

  // ---- flow collections (one line) ----

  private flowCollection(at: number, node: number, depth: number): { value: unknown; start: number; end: number } {
    if (depth >= this.maxDepth) throw OUTSIDE;
    const read = this.text.charCodeAt(at) === OPEN_SQUARE ? this.flowList(at, node, depth) : this.flowMap(at, node, depth);
    this.index.setRange(node, read.start, read.end);
    return read;
  }

  private skipSpaces(at: number): number {
    let position = at;
    while (this.text.charCodeAt(position) === SPACE) position++;
    return position;
  }

  private flowList(at: number, node: number, depth: number): { value: unknown; start: number; end: number } {
    const list: unknown[] = [];
    this.index.setKind(node, KIND_LIST);
    let position = this.skipSpaces(at + 1);
    if (this.text.charCodeAt(position) === CLOSE_SQUARE) return { value: list, start: at, end: position + 1 };
    for (;;) {
      const item = this.flowNode(position, this.index.add(node, "", -1, -1), depth, false);
      list.push(item.value);
      position = this.skipSpaces(item.end);
      const code = this.text.charCodeAt(position);
      if (code === CLOSE_SQUARE) return { value: list, start: at, end: position + 1 };
      if (code !== COMMA) throw OUTSIDE;
      position = this.skipSpaces(position + 1);
      if (this.text.charCodeAt(position) === CLOSE_SQUARE) throw OUTSIDE; // a trailing comma
    }
  }

  private flowMap(at: number, node: number, depth: number): { value: unknown; start: number; end: number } {
    const { text } = this;
    const map: Record<string, unknown> = {};
    this.index.setKind(node, KIND_MAP);
    let position = this.skipSpaces(at + 1);
    if (text.charCodeAt(position) === CLOSE_CURLY) return { value: map, start: at, end: position + 1 };
    for (;;) {
      const key = this.flowScalar(position, true);
      const name = key.value;
      if (typeof name !== "string") throw OUTSIDE;
      this.checkKeyName(name);
      if (Object.prototype.hasOwnProperty.call(map, name)) throw OUTSIDE;
      if (text.charCodeAt(key.end) !== COLON || text.charCodeAt(key.end + 1) !== SPACE) throw OUTSIDE;
      const value = this.flowNode(this.skipSpaces(key.end + 1), this.index.add(node, name, key.start, key.end), depth, true);
      map[name] = value.value;
      position = this.skipSpaces(value.end);
      const code = text.charCodeAt(position);
      if (code === CLOSE_CURLY) return { value: map, start: at, end: position + 1 };
      if (code !== COMMA) throw OUTSIDE;
      position = this.skipSpaces(position + 1);
      if (text.charCodeAt(position) === CLOSE_CURLY) throw OUTSIDE; // a trailing comma
    }
  }

  private flowNode(at: number, node: number, depth: number, inMap: boolean): { value: unknown; end: number } {
    const code = this.text.charCodeAt(at);
    if (code === OPEN_SQUARE || code === OPEN_CURLY) return this.flowCollection(at, node, depth + 1);
    const scalar = this.flowScalar(at, false);
    // In a mapping, a value followed by `:` would be a second key (`{a: b: c}`).
    if (inMap && this.text.charCodeAt(scalar.end) === COLON) throw OUTSIDE;
    this.index.setScalar(node, scalar.start, scalar.end, scalar.value, scalar.type);
    return scalar;
  }

  /** A quoted or plain scalar inside `[…]` or `{…}`; a plain one ends before `,`, brackets or `: `. */
  private flowScalar(at: number, isKey: boolean): ScalarRead {
    const { text } = this;
    const code = text.charCodeAt(at);
    if (code === QUOTE_SINGLE) return this.singleQuoted(at);
    if (code === QUOTE_DOUBLE) return this.doubleQuoted(at);
    if (isIndicator(code) || code === SPACE || code === NEWLINE || at >= this.length) throw OUTSIDE;
    if (code === DASH) {
      const next = text.charCodeAt(at + 1);
      if (next === SPACE || next === NEWLINE || isFlowIndicator(next) || at + 1 >= this.length) throw OUTSIDE;
    }
    let position = at + 1;
    let hash = code;
    for (; position < this.length; position++) {
      const c = text.charCodeAt(position);
      if (c === NEWLINE) throw OUTSIDE; // flow collections over several lines
      if (isFlowIndicator(c)) break;
      if (c === HASH) throw OUTSIDE;
      if (c === COLON) {
        if (isKey && text.charCodeAt(position + 1) === SPACE) break;
        throw OUTSIDE;
      }
      hash = (Math.imul(hash, 31) + c) | 0;
    }
    let end = position;
    while (text.charCodeAt(end - 1) === SPACE) end--;
    // Keys as in block mappings (plainKeyName), which also refuses those that are not text.
    if (isKey) return { value: this.plainKeyName(at, end, hash), start: at, end, type: "PLAIN" };
    const source = text.slice(at, end);
    return { value: resolvePlainScalar(source), start: at, end, type: "PLAIN" };
  }
}

// ---- the index ----

const NO_NODE = -1;
// The fields of one node, side by side in one Int32Array: a manifest has tens of thousands of
// nodes, and an object (with a Map or an array for children) per node was most of what the
// reader allocated.
const KEY_START = 0;
const KEY_END = 1;
const START = 2;
const END = 3;
const FIRST_CHILD = 4;
const NEXT_SIBLING = 5;
const LAST_CHILD = 6;
const CHILD_COUNT = 7;
const STRIDE = 8;

const KIND_NONE = 0;
const KIND_MAP = 1;
const KIND_LIST = 2;
/** Scalar styles by code (0: not a scalar written here). */
const SCALAR_TYPES: readonly PositionedScalar["type"][] = [undefined, "PLAIN", "QUOTE_SINGLE", "QUOTE_DOUBLE", "BLOCK_LITERAL", "BLOCK_FOLDED"];
const SCALAR_CODES: Record<NonNullable<PositionedScalar["type"]>, number> = {
  PLAIN: 1,
  QUOTE_SINGLE: 2,
  QUOTE_DOUBLE: 3,
  BLOCK_LITERAL: 4,
  BLOCK_FOLDED: 5,
};
/** Collections with more children than this get a lookup table when first searched. */
const SCAN_LIMIT = 8;

/**
 * Every key and list item of a document read by the fast reader, as a tree of numbered nodes
 * (the root is 0). Children are found by walking a node's sibling chain; a large collection
 * gets a table of its children the first time a path goes through it.
 */
export class SubsetIndex {
  private fields: Int32Array;
  /** bits 0-2: the scalar style code; bits 3-4: the collection kind */
  private flags: Uint8Array;
  /** a mapping entry's key ("" for list items and the root) */
  private readonly names: string[] = [];
  private readonly values: unknown[] = [];
  private count = 0;
  private readonly tables = new Map<number, Map<string, number> | Int32Array>();
  /** The length of the path prefix the last deepest() call found. */
  foundLength = 0;

  constructor(expectedNodes: number) {
    const capacity = Math.max(64, expectedNodes);
    this.fields = new Int32Array(capacity * STRIDE);
    this.flags = new Uint8Array(capacity);
  }

  /** A new node under `parent` (NO_NODE for the root), with its key's offsets (-1 for none). */
  add(parent: number, name: string, keyStart: number, keyEnd: number): number {
    const node = this.count++;
    if (node * STRIDE >= this.fields.length) this.grow();
    const fields = this.fields;
    const at = node * STRIDE;
    fields[at + KEY_START] = keyStart;
    fields[at + KEY_END] = keyEnd;
    fields[at + FIRST_CHILD] = NO_NODE;
    fields[at + NEXT_SIBLING] = NO_NODE;
    fields[at + LAST_CHILD] = NO_NODE;
    this.names.push(name);
    this.values.push(undefined);
    if (parent !== NO_NODE) {
      const parentAt = parent * STRIDE;
      const last = fields[parentAt + LAST_CHILD]!;
      if (last === NO_NODE) fields[parentAt + FIRST_CHILD] = node;
      else fields[last * STRIDE + NEXT_SIBLING] = node;
      fields[parentAt + LAST_CHILD] = node;
      fields[parentAt + CHILD_COUNT]!++;
    }
    return node;
  }

  private grow(): void {
    const fields = new Int32Array(this.fields.length * 2);
    fields.set(this.fields);
    this.fields = fields;
    const flags = new Uint8Array(this.flags.length * 2);
    flags.set(this.flags);
    this.flags = flags;
  }

  /** Marks a node as a mapping (whose children are found by key) or a list (by position). */
  setKind(node: number, kind: typeof KIND_MAP | typeof KIND_LIST): void {
    this.flags[node] = (this.flags[node]! & 7) | (kind << 3);
  }

  setRange(node: number, start: number, end: number): void {
    this.fields[node * STRIDE + START] = start;
    this.fields[node * STRIDE + END] = end;
  }

  setScalar(node: number, start: number, end: number, value: unknown, type: NonNullable<PositionedScalar["type"]>): void {
    this.setRange(node, start, end);
    this.flags[node] = (this.flags[node]! & ~7) | SCALAR_CODES[type];
    this.values[node] = value;
  }

  keyStart(node: number): number {
    return this.fields[node * STRIDE + KEY_START]!;
  }

  keyEnd(node: number): number {
    return this.fields[node * STRIDE + KEY_END]!;
  }

  start(node: number): number {
    return this.fields[node * STRIDE + START]!;
  }

  end(node: number): number {
    return this.fields[node * STRIDE + END]!;
  }

  /** The style of the scalar written at the node, undefined when it is not one. */
  scalarType(node: number): PositionedScalar["type"] {
    return SCALAR_TYPES[this.flags[node]! & 7];
  }

  scalarValue(node: number): unknown {
    return this.values[node];
  }

  /**
   * The node of the longest prefix of `path` in the document, its length left in foundLength.
   * Segments are compared as strings, as pathKey compares them (`1` and `"1"` are the same); a
   * first segment "" means the document itself there, as pathKey([""]) is pathKey([]) (the fast
   * reader reads no "" keys).
   */
  deepest(path: readonly (string | number)[]): number {
    if (path.length > 0 && String(path[0]) === "") {
      this.foundLength = 1;
      return 0;
    }
    let node = 0;
    let length = 0;
    for (; length < path.length; length++) {
      const child = this.child(node, path[length]!);
      if (child === NO_NODE) break;
      node = child;
    }
    this.foundLength = length;
    return node;
  }

  private child(node: number, segment: string | number): number {
    const kind = this.flags[node]! >> 3;
    if (kind === KIND_NONE) return NO_NODE;
    const fields = this.fields;
    const count = fields[node * STRIDE + CHILD_COUNT]!;
    if (kind === KIND_LIST) {
      let position: number;
      // Numbers are the usual segment here; no text is made for them.
      if (typeof segment === "number") position = Number.isInteger(segment) && segment >= 0 ? segment : -1;
      else {
        position = Number(segment);
        if (String(position) !== segment) position = -1;
      }
      if (position < 0 || position >= count) return NO_NODE;
      if (count <= SCAN_LIMIT) {
        let child = fields[node * STRIDE + FIRST_CHILD]!;
        for (let k = 0; k < position; k++) child = fields[child * STRIDE + NEXT_SIBLING]!;
        return child;
      }
      return (this.tableOf(node, count) as Int32Array)[position]!;
    }
    const name = typeof segment === "string" ? segment : String(segment);
    if (count <= SCAN_LIMIT) {
      for (let child = fields[node * STRIDE + FIRST_CHILD]!; child !== NO_NODE; child = fields[child * STRIDE + NEXT_SIBLING]!) {
        if (this.names[child] === name) return child;
      }
      return NO_NODE;
    }
    return (this.tableOf(node, count) as Map<string, number>).get(name) ?? NO_NODE;
  }

  /** The children of a large collection by position or key, made once. */
  private tableOf(node: number, count: number): Map<string, number> | Int32Array {
    let table = this.tables.get(node);
    if (table) return table;
    const fields = this.fields;
    const first = fields[node * STRIDE + FIRST_CHILD]!;
    if (this.flags[node]! >> 3 === KIND_LIST) {
      const items = new Int32Array(count);
      for (let child = first, k = 0; child !== NO_NODE; child = fields[child * STRIDE + NEXT_SIBLING]!, k++) items[k] = child;
      table = items;
    } else {
      const entries = new Map<string, number>();
      for (let child = first; child !== NO_NODE; child = fields[child * STRIDE + NEXT_SIBLING]!) entries.set(this.names[child]!, child);
      table = entries;
    }
    this.tables.set(node, table);
    return table;
  }
}
