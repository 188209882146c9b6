// CST → AST: one function per statement production, producing exactly the types of ast.ts.
// Semantics stay out of the grammar; the few superset forms the grammar accepts but CQL does not
// are rejected here with an AstSyntaxError at their range.
import type { CstNode, IToken } from "chevrotain";
import type {
  AccessControlStatement,
  AlterTableAction,
  AlterTypeStatement,
  Assignment,
  BatchStatement,
  ClusteringOrder,
  ColumnDefinition,
  CreateTableStatement,
  DeleteSelection,
  DeleteStatement,
  DropStatement,
  Identifier,
  IndexTarget,
  IndexTargetKind,
  InsertStatement,
  Literal,
  Ordering,
  PrimaryKeyDefinition,
  SchemaDescriptionStatement,
  SelectStatement,
  SourceRange,
  Statement,
  TableProperties,
  UpdateStatement,
} from "./ast.js";
import { child, childNodes, has, IncompleteTreeError, nodeRange, required, requiredTok, span, tok, toks } from "./cst.js";
import { endOf, startOf, tokenRange } from "./lexer.js";
import {
  AstSyntaxError,
  bareQualifiedName,
  columnCondition,
  comparatorType,
  functionCall,
  functionName,
  identifier,
  literal,
  nativeType,
  noteVendorOptions,
  properties,
  property,
  qualifiedName,
  term,
  unquoteString,
  usingClause,
  valueTerms,
  whereClause,
  type AstContext,
} from "./to-ast-expressions.js";
import * as T from "./tokens.js";

export { AstSyntaxError, type AstContext } from "./to-ast-expressions.js";

/** Converts a parsed `cqlStatement` node. */
export function statementFromCst(root: CstNode, context: AstContext): Statement {
  return statement(required(root, "statement"), context);
}

type Base = { range: SourceRange; text: string };

function base(node: CstNode, context: AstContext): Base {
  const range = nodeRange(node);
  return { range, text: context.text.slice(range.start.offset, range.end.offset) };
}

const ifExists = (node: CstNode) => has(node, "IF");

function statement(node: CstNode, context: AstContext): Statement {
  switch (node.name) {
    case "selectStatement":
      return selectStatement(node, context);
    case "insertStatement":
      return insertStatement(node, context);
    case "updateStatement":
      return updateStatement(node, context);
    case "deleteStatement":
      return deleteStatement(node, context);
    case "batchStatement":
      return batchStatement(node, context);
    case "useStatement":
      return { kind: "use", keyspace: identifier(requiredTok(node, "name")), ...base(node, context) };
    case "truncateStatement":
      return { kind: "truncate", name: qualifiedName(required(node, "name")), ...base(node, context) };
    case "createKeyspaceStatement": {
      const options = properties(child(node, "properties"), context);
      noteVendorOptions(options, context);
      return {
        kind: "create-keyspace",
        name: identifier(requiredTok(node, "name")),
        ifNotExists: ifExists(node),
        options,
        ...base(node, context),
      };
    }
    case "alterKeyspaceStatement": {
      const options = properties(child(node, "properties"), context);
      noteVendorOptions(options, context);
      return { kind: "alter-keyspace", name: identifier(requiredTok(node, "name")), ifExists: ifExists(node), options, ...base(node, context) };
    }
    case "createTableStatement":
      return createTableStatement(node, context);
    case "alterTableStatement":
      return {
        kind: "alter-table",
        name: qualifiedName(required(node, "name")),
        ifExists: ifExists(node),
        action: alterTableAction(node, context),
        ...base(node, context),
      };
    case "dropKeyspaceStatement":
      return drop("drop-keyspace", node, bareQualifiedName(requiredTok(node, "name")), context);
    case "dropTableStatement":
      return drop("drop-table", node, qualifiedName(required(node, "name")), context);
    case "dropTypeStatement":
      return drop("drop-type", node, qualifiedName(required(node, "name")), context);
    case "dropIndexStatement":
      return drop("drop-index", node, qualifiedName(required(node, "name")), context);
    case "dropMaterializedViewStatement":
      return drop("drop-materialized-view", node, qualifiedName(required(node, "name")), context);
    case "dropTriggerStatement":
      return {
        ...drop("drop-trigger", node, bareQualifiedName(requiredTok(node, "name")), context),
        table: qualifiedName(required(node, "table")),
      };
    case "dropRoleStatement":
      return drop("drop-role", node, bareQualifiedName(requiredTok(required(node, "roleName"), "name")), context);
    case "dropUserStatement":
      return drop("drop-user", node, bareQualifiedName(requiredTok(required(node, "roleName"), "name")), context);
    case "createTypeStatement":
      return {
        kind: "create-type",
        name: qualifiedName(required(node, "name")),
        ifNotExists: ifExists(node),
        fields: childNodes(node, "typeColumns").map((field) => ({
          name: identifier(requiredTok(field, "name")),
          type: comparatorType(required(field, "type")),
          range: nodeRange(field),
        })),
        ...base(node, context),
      };
    case "alterTypeStatement":
      return alterTypeStatement(node, context);
    case "createIndexStatement":
      return createIndexStatement(node, context);
    case "createMaterializedViewStatement":
      return createMaterializedViewStatement(node, context);
    case "alterMaterializedViewStatement": {
      const options = properties(child(node, "properties"), context);
      noteVendorOptions(options, context);
      return {
        kind: "alter-materialized-view",
        name: qualifiedName(required(node, "name")),
        ifExists: ifExists(node),
        options,
        ...base(node, context),
      };
    }
    case "createFunctionStatement":
      return createFunctionStatement(node, context);
    case "dropFunctionStatement":
    case "dropAggregateStatement": {
      const signature = child(node, "signature");
      return {
        kind: node.name === "dropFunctionStatement" ? "drop-function" : "drop-aggregate",
        name: functionName(required(node, "name")),
        ifExists: ifExists(node),
        ...(signature ? { signature: childNodes(signature, "type").map(comparatorType) } : {}),
        ...base(node, context),
      };
    }
    case "createAggregateStatement": {
      const finalFunction = child(node, "finalFunction");
      const initialCondition = child(node, "initialCondition");
      return {
        kind: "create-aggregate",
        orReplace: has(node, "orReplace"),
        ifNotExists: ifExists(node),
        name: functionName(required(node, "name")),
        argumentTypes: childNodes(required(node, "argumentTypes"), "type").map(comparatorType),
        stateFunction: functionName(required(node, "stateFunction")),
        stateType: comparatorType(required(node, "stateType")),
        ...(finalFunction ? { finalFunction: functionName(finalFunction) } : {}),
        ...(initialCondition ? { initialCondition: term(initialCondition, context) } : {}),
        ...base(node, context),
      };
    }
    case "createTriggerStatement":
      return {
        kind: "create-trigger",
        name: identifier(requiredTok(node, "name")),
        ifNotExists: ifExists(node),
        table: qualifiedName(required(node, "table")),
        className: unquoteString(requiredTok(node, "className").image),
        ...base(node, context),
      };
    case "describeStatement":
      return describeStatement(node, context);
    case "commentOnStatement":
    case "securityLabelStatement":
      return schemaDescription(node, context);
    default:
      return accessControl(node, context);
  }
}

function drop(kind: DropStatement["kind"], node: CstNode, name: DropStatement["name"], context: AstContext): DropStatement {
  return { kind, name, ifExists: ifExists(node), ...base(node, context) };
}

// ---------------------------------------------------------------------------------------------
// Tables

function createTableStatement(node: CstNode, context: AstContext): CreateTableStatement {
  const name = qualifiedName(required(node, "name"));
  const definition = child(node, "cfamDefinition");
  const propertiesNode = child(definition ?? node, "tableProperties");
  const tableProperties = tablePropertiesOf(propertiesNode, context);
  if (!definition) {
    return {
      kind: "create-table",
      name,
      ifNotExists: ifExists(node),
      columns: [],
      like: qualifiedName(required(node, "like")),
      ...tableProperties,
      ...base(node, context),
    };
  }
  const columns: ColumnDefinition[] = [];
  let primaryKey: PrimaryKeyDefinition | undefined;
  for (const column of childNodes(definition, "columnDefinition")) columns.push(columnDefinition(column, context));
  const keys = childNodes(definition, "primaryKeyDefinition");
  if (keys.length > 1) throw new AstSyntaxError("a table has one PRIMARY KEY clause", nodeRange(keys[1]!));
  if (keys[0]) primaryKey = primaryKeyDefinition(keys[0]);
  const open = requiredTok(definition, "open");
  const close = tok(definition, "close");
  // A `)` inserted by error recovery has no position: the body then ends with its last entry.
  const entries = [...childNodes(definition, "columnDefinition"), ...childNodes(definition, "primaryKeyDefinition")];
  const lastEnd = Math.max(...entries.map((entry) => entry.location?.endOffset ?? -1));
  const lastEntry = entries.find((entry) => entry.location?.endOffset === lastEnd);
  const bodyEnd = close && !close.isInsertedInRecovery ? startOf(close) : lastEntry ? nodeRange(lastEntry).end : endOf(open);
  return {
    kind: "create-table",
    name,
    ifNotExists: ifExists(node),
    columns,
    ...(primaryKey ? { primaryKey } : {}),
    bodyRange: { start: endOf(open), end: bodyEnd },
    ...tableProperties,
    ...base(node, context),
  };
}

function columnDefinition(node: CstNode, context: AstContext): ColumnDefinition {
  const mask = child(node, "columnMask");
  const native = tok(node, "nativeType");
  const definition: ColumnDefinition = {
    name: identifier(requiredTok(node, "name")),
    type: native ? nativeType(native) : comparatorType(required(node, "type")),
    isStatic: has(node, "static"),
    isPrimaryKey: has(node, "primary"),
    range: nodeRange(node),
  };
  // Optional members are assigned, not spread: spreading into a literal is several times slower.
  if (mask) definition.mask = columnMask(mask, context);
  return definition;
}

function columnMask(node: CstNode, context: AstContext): NonNullable<ColumnDefinition["mask"]> {
  const range = nodeRange(node);
  if (has(node, "default")) return { default: true, range };
  const nameNode = required(node, "functionName");
  const args = required(node, "functionArgs");
  const call = functionCall(functionName(nameNode), args, span(nodeRange(nameNode), nodeRange(args)), context);
  if (call.kind !== "function") throw new AstSyntaxError("a mask is a function call", range);
  return { function: call, default: false, range };
}

function primaryKeyDefinition(node: CstNode): PrimaryKeyDefinition {
  return {
    partitionKey: toks(required(node, "pkDef"), "partition").map(identifier),
    clustering: toks(node, "clustering").map(identifier),
    range: nodeRange(node),
  };
}

function tablePropertiesOf(node: CstNode | undefined, context: AstContext): TableProperties {
  const result: TableProperties = { options: [], clusteringOrder: [], compactStorage: false };
  if (!node) return result;
  result.withRange = nodeRange(node);
  for (const entry of childNodes(node, "cfamProperty")) {
    if (has(entry, "compact")) {
      result.compactStorage = true;
      result.compactStorageRange = nodeRange(entry);
    } else if (has(entry, "clustering")) {
      result.clusteringOrder.push(...childNodes(entry, "cfamOrdering").map(clusteringOrder));
      result.clusteringOrderRange = nodeRange(entry);
    } else {
      result.options.push(property(entry, context));
    }
  }
  noteVendorOptions(result.options, context);
  return result;
}

function clusteringOrder(node: CstNode): ClusteringOrder {
  const direction = requiredTok(node, "direction");
  return {
    column: identifier(requiredTok(node, "column")),
    direction: direction.tokenType === T.Desc ? "desc" : "asc",
    range: nodeRange(node),
  };
}

function alterTableAction(node: CstNode, context: AstContext): AlterTableAction {
  const alter = child(node, "alterColumnAction");
  if (alter) {
    const range = nodeRange(alter);
    const column = identifier(requiredTok(alter, "column"));
    const type = child(alter, "type");
    if (type) return { kind: "alter-type", column, type: comparatorType(type), range };
    const mask = child(alter, "columnMask");
    return { kind: "mask", column, ...(mask ? { mask: columnMask(mask, context) } : {}), range };
  }
  const add = child(node, "addColumnsAction");
  if (add) {
    return {
      kind: "add",
      columns: childNodes(add, "columnDefinition").map((c) => columnDefinition(c, context)),
      ifNotExists: has(add, "IF"),
      range: nodeRange(add),
    };
  }
  const dropCompact = child(node, "dropCompactStorageAction");
  if (dropCompact) return { kind: "drop-compact-storage", range: nodeRange(dropCompact) };
  const dropColumns = child(node, "dropColumnsAction");
  if (dropColumns) {
    const timestamp = child(dropColumns, "timestamp");
    return {
      kind: "drop",
      columns: toks(dropColumns, "column").map(identifier),
      ifExists: has(dropColumns, "IF"),
      ...(timestamp ? { timestamp: term(timestamp, context) } : {}),
      range: nodeRange(dropColumns),
    };
  }
  const rename = child(node, "renameColumnsAction");
  if (rename) return { kind: "rename", renames: renames(rename), ifExists: has(rename, "IF"), range: nodeRange(rename) };
  const withOptions = required(node, "alterOptionsAction");
  const options = properties(child(withOptions, "properties"), context);
  noteVendorOptions(options, context);
  return { kind: "with", options, range: nodeRange(withOptions) };
}

function renames(node: CstNode): { from: Identifier; to: Identifier }[] {
  return childNodes(node, "renamePair").map((pair) => ({
    from: identifier(requiredTok(pair, "from")),
    to: identifier(requiredTok(pair, "to")),
  }));
}

// ---------------------------------------------------------------------------------------------
// Types, indexes, views, functions

function alterTypeStatement(node: CstNode, context: AstContext): AlterTypeStatement {
  const common = { kind: "alter-type" as const, name: qualifiedName(required(node, "name")), ifExists: has(node, "IF"), ...base(node, context) };
  const actionStart = tok(node, "alterField") ?? tok(node, "add") ?? requiredTok(node, "rename");
  const actionRange: SourceRange = { start: startOf(actionStart), end: common.range.end };
  if (has(node, "rename")) {
    return { ...common, action: { kind: "rename", renames: renames(node), ifExists: has(node, "renameIf"), range: actionRange } };
  }
  const field = identifier(requiredTok(node, "field"));
  const type = comparatorType(required(node, "type"));
  if (has(node, "add")) {
    return { ...common, action: { kind: "add", field, type, ifNotExists: has(node, "addIf"), range: actionRange } };
  }
  return { ...common, action: { kind: "alter-type", field, type, range: actionRange } };
}

const INDEX_TARGET_KINDS = new Map<unknown, IndexTargetKind>([
  [T.Keys, "keys"],
  [T.Values, "values"],
  [T.Entries, "entries"],
  [T.Full, "full"],
]);

function createIndexStatement(node: CstNode, context: AstContext): Statement {
  const name = tok(node, "name");
  const using = tok(node, "using");
  const options = properties(child(node, "properties"), context);
  const indexOptions = options.find((option) => option.name.name === "options");
  const unknown = options.find((option) => option.name.name !== "options");
  if (unknown) throw new AstSyntaxError(`CREATE INDEX takes WITH OPTIONS = {…}, not ${unknown.name.text}`, unknown.range);
  const targets: IndexTarget[] = childNodes(node, "indexIdent").map((target) => {
    const kind = tok(target, "targetKind");
    return {
      column: identifier(requiredTok(target, "column")),
      kind: kind ? (INDEX_TARGET_KINDS.get(kind.tokenType) ?? "simple") : "simple",
      range: nodeRange(target),
    };
  });
  return {
    kind: "create-index",
    custom: has(node, "custom"),
    ...(name ? { name: identifier(name) } : {}),
    ifNotExists: has(node, "IF"),
    table: qualifiedName(required(node, "table")),
    targets,
    ...(using ? { using: unquoteString(using.image) } : {}),
    ...(indexOptions ? { options: indexOptions.value } : {}),
    ...base(node, context),
  };
}

function createMaterializedViewStatement(node: CstNode, context: AstContext): Statement {
  return {
    kind: "create-materialized-view",
    name: qualifiedName(required(node, "name")),
    ifNotExists: has(node, "IF"),
    columns: toks(node, "column").map(identifier),
    star: has(node, "star"),
    baseTable: qualifiedName(required(node, "baseTable")),
    where: whereClause(required(node, "whereClause"), context),
    primaryKey: primaryKeyDefinition(required(node, "primaryKeyDefinition")),
    ...tablePropertiesOf(child(node, "tableProperties"), context),
    ...base(node, context),
  };
}

function createFunctionStatement(node: CstNode, context: AstContext): Statement {
  const body = requiredTok(node, "body");
  return {
    kind: "create-function",
    orReplace: has(node, "orReplace"),
    ifNotExists: has(node, "IF"),
    name: functionName(required(node, "name")),
    parameters: childNodes(node, "functionParameter").map((parameter) => ({
      name: identifier(requiredTok(parameter, "name")),
      type: comparatorType(required(parameter, "type")),
    })),
    calledOnNullInput: has(node, "called"),
    returns: comparatorType(required(node, "returnType")),
    language: identifier(requiredTok(node, "language")).name,
    body: literal(body).value,
    deterministic: has(node, "deterministic"),
    monotonic: has(node, "monotonic"),
    ...base(node, context),
  };
}

// ---------------------------------------------------------------------------------------------
// Roles, permissions, DESCRIBE, COMMENT ON

const ACCESS_VERBS: Record<string, string> = {
  createRoleStatement: "create-role",
  alterRoleStatement: "alter-role",
  createUserStatement: "create-user",
  alterUserStatement: "alter-user",
  listRolesStatement: "list-roles",
  listUsersStatement: "list-users",
  listSuperUsersStatement: "list-superusers",
  listPermissionsStatement: "list-permissions",
  addIdentityStatement: "add-identity",
  dropIdentityStatement: "drop-identity",
};

function accessControl(node: CstNode, context: AstContext): AccessControlStatement {
  const granting = node.name === "grantStatement" ? "grant" : node.name === "revokeStatement" ? "revoke" : undefined;
  const verb = granting ? `${granting}-${has(node, "permissionOrAll") ? "permission" : "role"}` : ACCESS_VERBS[node.name];
  if (!verb) throw new IncompleteTreeError(`unknown statement ${node.name}`);
  // The principal the statement is about: the grantee, the role listed, or the identity.
  const identity = tok(node, "identity");
  const role = childNodes(node, "roleName").at(-1);
  let name: Identifier | Literal | undefined;
  if (identity) name = literal(identity);
  else if (role) name = identifier(requiredTok(role, "name"));
  return { kind: "access-control", verb, ...(name ? { name } : {}), ...base(node, context) };
}

function describeStatement(node: CstNode, context: AstContext): Statement {
  const targetWords = toks(node, "target").map((t) => t.image.toLowerCase());
  const name = child(node, "name");
  // The generic form `DESCRIBE [ks.]name` (keyspace, table, type, function… by that name).
  const target = targetWords.length > 0 ? targetWords.join(" ") : "name";
  return { kind: "describe", target, ...(name ? { name: qualifiedName(name) } : {}), ...base(node, context) };
}

function schemaDescription(node: CstNode, context: AstContext): SchemaDescriptionStatement {
  const object = required(node, "describedObject");
  const target = requiredTok(object, "target").image.toLowerCase() as SchemaDescriptionStatement["target"];
  const parts = toks(object, "part").map(identifier);
  const value = requiredTok(node, "value");
  const provider = tok(node, "provider");
  const objectRange = nodeRange(object);
  const expected = target === "column" || target === "field" ? [2, 3] : target === "keyspace" ? [1] : [1, 2];
  if (!expected.includes(parts.length)) {
    throw new AstSyntaxError(`COMMENT ON / SECURITY LABEL ON ${target.toUpperCase()} takes ${expected.join(" or ")} name parts`, objectRange);
  }
  const hasMember = target === "column" || target === "field";
  const member = hasMember ? parts.at(-1) : undefined;
  const nameParts = hasMember ? parts.slice(0, -1) : parts;
  const nameRange = span(nameParts[0]!.range, nameParts.at(-1)!.range);
  const qualified = nameParts.length === 2 ? { keyspace: nameParts[0]!, name: nameParts[1]!, range: nameRange } : { name: nameParts[0]!, range: nameRange };
  return {
    kind: node.name === "commentOnStatement" ? "comment-on" : "security-label",
    target,
    name: qualified,
    ...(member ? { member } : {}),
    value: value.tokenType === T.Null ? null : unquoteString(value.image),
    ...(provider ? { provider: identifier(provider) } : {}),
    ...base(node, context),
  };
}

// ---------------------------------------------------------------------------------------------
// DML

function selectStatement(node: CstNode, context: AstContext): SelectStatement {
  const clause = required(node, "selectClause");
  const where = child(node, "whereClause");
  const perPartitionLimit = child(node, "perPartitionLimit");
  const limit = child(node, "limit");
  const bypass = tok(node, "bypassCache");
  if (bypass) {
    context.notes.push({
      code: "cql-unsupported-statement",
      severity: "info",
      message: "BYPASS CACHE is a ScyllaDB clause; Apache Cassandra does not accept it",
      range: span(tokenRange(bypass), tokenRange(toks(node, "CACHE")[0] ?? bypass)),
    });
  }
  usingClause(childNodes(node, "usingClause"), context, "select");
  return {
    kind: "select",
    json: has(node, "json"),
    distinct: has(node, "distinct"),
    star: has(clause, "star"),
    selectors: childNodes(clause, "selector").map((selector) => {
      const alias = tok(selector, "alias");
      return {
        expression: term(required(selector, "expression"), context),
        ...(alias ? { alias: identifier(alias) } : {}),
        range: nodeRange(selector),
      };
    }),
    table: qualifiedName(required(node, "table")),
    ...(where ? { where: whereClause(where, context) } : {}),
    groupBy: childNodes(node, "groupBy").map((g) => term(g, context)),
    orderBy: childNodes(node, "orderByClause").map((o) => ordering(o, context)),
    ...(perPartitionLimit ? { perPartitionLimit: term(perPartitionLimit, context) } : {}),
    ...(limit ? { limit: term(limit, context) } : {}),
    allowFiltering: has(node, "allowFiltering"),
    ...base(node, context),
  };
}

function ordering(node: CstNode, context: AstContext): Ordering {
  const direction = tok(node, "direction");
  const ann = child(node, "annValue");
  return {
    column: identifier(requiredTok(node, "column")),
    direction: direction?.tokenType === T.Desc ? "desc" : "asc",
    ...(ann ? { ann: term(ann, context) } : {}),
    range: nodeRange(node),
  };
}

function insertStatement(node: CstNode, context: AstContext): InsertStatement {
  const table = qualifiedName(required(node, "table"));
  const normal = child(node, "normalInsertStatement");
  const form = normal ?? required(node, "jsonInsertStatement");
  const options = required(form, "insertOptions");
  const using = usingClause(childNodes(options, "usingClause"), context, "insert");
  const { range, text } = base(node, context);
  const ifNotExists = has(options, "ifNotExists");
  let insert: InsertStatement;
  if (normal) {
    const columns = toks(normal, "column").map(identifier);
    const values = valueTerms(normal, "value", context);
    if (columns.length !== values.length) {
      const open = requiredTok(normal, "valuesOpen");
      const closing = tok(normal, "valuesClose");
      const close = closing && !closing.isInsertedInRecovery ? closing : open;
      throw new AstSyntaxError(
        `INSERT names ${columns.length} column${columns.length === 1 ? "" : "s"} but gives ${values.length} value${values.length === 1 ? "" : "s"}`,
        span(tokenRange(open), tokenRange(close)),
      );
    }
    insert = { kind: "insert", table, ifNotExists, columns, values, range, text };
  } else {
    insert = { kind: "insert", table, ifNotExists, columns: [], values: [], json: term(required(form, "json"), context), range, text };
    const jsonDefault = tok(form, "jsonDefault");
    if (jsonDefault) insert.jsonDefault = jsonDefault.tokenType === T.Null ? "null" : "unset";
  }
  // Optional members are assigned, not spread into the literal: spreading costs a copy per node.
  if (using) insert.using = using;
  return insert;
}

function updateStatement(node: CstNode, context: AstContext): UpdateStatement {
  const using = usingClause(childNodes(node, "usingClause"), context, "update");
  const conditions = child(node, "updateConditions");
  return {
    kind: "update",
    table: qualifiedName(required(node, "table")),
    ...(using ? { using } : {}),
    assignments: childNodes(node, "columnOperation").map((operation) => assignment(operation, context)),
    where: whereClause(required(node, "whereClause"), context),
    conditions: conditions ? childNodes(conditions, "columnCondition").map((c) => columnCondition(c, context)) : [],
    ifExists: conditions ? has(conditions, "exists") : false,
    ...base(node, context),
  };
}

function assignment(node: CstNode, context: AstContext): Assignment {
  const key = child(node, "key");
  const field = tok(node, "field");
  return {
    column: identifier(requiredTok(node, "column")),
    ...(key ? { key: term(key, context) } : {}),
    ...(field ? { field: identifier(field) } : {}),
    operator: requiredTok(node, "operator").image as Assignment["operator"],
    value: term(required(node, "value"), context),
    range: nodeRange(node),
  };
}

function deleteStatement(node: CstNode, context: AstContext): DeleteStatement {
  const using = usingClause(childNodes(node, "usingClause"), context, "delete");
  const conditions = child(node, "updateConditions");
  return {
    kind: "delete",
    table: qualifiedName(required(node, "table")),
    selections: childNodes(node, "deleteOp").map((operation): DeleteSelection => {
      const key = child(operation, "key");
      const field = tok(operation, "field");
      return {
        column: identifier(requiredTok(operation, "column")),
        ...(key ? { key: term(key, context) } : {}),
        ...(field ? { field: identifier(field) } : {}),
        range: nodeRange(operation),
      };
    }),
    ...(using ? { using } : {}),
    where: whereClause(required(node, "whereClause"), context),
    conditions: conditions ? childNodes(conditions, "columnCondition").map((c) => columnCondition(c, context)) : [],
    ifExists: conditions ? has(conditions, "exists") : false,
    ...base(node, context),
  };
}

function batchStatement(node: CstNode, context: AstContext): BatchStatement {
  const type: IToken | undefined = tok(node, "batchType");
  const using = usingClause(childNodes(node, "usingClause"), context, "batch");
  return {
    kind: "batch",
    batchType: type === undefined ? "logged" : type.tokenType === T.Unlogged ? "unlogged" : "counter",
    ...(using ? { using } : {}),
    statements: childNodes(node, "batchStatementObjective").map((objective) => {
      const inner = statementFromCst(objective, context);
      if (inner.kind !== "insert" && inner.kind !== "update" && inner.kind !== "delete") {
        throw new IncompleteTreeError("batch holds only INSERT, UPDATE and DELETE");
      }
      return inner;
    }),
    ...base(node, context),
  };
}
