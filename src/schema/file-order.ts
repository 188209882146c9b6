// The order the schema files are applied in: path order (a migration directory's 001_, 002_, …),
// except that a file which alters or indexes a table that another reviewed file creates comes after
// that file. `zipkin-schema-indexes.cql` sorts before `zipkin-schema.cql` ('-' before '.'), yet
// its ALTER TABLE and CREATE INDEX need the table the other file creates; a reader of the
// repository, like the application, applies the creating file first.
import type { Statement } from "../cql/ast.js";

interface OrderedFile {
  path: string;
  parse: { statements: readonly Statement[] };
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** The table a statement needs to exist, by name (keyspaces are left out: USE makes them unreliable here). */
function tableNeeded(statement: Statement): string | undefined {
  switch (statement.kind) {
    case "alter-table":
      return statement.name.name.name;
    case "create-index":
      return statement.table.name.name;
    case "create-materialized-view":
      return statement.baseTable.name.name;
    default:
      return undefined;
  }
}

/** Schema files in the order they are applied (see the header); a cycle falls back to path order. */
export function applyOrder<File extends OrderedFile>(files: readonly File[]): File[] {
  const sorted = [...files].sort(byPath);
  const creators = new Map<string, number>();
  sorted.forEach((file, index) => {
    for (const statement of file.parse.statements) {
      if (statement.kind === "create-table" && !creators.has(statement.name.name.name)) creators.set(statement.name.name.name, index);
    }
  });
  // after[i]: the files that must come before file i.
  const after = sorted.map(() => new Set<number>());
  sorted.forEach((file, index) => {
    const createdHere = new Set<string>();
    for (const statement of file.parse.statements) {
      if (statement.kind === "create-table") createdHere.add(statement.name.name.name);
      const needed = tableNeeded(statement);
      if (needed === undefined || createdHere.has(needed)) continue;
      const creator = creators.get(needed);
      if (creator !== undefined && creator !== index) after[index]!.add(creator);
    }
  });
  if (after.every((set) => set.size === 0)) return sorted;
  const placed = new Set<number>();
  const result: File[] = [];
  while (result.length < sorted.length) {
    const next = sorted.findIndex((_, i) => !placed.has(i) && [...after[i]!].every((j) => placed.has(j)));
    // A cycle (each file needs a table of the other): no order satisfies both, keep path order.
    if (next < 0) return sorted;
    placed.add(next);
    result.push(sorted[next]!);
  }
  return result;
}
