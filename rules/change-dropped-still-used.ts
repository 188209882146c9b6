// Dropping a table or column is immediate and cluster-wide: every query and write that still names
// it fails from that moment on.
import type { QualifiedName } from "../src/cql/ast.js";
import type { SourceLocation } from "../src/findings.js";
import {
  abstractQueryColumns,
  columnEntity,
  joinWords,
  orderedStatements,
  selectColumns,
  tableEntity,
  tableLabel,
  writeStatements,
  writtenColumns,
} from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";

interface Dropped {
  table: string;
  column?: string;
  /** the DROP that removes it, when the schema files have one */
  at?: SourceLocation;
}

interface Use {
  id: string;
  table: string;
  columns: string[];
  location: SourceLocation;
}

function qualify(model: AnalysedModel, name: QualifiedName): string {
  return `${name.keyspace?.name ?? model.manifest?.keyspace ?? ""}.${name.name.name}`;
}

/** A table that no longer exists, named as users write it: without the manifest's (or an empty) keyspace. */
function shortName(model: AnalysedModel, qualified: string): string {
  const keyspace = model.manifest?.keyspace ?? "";
  return qualified.startsWith(`${keyspace}.`) ? qualified.slice(keyspace.length + 1) : qualified;
}

/** What the change removes: tables and columns of the base commit that are gone, and DROPs in the schema files. */
function droppedThings(model: AnalysedModel, base: AnalysedModel | undefined): Dropped[] {
  const dropped = new Map<string, Dropped>();
  const add = (d: Dropped) => {
    const key = `${d.table}\u0000${d.column ?? ""}`;
    const known = dropped.get(key);
    if (!known || (!known.at && d.at)) dropped.set(key, d);
  };
  for (const { statement, keyspace, file } of orderedStatements(model)) {
    if (statement.kind !== "drop-table") continue;
    const table = `${statement.name.keyspace?.name ?? keyspace}.${statement.name.name.name}`;
    if (!model.schema.tables.has(table)) add({ table, at: { file: file.path, range: statement.range } });
  }
  for (const [table, columns] of model.schema.droppedColumns) {
    const current = model.schema.tables.get(table);
    for (const column of columns) {
      if (current && !current.columns.some((c) => c.name === column.name)) add({ table, column: column.name, at: column.source });
    }
  }
  if (base) {
    for (const [name, before] of base.schema.tables) {
      const after = model.schema.tables.get(name);
      if (!after) {
        add({ table: name });
        continue;
      }
      for (const column of before.columns) {
        if (!after.columns.some((c) => c.name === column.name)) add({ table: name, column: column.name, at: after.source });
      }
    }
  }
  return [...dropped.values()];
}

/** The tables and columns each declared query and write names. */
function uses(model: AnalysedModel, base: AnalysedModel | undefined): Use[] {
  const result: Use[] = [];
  for (const query of model.manifest?.queries ?? []) {
    if (query.form === "cql") {
      if (!query.statement) continue;
      result.push({ id: query.id, table: qualify(model, query.statement.table), columns: selectColumns(query.statement), location: query.location });
      continue;
    }
    // An abstract query names no table: the one that served it at the base commit is the one it relies on.
    const served = base?.queries.find((q) => q.id === query.id)?.table;
    if (served) result.push({ id: query.id, table: served, columns: abstractQueryColumns(query), location: query.location });
  }
  for (const write of writeStatements(model)) {
    if (!write.write) continue;
    const statement = write.statement;
    const where = statement.kind === "insert" ? [] : statement.where.relations.flatMap((r) => (r.kind === "column" ? [r.column.name] : []));
    result.push({ id: write.write.id, table: qualify(model, statement.table), columns: [...writtenColumns(statement), ...where], location: write.write.location });
  }
  return result;
}

const changeDroppedStillUsed: RuleModule = {
  meta: {
    id: "change-dropped-still-used",
    category: "change",
    defaultSeverity: "error",
    description: "The change drops a table or column that a declared query or write still uses.",
    messages: {
      table:
        "{table} is dropped, but {users} still {verb} it and will fail from the moment the DROP runs (unconfigured table). Move {them} to the replacement table first (or remove {them} from the manifest), and drop the table in a later release.",
      column:
        "`{column}` is dropped from {table}, but {users} still {verb} it and will fail from the moment the DROP runs (undefined column). Move {them} off `{column}` first (or remove {them} from the manifest), and drop the column in a later release.",
    },
    fixable: false,
  },
  check(context) {
    const { model, base } = context;
    const dropped = droppedThings(model, base);
    if (dropped.length === 0) return;
    const all = uses(model, base);
    for (const thing of dropped) {
      const users = all.filter((u) => u.table === thing.table && (thing.column === undefined || u.columns.includes(thing.column)));
      const ids = [...new Set(users.map((u) => u.id))];
      if (ids.length === 0) continue;
      const location = thing.at ?? users[0]!.location;
      const label = model.schema.tables.has(thing.table) ? tableLabel(model, thing.table) : shortName(model, thing.table);
      const data = { table: label, users: joinWords(ids), verb: ids.length === 1 ? "uses" : "use", them: ids.length === 1 ? "it" : "them" };
      if (thing.column === undefined) {
        context.report({ messageId: "table", data, ...location, entity: `${tableEntity(thing.table)}:dropped` });
      } else {
        context.report({ messageId: "column", data: { ...data, column: thing.column }, ...location, entity: `${columnEntity(thing.table, thing.column)}:dropped` });
      }
    }
  },
};

export default changeDroppedStillUsed;
