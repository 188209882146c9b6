// CREATE / DROP INDEX, after Cassandra's CreateIndexStatement (target rules, default names) and
// DropIndexStatement. Index names are unique per keyspace.
import type { CreateIndexStatement, DropStatement, IndexTarget } from "../cql/ast.js";
import { BuildContext, display, qualify, writtenName } from "./build-context.js";
import { isMultiCell, referencesDuration } from "./column-types.js";
import type { ColumnModel, IndexImplementation, IndexModel, OptionValue, TableModel } from "./model.js";
import { optionValue, simpleClassName } from "./options.js";
import { containsCounter, isCollection } from "./resolve.js";
import { optionsSourceText } from "./tables.js";

/** `USING '…'` → the implementation the planner reasons about. */
export function indexImplementation(using: string | undefined): IndexImplementation {
  if (using === undefined) return "legacy";
  const simple = simpleClassName(using).toLowerCase();
  if (simple === "sai" || simple === "storageattachedindex") return "sai";
  if (simple === "sasiindex") return "sasi";
  // 5.0 names the classic index `legacy_local_table`; its class is CassandraIndex.
  if (simple === "legacy_local_table" || simple === "cassandraindex") return "legacy";
  return "custom";
}

/** Cassandra's default name: `<table>_<column>_idx` without non-word characters, then `_1`, `_2`… if taken. */
export function defaultIndexName(ctx: BuildContext, keyspace: string, table: string, column: string | undefined): string {
  const base = (column === undefined ? `${table}_idx` : `${table}_${column}_idx`).replace(/[^A-Za-z0-9_]/g, "");
  if (!ctx.lookupIndex(keyspace, base)) return base;
  for (let i = 1; ; i++) {
    const candidate = `${base}_${i}`;
    if (!ctx.lookupIndex(keyspace, candidate)) return candidate;
  }
}

export function createIndex(ctx: BuildContext, statement: CreateIndexStatement): void {
  const table = ctx.lookupTable(statement.table);
  if (!table) {
    ctx.report(statement.table.range, `Table '${writtenName(statement.table)}' doesn't exist`, `table:${qualify(ctx.keyspaceOf(statement.table), statement.table.name.name)}:missing`);
    return;
  }
  const keyspace = table.keyspace;
  const given = statement.name?.name;
  const entity = `index:${qualify(keyspace, given ?? `${table.name}(${statement.targets.map((t) => t.column.name).join(",")})`)}`;
  const at = statement.name?.range ?? statement.table.range;

  if (given !== undefined && ctx.lookupIndex(keyspace, given)) {
    if (!statement.ifNotExists) ctx.report(at, `Index '${given}' already exists`, `${entity}:duplicate`);
    return;
  }
  const before = ctx.findings.length;
  if (containsCounter(table)) {
    ctx.report(statement.table.range, "Secondary indexes on counter tables aren't supported", `${entity}:counter-table`);
  }
  if (table.kind === "view") {
    ctx.report(statement.table.range, "Secondary indexes on materialized views aren't supported", `${entity}:on-view`);
  }
  // Cassandra refuses the table before looking at the targets.
  if (ctx.findings.length > before) return;
  if (statement.custom && statement.using === undefined) {
    ctx.report(at, "CUSTOM index requires specifying the index class", `${entity}:custom-without-class`);
  }
  if (statement.targets.length === 0 && !statement.custom) {
    ctx.report(statement.table.range, "Only CUSTOM indexes can be created without specifying a target column", `${entity}:no-target`);
  }
  if (statement.targets.length > 1 && !statement.custom) {
    ctx.report(statement.targets[1]?.range ?? at, "Only CUSTOM indexes support multiple columns", `${entity}:multiple-targets`);
  }

  const targets: { column: ColumnModel; kind: IndexModel["target"] }[] = [];
  for (const target of statement.targets) {
    const checked = checkTarget(ctx, table, target, entity);
    if (checked) targets.push(checked);
  }
  // A rejected index is not added: queries must not be planned through an index Cassandra refused.
  if (ctx.findings.length > before) return;

  const first = targets[0];
  const implementation = indexImplementation(statement.using);
  const index: IndexModel = {
    keyspace,
    name: given ?? defaultIndexName(ctx, keyspace, table.name, targets.length === 1 ? first?.column.name : undefined),
    table: table.name,
    column: first?.column.name ?? "",
    target: first?.kind ?? "simple",
    implementation,
    ...(statement.using !== undefined ? { className: statement.using } : {}),
    options: indexOptions(ctx, statement),
    source: ctx.location(statement.name?.range ?? statement.range),
  };
  const twin = table.indexes.find(
    (i) => i.column === index.column && i.target === index.target && i.implementation === index.implementation &&
      i.className === index.className && JSON.stringify(i.options) === JSON.stringify(index.options),
  );
  if (twin) {
    if (!statement.ifNotExists) ctx.report(at, `Index ${index.name} is a duplicate of existing index ${twin.name}`, `${entity}:twin`);
    return;
  }
  ctx.addIndex(table, index);
}

function checkTarget(
  ctx: BuildContext,
  table: TableModel,
  target: IndexTarget,
  entity: string,
): { column: ColumnModel; kind: IndexModel["target"] } | undefined {
  const name = target.column.name;
  const column = table.columns.find((c) => c.name === name);
  const problem = (message: string, slug: string) => ctx.report(target.range, message, `${entity}:column:${name}:${slug}`);
  if (!column) {
    ctx.report(target.column.range, `Column '${name}' doesn't exist`, `${entity}:column:${name}:missing`);
    return undefined;
  }
  const type = column.type;
  // A plain target on a collection indexes its values, as Cassandra reads it.
  const kind: IndexModel["target"] = target.kind === "simple" && isCollection(type) ? "values" : target.kind;
  if (referencesDuration(type)) {
    const container = isCollection(type) ? "collections" : type.kind === "tuple" ? "tuples" : type.kind === "udt" ? "UDTs" : undefined;
    problem(
      container ? `Secondary indexes are not supported on ${container} containing durations` : "Secondary indexes are not supported on duration columns",
      "duration",
    );
    return undefined;
  }
  if (table.compactStorage && (column.kind === "partition" || column.kind === "clustering")) {
    problem("Secondary indexes are not supported on PRIMARY KEY columns in COMPACT STORAGE tables", "compact-key");
    return undefined;
  }
  if (column.kind === "partition" && table.partitionKey.length === 1) {
    problem(`Cannot create secondary index on the only partition key column ${name}`, "only-partition-key");
    return undefined;
  }
  const frozenCollection = isCollection(type) && !isMultiCell(type);
  if (frozenCollection && kind !== "full") {
    problem(
      `Cannot create ${kind}() index on frozen column ${name}. Frozen collections are immutable and must be fully indexed by using the 'full(${name})' modifier`,
      "frozen-target",
    );
    return undefined;
  }
  if (!frozenCollection && kind === "full") {
    problem("full() indexes can only be created on frozen collections", "full-target");
    return undefined;
  }
  if (!isCollection(type) && kind !== "simple") {
    problem(`Cannot create ${kind}() index on ${name}. Non-collection columns only support simple indexes`, "collection-target");
    return undefined;
  }
  if ((kind === "keys" || kind === "entries") && !(type.kind === "map" && !type.frozen)) {
    problem(`Cannot create index on ${kind} of column ${name} with non-map type`, "map-target");
    return undefined;
  }
  if (type.kind === "udt" && !type.frozen) {
    problem(`Cannot create index on non-frozen UDT column ${name}`, "non-frozen-udt");
    return undefined;
  }
  return { column, kind };
}

/** `WITH OPTIONS = {…}` as strings, the way Cassandra stores index options. */
function indexOptions(ctx: BuildContext, statement: CreateIndexStatement): Record<string, string> {
  if (!statement.options) return {};
  const value = optionValue(statement.options, optionsSourceText(ctx));
  if (typeof value !== "object") return {};
  const options: Record<string, string> = {};
  const text = (v: OptionValue): string => (typeof v === "object" ? JSON.stringify(v) : String(v));
  for (const [key, v] of Object.entries(value)) options[key] = text(v);
  return options;
}

export function dropIndex(ctx: BuildContext, statement: DropStatement): void {
  const keyspace = ctx.keyspaceOf(statement.name);
  const name = statement.name.name.name;
  const found = ctx.lookupIndex(keyspace, name) ?? (statement.name.keyspace ? undefined : onlyIndexNamed(ctx, name, keyspace));
  if (!found) {
    if (!statement.ifExists) {
      ctx.report(statement.name.range, `Index '${display(keyspace, name)}' doesn't exist`, `index:${qualify(keyspace, name)}:missing`);
    }
    return;
  }
  found.table.indexes = found.table.indexes.filter((i) => i !== found.index);
}

/** Same fallback as tables: an index declared without a keyspace, or the only one of that name. */
function onlyIndexNamed(ctx: BuildContext, name: string, keyspace: string): ReturnType<BuildContext["lookupIndex"]> {
  const withoutKeyspace = ctx.lookupIndex("", name);
  if (withoutKeyspace || keyspace !== "") return withoutKeyspace;
  const matches = [...ctx.schema.tables.values()].flatMap((table) =>
    table.indexes.filter((index) => index.name === name).map((index) => ({ table, index })),
  );
  return matches.length === 1 ? matches[0] : undefined;
}
