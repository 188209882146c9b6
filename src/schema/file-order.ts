// The order the schema files are applied in, and which of them are applied at all.
//
// - Path order, reading numbers in names as numbers: migration tools apply `V2__…` before
//   `V10__…` and `2_add.cql` before `10_add.cql` (Flyway-style cassandra-migration and
//   cognitor's cassandra-migration both compare versions numerically), and zero-padded or
//   timestamped names (JHipster's `changelog/20150805124838_…`) sort the same either way.
// - A file that alters or indexes a table that another reviewed file creates comes after that
//   file: `zipkin-schema-indexes.cql` sorts before `zipkin-schema.cql` ('-' before '.'), yet its
//   ALTER TABLE and CREATE INDEX need the table the other file creates.
// - A file that creates a keyspace comes before the files that put objects in it, or that name
//   tables without a keyspace and without USE (the session's keyspace, which the tool creates
//   first): JHipster keeps `create-keyspace.cql` beside `changelog/`, which sorts before it.
// - A tear-down script, a file of nothing but DROPs (`drop-keyspace.cql`), is run to reset a
//   database, not to build it: it is not applied. A DROP inside a migration that also builds
//   something is applied (and reviewed) like any other statement.
import type { Statement } from "../cql/ast.js";

interface OrderedFile {
  path: string;
  parse: { statements: readonly Statement[] };
}

const NUMBER_OR_TEXT = /(\d+)|(\D+)/g;

/** Compares paths as a person and migration tools do: digit runs by value, the rest by code point. */
export function comparePaths(a: string, b: string): number {
  const partsA = [...a.matchAll(NUMBER_OR_TEXT)];
  const partsB = [...b.matchAll(NUMBER_OR_TEXT)];
  for (let i = 0; i < Math.min(partsA.length, partsB.length); i++) {
    const [textA, numberA] = [partsA[i]![0], partsA[i]![1]];
    const [textB, numberB] = [partsB[i]![0], partsB[i]![1]];
    if (numberA !== undefined && numberB !== undefined) {
      const difference = BigInt(numberA) - BigInt(numberB);
      if (difference !== 0n) return difference < 0n ? -1 : 1;
      if (numberA.length !== numberB.length) return numberA.length - numberB.length;
      continue;
    }
    if (textA !== textB) return textA < textB ? -1 : 1;
  }
  if (partsA.length !== partsB.length) return partsA.length - partsB.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

const DROPS: ReadonlySet<Statement["kind"]> = new Set([
  "drop-keyspace",
  "drop-table",
  "drop-type",
  "drop-index",
  "drop-materialized-view",
  "drop-function",
  "drop-aggregate",
]);

/** A file of nothing but DROPs (USE aside), at least one: a script that tears a database down. */
export function isTeardownScript(file: OrderedFile): boolean {
  const statements = file.parse.statements.filter((statement) => statement.kind !== "use");
  return statements.length > 0 && statements.every((statement) => DROPS.has(statement.kind));
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

/** The keyspaces a file's statements put objects in: named ones, and "" for names with neither keyspace nor USE before them. */
function keyspacesNeeded(file: OrderedFile): Set<string> {
  const needed = new Set<string>();
  let used = false;
  for (const statement of file.parse.statements) {
    if (statement.kind === "use") {
      used = true;
      needed.add(statement.keyspace.name);
      continue;
    }
    const name =
      statement.kind === "create-table" || statement.kind === "create-type" || statement.kind === "create-materialized-view"
        ? statement.name
        : statement.kind === "create-index"
          ? statement.table
          : undefined;
    if (name === undefined) continue;
    const keyspace = name.keyspace?.name;
    if (keyspace !== undefined) needed.add(keyspace);
    else if (!used) needed.add("");
  }
  return needed;
}

/**
 * The schema files that are applied, in the order they are applied (see the header). Tear-down
 * scripts are left out; a cycle of needs falls back to path order.
 */
export function applyOrder<File extends OrderedFile>(files: readonly File[]): File[] {
  const sorted = files.filter((file) => !isTeardownScript(file)).sort((a, b) => comparePaths(a.path, b.path));
  const creators = new Map<string, number>();
  const keyspaceCreators = new Map<string, number[]>();
  sorted.forEach((file, index) => {
    for (const statement of file.parse.statements) {
      if (statement.kind === "create-table" && !creators.has(statement.name.name.name)) creators.set(statement.name.name.name, index);
      if (statement.kind === "create-keyspace") keyspaceCreators.set(statement.name.name, [...(keyspaceCreators.get(statement.name.name) ?? []), index]);
    }
  });
  const allKeyspaceCreators = [...new Set([...keyspaceCreators.values()].flat())];
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
    // A file that creates keyspaces of its own is where its objects' keyspaces come from.
    if (file.parse.statements.some((statement) => statement.kind === "create-keyspace")) return;
    for (const keyspace of keyspacesNeeded(file)) {
      for (const creator of keyspace === "" ? allKeyspaceCreators : (keyspaceCreators.get(keyspace) ?? [])) after[index]!.add(creator);
    }
  });
  if (after.every((set, index) => [...set].every((j) => j < index))) return sorted;
  const placed = new Set<number>();
  const result: File[] = [];
  while (result.length < sorted.length) {
    const next = sorted.findIndex((_, i) => !placed.has(i) && [...after[i]!].every((j) => placed.has(j)));
    // A cycle (each file needs something of the other): no order satisfies both, keep path order.
    if (next < 0) return sorted;
    placed.add(next);
    result.push(sorted[next]!);
  }
  return result;
}
