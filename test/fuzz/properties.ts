// The fuzz targets: one fast-check property per entry point that reads repository text or renders
// it. Assertions are plain `assert` so the same properties run under vitest (fuzz.test.ts, bounded)
// and in `npm run fuzz` (scripts/fuzz.mjs, a million inputs). A property fails on a thrown
// exception, a broken invariant, or an `internal-error` finding (a crash the core contained).
import assert from "node:assert/strict";
import fc from "fast-check";
import type { SourceRange } from "../../src/cql/ast.js";
import { parseCql } from "../../src/cql/index.js";
import { LineIndex, SourceSpan } from "../../src/cql/source-span.js";
import { loadConfig } from "../../src/config.js";
import { explain } from "../../src/explain.js";
import type { Finding } from "../../src/findings.js";
import { hunkContaining, parsePatch } from "../../src/github/api/diff-hunks.js";
import { loadManifest } from "../../src/manifest/load.js";
import { wellFormed } from "../../src/report/links.js";
import { hasControls, showControls } from "../../src/report/controls.js";
import { readFingerprintMarker, renderCheckSummary, renderExplainMarkdown, renderFindingComment } from "../../src/report/markdown.js";
import { renderJson } from "../../src/report/json.js";
import { LINK_BREAK } from "../../src/report/neutralise.js";
import { review, type Review, type SourceFile } from "../../src/review.js";
import { estimate, finding, plan, range, reviewOf, tableModel } from "../fixtures/report/hand-built-review.js";
import { readCodeSpan, readEscapedText, readFencedBlock, readInline, splitTableRow } from "../report/gfm-model.js";
import { longCommentsProperty, markersProperty, mentionsProperty } from "./github-targets.js";
import { parseStatsFile } from "../../src/stats/parse.js";
import { tablestatsText } from "../helpers/stats-text.js";
import { CONFIG_SEEDS, cqlInput, hostileText, MANIFEST_SEEDS, mutatedFile, patchInput, quotedName, readRepositoryFile, yamlInput, CQL_FRAGMENTS, YAML_FRAGMENTS } from "./arbitraries.js";

// ---------------------------------------------------------------------------------------------
// Positions

/** Where lines start, and whether a byte order mark takes no column on the first line. */
export interface LineMap {
  starts: number[];
  bomTakesNoColumn: boolean;
}

/**
 * CQL (chevrotain) ends lines at \n, \r\n and \r, and does not count a byte order mark as a
 * column, as editors do; YAML ends lines only at \n.
 */
export function lineStarts(text: string, convention: "cql" | "yaml"): LineMap {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\n") starts.push(i + 1);
    else if (char === "\r" && convention === "cql" && text[i + 1] !== "\n") starts.push(i + 1);
  }
  return { starts, bomTakesNoColumn: convention === "cql" && text.charCodeAt(0) === 0xfeff };
}

function lineColumnAt(lines: LineMap, offset: number): { line: number; column: number } {
  const { starts } = lines;
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  const shift = lines.bomTakesNoColumn && low === 0 && offset > 0 ? 1 : 0;
  return { line: low + 1, column: offset - starts[low]! + 1 - shift };
}

/**
 * A range lies inside the text, ends after it starts, and its start's line and column match its
 * offset. An end may also be written as "just past the last character" on that character's line.
 */
export function assertRangeInside(range: SourceRange, text: string, starts: LineMap, where: string): void {
  const { start, end } = range;
  const limit = Math.max(text.length, 1); // a whole-file finding on an empty file points at 1:1
  assert.ok(Number.isInteger(start.offset) && start.offset >= 0 && start.offset <= limit, `${where}: start offset ${start.offset} outside 0..${text.length}`);
  assert.ok(Number.isInteger(end.offset) && end.offset >= start.offset && end.offset <= limit, `${where}: end offset ${end.offset} outside ${start.offset}..${text.length}`);
  if (start.offset <= text.length) {
    assert.deepEqual({ line: start.line, column: start.column }, lineColumnAt(starts, start.offset), `${where}: start line/column do not match offset ${start.offset}`);
  }
  if (end.offset <= text.length && end.offset > start.offset) {
    const exact = lineColumnAt(starts, end.offset);
    const afterLast = lineColumnAt(starts, end.offset - 1);
    const matches = (end.line === exact.line && end.column === exact.column) || (end.line === afterLast.line && end.column === afterLast.column + 1);
    assert.ok(matches, `${where}: end ${end.line}:${end.column} does not match offset ${end.offset}`);
  }
}

/** Every `range` in a tree of plain objects (AST nodes, manifests). */
export function everyRange(root: unknown, visit: (range: SourceRange, path: string) => void): void {
  const seen = new WeakSet<object>();
  const walk = (value: unknown, path: string): void => {
    if (value === null || typeof value !== "object" || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, `${path}[${index}]`));
      return;
    }
    if (value instanceof Map) {
      for (const [key, item] of value) walk(item, `${path}.get(${String(key)})`);
      return;
    }
    const record = value as Record<string, unknown>;
    const maybeRange = record.range as SourceRange | undefined;
    if (maybeRange && typeof maybeRange === "object" && "start" in maybeRange && "end" in maybeRange) visit(maybeRange, path);
    for (const [key, item] of Object.entries(record)) if (key !== "range") walk(item, `${path}.${key}`);
  };
  walk(root, "");
}

function assertFindingsInside(findings: readonly Finding[], files: ReadonlyMap<string, { text: string; starts: LineMap }>): void {
  for (const entry of findings) {
    assert.notEqual(entry.rule, "internal-error", `internal error: ${entry.message}`);
    assert.ok(entry.message.length > 0 && entry.fingerprint.length > 0, `${entry.rule}: empty message or fingerprint`);
    const file = files.get(entry.location.file);
    assert.ok(file, `${entry.rule} points at ${JSON.stringify(entry.location.file)}, not a file of the input`);
    assertRangeInside(entry.location.range, file.text, file.starts, `${entry.rule} at ${entry.location.file}`);
  }
}

/** No `__proto__` key became an object's prototype anywhere in the result (ranges are our own SourceSpans). */
function assertPlainPrototypes(root: unknown): void {
  const seen = new WeakSet<object>();
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== "object" || seen.has(value)) return;
    seen.add(value);
    const prototype = Object.getPrototypeOf(value);
    assert.ok([Object.prototype, Array.prototype, Map.prototype, Set.prototype, SourceSpan.prototype, LineIndex.prototype, null].includes(prototype), "an object got a prototype from the input");
    for (const item of value instanceof Map ? value.values() : Object.values(value)) walk(item);
  };
  walk(root);
}

/** Loading must never reach Object.prototype, whatever keys the YAML has. */
function assertPrototypeClean(): void {
  const probe: Record<string, unknown> = {};
  for (const key of ["polluted", "fail_on", "version", "partitions", "queries", "x"]) assert.equal(probe[key], undefined, `Object.prototype gained "${key}"`);
}

// ---------------------------------------------------------------------------------------------
// Markdown structure, read the way GitHub's cmark-gfm reads it (test/report/gfm-model.ts)

const FENCE_INFOS = new Set(["mermaid", "sql", "suggestion"]);
const DELIMITER_ROW = /^\| (?::?-{3,}:?)(?: \| :?-{3,}:?)* \|$/;
const MARKER_LINE = /^<!-- cql-review:fingerprint=[^\s<>]* -->$/;
/** Our collapsed sections open and close on lines of their own, in our own words. */
const COLLAPSIBLE_LINE = /^(?:<details><summary>[A-Za-z0-9 ,:()]*<\/summary>|<\/details>)$/;
/** The diagram's statements: our class and styles, table nodes, query nodes with their edge, lone query nodes. */
const MERMAID_CLASS = /^ {2}classDef problem stroke:#[0-9a-f]{6}(?:,[a-z-]+:[0-9a-z# ]+)*$/;
const MERMAID_TABLE = /^ {2}(t\d+)\[\("[A-Za-z0-9 ._\-/:#;]*"\)\]$/;
const MERMAID_EDGE = /^ {2}(q\d+)\(\["[A-Za-z0-9 ._\-/:#;]*"\]\) (?:-->|-\.->|--x)\|[a-z0-9, ]+\| (t\d+)$/;
const MERMAID_ALONE = /^ {2}(q\d+)\(\["[A-Za-z0-9 ._\-/:#;]*"\]\):::problem$/;
const MERMAID_LINK_STYLE = /^ {2}linkStyle (\d+) stroke:#[0-9a-f]{6}(?:,[a-z-]+:[0-9a-z# ]+)*$/;
/** Mermaid's defaults: a chart over either is not drawn at all. */
const MERMAID_MAX = { characters: 50_000, edges: 500 } as const;

/**
 * The body of a Mermaid fence (the lines after `flowchart LR`) follows the diagram's grammar, and
 * Mermaid would draw it: each `linkStyle` names an edge already drawn (Mermaid fails the whole
 * chart otherwise), each edge ends at a table declared before it, no node is declared twice, and
 * the chart stays within Mermaid's size limits.
 */
export function assertMermaidChart(lines: readonly string[], where: string): { edges: number; linkStyles: number } {
  const declared = new Set<string>();
  const declare = (id: string) => {
    assert.ok(!declared.has(id), `${where}: Mermaid node ${id} declared twice`);
    declared.add(id);
  };
  let edges = 0;
  let linkStyles = 0;
  for (const line of lines) {
    const table = MERMAID_TABLE.exec(line);
    const edge = MERMAID_EDGE.exec(line);
    const alone = MERMAID_ALONE.exec(line);
    const linkStyle = MERMAID_LINK_STYLE.exec(line);
    if (table) declare(table[1]!);
    else if (edge) {
      declare(edge[1]!);
      assert.ok(declared.has(edge[2]!), `${where}: the edge ${JSON.stringify(line)} ends at an undeclared table`);
      edges++;
    } else if (alone) declare(alone[1]!);
    else if (linkStyle) {
      assert.ok(Number(linkStyle[1]) < edges, `${where}: linkStyle ${linkStyle[1]} names a missing edge (${edges} drawn so far)`);
      linkStyles++;
    } else assert.match(line, MERMAID_CLASS, `${where}: Mermaid line`);
  }
  assert.ok(edges <= MERMAID_MAX.edges, `${where}: ${edges} edges, over Mermaid's limit`);
  assert.ok(lines.join("\n").length <= MERMAID_MAX.characters, `${where}: the chart is over Mermaid's size limit`);
  return { edges, linkStyles };
}

/** A `<` that is neither escaped nor inside a code span starts raw HTML. */
function rawHtmlAt(line: string): number {
  let i = 0;
  while (i < line.length) {
    const char = line[i]!;
    if (char === "\\") {
      i += 2;
      continue;
    }
    if (char === "`") {
      let end = i;
      while (line[end] === "`") end++;
      const run = line.slice(i, end);
      const close = findClosingRun(line, end, run.length);
      i = close < 0 ? end : close + run.length;
      continue;
    }
    if (char === "<") return i;
    i++;
  }
  return -1;
}

function findClosingRun(line: string, from: number, length: number): number {
  let i = from;
  while (i < line.length) {
    if (line[i] !== "`") {
      i++;
      continue;
    }
    let end = i;
    while (line[end] === "`") end++;
    if (end - i === length) return i;
    i = end;
  }
  return -1;
}

/** A table cell holds only what the renderers put there: code spans, escaped text, `**yes**`, a linked rule id. */
function assertCellInert(cell: string, where: string): void {
  const link = /^\[([^]*)\]\((https:\/\/[^\s()<>]+)\)$/.exec(cell);
  const inner = link ? link[1]! : cell.replace(/^\*\*yes\*\*$/, "yes");
  assert.equal(readInline(inner).active, false, `${where}: cell ${JSON.stringify(cell)} can start markup`);
}

/**
 * Fences open and close in pairs with a known info string, every table row has the header's cell
 * count and inert cells, Mermaid lines follow the diagram's grammar, and nothing outside a fence
 * starts raw HTML except the fingerprint marker.
 */
export function assertMarkdownStructure(markdown: string, where: string): { fences: { info: string; content: string }[]; markers: number } {
  const lines = markdown.split("\n");
  const fences: { info: string; content: string }[] = [];
  let markers = 0;
  let columns = 0;
  let sections = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const opening = /^(`{3,})(.*)$/.exec(line);
    if (opening) {
      const info = opening[2]!.trim();
      assert.ok(FENCE_INFOS.has(info), `${where}: a fence opens with info ${JSON.stringify(info)} at line ${index + 1}`);
      const closing = new RegExp(`^ {0,3}\`{${opening[1]!.length},}[ \\t]*$`);
      const end = lines.findIndex((candidate, at) => at > index && closing.test(candidate));
      assert.ok(end > index, `${where}: the ${info} fence at line ${index + 1} never closes`);
      const block = readFencedBlock(lines.slice(index, end + 1).join("\n"));
      assert.ok(block, `${where}: unreadable fence at line ${index + 1}`);
      if (info === "mermaid") {
        assert.equal(lines[index + 1], "flowchart LR", `${where}: the diagram's first line`);
        assertMermaidChart(lines.slice(index + 2, end), where);
      }
      fences.push(block);
      index = end;
      columns = 0;
      continue;
    }
    if (line.startsWith("| ") && DELIMITER_ROW.test(lines[index + 1] ?? "")) {
      columns = splitTableRow(line).length;
      index++;
      continue;
    }
    if (columns > 0 && line.startsWith("|")) {
      const cells = splitTableRow(line);
      assert.equal(cells.length, columns, `${where}: row ${JSON.stringify(line)} has ${cells.length} cells, not ${columns}`);
      cells.forEach((cell) => assertCellInert(cell, where));
      continue;
    }
    columns = 0;
    if (MARKER_LINE.test(line)) {
      markers++;
      continue;
    }
    if (COLLAPSIBLE_LINE.test(line)) {
      sections += line.startsWith("<details>") ? 1 : -1;
      assert.ok(sections >= 0 && sections <= 1, `${where}: a collapsed section closes before it opens, or nests, at line ${index + 1}`);
      continue;
    }
    assert.equal(rawHtmlAt(line), -1, `${where}: raw HTML in ${JSON.stringify(line)}`);
  }
  assert.equal(sections, 0, `${where}: a collapsed section never closes`);
  return { fences, markers };
}

/** What a finding comment must keep whatever the finding holds: the message inert, the suggestion verbatim, the marker last. */
export function assertFindingComment(entry: Finding, suggestion: string | undefined): void {
  const body = renderFindingComment(entry, suggestion === undefined ? {} : { suggestion });
  const { fences, markers } = assertMarkdownStructure(body, `comment on ${entry.rule}`);
  const lines = body.split("\n");
  assert.equal(readFingerprintMarker(lines.at(-1)!), wellFormed(entry.fingerprint), "the fingerprint marker is the last line and reads back");
  assert.equal(markers, 1, "exactly one fingerprint marker outside code");
  assert.equal(readInline(lines[2]!).active, false, "the message line can start markup");
  if (suggestion !== undefined && suggestion.length <= 40_000) {
    const block = fences.find((fence) => fence.info === "suggestion");
    // Text with control characters could only be shown escaped: it is never offered to accept.
    if (hasControls(suggestion)) return assert.equal(block, undefined, "a suggestion with control characters is not offered");
    assert.equal(block?.content, suggestion.replace(/\r\n?/g, "\n").replace(/\n$/, ""), "the suggestion reads back verbatim");
  }
}

// ---------------------------------------------------------------------------------------------
// Targets

export interface FuzzTarget {
  name: string;
  /** what the property checks, for the runner's report */
  checks: string;
  /** each target has its own input tuple */
  property(): fc.IProperty<any>;
  /** runs in the test suite (fixed seed) */
  testRuns: number;
  /** share of `npm run fuzz`'s total, by cost: cheap targets take more inputs */
  weight: number;
}

function parserProperty(): fc.IProperty<[string]> {
  return fc.property(cqlInput, (text) => {
    const result = parseCql(text);
    const starts = lineStarts(text, "cql");
    for (const diagnostic of result.diagnostics) {
      assert.ok(diagnostic.message.length > 0, "empty diagnostic message");
      assert.ok(!diagnostic.message.includes("internal error"), `internal error: ${diagnostic.message}`);
      assertRangeInside(diagnostic.range, text, starts, `diagnostic "${diagnostic.message}"`);
    }
    for (const comment of result.comments) everyRange(comment, (range, path) => assertRangeInside(range, text, starts, `comment${path}`));
    let previous = -1;
    for (const statement of result.statements) {
      assert.ok(statement.range.start.offset > previous, "statements are in file order and do not overlap");
      previous = statement.range.end.offset - 1;
      everyRange(statement, (range, path) => {
        assertRangeInside(range, text, starts, `${statement.kind}${path}`);
        assert.ok(range.start.offset >= statement.range.start.offset && range.end.offset <= statement.range.end.offset, `${statement.kind}${path} lies outside its statement`);
      });
    }
  });
}

function manifestProperty(): fc.IProperty<[string]> {
  return fc.property(yamlInput(MANIFEST_SEEDS), (text) => {
    const loaded = loadManifest({ path: "access-patterns.yaml", content: text });
    const starts = lineStarts(text, "yaml");
    assertFindingsInside(loaded.findings, new Map([["access-patterns.yaml", { text, starts }]]));
    if (loaded.manifest) {
      everyRange(loaded.manifest, (range, path) => assertRangeInside(range, text, starts, `manifest${path}`));
      assertPlainPrototypes(loaded.manifest);
    }
    assertPrototypeClean();
  });
}

function configProperty(): fc.IProperty<[string]> {
  return fc.property(yamlInput(CONFIG_SEEDS), (text) => {
    const { config, findings } = loadConfig({ path: ".github/cql-review.yml", content: text });
    assertFindingsInside(findings, new Map([[".github/cql-review.yml", { text, starts: lineStarts(text, "yaml") }]]));
    assert.ok(config.schema.length > 0 && config.schema.every((glob) => typeof glob === "string"), "schema globs usable");
    assert.ok(config.manifest.length > 0, "manifest globs usable");
    assert.ok(["error", "warning", "never"].includes(config.failOn), `fail_on ${String(config.failOn)}`);
    for (const value of Object.values(config.limits)) assert.ok(typeof value === "number" && Number.isFinite(value) && value > 0, `limit ${value}`);
    assert.ok(Number.isInteger(config.comments.max) && config.comments.max >= 0, `comments.max ${config.comments.max}`);
    for (const setting of Object.values(config.rules)) assert.ok(["off", "info", "warning", "error"].includes(setting.severity));
    assertPlainPrototypes({ ...config, rules: Object.values(config.rules) });
    assertPrototypeClean();
  });
}

function diffHunksProperty(): fc.IProperty<[string, number, number]> {
  return fc.property(patchInput, fc.integer({ min: -5, max: 200 }), fc.integer({ min: 0, max: 20 }), (patch, startLine, length) => {
    const hunks = parsePatch(patch);
    for (const hunk of hunks) {
      hunk.rightLines.forEach((line, index) => assert.equal(line, hunk.newStart + index, "RIGHT-side lines are consecutive from the header's start"));
      const right = new Set(hunk.rightLines);
      for (const added of hunk.addedLines) assert.ok(right.has(added), "an added line is a RIGHT-side line");
      assert.ok(hunk.addedLines.every((line, index) => index === 0 || line > hunk.addedLines[index - 1]!), "added lines ascend");
    }
    const endLine = startLine + length;
    const found = hunkContaining(hunks, startLine, endLine);
    const expected = hunks.find((hunk) => hunk.rightLines.length > 0 && hunk.rightLines[0]! <= startLine && endLine <= hunk.rightLines.at(-1)!);
    assert.equal(found, expected, "hunkContaining finds the first hunk holding the whole range");
    // Lines are counted from the bodies, never trusted from the headers' counts.
    assert.ok(hunks.reduce((sum, hunk) => sum + hunk.rightLines.length, 0) <= patch.split("\n").length, "no more RIGHT-side lines than patch lines");
  });
}

const SEVERITIES = ["error", "warning", "info"] as const;
const VERDICTS = ["single-partition", "multi-partition", "index", "needs-allow-filtering", "scan", "invalid", "unserved"] as const;

/** A review built by hand around hostile names, messages, figures and suggestions. */
const hostileReview = fc
  .record({
    tables: fc.array(hostileText, { minLength: 1, maxLength: 3 }),
    queryIds: fc.array(hostileText, { minLength: 1, maxLength: 3 }),
    verdicts: fc.array(fc.constantFrom(...VERDICTS), { minLength: 3, maxLength: 3 }),
    findings: fc.array(
      fc.record({
        rule: fc.oneof(fc.constantFrom("query-full-scan", "table-partition-too-large"), hostileText),
        severity: fc.constantFrom(...SEVERITIES),
        file: hostileText,
        message: hostileText,
        fingerprint: hostileText,
        data: fc.dictionary(hostileText, fc.oneof(hostileText, fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 3 }),
        fix: fc.option(fc.record({ description: hostileText, replacement: hostileText })),
        existing: fc.boolean(),
      }),
      { maxLength: 4 },
    ),
  })
  .map(({ tables, queryIds, verdicts, findings }) => {
    const models = tables.map((name, index) => tableModel("ks", name, `schema/${index}.cql`, index + 1, [{ name: "id", type: "uuid", kind: "partition" }]));
    const queries = queryIds.map((id, index) => ({
      id,
      location: { file: "access-patterns.yaml", range: range(index + 1, 5) },
      form: "cql" as const,
      table: verdicts[index] === "unserved" ? null : models[index % models.length]!.qualifiedName,
      candidates: [],
      plan: plan(verdicts[index]!, verdicts[index] === "single-partition" ? 1 : "all", `${id} is served by \`${models[index % models.length]!.qualifiedName}\``),
    }));
    const built = findings.map((entry, index) =>
      finding(entry.rule, entry.severity, entry.file, range(index + 1, 1), entry.message, {
        fingerprint: entry.fingerprint,
        data: entry.data,
        existing: entry.existing,
        ...(entry.fix ? { fix: { ...entry.fix, file: entry.file, range: range(index + 1, 1) } } : {}),
      }),
    );
    return { review: reviewOf({ tables: models, queries, estimates: models.map((model) => estimate(model.qualifiedName)), findings: built }), names: models.map((m) => m.qualifiedName) };
  });

function markdownProperty(): fc.IProperty<[{ review: Review; names: string[] }]> {
  return fc.property(hostileReview, ({ review: hostile, names }) => {
    const summary = renderCheckSummary(hostile);
    assert.ok(summary.length <= 65_000, "summary within GitHub's limit");
    assertMarkdownStructure(summary, "check summary");
    assertEstimateCellsReadBack(summary, names);
    for (const entry of hostile.findings) assertFindingComment(entry, entry.fix?.replacement);
  });
}

/** Each row of the estimates table starts with a table's name, shown exactly (as code or as escaped text). */
function assertEstimateCellsReadBack(summary: string, names: readonly string[]): void {
  const lines = summary.split("\n");
  const header = lines.findIndex((line) => line.startsWith("| Table | Rows/partition"));
  if (header < 0) return;
  const shown = new Set<string>();
  for (let index = header + 2; index < lines.length && lines[index]!.startsWith("|"); index++) {
    const cell = splitTableRow(lines[index]!)[0]!;
    // escaped text carries invisible breaks in what GitHub would link; a reader does not see them
    shown.add((readCodeSpan(cell) ?? readEscapedText(cell).text.replaceAll(LINK_BREAK, "")).trim());
  }
  const oneLine = (text: string) => text.replace(/\r\n|[\r\n\u2028\u2029]/g, " ").replaceAll(LINK_BREAK, "").trim();
  // Control characters are written out (`\u{1b}`), so a terminal or a page never acts on them.
  for (const name of names) {
    const written = [oneLine(showControls(name)), showControls(oneLine(name))];
    assert.ok(written.some((form) => shown.has(form)), `table ${JSON.stringify(name)} is not shown as written`);
  }
}

// The end-to-end target: whole repositories, mutated or with hostile quoted names, through review()
// and every renderer.

const IOT_FILES: readonly SourceFile[] = [
  "access-patterns.yaml",
  "schema/001_keyspace.cql",
  "schema/010_accounts.cql",
  "schema/020_devices.cql",
  "schema/030_telemetry.cql",
  "schema/040_alerts.cql",
].map((path) => ({ path, content: readRepositoryFile(`examples/iot/${path}`) }));

const mutatedRepository: fc.Arbitrary<SourceFile[]> = fc
  .tuple(fc.nat({ max: IOT_FILES.length - 1 }), fc.nat({ max: IOT_FILES.length - 1 }))
  .chain(([first, second]) =>
    fc.tuple(...IOT_FILES.map((file, index) => (index === first || index === second ? mutatedFile([file.content], file.path.endsWith(".cql") ? CQL_FRAGMENTS : YAML_FRAGMENTS) : fc.constant(file.content)))),
  )
  .map((contents) => IOT_FILES.map((file, index) => ({ path: file.path, content: contents[index]! })));

/** A small model whose table, column and query names are hostile quoted identifiers. */
const hostileRepository: fc.Arbitrary<SourceFile[]> = fc
  .record({ table: hostileText, key: hostileText, column: hostileText, description: hostileText })
  .map(({ table, key, column, description }) => {
    const [t, k, c] = [quotedName(table), quotedName(key), quotedName(column)];
    const schema = `CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nUSE ks;\nCREATE TABLE ${t} (${k} uuid, at timestamp, ${c} text, PRIMARY KEY ((${k}), at));\n`;
    const manifest = [
      "version: 1",
      "keyspace: ks",
      `tables:\n  ${JSON.stringify(t)}:\n    growth: 5/day`,
      "queries:",
      `  - id: Q1\n    description: ${JSON.stringify(description)}\n    cql: ${JSON.stringify(`SELECT ${c} FROM ${t} WHERE ${k} = ?`)}`,
      `  - id: Q2\n    cql: ${JSON.stringify(`SELECT ${c} FROM ${t} WHERE ${c} = ?`)}`,
      `  - id: Q3\n    select: [${JSON.stringify(k)}]\n    where: { ${JSON.stringify(c)}: "=" }`,
      "",
    ].join("\n");
    return [
      { path: "schema/model.cql", content: schema },
      { path: "access-patterns.yaml", content: manifest },
    ];
  });

function reviewProperty(): fc.IProperty<[SourceFile[]]> {
  return fc.property(fc.oneof(mutatedRepository, hostileRepository), (files) => {
    const result = review({ files, baseFiles: [...IOT_FILES] });
    const byPath = new Map(files.map((file) => [file.path, { text: file.content, starts: lineStarts(file.content, file.path.endsWith(".cql") ? "cql" : "yaml") }]));
    // findings in the manifest may come from its embedded CQL: positions there follow YAML lines
    assertFindingsInside(result.findings, byPath);
    JSON.parse(renderJson(result));
    assertMarkdownStructure(renderCheckSummary(result), "check summary");
    for (const entry of result.findings.slice(0, 10)) assertFindingComment(entry, entry.fix?.replacement);
    for (const table of [...result.schema.tables.values()].slice(0, 2)) {
      assertMarkdownStructure(renderExplainMarkdown(explain(result, { kind: "table", name: quotedName(table.name) })), "explain table");
    }
    for (const query of result.queries.slice(0, 3)) assertMarkdownStructure(renderExplainMarkdown(explain(result, { kind: "query", id: query.id })), "explain query");
  });
}

/** Saved nodetool output in each form the reader knows, to mutate. */
const STATS_SEEDS: readonly string[] = [
  tablestatsText({ keyspace: "shop", table: "carts", maxBytes: 8239, tombstonesMax: 2 }, { keyspace: "shop", table: "orders", meanBytes: 10_841 }),
  tablestatsText({ keyspace: "shop", table: "carts" }).replace(/^Keyspace: /m, "Keyspace : "),
  '{\n  "shop" : {\n    "tables" : {\n      "carts" : {\n        "sstable_count" : 4,\n        "compacted_partition_maximum_bytes" : 8239,\n        "maximum_tombstones_per_slice_last_five_minutes" : 2,\n        "average_tombstones_per_slice_last_five_minutes" : null\n      }\n    }\n  },\n  "total_number_of_tables" : 3\n}\n',
  "shop:\n  tables:\n    carts:\n      sstable_count: 4\n      compacted_partition_maximum_bytes: 8239\n      maximum_tombstones_per_slice_last_five_minutes: 2\n      average_tombstones_per_slice_last_five_minutes: .NaN\ntotal_number_of_tables: 3\n",
  "shop/carts histograms\nPercentile  SSTables     Write Latency      Read Latency    Partition Size        Cell Count\n                              (micros)          (micros)           (bytes)\n50%             1.00             20.50             35.43               310                 5\n75%             1.00             20.50             35.43               310                 5\n95%             1.00             20.50             35.43               310                 5\n98%             1.00             20.50             35.43               310                 5\n99%             1.00             20.50             35.43               310                 5\nMin             0.00              6.87             51.01               180                 3\nMax             2.00             42.51             89.97              8239               215\n\n",
];
const STATS_FRAGMENTS: readonly string[] = ["\t\tTable: ", "Keyspace: ", ": NaN", ": 1.5 MiB", "Max ", "50% ", "histograms\n", "{", "}", '"tables" : {', "\n", "Top partitions by size (last update: x):\n", "-----"];

function statsProperty(): fc.IProperty<[string]> {
  return fc.property(fc.oneof(mutatedFile(STATS_SEEDS, STATS_FRAGMENTS), fc.string({ unit: "binary", maxLength: 400 })), (text) => {
    const parsed = parseStatsFile({ path: "cassandra-stats/node.txt", content: text });
    const lines = text.split("\n").length;
    assert.ok(parsed.findings.length <= 5, "at most five findings per file");
    for (const found of parsed.findings) {
      assert.ok(found.location.range.start.line >= 1 && found.location.range.start.line <= lines, `finding line ${found.location.range.start.line} outside the file`);
      assert.ok(found.message.startsWith("cassandra-stats/node.txt:"), "a finding names its file");
    }
    for (const table of parsed.tables) {
      for (const figure of Object.values(table.figures)) assert.ok(figure !== undefined && Number.isFinite(figure.value) && figure.line >= 1 && figure.line <= lines, "figures are finite, at a line of the file");
    }
  });
}

export const FUZZ_TARGETS: readonly FuzzTarget[] = [
  {
    name: "stats",
    checks: "parseStatsFile on mutated tablestats (plain, JSON, YAML) and tablehistograms output and binary: never throws, at most five findings, each inside the file, every figure finite",
    property: statsProperty,
    testRuns: 300,
    weight: 10,
  },
  {
    name: "parser",
    checks: "parseCql on mutated CQL, token soup and binary: never throws, every range inside the text with matching line/column, statements in order",
    property: parserProperty,
    testRuns: 300,
    weight: 30,
  },
  {
    name: "manifest",
    checks: "loadManifest on mutated manifests, generated YAML, alias bombs, deep nesting, __proto__ keys: never throws, findings inside the file, prototype clean",
    property: manifestProperty,
    testRuns: 250,
    weight: 15,
  },
  {
    name: "config",
    checks: "loadConfig on the same kinds of YAML: never throws, findings inside the file, the config is always usable, prototype clean",
    property: configProperty,
    testRuns: 250,
    weight: 20,
  },
  {
    name: "diff-hunks",
    checks: "parsePatch and hunkContaining on generated and random patches: never throws, consecutive RIGHT-side lines, containment matches a brute-force search",
    property: diffHunksProperty,
    testRuns: 500,
    weight: 28,
  },
  {
    name: "markdown",
    checks: "check summary and finding comments around hostile names, messages, figures and suggestions: fences close, cells stay cells, no raw HTML, names and suggestions read back",
    property: markdownProperty,
    testRuns: 150,
    weight: 6,
  },
  {
    name: "review",
    checks: "review() end to end on mutated repositories and hostile quoted names, with every renderer: no crash or internal-error finding, findings inside their files, Markdown intact",
    property: reviewProperty,
    testRuns: 25,
    weight: 1,
  },
  {
    name: "mentions",
    checks: "every template the bot posts (comments, review bodies, replies, failure summary) around hostile text, rendered by micromark GFM: no foreign link, image, raw HTML, mention, reference or autolink",
    property: mentionsProperty,
    testRuns: 60,
    weight: 2,
  },
  {
    name: "markers",
    checks: "markers planted in names, messages, figures and suggestions: a comment's own fingerprint is read back, a marker off the last line never is",
    property: markersProperty,
    testRuns: 200,
    weight: 8,
  },
  {
    name: "long-comments",
    checks: "huge messages, figures, suggestions and finding lists: comments and review bodies within GitHub's limit, marker last and read back",
    property: longCommentsProperty,
    testRuns: 15,
    weight: 1,
  },
];
