// CREATE / DROP FUNCTION and AGGREGATE: signatures only (bodies are never run or judged).
// Functions overload by argument types, so a function is identified by name and signature.
import type { CqlType, CreateAggregateStatement, CreateFunctionStatement, DropFunctionStatement, QualifiedName } from "../cql/ast.js";
import { BuildContext, display, qualify } from "./build-context.js";
import { formatType } from "../cql/print.js";
import { resolveColumnType } from "./column-types.js";
import type { FunctionModel } from "./model.js";
import { typeEnvironment } from "./tables.js";

/** Argument types as text, with aliases folded (`varchar` is `text`) so overloads compare as Cassandra does. */
function signature(types: CqlType[]): string {
  return types.map((t) => formatType(withoutAliases(t))).join(", ");
}

function withoutAliases(type: CqlType): CqlType {
  switch (type.kind) {
    case "native":
      return type.name === "varchar" ? { ...type, name: "text" } : type;
    case "collection":
    case "tuple":
      return { ...type, elements: type.elements.map(withoutAliases) };
    case "frozen":
      return { ...type, inner: withoutAliases(type.inner) };
    case "vector":
      return { ...type, element: withoutAliases(type.element) };
    default:
      return type;
  }
}

function checkTypes(ctx: BuildContext, types: CqlType[], keyspace: string, entity: string): void {
  for (const type of types) resolveColumnType(type, typeEnvironment(ctx, keyspace, entity));
}

export function createFunction(ctx: BuildContext, statement: CreateFunctionStatement | CreateAggregateStatement): void {
  const keyspace = ctx.keyspaceOf(statement.name);
  const name = statement.name.name.name;
  const isAggregate = statement.kind === "create-aggregate";
  const kind: FunctionModel["kind"] = isAggregate ? "aggregate" : "function";
  const argumentTypes = isAggregate ? statement.argumentTypes : statement.parameters.map((p) => p.type);
  const entity = `${kind}:${qualify(keyspace, name)}(${signature(argumentTypes)})`;
  const what = isAggregate ? "Aggregate" : "Function";
  ctx.checkKeyspaceExists(keyspace, statement.name.range);

  if (statement.orReplace && statement.ifNotExists) {
    ctx.report(statement.name.range, "Cannot use both 'OR REPLACE' and 'IF NOT EXISTS' directives", `${entity}:replace-and-if-not-exists`);
    return;
  }
  checkTypes(ctx, [...argumentTypes, isAggregate ? statement.stateType : statement.returns], keyspace, entity);

  let returns: CqlType = isAggregate ? statement.stateType : statement.returns;
  if (isAggregate) {
    if (!findFunctions(ctx, statement.stateFunction, keyspace, "function").length) {
      ctx.report(statement.stateFunction.range, `State function ${display(keyspace, statement.stateFunction.name.name)} doesn't exist`, `${entity}:state-function`);
    }
    if (statement.finalFunction) {
      const [final] = findFunctions(ctx, statement.finalFunction, keyspace, "function");
      if (final?.returns) returns = final.returns;
      else if (!final) {
        ctx.report(statement.finalFunction.range, `Final function ${display(keyspace, statement.finalFunction.name.name)} doesn't exist`, `${entity}:final-function`);
      }
    }
  }

  const model: FunctionModel = { keyspace, name, kind, argumentTypes, returns, source: ctx.location(statement.name.range) };
  const key = signature(argumentTypes);
  const existing = ctx.schema.functions.findIndex(
    (f) => f.kind === kind && f.keyspace === keyspace && f.name === name && signature(f.argumentTypes) === key,
  );
  if (existing < 0) {
    ctx.schema.functions.push(model);
  } else if (statement.orReplace) {
    ctx.schema.functions[existing] = model;
  } else if (!statement.ifNotExists) {
    ctx.report(statement.name.range, `${what} ${display(keyspace, name)}(${key}) already exists`, `${entity}:duplicate`);
  }
}

/** User functions of that name in the keyspace named (or the statement's). */
function findFunctions(ctx: BuildContext, name: QualifiedName, keyspace: string, kind: FunctionModel["kind"]): FunctionModel[] {
  const inKeyspace = name.keyspace?.name ?? keyspace;
  return ctx.schema.functions.filter((f) => f.kind === kind && f.keyspace === inKeyspace && f.name === name.name.name);
}

export function dropFunction(ctx: BuildContext, statement: DropFunctionStatement): void {
  const keyspace = ctx.keyspaceOf(statement.name);
  const name = statement.name.name.name;
  const kind: FunctionModel["kind"] = statement.kind === "drop-aggregate" ? "aggregate" : "function";
  const what = kind === "aggregate" ? "Aggregate" : "Function";
  const verb = kind === "aggregate" ? "AGGREGATE" : "FUNCTION";
  const shown = display(keyspace, name);
  const entity = `${kind}:${qualify(keyspace, name)}`;
  let candidates = findFunctions(ctx, statement.name, keyspace, kind);
  if (statement.signature) {
    const wanted = signature(statement.signature);
    candidates = candidates.filter((f) => signature(f.argumentTypes) === wanted);
  }
  if (candidates.length === 0) {
    if (!statement.ifExists) {
      const sig = statement.signature ? `(${signature(statement.signature)})` : "";
      ctx.report(statement.name.range, `${what} '${shown}${sig}' doesn't exist`, `${entity}:missing`);
    }
    return;
  }
  if (candidates.length > 1) {
    ctx.report(
      statement.name.range,
      `'DROP ${verb} ${shown}' matches multiple function definitions; specify the argument types by issuing a statement like 'DROP ${verb} ${shown} (type, type, ...)'`,
      `${entity}:ambiguous`,
    );
    return;
  }
  ctx.schema.functions = ctx.schema.functions.filter((f) => !candidates.includes(f));
}
