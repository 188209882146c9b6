// Input generators for the fuzz targets (fast-check arbitraries): mutations of valid files, YAML
// built to stress a loader (anchors, alias bombs, merge keys, `__proto__`, tags, deep nesting),
// unified-diff patches, and hostile names for the Markdown renderers. Shared by the bounded
// property tests (fuzz.test.ts) and the long runs of `npm run fuzz`.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { generateCql } from "../../bench/generate-cql.js";

/** The repository's own files: test/fuzz/ and dist/fuzz/ are both two levels below the root. */
const ROOT = new URL("../../", import.meta.url);
export const readRepositoryFile = (path: string): string => readFileSync(new URL(path, ROOT), "utf8");

// ---------------------------------------------------------------------------------------------
// Seeds: valid files people write

export const CQL_SEEDS: readonly string[] = [
  readRepositoryFile("examples/iot/schema/001_keyspace.cql"),
  readRepositoryFile("examples/iot/schema/010_accounts.cql"),
  readRepositoryFile("examples/iot/schema/020_devices.cql"),
  readRepositoryFile("examples/iot/schema/030_telemetry.cql"),
  readRepositoryFile("examples/iot/schema/040_alerts.cql"),
  // the parser's benchmark generator: views, functions, DML and batches the sample does not have
  generateCql(3_000, 1).text,
  generateCql(3_000, 2).text,
];

export const MANIFEST_SEEDS: readonly string[] = [
  readRepositoryFile("examples/iot/access-patterns.yaml"),
  readRepositoryFile("test/fixtures/manifests/killrvideo.yaml"),
  readRepositoryFile("test/fixtures/manifests/forms.yaml"),
  readRepositoryFile("test/fixtures/manifests/anchors.yaml"),
];

export const CONFIG_SEEDS: readonly string[] = [
  readRepositoryFile("test/fixtures/configs/full.yml"),
  readRepositoryFile("test/fixtures/github/cql-review.yml"),
];

// ---------------------------------------------------------------------------------------------
// Mutations

/** Characters and fragments that break CQL: quotes, comment and string openers, separators, odd Unicode. */
export const CQL_FRAGMENTS = [
  "(", ")", ";", ",", ".", "'", '"', "$$", "/*", "*/", "--", "//", "<", ">", "<<", "frozen<", "{", "}", "[", "]", "?", ":", "=",
  "\n", "\r", "\r\n", "\t", " ", "\u0000", "\u2028", "\uFEFF", "\uD800", "é", "🦄",
  "PRIMARY KEY", "WITH", "AND", "CREATE TABLE t (", "SELECT * FROM", "WHERE", "ALLOW FILTERING", "USE ks;", "BEGIN BATCH", "APPLY BATCH;",
  "0x", "1e", "-", "9999999999999999999999", "NaN", "Infinity", "uuid", "map<text,", "vector<float, 3>",
  "-- cql-review-disable-next-line query-full-scan -- reason\n", "<<<<<<< HEAD\n", "${x}", "{{y}}", "#", "|",
] as const;

export const YAML_FRAGMENTS = [
  ":", ": ", "- ", "-", "\t", "  ", "\n", "\r\n", "&a ", "*a", "&b ", "*b", "{", "}", "[", "]", "'", '"', "#", "<<: ", "<<: *a",
  "__proto__: ", "constructor: ", "prototype: ", "|", ">", "|-", "---\n", "...\n", "%YAML 1.1\n", "!!binary ", "!!str ", "!!map ",
  "!!js/function ", "!<tag:yaml.org,2002:str> ", "? ", "~", "null", "true", "0x1F", ".inf", "1e309", "2_000_000", "5/day", "forever",
  "\u0000", "\uFEFF", "\uD800", "é", "🦄",
] as const;

export interface Edit {
  kind: "delete" | "duplicate" | "move" | "insert";
  at: number;
  length: number;
  fragment: string;
}

/** Applies edits in order; positions are taken modulo the current length so every edit applies. */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  let text = source;
  for (const edit of edits) {
    const at = text.length === 0 ? 0 : edit.at % (text.length + 1);
    const chunk = text.slice(at, at + edit.length);
    if (edit.kind === "delete") text = text.slice(0, at) + text.slice(at + edit.length);
    else if (edit.kind === "duplicate") text = text.slice(0, at) + chunk + text.slice(at);
    else if (edit.kind === "insert") text = text.slice(0, at) + edit.fragment + text.slice(at);
    else {
      const rest = text.slice(0, at) + text.slice(at + edit.length);
      const to = rest.length === 0 ? 0 : (edit.at * 7919) % (rest.length + 1);
      text = rest.slice(0, to) + chunk + rest.slice(to);
    }
  }
  return text;
}

const edit = (fragments: readonly string[]): fc.Arbitrary<Edit> =>
  fc.record({
    kind: fc.constantFrom("delete", "duplicate", "move", "insert"),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 60 }),
    fragment: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fragments) }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) }),
  });

/** A seed file with one to eight edits: the broken files people actually commit. */
export function mutatedFile(seeds: readonly string[], fragments: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...seeds), fc.array(edit(fragments), { minLength: 1, maxLength: 8 }))
    .map(([seed, edits]) => applyEdits(seed, edits));
}

/** Token soup: fragments strung together, sometimes with raw binary. */
export function fragmentSoup(fragments: readonly string[]): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...fragments) }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) }), { maxLength: 60 })
    .map((parts) => parts.join(" "));
}

export const cqlInput: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: mutatedFile(CQL_SEEDS, CQL_FRAGMENTS) },
  { weight: 2, arbitrary: fragmentSoup(CQL_FRAGMENTS) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
);

// ---------------------------------------------------------------------------------------------
// YAML built to stress a loader

const yamlKey = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("version", "keyspace", "cassandra", "tables", "queries", "writes", "id", "cql", "select", "where", "order_by", "limit", "rate", "partitions", "rows_per_partition", "growth", "retention", "columns", "ignore", "rule", "reason", "schema", "manifest", "fail_on", "limits", "rules", "comments", "max", "event", "partition_bytes") },
  { weight: 2, arbitrary: fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "<<", '"__proto__"', "'__proto__'", "? complex") },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((key) => JSON.stringify(key)) },
);

const yamlScalar = fc.oneof(
  fc.constantFrom("1", "0", "-1", "1.5", "2_000_000", "5/day", "300/s", "365d", "forever", "64MiB", "100MB", "true", "null", "~", "'4.0'", '"5.0"', "5.0", "3.11", "error", "warning", "off", "=", '"="', '">="', "IN", "CONTAINS KEY", "desc", "asc"),
  fc.constantFrom("SELECT a FROM t WHERE k = ?", "SELECT * FROM ks.t WHERE a IN (?, ?) ALLOW FILTERING", "INSERT INTO t (a) VALUES (?)", "'unterminated", "[1, 2", "{ a: "),
  fc.constantFrom("!!binary aGVsbG8=", "!!str 5", "!!int 7", "!!float .nan", "!!js/function 'function(){}'", "!custom x", ".inf", "-.inf", "0o17", "0x1F", "1e309", "2001-12-14t21:59:43.10-05:00"),
  fc.string({ maxLength: 16 }).map((text) => JSON.stringify(text)),
);

/** A YAML document as text: block and flow collections, anchors on some nodes, aliases to earlier anchors. */
export const yamlDocument: fc.Arbitrary<string> = fc
  .letrec((tie) => ({
    node: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("scalar"), tie("blockMap"), tie("blockSeq"), tie("flow")),
    scalar: yamlScalar.map((value) => ({ kind: "scalar" as const, value })),
    blockMap: fc.array(fc.tuple(yamlKey, tie("node")), { minLength: 1, maxLength: 5 }).map((entries) => ({ kind: "map" as const, entries })),
    blockSeq: fc.array(tie("node"), { minLength: 1, maxLength: 4 }).map((items) => ({ kind: "seq" as const, items })),
    flow: fc.array(fc.tuple(yamlKey, yamlScalar), { maxLength: 4 }).map((entries) => ({ kind: "flow" as const, entries })),
  }))
  .node.chain((tree) => fc.tuple(fc.constant(tree), fc.array(fc.nat(), { maxLength: 40 })))
  .map(([tree, choices]) => renderYaml(tree as YamlTree, choices));

type YamlTree =
  | { kind: "scalar"; value: string }
  | { kind: "map"; entries: [string, YamlTree][] }
  | { kind: "seq"; items: YamlTree[] }
  | { kind: "flow"; entries: [string, string][] };

/**
 * Renders a tree; `choices` decide, node by node, whether to put an anchor on it or to replace it
 * with an alias to an anchor defined earlier (so aliases always refer backwards, as YAML needs).
 */
function renderYaml(tree: YamlTree, choices: number[]): string {
  let next = 0;
  const anchors: string[] = [];
  const choose = () => choices[next++ % Math.max(choices.length, 1)] ?? 0;
  const decorate = (): { prefix: string; alias?: string } => {
    const choice = choose() % 10;
    if (choice === 0) {
      const name = `a${anchors.length}`;
      anchors.push(name);
      return { prefix: `&${name} ` };
    }
    if (choice === 1 && anchors.length > 0) return { prefix: "", alias: `*${anchors[choose() % anchors.length]}` };
    return { prefix: "" };
  };
  const render = (node: YamlTree, indent: number): string => {
    const pad = " ".repeat(indent);
    const { prefix, alias } = decorate();
    if (alias) return ` ${alias}`;
    switch (node.kind) {
      case "scalar":
        return ` ${prefix}${node.value}`;
      case "flow":
        return ` ${prefix}{ ${node.entries.map(([key, value]) => `${key}: ${value}`).join(", ")} }`;
      case "map":
        return `${prefix ? ` ${prefix.trim()}` : ""}\n${node.entries.map(([key, value]) => `${pad}${key}:${render(value, indent + 2)}`).join("\n")}`;
      case "seq":
        return `${prefix ? ` ${prefix.trim()}` : ""}\n${node.items.map((item) => `${pad}-${render(item, indent + 2)}`).join("\n")}`;
    }
  };
  if (tree.kind === "map") return `${tree.entries.map(([key, value]) => `${key}:${render(value, 2)}`).join("\n")}\n`;
  return `value:${render(tree, 2)}\n`;
}

/** `levels` of anchors, each a list of `width` aliases to the one before: width^levels nodes if expanded. */
export const aliasBomb: fc.Arbitrary<string> = fc
  .record({ levels: fc.integer({ min: 2, max: 12 }), width: fc.integer({ min: 2, max: 12 }), flow: fc.boolean(), prefix: fc.constantFrom("version: 1\n", "version: 1\nqueries:\n  - id: Q1\n    cql: SELECT a FROM t\n", "") })
  .map(({ levels, width, flow, prefix }) => {
    const lines = [`l0: &l0 ${flow ? "[x, y]" : "x"}`];
    for (let level = 1; level <= levels; level++) {
      const aliases = Array.from({ length: width }, () => `*l${level - 1}`);
      lines.push(`l${level}: &l${level} [${aliases.join(", ")}]`);
    }
    return `${prefix}${lines.join("\n")}\nqueries: *l${levels}\n`;
  });

/** Deeply nested flow or block collections, around the loader's depth limit. */
export const deepNesting: fc.Arbitrary<string> = fc
  .record({ depth: fc.integer({ min: 50, max: 400 }), flow: fc.boolean() })
  .map(({ depth, flow }) =>
    flow ? `version: 1\nqueries: ${"[".repeat(depth)}1${"]".repeat(depth)}\n` : `version: 1\n${Array.from({ length: depth }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")} 1\n`,
  );

export function yamlInput(seeds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: mutatedFile(seeds, YAML_FRAGMENTS) },
    { weight: 4, arbitrary: yamlDocument },
    { weight: 1, arbitrary: aliasBomb },
    { weight: 1, arbitrary: deepNesting },
    { weight: 1, arbitrary: fragmentSoup(YAML_FRAGMENTS) },
  );
}

// ---------------------------------------------------------------------------------------------
// Unified-diff patches

const patchLine = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom(" ", "+", "-"), fc.string({ maxLength: 20 })).map(([marker, text]) => marker + text) },
  { weight: 1, arbitrary: fc.constantFrom("", "\\ No newline at end of file", "\r", "@@ broken", "@@ -1 +1 @@", "@@ -0,0 +1 @@", "@@ -5,2 +99999999999,3 @@ ctx") },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
);

const hunkHeader = fc
  .record({ oldStart: fc.nat({ max: 100_000 }), oldCount: fc.option(fc.nat({ max: 50 })), newStart: fc.nat({ max: 100_000 }), newCount: fc.option(fc.nat({ max: 50 })), context: fc.string({ maxLength: 20 }) })
  .map(({ oldStart, oldCount, newStart, newCount, context }) => `@@ -${oldStart}${oldCount === null ? "" : `,${oldCount}`} +${newStart}${newCount === null ? "" : `,${newCount}`} @@${context ? ` ${context}` : ""}`);

/** Patches with plausible and implausible headers, bodies that disagree with them, CRLF and junk. */
export const patchInput: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.array(fc.tuple(hunkHeader, fc.array(patchLine, { maxLength: 15 })), { maxLength: 6 }), fc.constantFrom("\n", "\r\n"))
      .map(([hunks, newline]) => hunks.map(([header, lines]) => [header, ...lines].join(newline)).join(newline)),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 300 }) },
);

// ---------------------------------------------------------------------------------------------
// Hostile text for the Markdown renderers

/** What could break out of a code span, a table cell, a fence, an HTML comment or a Mermaid label. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.constantFrom("`", "``", "```", "````", "~~~", "|", "\\", "\\|", "<!--", "-->", "--", "<details>", "</summary>", "<script>", "[x](javascript:1)", "**", "_", "*", "#", "> ", "- ", "1. ", "&amp;", "$$", "\n", "\r\n", "\r", "\u2028", " ", "a", "é", "🦄", '"', "#35;", ")]", "]", "["), { minLength: 1, maxLength: 14 }).map((parts) => parts.join("")),
  fc.string({ unit: fc.constantFrom(..."`|\\*_[]<>#-+.!&$:\"'()~=^\n\r\t a"), minLength: 1, maxLength: 40 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
  fc.string({ unit: "binary", minLength: 1, maxLength: 20 }),
);

/** A CQL quoted identifier holding `name` (`"` doubled), as a schema author would write it. */
export function quotedName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
