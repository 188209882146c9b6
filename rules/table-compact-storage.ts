// COMPACT STORAGE is the Thrift-era layout: deprecated in 3.x, refused by CREATE TABLE in 4.0.
import { rangeBetween, schemaFileOf, tableEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleFix, RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

const isSpace = (char: string | undefined): boolean => char !== undefined && /\s/.test(char);
const isBlank = (char: string | undefined): boolean => char === " " || char === "\t";
/** Whether the line ending at `at` holds `--` or `//` (a line comment, or the same in a string: then the line break is kept for nothing worse). */
function endsInLineComment(text: string, at: number): boolean {
  const lineStart = Math.max(text.lastIndexOf("\n", at - 1), text.lastIndexOf("\r", at - 1)) + 1;
  const line = text.slice(lineStart, at);
  return line.includes("--") || line.includes("//");
}
const isWordChar = (char: string | undefined): boolean => char !== undefined && /\w/.test(char);

/**
 * The `AND` or `WITH` that ends `text` before `at`, with the whitespace around it: where that
 * begins, or undefined. A backward scan: `/\s+AND\s+$/` retries every whitespace run it meets.
 */
function joinBefore(text: string, at: number): { keyword: "AND" | "WITH"; from: number } | undefined {
  let wordEnd = at;
  while (isSpace(text[wordEnd - 1])) wordEnd--;
  if (wordEnd === at) return undefined;
  for (const keyword of ["AND", "WITH"] as const) {
    const wordStart = wordEnd - keyword.length;
    if (wordStart < 0 || text.slice(wordStart, wordEnd).toUpperCase() !== keyword) continue;
    // White space before the keyword goes with it, but for the line break that ends a line
    // comment: without it the comment would run on over what follows.
    let from = wordStart;
    while (isSpace(text[from - 1])) from--;
    if (from < wordStart && endsInLineComment(text, from)) {
      from = wordStart;
      while (isBlank(text[from - 1])) from--;
    }
    // `AND` needs whitespace before it; `WITH` only a word boundary.
    if (keyword === "AND" ? !isSpace(text[wordStart - 1]) : isWordChar(text[wordStart - 1])) continue;
    return { keyword, from };
  }
  return undefined;
}

/**
 * The `AND` after `at`, past white space and comments (at least one of them): where it starts,
 * where the white space after it ends, and whether comments come before it.
 */
function andAfter(text: string, at: number): { andStart: number; end: number; comments: boolean } | undefined {
  let position = at;
  let comments = false;
  for (;;) {
    const space = /\s+/y;
    space.lastIndex = position;
    if (space.exec(text)) position = space.lastIndex;
    if (text.startsWith("--", position) || text.startsWith("//", position)) {
      const lineEnd = text.slice(position).search(/[\r\n]/);
      if (lineEnd < 0) return undefined;
      position += lineEnd;
      comments = true;
    } else if (text.startsWith("/*", position)) {
      const close = text.indexOf("*/", position + 2);
      if (close < 0) return undefined;
      position = close + 2;
      comments = true;
    } else break;
  }
  if (position === at) return undefined;
  const and = /AND\s+/iy;
  and.lastIndex = position;
  return and.exec(text) ? { andStart: position, end: and.lastIndex, comments } : undefined;
}

/** Removes `COMPACT STORAGE` with the `WITH` or `AND` that joins it to the other properties. */
function dropClauseFix(model: AnalysedModel, table: TableModel, existsAtBase: boolean): RuleFix | undefined {
  const statement = table.statement;
  if (statement.kind !== "create-table" || !statement.compactStorageRange) return undefined;
  const file = schemaFileOf(model, table.source.file);
  if (!file) return undefined;
  const start = statement.compactStorageRange.start.offset;
  const end = statement.compactStorageRange.end.offset;
  const after = andAfter(file.text, end);
  const before = joinBefore(file.text, start);
  let range: [number, number] | undefined;
  let replacement = "";
  if (after && (!before || before.keyword === "WITH")) {
    range = [start, after.end];
    // Comments between the clause and its AND are the author's: they stay.
    if (after.comments) replacement = file.text.slice(end, after.andStart);
  } else if (before) range = [before.from, end];
  if (!range) return undefined;
  return {
    description: existsAtBase
      ? `Remove COMPACT STORAGE from ${table.name}. The table already exists: on 3.x run \`ALTER TABLE ${table.name} DROP COMPACT STORAGE\` on every node before upgrading to 4.0.`
      : `Remove COMPACT STORAGE from ${table.name}.`,
    file: file.path,
    range: rangeBetween(file.text, range[0], range[1]),
    replacement,
    // A table new in the change is created without the clause, nothing more. A live table keeps its
    // layout until `ALTER TABLE … DROP COMPACT STORAGE` runs: editing the file alone would hide that.
    safe: !existsAtBase,
  };
}

const tableCompactStorage: RuleModule = {
  meta: {
    id: "table-compact-storage",
    category: "table",
    defaultSeverity: "error",
    description: "The table uses COMPACT STORAGE, which Cassandra 4.0 removed.",
    messages: {
      removed:
        "{table} is declared WITH COMPACT STORAGE, which Cassandra 4.0 removed: a {version} node rejects the CREATE as a syntax error, and refuses to start while a compact table exists. Drop the clause; the table then stores rows in the regular CQL layout.",
      deprecated:
        "{table} is declared WITH COMPACT STORAGE, the Thrift-era layout that Cassandra 4.0 removed: it must be dropped (`ALTER TABLE … DROP COMPACT STORAGE`) before any upgrade, and it forbids static columns, non-frozen collections and more than one non-key column. Drop the clause.",
    },
    fixable: true,
    safeFix: true,
  },
  check(context) {
    const { model } = context;
    for (const table of model.schema.tables.values()) {
      if (!table.compactStorage || table.statement.kind !== "create-table") continue;
      const existsAtBase = context.base?.schema.tables.has(table.qualifiedName) ?? false;
      const fix = dropClauseFix(model, table, existsAtBase);
      const range = table.statement.compactStorageRange ?? table.source.range;
      context.report({
        messageId: model.version === "3.11" ? "deprecated" : "removed",
        data: { table: tableLabel(model, table.qualifiedName), version: model.version },
        file: table.source.file,
        range,
        entity: tableEntity(table.qualifiedName),
        ...(fix ? { fix } : {}),
      });
    }
  },
};

export default tableCompactStorage;
