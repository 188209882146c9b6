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
// - A tear-down script (`drop-keyspace.cql`: nothing but DROPs, of a keyspace or of every table)
//   is run to reset a database, not to build it: it is not applied. A DROP inside a migration
//   (a versioned script, or one that drops some tables and keeps others) is applied, and reviewed,
//   like any other statement.
import type { QualifiedName, Statement } from "../cql/ast.js";
import { matchesAny } from "../globs.js";

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

/** A migration tool's versioned script (`V3__…`, `003_…`, `20240101120000_…`): applied in turn, whatever it holds. */
function isVersioned(path: string): boolean {
  return /^[Vv]?\d+([._]\d+)*(__|[_-])/.test(path.slice(path.lastIndexOf("/") + 1));
}

/**
 * A script that tears a database down rather than building it: not a versioned migration, nothing
 * but DROPs (USE aside), and it drops a keyspace or every table the other files create. A file
 * that drops one old table among several is a migration step, applied like any other.
 */
export function isTeardownScript(file: OrderedFile, others: readonly OrderedFile[] = []): boolean {
  if (isVersioned(file.path)) return false;
  const statements = file.parse.statements.filter((statement) => statement.kind !== "use");
  if (statements.length === 0 || !statements.every((statement) => DROPS.has(statement.kind))) return false;
  if (statements.some((statement) => statement.kind === "drop-keyspace")) return true;
  const created = new Set<string>();
  for (const other of others) {
    if (other === file) continue;
    for (const statement of other.parse.statements) if (statement.kind === "create-table") created.add(statement.name.name.name);
  }
  const dropped = new Set(statements.flatMap((statement) => (statement.kind === "drop-table" ? [statement.name.name.name] : [])));
  return created.size > 0 && [...created].every((name) => dropped.has(name));
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
    for (const name of namesUsed(statement)) {
      const keyspace = name.keyspace?.name;
      if (keyspace !== undefined) needed.add(keyspace);
      else if (!used) needed.add("");
    }
  }
  return needed;
}

/** The tables, types and views a statement creates, changes or writes (seed data needs its keyspace too). */
function namesUsed(statement: Statement): QualifiedName[] {
  switch (statement.kind) {
    case "create-table":
    case "create-type":
    case "create-materialized-view":
    case "alter-table":
    case "alter-type":
      return [statement.name];
    case "create-index":
      return [statement.table];
    case "insert":
    case "update":
    case "delete":
      return [statement.table];
    case "batch":
      return statement.statements.map((inner) => inner.table);
    default:
      return [];
  }
}

/**
 * The schema files that are applied, in the order they are applied (see the header). Tear-down
 * scripts are left out; a cycle of needs falls back to path order.
 */
export function applyOrder<File extends OrderedFile>(files: readonly File[]): File[] {
  const sorted = files.filter((file) => !isTeardownScript(file, files)).sort((a, b) => comparePaths(a.path, b.path));
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

/** `dir` and a relative path or glob joined, `.` and `..` segments resolved (POSIX, no leading `/`). */
export function joinRelative(directory: string, relative: string): string {
  const parts: string[] = [];
  for (const part of `${directory}/${relative}`.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return parts.join("/");
}

/**
 * The files a manifest's `schema:` names, in its order: each path or glob (relative to the
 * manifest's directory) in turn, the files of one glob in name order; a file named twice is applied
 * where it is first named. Files it does not name are not applied.
 */
export function orderBySetting<File extends OrderedFile>(files: readonly File[], globs: readonly string[], manifestDirectory: string): File[] {
  const result: File[] = [];
  const taken = new Set<string>();
  for (const glob of globs) {
    const pattern = joinRelative(manifestDirectory, glob);
    const matching = files.filter((file) => !taken.has(file.path) && matchesAny(file.path, [pattern])).sort((a, b) => comparePaths(a.path, b.path));
    for (const file of matching) {
      taken.add(file.path);
      result.push(file);
    }
  }
  return result;
}

/**
 * A `schema:` setting that applies `applied` in this order, relative to the manifest's directory:
 * a directory whose every schema file is applied, together and in name order, as one
 * `dir/*.cql` glob (so the next migration file added there is applied too), other files by path.
 * `all` is every schema file found (the applied ones and those left out).
 */
export function settingFor(applied: readonly { path: string }[], all: readonly { path: string }[], manifestDirectory: string): string[] {
  const directoryOf = (file: string) => file.slice(0, file.lastIndexOf("/") + 1);
  const inDirectory = new Map<string, string[]>();
  for (const file of all) inDirectory.set(directoryOf(file.path), [...(inDirectory.get(directoryOf(file.path)) ?? []), file.path]);
  const appliedPaths = applied.map((file) => file.path);
  const entries: string[] = [];
  let index = 0;
  while (index < appliedPaths.length) {
    const directory = directoryOf(appliedPaths[index]!);
    const siblings = [...(inDirectory.get(directory) ?? [])].sort(comparePaths);
    const run = appliedPaths.slice(index, index + siblings.length);
    const wholeDirectory = siblings.length > 1 && siblings.every((sibling, i) => run[i] === sibling) && siblings.every((file) => file.endsWith(".cql"));
    const target = wholeDirectory ? `${directory}*.cql` : appliedPaths[index]!;
    entries.push(relativeTo(manifestDirectory, target));
    index += wholeDirectory ? siblings.length : 1;
  }
  return entries;
}

/** A repository path as written from `directory` (both POSIX, relative to the root). */
function relativeTo(directory: string, target: string): string {
  const from = directory.split("/").filter((part) => part !== "");
  const to = target.split("/");
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  return [...from.slice(common).map(() => ".."), ...to.slice(common)].join("/");
}
