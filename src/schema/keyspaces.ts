// CREATE / ALTER / DROP KEYSPACE and USE.
import type { AlterKeyspaceStatement, CreateKeyspaceStatement, DropStatement, OptionEntry, UseStatement } from "../cql/ast.js";
import { BuildContext, SYSTEM_KEYSPACES } from "./build-context.js";
import type { KeyspaceModel, OptionValue } from "./model.js";
import { booleanOf, flattenOptions, replicationOf } from "./options.js";
import { optionsSourceText } from "./tables.js";

export function createKeyspace(ctx: BuildContext, statement: CreateKeyspaceStatement): void {
  const name = statement.name.name;
  const entity = `keyspace:${name}`;
  if (ctx.schema.keyspaces.has(name)) {
    if (!statement.ifNotExists) ctx.report(statement.name.range, `Cannot add existing keyspace "${name}"`, `${entity}:duplicate`);
    return;
  }
  const options = flattenOptions(statement.options, optionsSourceText(ctx));
  checkReplication(ctx, statement.options, options, entity);
  const replication = replicationOf(options.replication);
  const keyspace: KeyspaceModel = {
    name,
    replicationClass: replication.className,
    replicationFactors: replication.factors,
    durableWrites: booleanOf(options.durable_writes) ?? true,
    source: ctx.location(statement.name.range),
  };
  ctx.schema.keyspaces.set(name, keyspace);
}

/** The replication map must name its class; SimpleStrategy needs `replication_factor`. */
function checkReplication(ctx: BuildContext, entries: OptionEntry[], options: Record<string, OptionValue>, entity: string): boolean {
  const entry = entries.find((e) => e.name.name === "replication");
  if (!entry) return true;
  const value = options.replication;
  if (typeof value !== "object" || typeof value.class !== "string") {
    ctx.report(entry.range, "Missing replication strategy class", `${entity}:replication-class`);
    return false;
  }
  const replication = replicationOf(value);
  if (replication.className === "SimpleStrategy" && replication.factors.replication_factor === undefined) {
    ctx.report(entry.range, "SimpleStrategy requires a replication_factor strategy option.", `${entity}:replication-factor`);
    return false;
  }
  return true;
}

export function alterKeyspace(ctx: BuildContext, statement: AlterKeyspaceStatement): void {
  const name = statement.name.name;
  const entity = `keyspace:${name}`;
  const keyspace = ctx.schema.keyspaces.get(name);
  if (!keyspace) {
    // Only knowable when the files create their keyspaces.
    if (!statement.ifExists && ctx.declaredKeyspaces.size > 0 && !ctx.keyspaceKnown(name)) {
      ctx.report(statement.name.range, `Keyspace '${name}' doesn't exist`, `${entity}:missing`);
    }
    return;
  }
  const options = flattenOptions(statement.options, optionsSourceText(ctx));
  if (!checkReplication(ctx, statement.options, options, entity)) return;
  if (options.replication !== undefined) {
    const replication = replicationOf(options.replication);
    keyspace.replicationClass = replication.className;
    keyspace.replicationFactors = replication.factors;
  }
  const durable = booleanOf(options.durable_writes);
  if (durable !== undefined) keyspace.durableWrites = durable;
}

export function dropKeyspace(ctx: BuildContext, statement: DropStatement): void {
  const name = statement.name.name.name;
  if (!ctx.keyspaceKnown(name)) {
    if (!statement.ifExists && ctx.declaredKeyspaces.size > 0) {
      ctx.report(statement.name.range, `Keyspace '${name}' doesn't exist`, `keyspace:${name}:missing`);
    }
    return;
  }
  const schema = ctx.schema;
  schema.keyspaces.delete(name);
  for (const [qualified, table] of schema.tables) {
    if (table.keyspace !== name) continue;
    schema.tables.delete(qualified);
    schema.droppedColumns.delete(qualified);
  }
  for (const [qualified, type] of schema.types) if (type.keyspace === name) schema.types.delete(qualified);
  schema.functions = schema.functions.filter((f) => f.keyspace !== name);
}

export function useKeyspace(ctx: BuildContext, statement: UseStatement): void {
  const name = statement.keyspace.name;
  ctx.currentKeyspace = name;
  if (ctx.declaredKeyspaces.size === 0 || ctx.declaredKeyspaces.has(name) || SYSTEM_KEYSPACES.has(name)) return;
  // Reported here once; the objects created after it are then not reported again.
  ctx.checkKeyspaceExists(name, statement.keyspace.range);
}
