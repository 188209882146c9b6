import { expect } from "vitest";
import type { ParseResult, Statement, StatementKind } from "../../src/cql/ast.js";
import { parseCql } from "../../src/cql/index.js";

/** The statement type whose `kind` includes K (DropStatement has several kinds). */
type StatementOf<K extends StatementKind> = Statement extends infer S ? (S extends { kind: infer SK } ? (K extends SK ? S : never) : never) : never;

/** Parses exactly one statement of the given kind, with no diagnostics. */
export function parseOne<K extends StatementKind>(text: string, kind: K): StatementOf<K> {
  const result = parseCql(text);
  expect(result.diagnostics).toEqual([]);
  expect(result.statements).toHaveLength(1);
  const statement = result.statements[0]!;
  expect(statement.kind).toBe(kind);
  return statement as StatementOf<K>;
}

/** A copy without `range`, `text` and other position fields, for comparing shapes. */
export function withoutPositions<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (key, v) =>
      key === "range" || key === "text" || key === "bodyRange" || key === "withRange" || key === "clusteringOrderRange" || key === "compactStorageRange"
        ? undefined
        : v,
    ),
  ) as T;
}

/** Every range in a parse result, with where it was found. */
export function allRanges(result: ParseResult): { path: string; range: { start: { offset: number; line: number; column: number }; end: { offset: number; line: number; column: number } } }[] {
  const found: ReturnType<typeof allRanges> = [];
  const visit = (value: unknown, path: string) => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, `${path}[${i}]`));
      return;
    }
    if (value === null || typeof value !== "object") return;
    const record = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(record)) {
      if (key.endsWith("ange") && child && typeof child === "object" && "start" in child) {
        found.push({ path: `${path}.${key}`, range: child as never });
      } else {
        visit(child, `${path}.${key}`);
      }
    }
  };
  visit(result, "result");
  return found;
}

/**
 * The (line, column) of an offset, counting \n, \r\n and \r as line breaks; a byte order mark
 * at the start takes no column.
 */
export function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let column = text.startsWith("\uFEFF") && offset > 0 ? 0 : 1;
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) {
      line++;
      column = 1;
    } else {
      column++;
    }
  }
  return { line, column };
}
