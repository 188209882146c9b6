// The YAML reader against the `yaml` package it wraps: on every document the package reads
// cleanly it gives the same data, and every key and scalar it locates is where the text writes it;
// everything else gets findings, never an exception. Generated documents, edited ones and the
// fixture manifests.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { parse, parseAllDocuments } from "yaml";
import { describe, expect, it } from "vitest";
import { excessiveFlowNesting, readYamlWithPositions, type PositionedYaml, type YamlPath } from "../../src/manifest/yaml-positions.js";

const SEED = 20_240_611;
const fixture = (name: string) => readFileSync(new URL(`../fixtures/manifests/${name}`, import.meta.url), "utf8");

/** The package's reading, warnings kept off the console (callers check errors with readsCleanly). */
function parseYaml(text: string): unknown {
  return parse(text, { merge: true, logLevel: "silent" });
}

function read(text: string): PositionedYaml {
  return readYamlWithPositions({ path: "access-patterns.yaml", content: text }, { rule: "manifest-invalid", noun: "manifest" });
}

/** Every path of the data, with whether it is a mapping key. */
function pathsOf(data: unknown, prefix: YamlPath = [], out: { path: YamlPath; isKey: boolean }[] = []): { path: YamlPath; isKey: boolean }[] {
  if (Array.isArray(data)) {
    data.forEach((item, i) => {
      out.push({ path: [...prefix, i], isKey: false });
      pathsOf(item, [...prefix, i], out);
    });
  } else if (data !== null && typeof data === "object") {
    for (const [key, value] of Object.entries(data)) {
      out.push({ path: [...prefix, key], isKey: true });
      pathsOf(value, [...prefix, key], out);
    }
  }
  return out;
}

/** Whether the `yaml` package reads the text as one document without errors. */
function readsCleanly(text: string): boolean {
  const docs = parseAllDocuments(text, { uniqueKeys: true, merge: true });
  if (!Array.isArray(docs)) return false;
  return docs.length <= 1 && docs.every((doc) => doc.errors.length === 0);
}

/**
 * The reader's view of a document the package reads cleanly: the same data, every path present,
 * every key located at its own text, every scalar written in the flow styles at text that reads
 * back as its value.
 */
function expectAgreesWithPackage(text: string): void {
  const yaml = read(text);
  expect(yaml.findings, text).toEqual([]);
  expect(readsCleanly(text), text).toBe(true);
  expect(yaml.data, text).toStrictEqual(parseYaml(text) ?? undefined);
  for (const { path, isKey } of pathsOf(yaml.data)) {
    expect(yaml.has(path), `${text}\n${JSON.stringify(path)}`).toBe(true);
    const key = yaml.locate(path, "key");
    const keyText = text.slice(key.start.offset, key.end.offset);
    // Keys brought in by `<<: *alias` are located at the alias; an empty key has no text, and a
    // plain key such as `a:` reads as a mapping on its own.
    const keyRead: unknown = isKey && path.at(-1) !== "" && !keyText.startsWith("*") ? parseYaml(keyText) : undefined;
    if (keyRead !== undefined && (keyRead === null || typeof keyRead !== "object")) expect(String(keyRead), JSON.stringify(path)).toBe(String(path.at(-1)));
    const scalar = yaml.scalarAt(path);
    const scalarText = scalar ? text.slice(scalar.range[0], scalar.range[1]) : "";
    // A tag (`!!str ~`) before the scalar changes what its text means: those are left out.
    const tagged = /![^\s]*\s*$/.test(text.slice(0, scalar?.range[0] ?? 0));
    if (scalar && !tagged && scalar.type !== "BLOCK_LITERAL" && scalar.type !== "BLOCK_FOLDED" && scalarText !== "" && !scalarText.includes("\n")) {
      expect(String((parseYaml(`v: ${scalarText}`) as { v: unknown }).v), JSON.stringify(path)).toBe(String(scalar.value));
    }
  }
}

/**
 * Any text: findings (the package's errors, or the reader's limits), or else a document the
 * package reads cleanly, read the same. Never an exception, never a silent difference.
 */
function expectReadOrReported(text: string): void {
  const yaml = read(text);
  if (yaml.findings.length > 0) return;
  if (yaml.empty) {
    expect(yaml.data).toBeUndefined();
    expect(parseYaml(text), text).toBeNull();
    return;
  }
  expectAgreesWithPackage(text);
}

// ---- generated documents ----

type Scalar = { kind: "scalar"; text: string; style: "plain" | "single" | "double" | "literal" | "folded"; strip: boolean; comment: boolean };
type Tree =
  | Scalar
  | { kind: "empty" }
  | { kind: "map"; entries: { key: string; keyStyle: "plain" | "single" | "double"; value: Tree }[]; flow: boolean; step: number }
  | { kind: "list"; items: Tree[]; flow: boolean; step: number; compact: boolean };

const WORDS = [
  "SELECT videoid, title FROM videos_by_user WHERE userid = ? LIMIT 20",
  "SELECT * FROM t WHERE k IN (?, ?) AND c >= ?",
  "300/s", "2_000_000", "365d", "forever", "=", ">=", "CONTAINS KEY", "desc", "1", "-7", "+3", "007", "0x1F", "0o17", "1.5", "2.",
  ".5", "1e3", "-2.5E-3", "-.inf", ".NaN", "true", "False", "TRUE", "null", "Null", "~", "yes", "no", "on", "5.0", "it's", 'say "hi"',
  "a#b", "a # b", "x: y", "a:b", "- item", "-x", "[x]", "{y}", "café ☕", "emoji 😀", "trailing ", " leading", "", "back\\slash",
  "k=v, w=z", "100%", "@at", "`tick`", "!bang", "&amp", "*star", "|pipe", ">gt", "?q", ":colon", ",comma", "tab\there", "line\nbreak",
];
const KEYS = ["version", "keyspace", "tables", "queries", "id", "cql", "select", "where", "rate", "columns", "a", "B", "ks.videos", "user_id", "Q1", "x-y", "with space", "über", "名前", "1", "true", "null", "a:b", "it's"];
const BLOCK_LINES = ["SELECT a, b", "FROM t", "WHERE k = ?", "", "  more indented", "# not a comment", "- not a list", "key: not a map", "'quoted'", "tail ", "a: b # c"];

const scalarTree: fc.Arbitrary<Tree> = fc.oneof(
  fc.record({
    kind: fc.constant("scalar" as const),
    text: fc.constantFrom(...WORDS),
    style: fc.constantFrom("plain" as const, "single" as const, "double" as const),
    strip: fc.boolean(),
    comment: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant("scalar" as const),
    text: fc.array(fc.constantFrom(...BLOCK_LINES), { minLength: 1, maxLength: 5 }).map((lines) => lines.join("\n")),
    style: fc.constantFrom("literal" as const, "folded" as const),
    strip: fc.boolean(),
    comment: fc.boolean(),
  }),
  fc.constant({ kind: "empty" as const }),
);

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalarTree,
    fc.record({
      kind: fc.constant("map" as const),
      entries: fc.uniqueArray(fc.record({ key: fc.constantFrom(...KEYS), keyStyle: fc.constantFrom("plain" as const, "single" as const, "double" as const), value: tie("node") }), {
        maxLength: 5,
        selector: (entry) => entry.key,
      }),
      flow: fc.boolean(),
      step: fc.integer({ min: 1, max: 4 }),
    }),
    fc.record({
      kind: fc.constant("list" as const),
      items: fc.array(tie("node"), { maxLength: 4 }),
      flow: fc.boolean(),
      step: fc.integer({ min: 1, max: 4 }),
      compact: fc.boolean(),
    }),
  ),
})).node;

/** Whether `text` can be written as a plain scalar in block (or flow) context and read back as itself. */
function plainSafe(text: string, flow: boolean): boolean {
  if (text === "" || /^\s|\s$/.test(text) || /[\n\t]/.test(text)) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(text) && !/^-[^\s,[\]{}]/.test(text)) return false;
  if (/: |:$| #/.test(text)) return false;
  return !flow || !/[,[\]{}:#]/.test(text);
}

function quoted(text: string, style: "single" | "double"): string {
  if (style === "single" && !/[\n\t]/.test(text)) return `'${text.replaceAll("'", "''")}'`;
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n").replaceAll("\t", "\\t").replaceAll("é", "\\u00e9")}"`;
}

function inlineScalar(node: Scalar, flow: boolean): string {
  if (node.style === "plain" && plainSafe(node.text, flow)) return node.text;
  return quoted(node.text.replace(/\n.*/s, ""), node.style === "single" ? "single" : "double");
}

function keyText(key: string, style: "plain" | "single" | "double"): string {
  return style === "plain" && plainSafe(key, false) && typeof parseYaml(key) === "string" ? key : quoted(key, style === "single" ? "single" : "double");
}

function flowKeyText(key: string, style: "plain" | "single" | "double"): string {
  return style === "plain" && plainSafe(key, true) && typeof parseYaml(key) === "string" ? key : quoted(key, style === "single" ? "single" : "double");
}

/** A flow collection holds scalars and flow collections only, on one line. */
function flowText(node: Tree): string {
  if (node.kind === "scalar") return inlineScalar({ ...node, style: node.style === "literal" || node.style === "folded" ? "double" : node.style }, true);
  if (node.kind === "empty") return "~";
  if (node.kind === "list") return `[${node.items.map(flowText).join(", ")}]`;
  return `{ ${node.entries.map((entry) => `${flowKeyText(entry.key, entry.keyStyle)}: ${flowText(entry.value)}`).join(", ")} }`;
}

const pad = (n: number) => " ".repeat(n);

/**
 * The value of a key or list item, written after `key:` or `-`. `indent` is the indentation of the
 * collection holding it; returns the rest of the current line and the lines after it.
 */
function valueText(node: Tree, indent: number, inList: boolean): { inline: string; lines: string[] } {
  switch (node.kind) {
    case "empty":
      return { inline: "", lines: [] };
    case "scalar": {
      if (node.style === "literal" || node.style === "folded") {
        const contentIndent = indent + 1 + (node.text.length % 3);
        let lines = node.text.split("\n");
        // The first line fixes the indentation; folded lines must not be more indented.
        if (node.style === "folded") lines = lines.map((line) => line.trimStart());
        lines[0] = lines[0]!.trimStart() || "first";
        const header = `${node.style === "literal" ? "|" : ">"}${node.strip ? "-" : ""}${node.comment ? "  # block" : ""}`;
        return { inline: ` ${header}`, lines: lines.map((line) => (line === "" ? "" : pad(contentIndent) + line)) };
      }
      return { inline: ` ${inlineScalar(node, false)}${node.comment ? "   # note" : ""}`, lines: [] };
    }
    case "map":
    case "list": {
      const empty = node.kind === "map" ? node.entries.length === 0 : node.items.length === 0;
      if (node.flow || empty) return { inline: ` ${flowText(node)}`, lines: [] };
      // A list under a key may sit at the key's own indentation.
      const nested = node.kind === "list" && node.compact && !inList ? indent : indent + node.step;
      return { inline: "", lines: blockText(node, nested) };
    }
  }
}

function blockText(node: Tree & { kind: "map" | "list" }, indent: number): string[] {
  const lines: string[] = [];
  if (node.kind === "map") {
    node.entries.forEach((entry, i) => {
      if (i % 3 === 2) lines.push(`${pad(i % 2 === 0 ? 0 : indent)}# between entries`);
      if (i % 4 === 3) lines.push("");
      const value = valueText(entry.value, indent, false);
      lines.push(`${pad(indent)}${keyText(entry.key, entry.keyStyle)}:${value.inline}`, ...value.lines);
    });
    return lines;
  }
  for (const item of node.items) {
    const compactMap = item.kind === "map" && !item.flow && item.entries.length > 0;
    if (compactMap) {
      // `- key: value` with the other keys lined up under the first.
      const [first, ...rest] = blockText(item, indent + 2);
      lines.push(`${pad(indent)}- ${first!.slice(indent + 2)}`, ...rest);
      continue;
    }
    const value = valueText(item, indent, true);
    lines.push(`${pad(indent)}-${value.inline}`, ...value.lines);
  }
  return lines;
}

const generatedDocument: fc.Arbitrary<string> = fc
  .record({
    root: tree.filter((node): node is Tree & { kind: "map" | "list" } => (node.kind === "map" || node.kind === "list") && !node.flow),
    rootIndent: fc.constantFrom(0, 0, 2),
    leadingComment: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .filter(({ root }) => (root.kind === "map" ? root.entries.length > 0 : root.items.length > 0))
  .map(({ root, rootIndent, leadingComment, finalNewline }) => {
    const lines = blockText(root, rootIndent);
    const text = [...(leadingComment ? ["# access patterns", ""] : []), ...lines].join("\n");
    return finalNewline ? `${text}\n` : text;
  });

/** Mappings and lists wider than the generated trees. */
const wideCollection: fc.Arbitrary<Tree & { kind: "map" | "list" }> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    scalarTree,
    fc.record({
      kind: fc.constant("map" as const),
      entries: fc.uniqueArray(fc.record({ key: fc.constantFrom(...KEYS), keyStyle: fc.constantFrom("plain" as const, "double" as const), value: tie("node") }), {
        minLength: 7,
        maxLength: 16,
        selector: (entry) => entry.key,
      }),
      flow: fc.boolean(),
      step: fc.integer({ min: 1, max: 3 }),
    }),
    fc.record({
      kind: fc.constant("list" as const),
      items: fc.array(scalarTree, { minLength: 7, maxLength: 14 }),
      flow: fc.boolean(),
      step: fc.integer({ min: 1, max: 3 }),
      compact: fc.boolean(),
    }),
  ),
})).node.filter((node): node is Tree & { kind: "map" | "list" } => (node.kind === "map" || node.kind === "list") && !node.flow);

/** Edits that use more of YAML, or break the file, at random places. */
const edited = (source: fc.Arbitrary<string>) =>
  fc
    .tuple(
      source,
      fc.array(
        fc.record({
          at: fc.nat(),
          remove: fc.integer({ min: 0, max: 6 }),
          insert: fc.constantFrom("", ":", ": ", "- ", "-", " ", "  ", "\n", "\n  ", "#", " #", "'", '"', "\\", "|", ">", "|+", "|2", "[", "]", "{", "}", ",", "&a ", "*a", "!!str ", "? ", "---\n", "...\n", "\t", "\r\n", "<<: ", "__proto__: ", "\ufeff", "1: ", "~", "é"),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([text, edits]) => {
      let out = text;
      for (const edit of edits) {
        const at = out.length === 0 ? 0 : edit.at % (out.length + 1);
        out = out.slice(0, at) + edit.insert + out.slice(at + edit.remove);
      }
      return out;
    });

describe("the reader agrees with the `yaml` package (property)", () => {
  it("generated documents: the same data, keys and scalars located at their text", () => {
    fc.assert(
      fc.property(generatedDocument, (text) => expectAgreesWithPackage(text)),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("wide mappings and lists", () => {
    fc.assert(
      fc.property(wideCollection, (root) => expectAgreesWithPackage(`${blockText(root, 0).join("\n")}\n`)),
      { seed: SEED, numRuns: 30 },
    );
  });

  it("edited documents are read as the package reads them, or reported", () => {
    fc.assert(
      fc.property(edited(generatedDocument), (text) => expectReadOrReported(text)),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("edited real manifests are read as the package reads them, or reported", () => {
    const manifests = ["killrvideo.yaml", "forms.yaml", "bad-figures.yaml", "cql-errors.yaml"].map(fixture);
    fc.assert(
      fc.property(edited(fc.constantFrom(...manifests)), (text) => expectReadOrReported(text)),
      { seed: SEED, numRuns: 100 },
    );
  });

  it("the fixture manifests", () => {
    for (const name of ["killrvideo.yaml", "forms.yaml", "bad-figures.yaml", "cql-errors.yaml", "typo-key.yaml"]) expectAgreesWithPackage(fixture(name));
  });

  it("keeps positions inside block scalars exact for embedded CQL", () => {
    const text = ["queries:", "  - id: Q1", "    cql: >-", "      SELECT a FROM t", "      WHERE k = ? AND c = 'x: y'", "  - id: Q2", "    cql: |", "      SELECT b FROM u", ""].join("\n");
    expectAgreesWithPackage(text);
    const yaml = read(text);
    expect(yaml.scalarAt(["queries", 0, "cql"])).toMatchObject({ type: "BLOCK_FOLDED", value: "SELECT a FROM t WHERE k = ? AND c = 'x: y'" });
    expect(yaml.scalarAt(["queries", 1, "cql"])).toMatchObject({ type: "BLOCK_LITERAL", value: "SELECT b FROM u\n" });
  });
});

describe("every construct of YAML is read as the package reads it, or reported", () => {
  const outside: [string, string][] = [
    ["an anchor and an alias", "a: &x 1\nb: *x\n"],
    ["a merge key", "base: &b { x: 1 }\nc:\n  <<: *b\n"],
    ["a tag", "a: !!str 1\n"],
    ["a directive", "%YAML 1.2\n---\na: 1\n"],
    ["a document marker", "---\na: 1\n"],
    ["two documents", "a: 1\n---\nb: 2\n"],
    ["a document end", "a: 1\n...\n"],
    ["tabs", "a:\n\tb: 1\n"],
    ["Windows line ends", "a: 1\r\nb: 2\r\n"],
    ["a byte-order mark", "\ufeffa: 1\n"],
    ["a duplicate key", "a: 1\na: 2\n"],
    ["a __proto__ key", "__proto__: { polluted: true }\n"],
    ["an explicit key", "? a\n: 1\n"],
    ["a numeric key", "1: one\n"],
    ["a multi-line plain scalar", "a: SELECT x\n  FROM t\n"],
    ["a multi-line quoted scalar", 'a: "SELECT x\n  FROM t"\n'],
    ["a flow collection over lines", "a: [1,\n  2]\n"],
    ["a kept block scalar", "a: |+\n  x\n\n"],
    ["an indentation indicator", "a: |2\n   x\n"],
    ["a folded scalar with a more indented line", "a: >\n  x\n    y\n"],
    ["a block scalar with leading blank lines", "a: |\n\n  x\n"],
    ["an empty block scalar", "a: |\nb: 1\n"],
    ["a value with `: ` inside", "a: b: c\n"],
    ["an empty value with a comment", "a: # nothing\nb: 1\n"],
    ["wrong indentation", "a:\n  b: 1\n c: 2\n"],
    ["a nested list on the dash line", "- - a\n"],
    ["an empty file", ""],
    ["only comments", "# nothing here\n"],
    ["a single scalar", "hello\n"],
    ["a trailing comma", "a: [1, 2,]\n"],
    ["deep nesting", `${Array.from({ length: 70 }, (_, i) => `${pad(i)}k${i}:`).join("\n")} 1\n`],
    ["a control character", "a: \u0007\n"],
  ];
  for (const [what, text] of outside) {
    it(what, () => expectReadOrReported(text));
  }

  it("a mapping, list or alias as a key is refused at the key (JavaScript would turn it into text)", () => {
    for (const text of ["a: 1\n? [x, y]\n: 2\n", "a: 1\n? { x: 1 }\n: 2\n", "a: &k x\n*k : 2\n"]) {
      const yaml = read(text);
      expect(yaml.data, text).toBeUndefined();
      expect(yaml.findings.map((f) => [f.location.range.start.line, f.message]), text).toEqual([
        [2, "a key must be a name or quoted text, not a mapping, a list or an alias; the manifest was not read"],
      ]);
    }
  });

  it("the path [\"\"] is not the document", () => {
    const yaml = read("a: 1\n");
    expect(yaml.has([])).toBe(true);
    expect(yaml.has([""])).toBe(false);
  });

  it("an alias bomb and a __proto__ key get their findings", () => {
    const bomb = read(fixture("alias-bomb.yaml"));
    expect(bomb.findings.map((f) => f.message).join("\n")).toMatch(/alias bomb/);
    const proto = read("a: 1\n__proto__: 2\n");
    expect(proto.findings.map((f) => f.message)).toEqual(['__proto__: "__proto__" cannot be used as a key']);
    expect(Object.getPrototypeOf(proto.data)).toBe(Object.prototype);
  });

  it("a key longer than 1,024 characters is refused, as the package refuses it, at the key", () => {
    const long = "k".repeat(1025);
    const yaml = read(`version: 1\n${long}: 1\n`);
    expect(yaml.data).toBeUndefined();
    expect(yaml.findings.map((f) => [f.location.range.start.line, f.location.range.start.column, f.message])).toEqual([
      [2, 1, "a key may be at most 1,024 characters long (a YAML limit for keys written without `? `); shorten it"],
    ]);
    expect(read(`version: 1\n${"k".repeat(1024)}: 1\n`).findings).toEqual([]);
  });
});

describe("the flow nesting guard before the parser", () => {
  /** The guard's rule, one character at a time: `[`/`{` nest, `]`/`}` close, quotes and comments are not skipped. */
  function naiveTooDeepAt(text: string, limit: number): number {
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === "[" || c === "{") {
        if (++depth > limit) return i;
      } else if ((c === "]" || c === "}") && depth > 0) depth--;
    }
    return -1;
  }

  it("finds where the naive count first passes the limit (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("[", "{", "]", "}", "a", "b: ", ", ", "\n", "'", "# "), { maxLength: 60 }), fc.integer({ min: 0, max: 6 }), (parts, limit) => {
        const text = parts.join("");
        expect(excessiveFlowNesting(text, limit)).toBe(naiveTooDeepAt(text, limit));
      }),
      { seed: SEED, numRuns: 800 },
    );
  });

  it("refuses a file at that place", () => {
    const text = "a: [1, {b: [2]}]\nc: ]]] [[{[x]}]]\n";
    const yaml = readYamlWithPositions({ path: "m.yaml", content: text }, { rule: "manifest-invalid", noun: "manifest", limits: { maxDepth: 3 } });
    expect(yaml.data).toBeUndefined();
    expect(yaml.findings.map((f) => [f.location.range.start.offset, f.message])).toEqual([[naiveTooDeepAt(text, 3), "nested more than 3 levels deep; the manifest was not read"]]);
    expect(naiveTooDeepAt(text, 3)).toBe(text.indexOf("[x"));
  });
});
