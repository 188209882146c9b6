// When a write path sets an attribute of some rows in one table, every other table holding a copy
// of those rows' attribute must be written in the same path, or the copies drift apart and queries
// disagree. A shared column name alone is no evidence of a copy (every table has an `id`; a
// recommendation's `userid` is its recipient, a video's its uploader): two tables hold copies of a
// column when some write path writes the column in both with the same value (the same named
// marker, the same literal, or positional markers of one statement group), or when the manifest
// declares the copy (`tables.<name>.copies`). The names Cassandra gave the columns of Thrift-era and
// COMPACT STORAGE tables (`key`, `column1`, `value`) say nothing of what they hold, so positional
// markers in two such columns are no evidence either. A copy may be keyed by a value derived from
// a column of the source (the day of its timestamp): that key names the same row, so the copy is
// followed through it.
import {
  columnNameSet,
  joinWords,
  primaryKeyNames,
  rowKeyColumns,
  tableLabel,
  writeEntity,
  writeStatements,
  writtenColumns,
  type WriteStatement,
} from "../src/rule-engine/helpers.js";
import type { DeleteStatement, InsertStatement, Term, UpdateStatement } from "../src/cql/ast.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";
import { findTable } from "../src/schema/resolve.js";

interface Missed {
  table: TableModel;
  attributes: string[];
  /** the copy's key columns computed from a column of the written table (its `day`, from `created_at`) */
  through: { key: string; from: string }[];
}

/** Non-key columns a statement changes: the columns it sets, or all of them for a row delete. */
function changedAttributes(write: WriteStatement, table: TableModel, key: readonly string[]): string[] {
  const statement = write.statement;
  const tableKey = primaryKeyNames(table);
  const isKey = (name: string) => key.includes(name) || tableKey.includes(name);
  if (statement.kind === "delete" && statement.selections.length === 0) return table.columns.filter((c) => !isKey(c.name)).map((c) => c.name);
  return writtenColumns(statement).filter((c) => !isKey(c));
}

/** The value a statement gives a column: the term it sets, or the term its WHERE binds it to. */
function valueWritten(statement: InsertStatement | UpdateStatement | DeleteStatement, column: string): Term | undefined {
  if (statement.kind === "insert") {
    const at = statement.columns.findIndex((c) => c.name === column);
    return at < 0 ? undefined : statement.values[at];
  }
  if (statement.kind === "update") {
    const assignment = statement.assignments.find((a) => a.column.name === column && !a.key && !a.field && a.operator === "=");
    if (assignment) return assignment.value;
  }
  for (const relation of statement.where.relations) {
    if (relation.kind === "column" && relation.column.name === column && relation.operator === "=" && relation.value) return relation.value;
  }
  return undefined;
}

/**
 * The default aliases Cassandra gives the columns of a table defined through Thrift or WITH COMPACT
 * STORAGE without names (`DEFAULT_KEY_ALIAS`, `DEFAULT_COLUMN_ALIAS`, `DEFAULT_VALUE_ALIAS` in
 * CFMetaData.java: `key`, `key2`…, `column1`…, `value`): applications that keep the legacy layout
 * keep these names in every table, whatever each holds.
 */
const LEGACY_DEFAULT_NAME = /^(key\d*|column\d+|value)$/;

/** Whether two values written to columns of one name show a copy: legacy default names need more than two unnamed markers. */
function showsCopy(column: string, a: Term, b: Term): boolean {
  if (!sameValue(a, b)) return false;
  if (!LEGACY_DEFAULT_NAME.test(column)) return true;
  return !(a.kind === "bind" && b.kind === "bind" && (a.name === undefined || b.name === undefined));
}

/** Whether two written values can be the same: the same named marker or literal; unnamed markers cannot be told apart. */
function sameValue(a: Term, b: Term): boolean {
  if (a.kind === "bind" && b.kind === "bind") return a.name === undefined || b.name === undefined || a.name === b.name;
  if (a.kind === "literal" && b.kind === "literal") return a.type === b.type && a.value === b.value;
  if (a.kind === "bind" || b.kind === "bind") return false;
  // Anything else (now(), a collection literal): compare as written.
  return a.kind === b.kind && JSON.stringify(stripRanges(a)) === JSON.stringify(stripRanges(b));
}

function stripRanges(term: Term): unknown {
  return JSON.parse(JSON.stringify(term, (key, value: unknown) => (key === "range" ? undefined : value)));
}

/** Time values a bucket is computed from: a bucket of them (`toDate(:at)`, a declared `time_bucket`) names one row's time. */
const TIME_TYPES = new Set(["timestamp", "timeuuid", "date"]);

/** A key column of a table whose value is computed from a column of another table. */
interface Derivation {
  source: TableModel;
  /** the source's column the key is computed from */
  from: string;
}

/** Key columns of each table derived from a column of another: by table, then by key column. */
type Derivations = Map<TableModel, Map<string, Derivation[]>>;

function addDerivation(derivations: Derivations, table: TableModel, column: string, derivation: Derivation): void {
  let byColumn = derivations.get(table);
  if (!byColumn) derivations.set(table, (byColumn = new Map()));
  const list = byColumn.get(column) ?? [];
  if (!list.some((d) => d.source === derivation.source && d.from === derivation.from)) list.push(derivation);
  byColumn.set(column, list);
}

/** The terms a computed value is made from: `toDate(:at)` → `:at`; undefined for a plain value (it is a copy, not a derivation). */
function computedFrom(term: Term): Term[] | undefined {
  switch (term.kind) {
    case "function":
      return term.args.flatMap((arg) => computedFrom(arg) ?? [arg]);
    case "binary":
      return [term.left, term.right].flatMap((side) => computedFrom(side) ?? [side]);
    case "cast":
    case "type-hint":
      return computedFrom(term.value) ?? [term.value];
    default:
      return undefined;
  }
}

function columnType(table: TableModel, column: string): string | undefined {
  const type = table.columns.find((c) => c.name === column)?.type;
  return type?.kind === "native" ? type.name : undefined;
}

/**
 * The primary-key columns that hold a value computed from another table's column, so that a row
 * there still stands for one row of the source:
 * - a write path that writes both tables sets the key to a function of the value it writes to the
 *   source's column (`day = toDate(:created_at)` beside `created_at = :created_at`; an unnamed
 *   marker only when the source's column is a time, the one value a bucket is computed from);
 * - the manifest declares the key the table's `time_bucket`, and the table holds a time column
 *   (timestamp, timeuuid, date) that the source has too: the bucket is that row's time, floored.
 */
function derivedKeys(model: AnalysedModel, byWrite: Map<unknown, Map<TableModel, WriteStatement[]>>): Derivations {
  const derivations: Derivations = new Map();
  for (const byTable of byWrite.values()) {
    for (const [table, writes] of byTable) {
      for (const write of writes) {
        for (const key of primaryKeyNames(table)) {
          const value = valueWritten(write.statement, key);
          const parts = value && computedFrom(value);
          if (!parts) continue;
          for (const [source, writesOfSource] of byTable) {
            if (source === table) continue;
            for (const column of columnNameSet(source)) {
              const isTime = TIME_TYPES.has(columnType(source, column) ?? "");
              const derived = writesOfSource.some((ws) => {
                const written = valueWritten(ws.statement, column);
                if (!written) return false;
                return parts.some((part) => sameValue(part, written) && (isTime || !(part.kind === "bind" && written.kind === "bind" && (part.name === undefined || written.name === undefined))));
              });
              if (derived) addDerivation(derivations, table, key, { source, from: column });
            }
          }
        }
      }
    }
  }
  for (const volume of model.manifest?.tables ?? []) {
    if (!volume.timeBucket) continue;
    const keyspace = volume.keyspace ?? model.manifest?.keyspace;
    const table = findTable(model.schema, volume.name, keyspace);
    const bucket = volume.timeBucket.column;
    if (!table || !primaryKeyNames(table).includes(bucket)) continue;
    for (const source of model.schema.tables.values()) {
      if (source === table || source.kind !== "table") continue;
      for (const column of table.columns) {
        const type = columnType(table, column.name);
        if (column.name === bucket || !type || !TIME_TYPES.has(type) || columnType(source, column.name) !== type) continue;
        addDerivation(derivations, table, bucket, { source, from: column.name });
      }
    }
  }
  return derivations;
}

/** The column of `source` that `table`'s column `column` is computed from, if any. */
function derivedFrom(derivations: Derivations, table: TableModel, column: string, source: TableModel): string | undefined {
  return derivations.get(table)?.get(column)?.find((d) => d.source === source)?.from;
}

/**
 * The copies the write paths show: `A|B|column` when one path writes `column` in tables A and B
 * with the same value, and `A|B|` for the pair of tables itself.
 */
function evidencedCopies(byWrite: Map<unknown, Map<TableModel, WriteStatement[]>>): Set<string> {
  const copies = new Set<string>();
  for (const byTable of byWrite.values()) {
    const tables = [...byTable.entries()];
    for (let i = 0; i < tables.length; i++) {
      for (let j = i + 1; j < tables.length; j++) {
        const [a, writesOfA] = tables[i]!;
        const [b, writesOfB] = tables[j]!;
        const columnsOfB = columnNameSet(b);
        for (const wa of writesOfA) {
          for (const column of columnNameSet(a)) {
            if (!columnsOfB.has(column)) continue;
            const va = valueWritten(wa.statement, column);
            if (!va) continue;
            for (const wb of writesOfB) {
              const vb = valueWritten(wb.statement, column);
              if (!vb || !showsCopy(column, va, vb)) continue;
              for (const [x, y] of [[a, b], [b, a]] as const) {
                copies.add(`${x.qualifiedName}|${y.qualifiedName}|${column}`);
                copies.add(`${x.qualifiedName}|${y.qualifiedName}|`);
              }
            }
          }
        }
      }
    }
  }
  return copies;
}

/**
 * The copies the manifest declares (`tables.<name>.copies: { other: [columns] }`), in the same
 * `A|B|column` and `A|B|` form, both ways.
 */
function declaredCopies(model: AnalysedModel): Set<string> {
  const copies = new Set<string>();
  const volumes = model.manifest?.tables ?? [];
  for (const volume of volumes) {
    if (!volume.copies) continue;
    const keyspace = volume.keyspace ?? model.manifest?.keyspace;
    const table = findTable(model.schema, volume.name, keyspace);
    for (const declaration of volume.copies) {
      const source = findTable(model.schema, declaration.from, keyspace);
      // Names the schema lacks are manifest-invalid errors (src/manifest/check.ts); they are left out here.
      if (!table || !source || table === source) continue;
      for (const column of declaration.columns) {
        if (!columnNameSet(table).has(column) || !columnNameSet(source).has(column)) continue;
        for (const [x, y] of [[table, source], [source, table]] as const) {
          copies.add(`${x.qualifiedName}|${y.qualifiedName}|${column}`);
          copies.add(`${x.qualifiedName}|${y.qualifiedName}|`);
        }
      }
    }
  }
  return copies;
}

/** How the copies keyed by a derived value find the row: ` (in events_by_day under the \`day\` computed from its \`created_at\`)`. */
function throughText(model: AnalysedModel, missed: readonly Missed[]): string {
  const parts = missed.flatMap((m) =>
    m.through.length === 0 ? [] : [`in ${tableLabel(model, m.table.qualifiedName)} under the ${joinWords(m.through.map((t) => `\`${t.key}\` computed from its \`${t.from}\``))}`],
  );
  return parts.length === 0 ? "" : ` (${joinWords(parts)}, so the write needs that value to reach the copy)`;
}

/** Whether `column` is among the first `count` names of `key`. */
function leadsWith(key: readonly string[], column: string, count: number): boolean {
  const at = key.indexOf(column);
  return at !== -1 && at < count;
}

const writeDenormalisationDrift: RuleModule = {
  meta: {
    id: "write-denormalisation-drift",
    category: "write",
    defaultSeverity: "warning",
    description: "A write path changes an attribute in one table but not in the other tables that hold a copy of it.",
    messages: {
      drift:
        "{write} {action} {attributes} in {table} (the rows of one {key}) but not in {missed}, which also {hold} {missedAttributes} for that {key}{through}: after this write the tables disagree, and the queries reading {them} return the old value. Write {them} in {write} too (a logged batch keeps the copies together).",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const all = writeStatements(model).filter((w) => w.write && w.table);
    const tablesWith = new Map<string, TableModel[]>();
    for (const table of model.schema.tables.values()) {
      if (table.kind !== "table") continue;
      for (const column of table.columns) {
        const list = tablesWith.get(column.name);
        if (list) list.push(table);
        else tablesWith.set(column.name, [table]);
      }
    }
    // The statements of each write path by table, in order; and per such group the columns it
    // covers, made once: every statement of a path meets the same tables as candidates.
    const byWrite = new Map<unknown, Map<TableModel, WriteStatement[]>>();
    for (const w of all) {
      let byTable = byWrite.get(w.write);
      if (!byTable) byWrite.set(w.write, (byTable = new Map()));
      const list = byTable.get(w.table!);
      if (list) list.push(w);
      else byTable.set(w.table!, [w]);
    }
    const derivations = derivedKeys(model, byWrite);
    const declared = declaredCopies(model);
    const evidence = evidencedCopies(byWrite);
    for (const copy of declared) evidence.add(copy);
    const declaredPartners = new Map<TableModel, TableModel[]>();
    for (const a of declared.size > 0 ? model.schema.tables.values() : []) {
      const partners = [...model.schema.tables.values()].filter((b) => b !== a && declared.has(`${a.qualifiedName}|${b.qualifiedName}|`));
      if (partners.length > 0) declaredPartners.set(a, partners);
    }
    const coveredBy = new Map<WriteStatement[], Set<string>>();
    const noWrites: WriteStatement[] = [];
    for (const write of all) {
      const table = write.table!;
      if (table.kind !== "table") continue;
      const ownColumns = columnNameSet(table);
      const key = rowKeyColumns(write.statement, table);
      if (key.length === 0) continue;
      const changed = changedAttributes(write, table, key);
      if (changed.length === 0) continue;
      const sameWrite = byWrite.get(write.write);
      const rowDelete = write.statement.kind === "delete" && write.statement.selections.length === 0;
      const missed: Missed[] = [];
      // A copy holds every key column (or the value a derived one is computed from): the tables of
      // the rarest such column are the candidates (in schema order).
      const ownDerived = derivations.get(table);
      const plainKey = key.filter((k) => !ownDerived?.has(k));
      let candidates: TableModel[] = tablesWith.get(plainKey[0] ?? key[0]!) ?? [];
      for (const column of plainKey) {
        const tables = tablesWith.get(column) ?? [];
        if (tables.length < candidates.length) candidates = tables;
      }
      // A declared copy may be named here by fewer columns than it has (a user's video, by its video).
      const partners = declaredPartners.get(table);
      if (partners) candidates = [...new Set([...candidates, ...partners])];
      for (const other of candidates) {
        if (other === table) continue;
        const columns = columnNameSet(other);
        // A copy of these rows holds their identity (every column that names them here), and its own
        // primary key is made of this table's columns, so one row here is at most one row there; a
        // table that merely references these rows (alerts of a device) keys its rows by more.
        // A declared copy is named here by the key it has there (a user's video names its video).
        // A key computed from a column (the day of a timestamp) names the row as surely as the column.
        const isDeclared = declared.has(`${table.qualifiedName}|${other.qualifiedName}|`);
        const heldThere = (k: string) => columns.has(k) || derivedFrom(derivations, table, k, other) !== undefined;
        if (!key.every(heldThere) && !(isDeclared && primaryKeyNames(other).every((k) => key.includes(k)))) continue;
        // A declared copy is taken as declared: a copy keyed by more (the videos of a user, by date)
        // still holds the column's value for each of these rows.
        const otherKey = primaryKeyNames(other);
        if (!isDeclared) {
          if (!otherKey.every((c) => ownColumns.has(c) || derivedFrom(derivations, other, c, table) !== undefined)) continue;
          // Keyed first by these rows' identity and then by more columns (the ratings of a video, by
          // rater), it holds many rows per row here: children of it, not a copy of its attributes.
          if (otherKey.length > key.length && key.every((k) => leadsWith(otherKey, k, key.length))) continue;
        }
        // Only what a write path shows to be a copy: the same value written to both tables.
        if (!evidence.has(`${table.qualifiedName}|${other.qualifiedName}|`)) continue;
        // A deleted row takes every attribute with it; a change, only the attributes shown to be copies.
        const copies = changed.filter((c) => columns.has(c) && (rowDelete || evidence.has(`${table.qualifiedName}|${other.qualifiedName}|${c}`)));
        if (copies.length === 0) continue;
        const writesOfOther = sameWrite?.get(other) ?? noWrites;
        const rowDeleted = writesOfOther.some((w) => w.statement.kind === "delete" && w.statement.selections.length === 0);
        // Each branch derives only what it reads; the covered columns walk every statement of the group.
        let left: string[];
        if (rowDelete) {
          // A row deleted here is matched by deleting the copy, or by moving it: setting the key it
          // was found by to another value (the old email's row goes as users.email changes).
          const moved = writesOfOther.some((w) => key.every((k) => writtenColumns(w.statement).includes(k)));
          left = rowDeleted || moved ? [] : copies;
        } else if (rowDeleted) {
          left = [];
        } else if (writesOfOther.length === 0) {
          left = copies;
        } else {
          // Naming a row by its key writes that key there as surely as setting a column: `UPDATE users
          // SET email = ? WHERE user_id = ?` keeps users in step with users_by_email (email, user_id).
          let covered = coveredBy.get(writesOfOther);
          if (!covered) {
            covered = new Set<string>();
            for (const w of writesOfOther) {
              for (const c of writtenColumns(w.statement)) covered.add(c);
              for (const c of rowKeyColumns(w.statement, other)) covered.add(c);
            }
            coveredBy.set(writesOfOther, covered);
          }
          const coveredColumns = covered;
          left = copies.filter((c) => !coveredColumns.has(c));
        }
        if (left.length > 0) {
          const through = otherKey.flatMap((c) => {
            const from = ownColumns.has(c) ? undefined : derivedFrom(derivations, other, c, table);
            return from === undefined ? [] : [{ key: c, from }];
          });
          missed.push({ table: other, attributes: left, through });
        }
      }
      if (missed.length === 0) continue;
      const code = (names: string[]) => joinWords(names.map((n) => `\`${n}\``));
      const missedAttributes = [...new Set(missed.flatMap((m) => m.attributes))];
      context.report({
        messageId: "drift",
        data: {
          write: write.write!.id,
          action: rowDelete ? "deletes" : write.statement.kind === "delete" ? "removes" : "sets",
          attributes: rowDelete ? "the row" : code(changed),
          table: tableLabel(model, table.qualifiedName),
          key: code(key),
          missed: joinWords(missed.map((m) => tableLabel(model, m.table.qualifiedName))),
          hold: missed.length === 1 ? "holds" : "hold",
          missedAttributes: code(missedAttributes),
          through: throughText(model, missed),
          them: missed.length === 1 ? "it" : "them",
        },
        file: write.file,
        range: write.statement.range,
        entity: `${writeEntity(write.write!.id)}:table:${table.qualifiedName}`,
      });
    }
  },
};

export default writeDenormalisationDrift;
