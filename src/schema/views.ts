// CREATE / ALTER / DROP MATERIALIZED VIEW, after Cassandra's CreateViewStatement. A view is a
// TableModel of kind "view" with its own key; its columns are copied from the base table.
import type { AlterMaterializedViewStatement, CreateMaterializedViewStatement, DropStatement, Identifier } from "../cql/ast.js";
import { BuildContext, display, qualify, writtenName } from "./build-context.js";
import type { ColumnModel, TableModel } from "./model.js";
import { compactionOf, defaultTtlOf, flattenOptions, numberOf } from "./options.js";
import { applyOptions, arrangeColumns, checkKeyColumnType, optionsSourceText } from "./tables.js";

const VIEW_TTL_MESSAGE =
  "Cannot set default_time_to_live for a materialized view. Data in a materialized view always expire at the same time than the corresponding data in the parent table.";

export function createView(ctx: BuildContext, statement: CreateMaterializedViewStatement): void {
  const base = ctx.lookupTable(statement.baseTable);
  const name = statement.name.name.name;
  const keyspace = statement.name.keyspace?.name ?? base?.keyspace ?? ctx.keyspaceOf(statement.name);
  const qualified = qualify(keyspace, name);
  const entity = `view:${qualified}`;
  if (!base) {
    ctx.report(statement.baseTable.range, `Base table '${writtenName(statement.baseTable)}' doesn't exist`, `${entity}:base-missing`);
    return;
  }
  const existing = ctx.schema.tables.get(qualified);
  if (existing?.kind === "table") {
    ctx.report(statement.name.name.range, `Cannot create materialized view '${name}' - a table with the same name already exists`, `${entity}:table-exists`);
    return;
  }
  if (existing) {
    if (!statement.ifNotExists) {
      ctx.report(statement.name.name.range, `Cannot add already existing materialized view "${name}" to keyspace "${keyspace}"`, `${entity}:duplicate`);
    }
    return;
  }
  if (base.columns.some((c) => c.type.kind === "native" && c.type.name === "counter")) {
    ctx.report(statement.baseTable.range, "Materialized views are not supported on counter tables", `${entity}:counter-base`);
  }
  if (base.kind === "view") {
    ctx.report(statement.baseTable.range, "Materialized views cannot be created against other materialized views", `${entity}:view-base`);
  }
  if (numberOf(base.options.gc_grace_seconds) === 0) {
    ctx.report(
      statement.baseTable.range,
      `Cannot create materialized view '${name}' for base table '${base.name}' with gc_grace_seconds of 0, since this value is used to TTL undelivered updates. ` +
        "Setting gc_grace_seconds too low might cause undelivered updates to expire before being replayed.",
      `${entity}:base-gc-grace`,
    );
  }

  const selected = selectedColumns(ctx, statement, base, entity);
  const keyIds = [...statement.primaryKey.partitionKey, ...statement.primaryKey.clustering];
  const keyNames = checkViewKey(ctx, statement, base, selected, entity);
  checkViewWhere(ctx, statement, base, keyNames, entity);
  const ttlOption = statement.options.find((o) => o.name.name === "default_time_to_live");
  if (ttlOption) ctx.report(ttlOption.range, VIEW_TTL_MESSAGE, `${entity}:ttl`);

  const order = new Map(statement.clusteringOrder.map((o) => [o.column.name, o.direction] as const));
  const idOf = (column: string): Identifier | undefined => keyIds.find((id) => id.name === column);
  const columns: ColumnModel[] = [];
  const partition = statement.primaryKey.partitionKey.map((id) => id.name);
  const clustering = statement.primaryKey.clustering.map((id) => id.name);
  const copy = (column: ColumnModel, kind: ColumnModel["kind"], position: number, at: Identifier | undefined): ColumnModel => {
    const { order: _baseOrder, ...rest } = column;
    return { ...rest, kind, position, source: ctx.location(at?.range ?? statement.name.range) };
  };
  for (const [position, column] of partition.entries()) {
    const baseColumn = base.columns.find((c) => c.name === column);
    if (baseColumn && !columns.some((c) => c.name === column)) columns.push(copy(baseColumn, "partition", position, idOf(column)));
  }
  for (const [position, column] of clustering.entries()) {
    const baseColumn = base.columns.find((c) => c.name === column);
    if (!baseColumn || columns.some((c) => c.name === column)) continue;
    // Without an explicit order a base clustering column keeps its direction, as Cassandra keeps its reversed type.
    const direction = order.get(column) ?? (baseColumn.kind === "clustering" ? baseColumn.order : undefined) ?? "asc";
    columns.push({ ...copy(baseColumn, "clustering", position, idOf(column)), order: direction });
  }
  for (const { column, id } of selected) {
    if (columns.some((c) => c.name === column.name) || column.kind === "static") continue;
    columns.push(copy(column, "regular", -1, id));
  }

  const options = flattenOptions(statement.options, optionsSourceText(ctx));
  const compaction = compactionOf(options);
  const view: TableModel = {
    keyspace,
    name,
    qualifiedName: qualified,
    kind: "view",
    columns,
    partitionKey: [],
    clustering: [],
    static: [],
    regular: [],
    options,
    defaultTtlSeconds: defaultTtlOf(options),
    ...(compaction ? { compaction } : {}),
    compactStorage: false,
    indexes: [],
    baseTable: base.qualifiedName,
    views: [],
    source: ctx.location(statement.name.range),
    statement,
  };
  arrangeColumns(view);
  ctx.schema.tables.set(qualified, view);
  base.views.push(qualified);
}

/** The base columns the view selects (`*` is every column), with where each is named. */
function selectedColumns(
  ctx: BuildContext,
  statement: CreateMaterializedViewStatement,
  base: TableModel,
  entity: string,
): { column: ColumnModel; id?: Identifier }[] {
  const selected: { column: ColumnModel; id?: Identifier }[] = statement.star ? base.columns.map((column) => ({ column })) : [];
  if (!statement.star) {
    for (const id of statement.columns) {
      const column = base.columns.find((c) => c.name === id.name);
      if (!column) {
        ctx.report(id.range, `Undefined column name ${id.name}`, `${entity}:column:${id.name}:undefined`);
        continue;
      }
      if (!selected.some((s) => s.column === column)) selected.push({ column, id });
    }
  }
  const staticColumn = selected.find((s) => s.column.kind === "static");
  if (staticColumn) {
    ctx.report(
      staticColumn.id?.range ?? statement.name.range,
      `Cannot include static column '${staticColumn.column.name}' in materialized view '${statement.name.name.name}'`,
      `${entity}:column:${staticColumn.column.name}:static`,
    );
  }
  return selected;
}

/** The view's PRIMARY KEY: selected base columns, every base key column, at most one other column. */
function checkViewKey(
  ctx: BuildContext,
  statement: CreateMaterializedViewStatement,
  base: TableModel,
  selected: { column: ColumnModel }[],
  entity: string,
): string[] {
  const name = statement.name.name.name;
  const keyNames: string[] = [];
  for (const id of [...statement.primaryKey.partitionKey, ...statement.primaryKey.clustering]) {
    const column = base.columns.find((c) => c.name === id.name);
    const columnEntity = `${entity}:column:${id.name}`;
    if (!column || !selected.some((s) => s.column === column)) {
      ctx.report(id.range, `Unknown column '${id.name}' referenced in PRIMARY KEY for materialized view '${name}'`, `${columnEntity}:undeclared-key`);
      continue;
    }
    if (keyNames.includes(id.name)) {
      ctx.report(id.range, `Duplicate column '${id.name}' in PRIMARY KEY clause for materialized view '${name}'`, `${columnEntity}:duplicate-key`);
      continue;
    }
    keyNames.push(id.name);
    checkKeyColumnType(ctx, id.name, column.type, id.range, columnEntity);
  }

  const clustering = statement.primaryKey.clustering.map((id) => id.name);
  const ordered = statement.clusteringOrder.map((o) => o.column.name);
  if (ordered.length > 0 && ordered.join("\u0000") !== clustering.join("\u0000")) {
    ctx.report(
      statement.clusteringOrderRange ?? statement.clusteringOrder[0]?.range ?? statement.name.range,
      "Clustering key columns must exactly match columns in CLUSTERING ORDER BY directive",
      `${entity}:order-mismatch`,
    );
  }

  const baseKey = [...base.partitionKey, ...base.clustering].map((c) => c.name);
  const missing = baseKey.filter((c) => !keyNames.includes(c));
  if (missing.length > 0) {
    ctx.report(
      statement.primaryKey.range,
      `Cannot create materialized view '${name}' without primary key columns ${missing.join(", ")} from base table '${base.name}'`,
      `${entity}:missing-base-key`,
    );
  }
  const extra = keyNames.filter((c) => !baseKey.includes(c));
  if (extra.length > 1) {
    const second = [...statement.primaryKey.partitionKey, ...statement.primaryKey.clustering].find((id) => id.name === extra[1]);
    ctx.report(
      second?.range ?? statement.primaryKey.range,
      `Cannot include more than one non-primary key column in materialized view primary key (got ${extra.join(", ")})`,
      `${entity}:non-key-columns`,
    );
  }
  return keyNames;
}

/** Every view key column restricted (`IS NOT NULL` or otherwise); other columns only with `IS NOT NULL`. */
function checkViewWhere(
  ctx: BuildContext,
  statement: CreateMaterializedViewStatement,
  base: TableModel,
  keyNames: string[],
  entity: string,
): void {
  const name = statement.name.name.name;
  const restricted = new Set<string>();
  const baseKey = new Set([...base.partitionKey, ...base.clustering].map((c) => c.name));
  let illegal: { range: Identifier["range"]; columns: string[] } | undefined;
  for (const relation of statement.where.relations) {
    switch (relation.kind) {
      case "token":
        ctx.report(relation.range, "Cannot use token relation when defining a materialized view", `${entity}:token-relation`);
        break;
      case "custom-index-expression":
        ctx.report(relation.range, `WHERE clause for materialized view '${name}' cannot contain custom index expressions`, `${entity}:custom-expression`);
        break;
      case "column":
        restricted.add(relation.column.name);
        if (relation.operator !== "IS NOT NULL" && !baseKey.has(relation.column.name)) {
          illegal ??= { range: relation.range, columns: [] };
          illegal.columns.push(relation.column.name);
        }
        break;
      case "multi-column":
        for (const column of relation.columns) restricted.add(column.name);
        break;
    }
  }
  const unrestricted = keyNames.filter((c) => !restricted.has(c));
  if (unrestricted.length > 0) {
    const first = [...statement.primaryKey.partitionKey, ...statement.primaryKey.clustering].find((id) => id.name === unrestricted[0]);
    ctx.report(
      first?.range ?? statement.primaryKey.range,
      `Primary key columns ${unrestricted.join(", ")} must be restricted with 'IS NOT NULL' or otherwise`,
      `${entity}:unrestricted-key`,
    );
  }
  if (illegal) {
    ctx.report(
      illegal.range,
      `Non-primary key columns can only be restricted with 'IS NOT NULL' (got: ${illegal.columns.join(",")} restricted illegally)`,
      `${entity}:restricted-non-key`,
    );
  }
}

export function alterView(ctx: BuildContext, statement: AlterMaterializedViewStatement): void {
  const view = ctx.lookupTable(statement.name);
  if (!view || view.kind !== "view") {
    const keyspace = view?.keyspace ?? ctx.keyspaceOf(statement.name);
    if (!statement.ifExists) {
      ctx.report(statement.name.range, `Materialized view '${display(keyspace, statement.name.name.name)}' doesn't exist`, `view:${qualify(keyspace, statement.name.name.name)}:missing`);
    }
    return;
  }
  const ttlOption = statement.options.find((o) => o.name.name === "default_time_to_live");
  if (ttlOption) {
    ctx.report(ttlOption.range, VIEW_TTL_MESSAGE, `view:${view.qualifiedName}:ttl`);
    return;
  }
  applyOptions(view, { ...view.options, ...flattenOptions(statement.options, optionsSourceText(ctx)) });
}

export function dropView(ctx: BuildContext, statement: DropStatement): void {
  const view = ctx.lookupTable(statement.name);
  if (!view || view.kind !== "view") {
    const keyspace = view?.keyspace ?? ctx.keyspaceOf(statement.name);
    if (!statement.ifExists) {
      ctx.report(statement.name.range, `Materialized view '${display(keyspace, statement.name.name.name)}' doesn't exist`, `view:${qualify(keyspace, statement.name.name.name)}:missing`);
    }
    return;
  }
  ctx.schema.tables.delete(view.qualifiedName);
  const base = view.baseTable ? ctx.schema.tables.get(view.baseTable) : undefined;
  if (base) base.views = base.views.filter((v) => v !== view.qualifiedName);
}
