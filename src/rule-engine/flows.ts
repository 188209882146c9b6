// Operations: the statements the application runs together, one after the other. A write path of
// the manifest is one (its statements, in order); so is one function of the application's code
// (src/code ids are `path#Class.method`, `~2` for its second statement). A statement prepared in
// set-up code is named after the field that holds it, so a constructor that prepares every
// statement of a DAO is no operation; it belongs to each function that binds or executes that
// field (`executedIn`), where one is found. Rules about races between a read and a write, or about
// writes that half-apply, need to know which statements share one.
import type { QueryAnalysis } from "../analysis/types.js";
import { append } from "../arrays.js";
import type { CodeStatement } from "../code/types.js";
import type { ManifestWrite } from "../manifest/types.js";
import { writeStatements, type WriteStatement } from "./helpers.js";
import type { AnalysedModel } from "./model.js";

export interface Operation {
  /** how messages name it: `UserDao.register` (code), or the write path's id */
  name: string;
  kind: "code" | "write-path";
  /** the reads it makes, in source order (only code functions read) */
  queries: QueryAnalysis[];
  /** its writes, batches flattened, in order */
  writes: WriteStatement[];
}

/**
 * The functions a code statement runs in: those that execute the field it is prepared into, else
 * the function its id names (the id without the `~n` of second and later statements).
 */
function functionsOf(statement: CodeStatement): string[] {
  return statement.executedIn ?? [statement.id.replace(/~\d+$/, "")];
}

/** `UserDao.register` out of `src/…/UserDao.java#UserDao.register`. */
function functionLabel(fn: string): string {
  const hash = fn.lastIndexOf("#");
  return hash < 0 ? fn : fn.slice(hash + 1);
}

const cache = new WeakMap<AnalysedModel, Operation[]>();

/**
 * Every operation of the model: each code function that runs statements (its queries and writes,
 * as merged into the manifest, whether described by an entry or not), then each manifest write
 * path with more than one statement that no code function already holds.
 */
export function operations(model: AnalysedModel): Operation[] {
  const cached = cache.get(model);
  if (cached) return cached;
  const result: Operation[] = [];
  const inCode = new Set<ManifestWrite>();
  const code = model.code;
  if (code) {
    // Entry id → the code statements it stands for (an implicit entry has the statement's own id).
    const statementsOfEntry = new Map<string, CodeStatement[]>();
    for (const statement of code.extraction.statements) {
      const entry = code.described.get(statement.id) ?? statement.id;
      pushTo(statementsOfEntry, entry, statement);
    }
    const byFunction = new Map<string, { queries: QueryAnalysis[]; writes: WriteStatement[] }>();
    const slot = (fn: string) => {
      let entry = byFunction.get(fn);
      if (!entry) byFunction.set(fn, (entry = { queries: [], writes: [] }));
      return entry;
    };
    for (const query of model.queries) {
      for (const statement of statementsOfEntry.get(query.id) ?? []) for (const fn of functionsOf(statement)) slot(fn).queries.push(query);
    }
    const writesByPath = new Map<ManifestWrite, WriteStatement[]>();
    for (const write of writeStatements(model)) if (write.write) pushTo(writesByPath, write.write, write);
    for (const [path, writes] of writesByPath) {
      const statements = statementsOfEntry.get(path.id) ?? [];
      if (statements.length === 0) continue;
      inCode.add(path);
      for (const fn of new Set(statements.flatMap(functionsOf))) append(slot(fn).writes, writes);
    }
    for (const [fn, entry] of byFunction) {
      if (entry.queries.length + entry.writes.length < 2) continue;
      const order = (location: { range: { start: { offset: number } } }) => location.range.start.offset;
      entry.queries.sort((a, b) => order(a.location) - order(b.location));
      result.push({ name: functionLabel(fn), kind: "code", queries: [...new Set(entry.queries)], writes: [...new Set(entry.writes)] });
    }
  }
  const writesByPath = new Map<ManifestWrite, WriteStatement[]>();
  for (const write of writeStatements(model)) if (write.write && !inCode.has(write.write)) pushTo(writesByPath, write.write, write);
  for (const [path, writes] of writesByPath) if (writes.length > 1) result.push({ name: path.id, kind: "write-path", queries: [], writes });
  cache.set(model, result);
  return result;
}

/** Adds a value to the list a map keeps under a key (in place: copying the list per value is quadratic). */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
