// CREATE / ALTER / DROP TABLE and TRUNCATE, with the checks of Cassandra's CreateTableStatement and
// AlterTableStatement (apache/cassandra, cql3/statements/schema). Messages use Cassandra's words.
//
// A CREATE that Cassandra would reject still adds its table when it can be built, so later
// statements and the queries resolve against what the author meant; an ALTER or DROP that Cassandra
// would reject leaves the model as it was (the statement is atomic there too).
import type {
  AlterTableAction,
  AlterTableStatement,
  ColumnDefinition,
  CreateTableStatement,
  DropStatement,
  Identifier,
  OptionEntry,
  SourceRange,
  TruncateStatement,
} from "../cql/ast.js";
import { BuildContext, SYSTEM_KEYSPACES, display, qualify, writtenName } from "./build-context.js";
import { isMultiCell, referencesDuration, resolveColumnType, type TypeEnvironment } from "./column-types.js";
import type { ColumnKind, ColumnModel, ColumnType, OptionValue, TableModel } from "./model.js";
import { compactionOf, defaultTtlOf, flattenOptions, numberOf } from "./options.js";
import { containsCounter, formatColumnType } from "./resolve.js";
import { append } from "../arrays.js";

interface DeclaredKey {
  partition: Identifier[];
  clustering: Identifier[];
  range: SourceRange;
}

export function typeEnvironment(ctx: BuildContext, keyspace: string, entity: string): TypeEnvironment {
  return {
    schema: ctx.schema,
    keyspace,
    report: (range, message, problem) => ctx.report(range, message, `${entity}:${problem}`),
  };
}

/** Recomputes the key / static / regular lists from `columns` (after any change to the columns). */
export function arrangeColumns(table: TableModel): void {
  const byPosition = (a: ColumnModel, b: ColumnModel) => a.position - b.position;
  table.partitionKey = table.columns.filter((c) => c.kind === "partition").sort(byPosition);
  table.clustering = table.columns.filter((c) => c.kind === "clustering").sort(byPosition);
  table.static = table.columns.filter((c) => c.kind === "static");
  table.regular = table.columns.filter((c) => c.kind === "regular");
}

export function optionsSourceText(ctx: BuildContext): (term: { range: SourceRange }) => string {
  return (term) => ctx.sourceText(term.range);
}

export function isCounterType(type: ColumnType): boolean {
  return type.kind === "native" && type.name === "counter";
}

function isPrimaryKeyColumn(column: ColumnModel): boolean {
  return column.kind === "partition" || column.kind === "clustering";
}

export function createTable(ctx: BuildContext, statement: CreateTableStatement): void {
  const keyspace = ctx.keyspaceOf(statement.name);
  const name = statement.name.name.name;
  const qualified = qualify(keyspace, name);
  const shown = writtenName(statement.name);
  const entity = `table:${qualified}`;
  ctx.checkKeyspaceExists(keyspace, statement.name.range);

  if (ctx.schema.tables.has(qualified)) {
    if (!statement.ifNotExists) {
      ctx.report(statement.name.name.range, `Cannot add already existing table "${name}" to keyspace "${keyspace}"`, `${entity}:duplicate`);
    }
    return;
  }
  if (statement.like) {
    createTableLike(ctx, statement, keyspace, entity);
    return;
  }

  const definitions = new Map<string, ColumnDefinition>();
  for (const definition of statement.columns) {
    const column = definition.name.name;
    if (definitions.has(column)) {
      ctx.report(definition.name.range, `Duplicate column '${column}' declaration for table '${shown}'`, `${entity}:column:${column}:duplicate`);
      continue;
    }
    definitions.set(column, definition);
  }
  const types = new Map<string, ColumnType>();
  for (const [column, definition] of definitions) {
    types.set(column, resolveColumnType(definition.type, typeEnvironment(ctx, keyspace, `${entity}:column:${column}`)));
  }

  const key = primaryKeyOf(ctx, statement, shown, entity);
  const keyColumns = checkKeyColumns(ctx, key, definitions, types, shown, entity);
  const order = checkClusteringOrder(ctx, statement, keyColumns.clustering, shown, entity);

  const columns: ColumnModel[] = [];
  for (const [column, definition] of definitions) {
    const partitionPosition = keyColumns.partition.indexOf(column);
    const clusteringPosition = keyColumns.clustering.indexOf(column);
    let kind: ColumnKind = definition.isStatic ? "static" : "regular";
    let position = -1;
    if (partitionPosition >= 0) [kind, position] = ["partition", partitionPosition];
    else if (clusteringPosition >= 0) [kind, position] = ["clustering", clusteringPosition];
    columns.push({
      name: column,
      type: types.get(column) ?? { kind: "unknown", name: "" },
      declaredType: definition.type,
      kind,
      position,
      ...(kind === "clustering" ? { order: order.get(column) ?? "asc" } : {}),
      masked: definition.mask !== undefined,
      source: ctx.location(definition.range),
    });
  }

  const options = flattenOptions(statement.options, optionsSourceText(ctx));
  const table: TableModel = {
    keyspace,
    name,
    qualifiedName: qualified,
    kind: "table",
    columns,
    partitionKey: [],
    clustering: [],
    static: [],
    regular: [],
    options,
    defaultTtlSeconds: defaultTtlOf(options),
    ...withCompaction(options),
    compactStorage: statement.compactStorage,
    indexes: [],
    views: [],
    source: ctx.location(statement.name.range),
    statement,
  };
  arrangeColumns(table);
  checkColumnKinds(ctx, statement, table, definitions, entity);
  ctx.schema.tables.set(qualified, table);
}

function withCompaction(options: Record<string, OptionValue>): Pick<TableModel, "compaction"> {
  const compaction = compactionOf(options);
  return compaction ? { compaction } : {};
}

/** The one PRIMARY KEY: inline (`id uuid PRIMARY KEY`) or a clause; every further one is reported. */
function primaryKeyOf(ctx: BuildContext, statement: CreateTableStatement, shown: string, entity: string): DeclaredKey {
  const declared: DeclaredKey[] = statement.columns
    .filter((c) => c.isPrimaryKey)
    .map((c) => ({ partition: [c.name], clustering: [], range: c.range }));
  const clause = statement.primaryKey;
  if (clause) declared.push({ partition: clause.partitionKey, clustering: clause.clustering, range: clause.range });
  declared.sort((a, b) => a.range.start.offset - b.range.start.offset);
  const [first, ...extra] = declared;
  for (const key of extra) {
    ctx.report(key.range, `Multiple PRIMARY KEY specified for table '${shown}' (exactly one required)`, `${entity}:multiple-primary-keys`);
  }
  if (!first) {
    ctx.report(statement.name.range, `No PRIMARY KEY specified for table '${shown}' (exactly one required)`, `${entity}:no-primary-key`);
    return { partition: [], clustering: [], range: statement.name.range };
  }
  return first;
}

function checkKeyColumns(
  ctx: BuildContext,
  key: DeclaredKey,
  definitions: Map<string, ColumnDefinition>,
  types: Map<string, ColumnType>,
  shown: string,
  entity: string,
): { partition: string[]; clustering: string[] } {
  const seen = new Set<string>();
  const result = { partition: [] as string[], clustering: [] as string[] };
  const check = (id: Identifier, into: string[]) => {
    const column = id.name;
    const definition = definitions.get(column);
    const columnEntity = `${entity}:column:${column}`;
    if (!definition) {
      ctx.report(id.range, `Unknown column '${column}' referenced in PRIMARY KEY for table '${shown}'`, `${columnEntity}:undeclared-key`);
      return;
    }
    if (seen.has(column)) {
      ctx.report(id.range, `Duplicate column '${column}' in PRIMARY KEY clause for table '${shown}'`, `${columnEntity}:duplicate-key`);
      return;
    }
    seen.add(column);
    into.push(column);
    checkKeyColumnType(ctx, column, types.get(column), definition.type.range, columnEntity);
    if (definition.isStatic) {
      ctx.report(definition.name.range, `Static column '${column}' cannot be part of the PRIMARY KEY`, `${columnEntity}:static-key`);
    }
  };
  for (const id of key.partition) check(id, result.partition);
  for (const id of key.clustering) check(id, result.clustering);
  return result;
}

/** The type rules of a PRIMARY KEY column, shared with materialized views. */
export function checkKeyColumnType(
  ctx: BuildContext,
  column: string,
  type: ColumnType | undefined,
  range: SourceRange,
  columnEntity: string,
): void {
  if (!type) return;
  if (isMultiCell(type)) {
    const what = type.kind === "udt" ? "user-defined type" : "collection type";
    ctx.report(range, `Invalid non-frozen ${what} ${formatColumnType(type)} for PRIMARY KEY column '${column}'`, `${columnEntity}:non-frozen-key`);
  } else if (isCounterType(type)) {
    ctx.report(range, `counter type is not supported for PRIMARY KEY column '${column}'`, `${columnEntity}:counter-key`);
  } else if (referencesDuration(type)) {
    ctx.report(range, `duration type is not supported for PRIMARY KEY column '${column}'`, `${columnEntity}:duration-key`);
  }
}

/** CLUSTERING ORDER BY must name the clustering columns, in their order; returns the directions. */
function checkClusteringOrder(
  ctx: BuildContext,
  statement: CreateTableStatement,
  clustering: string[],
  shown: string,
  entity: string,
): Map<string, "asc" | "desc"> {
  const order = new Map<string, "asc" | "desc">();
  for (const entry of statement.clusteringOrder) {
    const column = entry.column.name;
    if (order.has(column)) {
      ctx.report(entry.column.range, `Duplicate column '${column}' in CLUSTERING ORDER BY clause for table '${shown}'`, `${entity}:column:${column}:duplicate-order`);
      continue;
    }
    order.set(column, entry.direction);
  }
  const strange = statement.clusteringOrder.find((e) => !clustering.includes(e.column.name));
  if (strange) {
    ctx.report(strange.column.range, "Only clustering columns can be defined in CLUSTERING ORDER directive", `${entity}:column:${strange.column.name}:order-non-clustering`);
    return order;
  }
  const entries = statement.clusteringOrder.filter((e, i, all) => all.findIndex((o) => o.column.name === e.column.name) === i);
  for (const [i, entry] of entries.entries()) {
    const expected = clustering[i];
    if (expected === undefined || entry.column.name === expected) continue;
    const message = order.has(expected)
      ? `The order of columns in the CLUSTERING ORDER directive must match that of the clustering columns (${expected} must appear before ${entry.column.name})`
      : `Missing CLUSTERING ORDER for column ${expected}`;
    ctx.report(entry.column.range, message, `${entity}:column:${expected}:order-mismatch`);
    break;
  }
  return order;
}

/** Static, counter and COMPACT STORAGE rules, which need the columns' final kinds. */
function checkColumnKinds(
  ctx: BuildContext,
  statement: CreateTableStatement,
  table: TableModel,
  definitions: Map<string, ColumnDefinition>,
  entity: string,
): void {
  const nameRange = (column: ColumnModel) => definitions.get(column.name)?.name.range ?? column.source.range;
  const typeRange = (column: ColumnModel) => definitions.get(column.name)?.type.range ?? column.source.range;
  const nonKey = [...table.static, ...table.regular];

  if (statement.compactStorage) {
    const range = statement.compactStorageRange ?? statement.name.range;
    for (const column of nonKey.filter((c) => isMultiCell(c.type))) {
      ctx.report(typeRange(column), "Non-frozen collections and UDTs are not supported with COMPACT STORAGE", `${entity}:column:${column.name}:compact-multi-cell`);
    }
    for (const column of table.static) {
      ctx.report(nameRange(column), "Static columns are not supported in COMPACT STORAGE tables", `${entity}:column:${column.name}:compact-static`);
    }
    if (table.clustering.length > 0 && nonKey.length > 1) {
      ctx.report(
        range,
        `COMPACT STORAGE with composite PRIMARY KEY allows no more than one column not part of the PRIMARY KEY (got: ${nonKey.map((c) => c.name).join(", ")})`,
        `${entity}:compact-columns`,
      );
    }
    if (table.clustering.length === 0 && nonKey.length === 0) {
      ctx.report(range, "COMPACT STORAGE with non-composite PRIMARY KEY require one column not part of the PRIMARY KEY, none given", `${entity}:compact-columns`);
    }
  } else if (table.clustering.length === 0) {
    for (const column of table.static) {
      ctx.report(
        nameRange(column),
        "Static columns are only useful (and thus allowed) if the table has at least one clustering column",
        `${entity}:column:${column.name}:static-without-clustering`,
      );
    }
  }

  // A counter in the key is reported on its own; the mix is about the columns outside the key.
  const counters = nonKey.filter((c) => isCounterType(c.type));
  const firstCounter = counters[0];
  if (firstCounter) {
    if (nonKey.some((c) => !isCounterType(c.type))) {
      ctx.report(nameRange(firstCounter), "Cannot mix counter and non counter columns in the same table", `${entity}:counter-mix`);
    }
    if (table.defaultTtlSeconds > 0) {
      const option = statement.options.find((o) => o.name.name === "default_time_to_live");
      ctx.report(option?.range ?? statement.name.range, "Cannot set default_time_to_live on a table with counters", `${entity}:counter-ttl`);
    }
  }
}

/** `CREATE TABLE t LIKE source [WITH …]` (5.0): the source's columns and options, then these options. */
function createTableLike(ctx: BuildContext, statement: CreateTableStatement, keyspace: string, entity: string): void {
  const like = statement.like;
  if (!like) return;
  const source = ctx.lookupTable(like);
  if (!source) {
    ctx.report(like.range, `Source Table '${display(ctx.keyspaceOf(like), like.name.name)}' doesn't exist`, `${entity}:like-missing`);
    return;
  }
  const options = { ...source.options, ...flattenOptions(statement.options, optionsSourceText(ctx)) };
  const name = statement.name.name.name;
  const table: TableModel = {
    keyspace,
    name,
    qualifiedName: qualify(keyspace, name),
    kind: "table",
    columns: source.columns.map((c) => ({ ...c })),
    partitionKey: [],
    clustering: [],
    static: [],
    regular: [],
    options,
    defaultTtlSeconds: defaultTtlOf(options),
    ...withCompaction(options),
    compactStorage: false,
    indexes: [],
    views: [],
    source: ctx.location(statement.name.range),
    statement,
  };
  arrangeColumns(table);
  ctx.schema.tables.set(table.qualifiedName, table);
}

// ---------------------------------------------------------------------------------------------
// ALTER TABLE

/** The table an ALTER or DROP names; reports it missing unless the statement says IF EXISTS. */
function existingTable(ctx: BuildContext, statement: AlterTableStatement | DropStatement): TableModel | undefined {
  const table = ctx.lookupTable(statement.name);
  if (!table && !statement.ifExists) {
    const keyspace = ctx.keyspaceOf(statement.name);
    const name = statement.name.name.name;
    ctx.report(statement.name.range, `Table '${display(keyspace, name)}' doesn't exist`, `table:${qualify(keyspace, name)}:missing`);
  }
  return table;
}

export function alterTable(ctx: BuildContext, statement: AlterTableStatement): void {
  const table = existingTable(ctx, statement);
  if (!table) return;
  const entity = `table:${table.qualifiedName}`;
  if (table.kind === "view") {
    ctx.report(statement.name.range, "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead", `view:${table.qualifiedName}:alter-table`);
    return;
  }
  const action = statement.action;
  switch (action.kind) {
    case "add":
      return addColumns(ctx, table, action, entity);
    case "drop":
      return dropColumns(ctx, table, action, entity);
    case "alter-type": {
      const column = table.columns.find((c) => c.name === action.column.name);
      if (!column) {
        ctx.report(action.column.range, `Column ${action.column.name} was not found in table '${display(table.keyspace, table.name)}'`, `${entity}:column:${action.column.name}:missing`);
        return;
      }
      // Cassandra removed ALTER … TYPE in 3.0.11 / 3.10; every supported version rejects it.
      const key = isPrimaryKeyColumn(column) ? ` (and ${column.name} is a PRIMARY KEY column)` : "";
      ctx.report(action.type.range, `Altering column types is no longer supported${key}`, `${entity}:column:${column.name}:alter-type`);
      return;
    }
    case "rename":
      return renameColumns(ctx, table, action, entity);
    case "with":
      return alterOptions(ctx, table, action.options, entity);
    case "drop-compact-storage":
      if (!table.compactStorage) {
        ctx.report(action.range, "Cannot DROP COMPACT STORAGE on table without COMPACT STORAGE", `${entity}:drop-compact-storage`);
        return;
      }
      table.compactStorage = false;
      return;
    case "mask": {
      const column = table.columns.find((c) => c.name === action.column.name);
      if (!column) {
        ctx.report(action.column.range, `Column with name '${action.column.name}' doesn't exist on table '${table.name}'`, `${entity}:column:${action.column.name}:missing`);
        return;
      }
      column.masked = action.mask !== undefined;
      return;
    }
  }
}

function addColumns(ctx: BuildContext, table: TableModel, action: Extract<AlterTableAction, { kind: "add" }>, entity: string): void {
  let rejected = false;
  const reject = (range: SourceRange, message: string, problem: string) => {
    rejected = true;
    ctx.report(range, message, `${entity}:${problem}`);
  };
  const counterTable = containsCounter(table);
  const added: ColumnModel[] = [];
  for (const definition of action.columns) {
    const name = definition.name.name;
    const columnEntity = `column:${name}`;
    if (table.columns.some((c) => c.name === name) || added.some((c) => c.name === name)) {
      if (!action.ifNotExists) reject(definition.name.range, `Column with name '${name}' already exists`, `${columnEntity}:exists`);
      continue;
    }
    if (table.compactStorage) {
      reject(definition.name.range, "Cannot add new column to a COMPACT STORAGE table", `${columnEntity}:compact-add`);
      continue;
    }
    const before = ctx.findings.length;
    const type = resolveColumnType(definition.type, typeEnvironment(ctx, table.keyspace, `${entity}:${columnEntity}`));
    if (ctx.findings.length > before) rejected = true;
    if (definition.isPrimaryKey) reject(definition.name.range, `Cannot add PRIMARY KEY column ${name} with ALTER TABLE`, `${columnEntity}:add-key`);
    if (definition.isStatic && table.clustering.length === 0) {
      reject(
        definition.name.range,
        "Static columns are only useful (and thus allowed) if the table has at least one clustering column",
        `${columnEntity}:static-without-clustering`,
      );
    }
    if (counterTable && !isCounterType(type)) {
      reject(definition.type.range, `Cannot add a non counter column (${name}) in a counter column family`, `${columnEntity}:counter-mix`);
    } else if (!counterTable && isCounterType(type)) {
      reject(definition.type.range, `Cannot add a counter column (${name}) in a non counter column family`, `${columnEntity}:counter-mix`);
    }
    const dropped = ctx.schema.droppedColumns.get(table.qualifiedName)?.find((d) => d.name === name);
    if (dropped && comparableType(dropped.type) !== comparableType(type)) {
      reject(
        definition.type.range,
        `Cannot re-add previously dropped column '${name}' of type ${formatColumnType(type)}, incompatible with previous type ${formatColumnType(dropped.type)}`,
        `${columnEntity}:re-add-incompatible`,
      );
    } else if (dropped && counterTable) {
      reject(definition.name.range, `Cannot re-add previously dropped counter column ${name}`, `${columnEntity}:re-add-counter`);
    }
    added.push({
      name,
      type,
      declaredType: definition.type,
      kind: definition.isStatic ? "static" : "regular",
      position: -1,
      masked: definition.mask !== undefined,
      source: ctx.location(definition.range),
    });
  }
  if (rejected || added.length === 0) return;
  append(table.columns, added);
  arrangeColumns(table);
  // Views declared with SELECT * follow the base table's new regular columns.
  for (const view of viewsOf(ctx, table)) {
    if (view.statement.kind !== "create-materialized-view" || !view.statement.star) continue;
    append(view.columns, added.filter((c) => c.kind === "regular").map((c) => ({ ...c })));
    arrangeColumns(view);
  }
}

/** Types compared the way a re-added column is: aliases such as varchar/text are the same type. */
function comparableType(type: ColumnType): string {
  return formatColumnType(type).replace(/\bvarchar\b/g, "text");
}

export function viewsOf(ctx: BuildContext, table: TableModel): TableModel[] {
  return table.views.map((v) => ctx.schema.tables.get(v)).filter((v): v is TableModel => v !== undefined);
}

function dropColumns(ctx: BuildContext, table: TableModel, action: Extract<AlterTableAction, { kind: "drop" }>, entity: string): void {
  let rejected = false;
  const reject = (range: SourceRange, message: string, problem: string) => {
    rejected = true;
    ctx.report(range, message, `${entity}:${problem}`);
  };
  const removed: { column: ColumnModel; id: Identifier }[] = [];
  for (const id of action.columns) {
    const column = table.columns.find((c) => c.name === id.name);
    const columnEntity = `column:${id.name}`;
    if (!column) {
      if (!action.ifExists) reject(id.range, `Column ${id.name} was not found in table '${display(table.keyspace, table.name)}'`, `${columnEntity}:missing`);
      continue;
    }
    if (isPrimaryKeyColumn(column)) {
      reject(id.range, `Cannot drop PRIMARY KEY column ${id.name}`, `${columnEntity}:drop-key`);
      continue;
    }
    if (column.type.kind === "udt" && !column.type.frozen) {
      reject(id.range, `Cannot drop non-frozen column ${id.name} of user type ${formatColumnType(column.type)}`, `${columnEntity}:drop-non-frozen-udt`);
      continue;
    }
    const dependents = table.indexes.filter((i) => i.column === id.name).map((i) => i.name);
    if (dependents.length > 0) {
      reject(id.range, `Cannot drop column ${id.name} because it has dependent secondary indexes (${dependents.join(", ")})`, `${columnEntity}:drop-indexed`);
      continue;
    }
    if (table.views.length > 0) {
      reject(id.range, `Cannot drop column ${id.name} on base table ${table.name} with materialized views`, `${columnEntity}:drop-with-views`);
      continue;
    }
    removed.push({ column, id });
  }
  if (rejected || removed.length === 0) return;
  const names = new Set(removed.map((r) => r.column.name));
  table.columns = table.columns.filter((c) => !names.has(c.name));
  arrangeColumns(table);
  const history = ctx.schema.droppedColumns.get(table.qualifiedName) ?? [];
  for (const { column, id } of removed) {
    // The last drop of a name is the one Cassandra remembers.
    const kept = history.filter((d) => d.name !== column.name);
    kept.push({ name: column.name, type: column.type, source: ctx.location(id.range) });
    history.length = 0;
    append(history, kept);
  }
  ctx.schema.droppedColumns.set(table.qualifiedName, history);
}

function renameColumns(ctx: BuildContext, table: TableModel, action: Extract<AlterTableAction, { kind: "rename" }>, entity: string): void {
  let rejected = false;
  const reject = (range: SourceRange, message: string, problem: string) => {
    rejected = true;
    ctx.report(range, message, `${entity}:${problem}`);
  };
  const renames: { column: ColumnModel; to: string }[] = [];
  const shown = display(table.keyspace, table.name);
  for (const { from, to } of action.renames) {
    const column = table.columns.find((c) => c.name === from.name);
    const columnEntity = `column:${from.name}`;
    if (!column) {
      if (!action.ifExists) reject(from.range, `Column ${from.name} was not found in table ${shown}`, `${columnEntity}:missing`);
      continue;
    }
    if (!isPrimaryKeyColumn(column)) {
      reject(from.range, `Cannot rename non PRIMARY KEY column ${from.name}`, `${columnEntity}:rename-non-key`);
      continue;
    }
    if (table.columns.some((c) => c.name === to.name)) {
      reject(to.range, `Cannot rename column ${from.name} to ${to.name} in table '${shown}'; another column with that name already exists`, `${columnEntity}:rename-exists`);
      continue;
    }
    const dependents = table.indexes.filter((i) => i.column === from.name).map((i) => i.name);
    if (dependents.length > 0) {
      reject(from.range, `Cannot rename column ${from.name} because it has dependent secondary indexes (${dependents.join(", ")})`, `${columnEntity}:rename-indexed`);
      continue;
    }
    renames.push({ column, to: to.name });
  }
  if (rejected) return;
  for (const { column, to } of renames) {
    const from = column.name;
    column.name = to;
    // A view's copy of the column follows the rename.
    for (const view of viewsOf(ctx, table)) {
      const viewColumn = view.columns.find((c) => c.name === from);
      if (viewColumn) viewColumn.name = to;
    }
  }
}

function alterOptions(ctx: BuildContext, table: TableModel, entries: OptionEntry[], entity: string): void {
  const changes = flattenOptions(entries, optionsSourceText(ctx));
  const options = { ...table.options, ...changes };
  const entryRange = (name: string) => entries.find((e) => e.name.name === name)?.range ?? table.source.range;
  let rejected = false;
  if (containsCounter(table) && defaultTtlOf(options) > 0 && "default_time_to_live" in changes) {
    ctx.report(entryRange("default_time_to_live"), "Cannot set default_time_to_live on a table with counters", `${entity}:counter-ttl`);
    rejected = true;
  }
  if (table.views.length > 0 && numberOf(changes.gc_grace_seconds) === 0) {
    ctx.report(
      entryRange("gc_grace_seconds"),
      "Cannot alter gc_grace_seconds of the base table of a materialized view to 0, since this value is used to TTL undelivered updates. " +
        "Setting gc_grace_seconds too low might cause undelivered updates to expire before being replayed.",
      `${entity}:view-gc-grace`,
    );
    rejected = true;
  }
  if (rejected) return;
  applyOptions(table, options);
}

export function applyOptions(table: TableModel, options: Record<string, OptionValue>): void {
  table.options = options;
  table.defaultTtlSeconds = defaultTtlOf(options);
  const compaction = compactionOf(options);
  if (compaction) table.compaction = compaction;
  else delete table.compaction;
}

// ---------------------------------------------------------------------------------------------
// DROP TABLE, TRUNCATE

export function dropTable(ctx: BuildContext, statement: DropStatement): void {
  const table = existingTable(ctx, statement);
  if (!table) return;
  const entity = `table:${table.qualifiedName}`;
  if (table.kind === "view") {
    ctx.report(statement.name.range, "Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW instead.", `view:${table.qualifiedName}:drop-table`);
    return;
  }
  if (table.views.length > 0) {
    // Cassandra refuses; the model still drops the views with the table, as the author meant to.
    const names = viewsOf(ctx, table).map((v) => v.name);
    ctx.report(statement.name.range, `Cannot drop a table when materialized views still depend on it (${names.join(", ")})`, `${entity}:drop-with-views`);
    for (const view of table.views) ctx.schema.tables.delete(view);
  }
  ctx.schema.tables.delete(table.qualifiedName);
  ctx.schema.droppedColumns.delete(table.qualifiedName);
}

export function truncateTable(ctx: BuildContext, statement: TruncateStatement): void {
  const keyspace = ctx.keyspaceOf(statement.name);
  if (SYSTEM_KEYSPACES.has(keyspace) || ctx.lookupTable(statement.name)) return;
  ctx.report(statement.name.range, `unconfigured table ${statement.name.name.name}`, `table:${qualify(keyspace, statement.name.name.name)}:unconfigured`);
}
