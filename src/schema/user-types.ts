// CREATE / ALTER / DROP TYPE, after Cassandra's CreateTypeStatement, AlterTypeStatement and
// DropTypeStatement. Columns hold user types resolved to their fields, so an ALTER TYPE re-resolves
// every column that uses the type.
import type { AlterTypeStatement, CqlType, CreateTypeStatement, DropStatement } from "../cql/ast.js";
import { BuildContext, display, qualify } from "./build-context.js";
import { formatType } from "../cql/print.js";
import { cqlTypeReferences, referencesUserType, resolveColumnType } from "./column-types.js";
import type { ColumnType, UserTypeModel } from "./model.js";
import { typeEnvironment } from "./tables.js";

export function createType(ctx: BuildContext, statement: CreateTypeStatement): void {
  const keyspace = ctx.keyspaceOf(statement.name);
  const name = statement.name.name.name;
  const qualified = qualify(keyspace, name);
  const entity = `type:${qualified}`;
  ctx.checkKeyspaceExists(keyspace, statement.name.range);
  if (ctx.schema.types.has(qualified)) {
    if (!statement.ifNotExists) {
      ctx.report(statement.name.name.range, `A user type with name '${name}' already exists`, `${entity}:duplicate`);
    }
    return;
  }
  const fields: UserTypeModel["fields"] = [];
  for (const field of statement.fields) {
    const fieldEntity = `${entity}:field:${field.name.name}`;
    if (fields.some((f) => f.name === field.name.name)) {
      ctx.report(field.name.range, `Duplicate field name '${field.name.name}' in type '${name}'`, `${fieldEntity}:duplicate`);
      continue;
    }
    checkFieldType(ctx, field.type, keyspace, fieldEntity);
    fields.push({ name: field.name.name, type: field.type });
  }
  ctx.schema.types.set(qualified, { keyspace, name, fields, source: ctx.location(statement.name.range) });
}

/** A field's own rules, then the usual type checks (unknown types, nesting). */
function checkFieldType(ctx: BuildContext, type: CqlType, keyspace: string, fieldEntity: string): void {
  if (type.kind === "native" && type.name === "counter") {
    ctx.report(type.range, "A user type cannot contain counters", `${fieldEntity}:counter`);
  } else if (type.kind === "user") {
    ctx.report(type.range, "A user type cannot contain non-frozen UDTs", `${fieldEntity}:non-frozen-udt`);
  }
  // Field types resolve in the type's keyspace; only their findings matter here.
  resolveColumnType(type, typeEnvironment(ctx, keyspace, fieldEntity));
}

export function alterType(ctx: BuildContext, statement: AlterTypeStatement): void {
  const udt = ctx.lookupType(statement.name);
  if (!udt) {
    const keyspace = ctx.keyspaceOf(statement.name);
    if (!statement.ifExists) {
      ctx.report(statement.name.range, `Type ${display(keyspace, statement.name.name.name)} doesn't exist`, `type:${qualify(keyspace, statement.name.name.name)}:missing`);
    }
    return;
  }
  const entity = `type:${qualify(udt.keyspace, udt.name)}`;
  const shown = display(udt.keyspace, udt.name);
  const action = statement.action;
  switch (action.kind) {
    case "add": {
      const field = action.field.name;
      const fieldEntity = `${entity}:field:${field}`;
      if (udt.fields.some((f) => f.name === field)) {
        if (!action.ifNotExists) {
          ctx.report(action.field.range, `Cannot add field ${field} to type ${shown}: a field with name ${field} already exists`, `${fieldEntity}:exists`);
        }
        return;
      }
      if (cqlTypeReferences(action.type, udt.keyspace, udt.name)) {
        ctx.report(
          action.type.range,
          `Cannot add new field ${field} of type ${formatType(action.type)} to user type ${shown} as it would create a circular reference`,
          `${fieldEntity}:circular`,
        );
        return;
      }
      const keyUsers = [...ctx.schema.tables.values()].filter((t) =>
        t.partitionKey.some((c) => referencesUserType(c.type, udt.keyspace, udt.name)),
      );
      if (keyUsers.length > 0) {
        ctx.report(
          action.field.range,
          `Cannot add new field ${field} of type ${formatType(action.type)} to user type ${shown} as the type is being used in partition key by the following tables: ${keyUsers.map((t) => display(t.keyspace, t.name)).join(", ")}`,
          `${fieldEntity}:in-partition-key`,
        );
        return;
      }
      const before = ctx.findings.length;
      checkFieldType(ctx, action.type, udt.keyspace, fieldEntity);
      if (ctx.findings.length > before) return;
      udt.fields.push({ name: field, type: action.type });
      break;
    }
    case "rename": {
      const names = udt.fields.map((f) => f.name);
      let rejected = false;
      for (const { from, to } of action.renames) {
        const index = names.indexOf(from.name);
        if (index < 0) {
          if (!action.ifExists) {
            ctx.report(from.range, `Unknown field ${from.name} in user type ${shown}`, `${entity}:field:${from.name}:missing`);
            rejected = true;
          }
          continue;
        }
        names[index] = to.name;
      }
      const duplicate = names.find((n, i) => names.indexOf(n) !== i);
      if (duplicate !== undefined) {
        const range = action.renames.find((r) => r.to.name === duplicate)?.to.range ?? action.range;
        ctx.report(range, `Duplicate field name ${duplicate} in type ${shown}`, `${entity}:field:${duplicate}:duplicate`);
        rejected = true;
      }
      if (rejected) return;
      udt.fields = udt.fields.map((f, i) => ({ name: names[i] ?? f.name, type: f.type }));
      break;
    }
    case "alter-type":
      ctx.report(action.type.range, "Altering field types is no longer supported", `${entity}:field:${action.field.name}:alter-type`);
      return;
  }
  refreshColumnsUsing(ctx, udt);
}

/** Columns keep resolved fields: after the type changes, every column that uses it is resolved again. */
function refreshColumnsUsing(ctx: BuildContext, udt: UserTypeModel): void {
  const refresh = (type: ColumnType, declared: CqlType, keyspace: string): ColumnType =>
    referencesUserType(type, udt.keyspace, udt.name) ? resolveColumnType(declared, { schema: ctx.schema, keyspace }) : type;
  for (const table of ctx.schema.tables.values()) {
    for (const column of table.columns) {
      column.type = refresh(column.type, column.declaredType, table.keyspace);
    }
  }
}

export function dropType(ctx: BuildContext, statement: DropStatement): void {
  const udt = ctx.lookupType(statement.name);
  if (!udt) {
    const keyspace = ctx.keyspaceOf(statement.name);
    if (!statement.ifExists) {
      ctx.report(statement.name.range, `Type '${display(keyspace, statement.name.name.name)}' doesn't exist`, `type:${qualify(keyspace, statement.name.name.name)}:missing`);
    }
    return;
  }
  const qualified = qualify(udt.keyspace, udt.name);
  const shown = display(udt.keyspace, udt.name);
  const uses = (type: CqlType) => cqlTypeReferences(type, udt.keyspace, udt.name);
  const functions = ctx.schema.functions.filter(
    (f) => f.keyspace === udt.keyspace && (f.argumentTypes.some(uses) || (f.returns !== undefined && uses(f.returns))),
  );
  const types = [...ctx.schema.types.values()].filter((t) => t !== udt && t.keyspace === udt.keyspace && t.fields.some((f) => uses(f.type)));
  const tables = [...ctx.schema.tables.values()].filter(
    (t) => t.kind === "table" && t.columns.some((c) => referencesUserType(c.type, udt.keyspace, udt.name)),
  );
  const users: [string, string[]][] = [
    ["functions", functions.map((f) => f.name)],
    ["user types", types.map((t) => t.name)],
    ["tables", tables.map((t) => t.name)],
  ];
  for (const [what, names] of users) {
    if (names.length === 0) continue;
    ctx.report(statement.name.range, `Cannot drop user type '${shown}' as it is still used by ${what} ${names.join(", ")}`, `type:${qualified}:in-use`);
    return;
  }
  ctx.schema.types.delete(qualified);
}
