// YAML with positions, shared by the manifest and the repository config: the document as plain
// data, every key and value's place in the file, and findings for anything that keeps the file
// from being read (syntax, duplicate keys, hostile input). Never throws.
import {
  isAlias,
  isCollection,
  isMap,
  isScalar,
  isSeq,
  parseDocument,
  type Document,
  type Node as YamlNode,
  type Scalar,
  type YAMLError,
} from "yaml";
import type { Position, SourceRange } from "../cql/ast.js";
import { LineIndex, SourceSpan } from "../cql/source-span.js";
import { FILE_START, type Finding } from "../findings.js";
import type { SourceFile } from "../source-file.js";

export interface YamlLimits {
  /** UTF-8 bytes of one file */
  maxBytes: number;
  /** nesting of mappings and lists, block or flow */
  maxDepth: number;
  /** `*alias` expansions while building the data (the `yaml` library's alias-bomb guard) */
  maxAliasCount: number;
}

export const YAML_LIMITS: YamlLimits = { maxBytes: 1024 * 1024, maxDepth: 64, maxAliasCount: 100 };

export interface YamlReadOptions {
  /** the rule of every finding, e.g. `manifest-invalid` */
  rule: string;
  /** what the file is, for messages: "manifest", "config file" */
  noun: string;
  limits?: Partial<YamlLimits>;
}

export type PathSegment = string | number;
export type YamlPath = readonly PathSegment[];

/** A scalar as written in the file: its offsets, its value and its style (the `yaml` package's names). */
export interface PositionedScalar {
  range: readonly [number, number, ...number[]];
  value: unknown;
  type: "PLAIN" | "QUOTE_SINGLE" | "QUOTE_DOUBLE" | "BLOCK_LITERAL" | "BLOCK_FOLDED" | undefined;
}

/** One key or list item of the document, as the reader indexes it. */
export interface IndexedNode {
  /** the key's offsets, for mapping entries; -1 when there is no key (list items, the document) */
  keyStart: number;
  keyEnd: number;
  /** the value's offsets */
  start: number;
  end: number;
  /** whether the value is a scalar written at this place (not reached through an alias) */
  isScalar: boolean;
  scalarValue: unknown;
  scalarType: PositionedScalar["type"];
}

/** An index node. */
function indexEntry(key: readonly [number, number] | undefined, start: number, end: number, scalar?: Scalar): IndexedNode {
  return {
    keyStart: key ? key[0] : -1,
    keyEnd: key ? key[1] : -1,
    start,
    end,
    isScalar: scalar !== undefined,
    scalarValue: scalar?.value,
    scalarType: scalar?.type,
  };
}

export interface PositionedYaml {
  file: string;
  text: string;
  /** the document as plain data; undefined when the file could not be read (a finding says why) */
  data: unknown;
  /** the file holds no YAML content (empty, blank or only comments) */
  empty: boolean;
  findings: Finding[];
  /**
   * The range of the key or the value at `path`, limited to its first line. For a path that is
   * not in the document (a missing key), the nearest enclosing entry: its key when it has one.
   */
  locate(path: YamlPath, part?: "key" | "value"): SourceRange;
  /** whether a key or item exists at exactly `path` */
  has(path: YamlPath): boolean;
  /** the scalar written at `path` (not reached through an alias), for offsets inside its text */
  scalarAt(path: YamlPath): PositionedScalar | undefined;
  /** a range from offsets into the text */
  range(start: number, end: number): SourceSpan;
  /** where the text's lines start, for spans moved into it */
  lines: LineIndex;
}

/** Reads one YAML file. The data is plain objects and arrays built afresh: no `__proto__` keys. */
export function readYamlWithPositions(file: SourceFile, options: YamlReadOptions): PositionedYaml {
  const limits: YamlLimits = { ...YAML_LIMITS, ...options.limits };
  const text = file.content;
  // Offsets where lines start, filled once the file is known to be read (as the `yaml` package's
  // LineCounter keeps them; positions are looked up here without its intermediate object).
  const lineStarts: number[] = [];
  // Every node, by pathKey(path).
  const index = new Map<string, IndexedNode>();
  /** The entry of the longest prefix of `path` that is in the document, with that prefix's length. */
  const deepest = (path: YamlPath): { entry: IndexedNode; length: number } | undefined => {
    for (let length = path.length; length >= 0; length--) {
      const entry = index.get(pathKey(path.slice(0, length)));
      if (entry) return { entry, length };
    }
    return undefined;
  };
  const findings: Finding[] = [];
  const fingerprintCounts = new Map<string, number>();

  // Positions as the `yaml` package's LineCounter.linePos gives them (line 0 before any line start).
  const lines = new LineIndex(lineStarts);
  const clamp = (offset: number): number => Math.max(0, Math.min(offset, text.length));
  const position = (offset: number): Position => lines.position(clamp(offset));
  // One object per range, positions looked up when read: a manifest has a range for every query,
  // attribute and statement, and most are never read.
  const range = (start: number, end: number): SourceSpan => new SourceSpan(lines, clamp(start), clamp(Math.max(start, end)));
  const firstLine = (start: number, end: number): SourceRange => {
    // The first line break inside [start, end), `\r\n` counted from its `\r`; no copy of the text.
    const newline = text.indexOf("\n", start);
    let lineEnd = end;
    if (newline !== -1 && newline < end) lineEnd = newline > start && text.charCodeAt(newline - 1) === 0x0d ? newline - 1 : newline;
    return range(start, lineEnd > start ? lineEnd : Math.min(start + 1, text.length));
  };
  const report = (message: string, where: SourceRange, entity: string): void => {
    // The n-th problem of a kind keeps its fingerprint when unrelated lines move.
    const base = `${options.rule}:${file.path}#${entity}`;
    const n = (fingerprintCounts.get(base) ?? 0) + 1;
    fingerprintCounts.set(base, n);
    findings.push({
      rule: options.rule,
      severity: "error",
      location: { file: file.path, range: where },
      message,
      fingerprint: n === 1 ? base : `${base}#${n}`,
    });
  };

  /** The range locate() gives for a node found for a path, exactly or as its nearest enclosing entry. */
  const rangeOf = (keyStart: number, keyEnd: number, start: number, end: number, exact: boolean, part: "key" | "value"): SourceRange => {
    // A missing key is reported at the entry that should hold it: its key, if it has one.
    const hasKey = keyStart >= 0;
    const wantKey = (part === "key" || !exact) && hasKey;
    const from = wantKey ? keyStart : start;
    const to = wantKey ? keyEnd : end;
    if (to > from) return firstLine(from, to);
    if (hasKey) return firstLine(keyStart, keyEnd);
    return firstLine(from, from + 1);
  };
  const locate = (path: YamlPath, part: "key" | "value" = "value"): SourceRange => {
    const found = deepest(path);
    if (!found) return FILE_START;
    const { entry, length } = found;
    return rangeOf(entry.keyStart, entry.keyEnd, entry.start, entry.end, length === path.length, part);
  };
  const has = (path: YamlPath): boolean => index.has(pathKey(path));
  const scalarAt = (path: YamlPath): PositionedScalar | undefined => {
    const entry = index.get(pathKey(path));
    return entry?.isScalar ? { range: [entry.start, entry.end], value: entry.scalarValue, type: entry.scalarType } : undefined;
  };
  const result = (data: unknown, empty: boolean): PositionedYaml => ({
    file: file.path,
    text,
    data,
    empty,
    findings,
    locate,
    has,
    scalarAt,
    range,
    lines,
  });

  // Cheap checks before the parser sees the text: these inputs would cost it time or memory.
  const bytes = utf8Length(text, limits.maxBytes);
  if (bytes > limits.maxBytes) {
    report(
      `the ${options.noun} is ${formatBytes(bytes)}, over the ${formatBytes(limits.maxBytes)} limit; it was not read`,
      FILE_START,
      "file-too-large",
    );
    return result(undefined, false);
  }
  lineStarts.push(0);
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const nul = text.indexOf("\u0000");
  if (nul !== -1) {
    report(
      `the ${options.noun} looks like a binary file (it contains NUL bytes); it must be YAML text in UTF-8`,
      firstLine(nul, nul + 1),
      "binary",
    );
    return result(undefined, false);
  }
  const deepAt = excessiveFlowNesting(text, limits.maxDepth);
  if (deepAt !== -1) {
    report(
      `nested more than ${limits.maxDepth} levels deep; the ${options.noun} was not read`,
      firstLine(deepAt, deepAt + 1),
      "too-deep",
    );
    return result(undefined, false);
  }

  let doc: Document.Parsed;
  try {
    // YAML 1.2 (the default): `no` stays text and `2_000_000` is text that the schemas accept.
    // `merge` keeps `<<: *defaults` working as most YAML users expect.
    doc = parseDocument(text, {
      prettyErrors: false,
      uniqueKeys: true,
      merge: true,
      // "error" keeps MULTIPLE_DOCS errors (dropped at "silent") but never writes to the console.
      logLevel: "error",
    });
  } catch (error) {
    report(`the ${options.noun} could not be read as YAML (${errorText(error)})`, FILE_START, "unreadable");
    return result(undefined, false);
  }

  // Index before reporting so duplicate-key messages can name the key.
  const keysByOffset = new Map<number, string>();
  let tooDeep: number | undefined;
  let complexKeyAt: number | undefined;
  const walk = (node: unknown, path: PathSegment[], key: [number, number] | undefined, depth: number): void => {
    if (!node || typeof node !== "object" || !("range" in node)) {
      return;
    }
    const yamlNode = node as YamlNode;
    const [start, valueEnd] = yamlNode.range ?? [0, 0];
    index.set(pathKey(path), indexEntry(key, start, valueEnd, isScalar(yamlNode) && yamlNode.range ? yamlNode : undefined));
    if (!isCollection(yamlNode)) return; // scalars and aliases: aliases are not followed (no expansion)
    if (depth >= limits.maxDepth) {
      tooDeep ??= start;
      return;
    }
    if (isSeq(yamlNode)) {
      yamlNode.items.forEach((item, i) => walk(item, [...path, i], undefined, depth + 1));
      return;
    }
    if (!isMap(yamlNode)) return;
    for (const pair of yamlNode.items) {
      const keyNode = pair.key;
      const keyRange = nodeRange(keyNode);
      if (isScalar(keyNode) && typeof keyNode.value === "symbol") {
        // `<<: *defaults`: the merged keys are reported at the alias that brings them in.
        indexMergedKeys(doc, pair.value, path, index);
        continue;
      }
      if (isCollection(keyNode) || isAlias(keyNode)) {
        // `? [a, b]: 1`: JavaScript would turn the key into text (and warn on the console).
        complexKeyAt ??= keyRange?.[0] ?? start;
        continue;
      }
      const name = keyName(keyNode, text);
      if (keyRange) keysByOffset.set(keyRange[0], name);
      const valueNode = pair.value;
      if (nodeRange(valueNode)) {
        walk(valueNode, [...path, name], keyRange, depth + 1);
      } else {
        // `key:` with no value: the key is the only place to point at.
        const at = keyRange ?? [start, start];
        index.set(pathKey([...path, name]), indexEntry(keyRange, at[1], at[1]));
      }
    }
  };
  walk(doc.contents, [], undefined, 0);

  let fatal = false;
  for (const error of doc.errors) {
    if (error.code !== "DUPLICATE_KEY") fatal = true;
    const [start, end] = error.pos;
    report(yamlErrorMessage(error, keysByOffset.get(start), options.noun), firstLine(start, Math.max(end, start + 1)), `yaml-${error.code}`);
  }
  if (tooDeep !== undefined) {
    report(`nested more than ${limits.maxDepth} levels deep; the ${options.noun} was not read`, firstLine(tooDeep, tooDeep + 1), "too-deep");
    return result(undefined, false);
  }
  if (complexKeyAt !== undefined) {
    report(
      `a key must be a name or quoted text, not a mapping, a list or an alias; the ${options.noun} was not read`,
      firstLine(complexKeyAt, complexKeyAt + 1),
      "complex-key",
    );
    return result(undefined, false);
  }
  if (fatal) return result(undefined, false);
  if (doc.contents === null) return result(undefined, true);

  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: limits.maxAliasCount });
  } catch (error) {
    const alias = firstAliasOffset(doc);
    const where = alias === undefined ? FILE_START : firstLine(alias, alias + 1);
    const message =
      error instanceof ReferenceError && /alias/i.test(error.message)
        ? `too many aliases: expanding the *references would build a huge document (an "alias bomb"); the ${options.noun} was not read`
        : `the ${options.noun} could not be read as YAML (${errorText(error)})`;
    report(message, where, "aliases");
    return result(undefined, false);
  }

  const copied = copyPlainData(raw, limits.maxDepth);
  for (const path of copied.prototypeKeys) {
    report(`${formatPath(path)}: "__proto__" cannot be used as a key`, locate(path, "key"), `${formatPath(path)}:key`);
  }
  if (copied.problem) {
    const { problem, path } = copied.problem;
    const message =
      problem === "cycle"
        ? `${formatPath(path)}: an alias refers to the mapping or list that contains it`
        : `nested more than ${limits.maxDepth} levels deep; the ${options.noun} was not read`;
    report(message, locate(path, "key"), problem);
    return result(undefined, false);
  }
  return result(copied.data, false);
}

/**
 * A stable key for a path: segments cannot contain U+0000 (NUL input is refused before parsing).
 * Each segment is prefixed, so the path `[""]` is not the document's `[]`.
 */
function pathKey(path: YamlPath): string {
  let key = "";
  for (const segment of path) key += `\u0000${String(segment)}`;
  return key;
}

/** `queries[2].where.email`, `tables["ks.videos"].columns.title`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (typeof segment === "string" && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out || "(top level)";
}

function nodeRange(node: unknown): [number, number] | undefined {
  if (!node || typeof node !== "object" || !("range" in node)) return undefined;
  const range = (node as YamlNode).range;
  return range ? [range[0], range[1]] : undefined;
}

function keyName(keyNode: unknown, text: string): string {
  if (isScalar(keyNode)) return keyNode.value === null ? "" : String(keyNode.value);
  if (keyNode && typeof keyNode === "object" && "range" in keyNode) {
    const r = (keyNode as YamlNode).range;
    if (r) return text.slice(r[0], r[1]);
  }
  return String(keyNode);
}

function indexMergedKeys(doc: Document.Parsed, value: unknown, path: PathSegment[], index: Map<string, IndexedNode>): void {
  const sources = isSeq(value) ? value.items : [value];
  for (const source of sources) {
    if (!isAlias(source) || !source.range) continue;
    const target = source.resolve(doc);
    if (!isMap(target)) continue;
    const at: [number, number] = [source.range[0], source.range[1]];
    for (const pair of target.items) {
      if (!isScalar(pair.key) || typeof pair.key.value === "symbol") continue;
      const childKey = pathKey([...path, String(pair.key.value)]);
      // Keys written next to `<<` win over merged ones, as in the data.
      if (!index.has(childKey)) index.set(childKey, indexEntry(at, at[0], at[1]));
    }
  }
}

function firstAliasOffset(doc: Document.Parsed): number | undefined {
  let found: number | undefined;
  const visit = (node: unknown): void => {
    if (found !== undefined || !node || typeof node !== "object") return;
    if (isAlias(node)) {
      found = node.range?.[0];
      return;
    }
    if (isMap(node)) for (const pair of node.items) visit(pair.value);
    else if (isSeq(node)) for (const item of node.items) visit(item);
  };
  visit(doc.contents);
  return found;
}

type CopyProblem = { problem: "cycle" | "too-deep"; path: PathSegment[] };

/**
 * Copies the parsed data into fresh plain objects and arrays, so nothing from the document can
 * reach a prototype: `__proto__` keys are dropped (and listed), cycles made by aliases are refused.
 */
function copyPlainData(raw: unknown, maxDepth: number): { data: unknown; prototypeKeys: PathSegment[][]; problem?: CopyProblem } {
  let problem: CopyProblem | undefined;
  const prototypeKeys: PathSegment[][] = [];
  const onPath = new Set<object>();
  const copy = (value: unknown, path: PathSegment[]): unknown => {
    if (value === null || typeof value !== "object" || problem) return value;
    if (onPath.has(value)) {
      problem = { problem: "cycle", path };
      return undefined;
    }
    if (path.length > maxDepth) {
      problem = { problem: "too-deep", path };
      return undefined;
    }
    onPath.add(value);
    try {
      if (Array.isArray(value)) return value.map((item, i) => copy(item, [...path, i]));
      if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
        return value; // binary data (`!!binary`) and the like: the schemas reject them with a clear message
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        if (key === "__proto__") {
          prototypeKeys.push([...path, key]);
          continue;
        }
        out[key] = copy((value as Record<string, unknown>)[key], [...path, key]);
      }
      return out;
    } finally {
      onPath.delete(value);
    }
  };
  const data = copy(raw, []);
  return problem ? { data, prototypeKeys, problem } : { data, prototypeKeys };
}

/** UTF-8 length, computed exactly only when the UTF-16 length leaves it in doubt. */
function utf8Length(text: string, limit: number): number {
  if (text.length > limit) return text.length; // every UTF-16 unit is at least one byte
  if (text.length * 3 <= limit) return text.length; // at most three bytes per unit: surely under
  return new TextEncoder().encode(text).length;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KiB`;
  return `${bytes} bytes`;
}

/**
 * Offset where `[`/`{` nesting first exceeds `limit`, or -1. Counted naively (quotes and comments
 * are not skipped): a real file never comes close, and it keeps the parser from deep recursion.
 * The brackets are found with indexOf, one search per bracket kind, rather than by looking at every
 * character: they are a small part of a manifest.
 */
export function excessiveFlowNesting(text: string, limit: number): number {
  let openSquare = text.indexOf("[");
  let openCurly = text.indexOf("{");
  let closeSquare = text.indexOf("]");
  let closeCurly = text.indexOf("}");
  let depth = 0;
  for (;;) {
    const open = earliest(openSquare, openCurly);
    if (open === -1) return -1; // only closing brackets are left: the depth cannot grow
    const close = earliest(closeSquare, closeCurly);
    if (close !== -1 && close < open) {
      if (depth > 0) depth--;
      if (close === closeSquare) closeSquare = text.indexOf("]", close + 1);
      else closeCurly = text.indexOf("}", close + 1);
      continue;
    }
    if (++depth > limit) return open;
    if (open === openSquare) openSquare = text.indexOf("[", open + 1);
    else openCurly = text.indexOf("{", open + 1);
  }
}

/** The smaller of two indexOf results, -1 when both are. */
function earliest(a: number, b: number): number {
  if (a === -1) return b;
  if (b === -1) return a;
  return a < b ? a : b;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0]! : String(error);
}

/** Plain words for the `yaml` library's errors; its own text where it is already clear. */
function yamlErrorMessage(error: YAMLError, key: string | undefined, noun: string): string {
  const original = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "").replace(/\.$/, "");
  switch (error.code) {
    case "DUPLICATE_KEY":
      return key !== undefined
        ? `duplicate key "${key}": a key may appear only once in a mapping (the last one is used)`
        : "duplicate key: a key may appear only once in a mapping (the last one is used)";
    case "TAB_AS_INDENT":
      return "tab used for indentation: YAML indents with spaces only";
    case "BAD_INDENT":
      return `wrong indentation: ${lowerFirst(original)}`;
    case "BLOCK_AS_IMPLICIT_KEY":
      return `a value containing ": " must be quoted or written as a block (key: |), e.g. CQL with a string literal such as 'a: b' (${lowerFirst(original)})`;
    case "MULTIPLE_DOCS":
      return `the ${noun} holds more than one YAML document (a second "---"); keep everything in one document`;
    case "KEY_OVER_1024_CHARS":
      return "a key may be at most 1,024 characters long (a YAML limit for keys written without `? `); shorten it";
    case "MULTILINE_IMPLICIT_KEY":
      return `a key must fit on one line; is a ":" missing at the end of the previous line? (${lowerFirst(original)})`;
    default:
      if (/call stack/i.test(original)) return `nested too deeply; the ${noun} was not read`;
      return `YAML syntax error: ${lowerFirst(original)}`;
  }
}

function lowerFirst(text: string): string {
  return text.length > 1 && /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
