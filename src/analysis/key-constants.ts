// What every write puts in each partition-key column, read from the statements of the manifest's
// write paths (code statements joined them already, with the values the code binds to their
// markers, src/code/bind-arguments.ts).
//
// A column every write sets to the same constant, written as a literal (`INSERT … VALUES (?, 0, …)`,
// `UPDATE … WHERE id = ? AND bucket = 0`) or bound from one (`bind(id, DPART)` with `DPART = 0`),
// takes one value for ever: it splits nothing, and a key made only of such columns puts the whole
// table in one partition on one replica set. A column every write binds from the current time is
// the table's time bucket, whatever it is called. A marker whose value the code does not show
// decides nothing.
import type { BindMarker, Statement, Term } from "../cql/ast.js";
import type { BindSite, BoundArgument, Manifest } from "../manifest/types.js";
import type { SchemaModel, TableModel } from "../schema/model.js";
import { unwrapHint } from "./planner-terms.js";
import type { ConstantKeyColumn, TimeKeyColumn } from "./types.js";

/** Where a value is bound in the code: the function and the expression, for messages. */
type Bound = { function: string; source: string };
/** What one statement puts in a key column: a literal (with where the code binds it), the current time, or anything else. */
type KeyValue = { literal: string; bound: Bound[] } | { time: Bound[] } | null;

/** The literal text of a term, or undefined when it is a bind marker, a function call or anything computed. */
function literalText(term: Term): string | undefined {
  const t = unwrapHint(term);
  if (t.kind !== "literal") return undefined;
  return t.type === "string" ? `'${t.value.replaceAll("'", "''")}'` : t.value;
}

/** Every bind marker of a statement, in the order Cassandra numbers its bind variables (their place in the text). */
function markersOf(statement: Statement): BindMarker[] {
  const found: BindMarker[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (!value || typeof value !== "object") return;
    const node = value as { kind?: unknown; range?: unknown };
    if (node.kind === "bind") found.push(value as BindMarker);
    for (const [key, child] of Object.entries(value)) if (key !== "range" && child && typeof child === "object") walk(child);
  };
  walk(statement);
  return found.sort((a, b) => a.range.start.offset - b.range.start.offset);
}

/** The value one binding gives a marker: by its name (or the column's, which a `?` marker takes), else by its place. */
function argumentAt(site: BindSite, marker: BindMarker, column: string, index: number, markers: number): BoundArgument {
  const byName = site.named?.[marker.name ?? column];
  if (byName) return byName;
  // A list of values of another length than the markers (an array passed whole, a spread): not read.
  if (!site.partial && site.positional.length !== markers) return { kind: "unknown" };
  return site.positional[index] ?? { kind: "unknown" };
}

/** What every binding of a statement gives a marker: one constant, the time everywhere, or null. */
function boundValue(marker: BindMarker, column: string, markers: BindMarker[], binds: BindSite[] | undefined): KeyValue {
  if (!binds || binds.length === 0) return null;
  const index = markers.indexOf(marker);
  const values = binds.map((site) => ({ site, value: argumentAt(site, marker, column, index, markers.length) }));
  const first = values[0]!.value;
  if (first.kind === "constant" && values.every(({ value }) => value.kind === "constant" && value.value === first.value)) {
    return { literal: first.value, bound: values.map(({ site, value }) => ({ function: site.function, source: value.kind === "constant" ? value.source : "" })) };
  }
  if (values.every(({ value }) => value.kind === "time")) return { time: values.map(({ site, value }) => ({ function: site.function, source: value.kind === "time" ? value.source : "" })) };
  return null;
}

function valueOf(term: Term | undefined, column: string, markers: BindMarker[], binds: BindSite[] | undefined): KeyValue {
  if (!term) return null;
  const literal = literalText(term);
  if (literal !== undefined) return { literal, bound: [] };
  const t = unwrapHint(term);
  return t.kind === "bind" ? boundValue(t, column, markers, binds) : null;
}

/** The value a row-creating statement gives each partition-key column. */
function keyValues(statement: Statement, table: TableModel, binds: BindSite[] | undefined): Map<string, KeyValue> | undefined {
  const key = table.partitionKey.map((c) => c.name);
  const values = new Map<string, KeyValue>();
  const markers = binds ? markersOf(statement) : [];
  if (statement.kind === "insert") {
    if (statement.json || !statement.columns?.length) return new Map(key.map((c) => [c, null]));
    statement.columns.forEach((column, i) => {
      if (key.includes(column.name)) values.set(column.name, valueOf(statement.values?.[i], column.name, markers, binds));
    });
  } else if (statement.kind === "update") {
    // Hand-built statements (tests, other front ends) may leave the clause out: nothing is then constant.
    for (const relation of statement.where?.relations ?? []) {
      if (relation.kind !== "column" || relation.key || relation.field || !key.includes(relation.column.name)) continue;
      values.set(relation.column.name, relation.operator === "=" ? valueOf(relation.value, relation.column.name, markers, binds) : null);
    }
  } else return undefined;
  // A key column the statement does not name is an error Cassandra reports; it decides nothing here.
  for (const column of key) if (!values.has(column)) values.set(column, null);
  return values;
}

interface Seen {
  /** the literal every write gives, null once two differ or one is not a literal */
  literal: string | null;
  /** the writes' bindings from the clock, null once one write is not */
  time: Bound[] | null;
  bound: Bound[];
  writes: Set<string>;
}

/** What every write path gives each partition-key column, by table and column. */
function keyColumnValues(schema: SchemaModel, manifest: Manifest | undefined, keyspace: string | undefined): Map<string, Map<string, Seen>> {
  const seen = new Map<string, Map<string, Seen>>();
  for (const write of manifest?.writes ?? []) {
    const writeKeyspace = write.keyspace ?? keyspace;
    for (const { statement, binds } of write.statements) {
      if (!statement) continue;
      // A batch's markers are numbered over all its statements; the values bound to it are not read per statement.
      const parts = statement.kind === "batch" ? statement.statements.map((s) => ({ s, binds: undefined })) : [{ s: statement, binds }];
      for (const { s, binds: sBinds } of parts) {
        if (s.kind !== "insert" && s.kind !== "update") continue;
        const ks = s.table.keyspace?.name ?? writeKeyspace;
        const table = ks ? schema.tables.get(`${ks}.${s.table.name.name}`) : undefined;
        if (!table || table.kind !== "table") continue;
        const values = keyValues(s, table, sBinds);
        if (!values) continue;
        let columns = seen.get(table.qualifiedName);
        if (!columns) seen.set(table.qualifiedName, (columns = new Map()));
        for (const [column, value] of values) {
          const literal = value && "literal" in value ? value.literal : null;
          const time = value && "time" in value ? value.time : null;
          const bound = value && "literal" in value ? value.bound : [];
          const known = columns.get(column);
          if (!known) columns.set(column, { literal, time, bound: [...bound], writes: new Set([write.id]) });
          else {
            if (known.literal !== literal) known.literal = null;
            known.time = known.time && time ? [...known.time, ...time] : null;
            for (const site of bound) known.bound.push(site);
            known.writes.add(write.id);
          }
        }
      }
    }
  }
  return seen;
}

/**
 * The partition-key columns of each table that every write sets to the same literal, by table.
 * Tables no write path creates rows in are left out: the manifest's writes may not be all of them.
 */
export function constantKeyColumns(schema: SchemaModel, manifest: Manifest | undefined, keyspace: string | undefined): Map<string, ConstantKeyColumn[]> {
  const constant = new Map<string, ConstantKeyColumn[]>();
  for (const [table, columns] of keyColumnValues(schema, manifest, keyspace)) {
    const list: ConstantKeyColumn[] = [];
    for (const [column, { literal, bound, writes }] of columns) {
      if (literal === null) continue;
      list.push({ column, value: literal, writes: [...writes], ...(bound.length > 0 ? { bound: distinct(bound) } : {}) });
    }
    if (list.length > 0) constant.set(table, list);
  }
  return constant;
}

/** Types whose value made from the clock is an id of its own (a timeuuid per write), not a bucket rows share. */
const NOT_A_BUCKET = new Set(["uuid", "timeuuid"]);

/**
 * The partition-key columns of each table that every write binds from the current time: the
 * table's time bucket, found by what is written rather than by the column's name.
 */
export function timeKeyColumns(schema: SchemaModel, manifest: Manifest | undefined, keyspace: string | undefined): Map<string, TimeKeyColumn[]> {
  const computed = new Map<string, TimeKeyColumn[]>();
  for (const [qualified, columns] of keyColumnValues(schema, manifest, keyspace)) {
    const table = schema.tables.get(qualified);
    const list: TimeKeyColumn[] = [];
    for (const [column, { time, writes }] of columns) {
      const type = table?.partitionKey.find((c) => c.name === column)?.type;
      if (!time || time.length === 0 || (type?.kind === "native" && NOT_A_BUCKET.has(type.name))) continue;
      list.push({ column, writes: [...writes], computed: distinct(time) });
    }
    if (list.length > 0) computed.set(qualified, list);
  }
  return computed;
}

/** `` `shard` = 0 ``, and where the code binds it when the CQL has a marker there: `` (bound from `ONLY` in EventDao.archive) ``. */
export function constantText(constant: ConstantKeyColumn): string {
  const set = `\`${constant.column}\` = ${constant.value}`;
  const bound = (constant.bound ?? []).filter((b) => b.source !== constant.value);
  if (!constant.bound?.length) return set;
  if (bound.length === 0) return `${set} (bound in ${[...new Set(constant.bound.map((b) => b.function))].join(", ")})`;
  return `${set} (bound from ${[...new Set(bound.map((b) => `\`${b.source}\``))].join(", ")} in ${[...new Set(constant.bound.map((b) => b.function))].join(", ")})`;
}

/** Where the code computes a time bucket: `EventDao.save`, or several functions. */
export function computedText(column: TimeKeyColumn): string {
  return [...new Set(column.computed.map((c) => c.function))].join(", ");
}

function distinct(bound: Bound[]): Bound[] {
  const out: Bound[] = [];
  for (const b of bound) if (!out.some((o) => o.function === b.function && o.source === b.source)) out.push(b);
  return out;
}
