// Builds the schema model from parsed schema files: files in path order (a file that
// alters or indexes a table another file creates goes after it: file-order.ts), statements in file order. Each file starts in the default keyspace; USE changes it for the rest of that file.
// Names resolve through qualification, USE and the default keyspace; with none of them the keyspace
// is "" and lookups fall back to the only object of that name (real repositories often omit USE).
// What Cassandra would reject becomes a `schema-invalid` finding at the offending name or type,
// in Cassandra's words; nothing here throws on bad input.
import type { DmlStatement, QualifiedName, Statement } from "../cql/ast.js";
import type { Finding } from "../findings.js";
import type { ParsedSchemaFile } from "../rule-engine/model.js";
import { BuildContext, SYSTEM_KEYSPACES, qualify } from "./build-context.js";
import { applyOrder } from "./file-order.js";
import { createFunction, dropFunction } from "./functions.js";
import { createIndex, dropIndex } from "./indexes.js";
import { alterKeyspace, createKeyspace, dropKeyspace, useKeyspace } from "./keyspaces.js";
import { emptySchema, type SchemaModel } from "./model.js";
import { alterTable, createTable, dropTable, truncateTable } from "./tables.js";
import { alterType, createType, dropType } from "./user-types.js";
import { alterView, createView, dropView } from "./views.js";

export interface BuildSchemaOptions {
  /** the keyspace of unqualified names before any USE (the manifest's `keyspace`) */
  defaultKeyspace?: string;
  /** the files are the ones applied, already in the order applied (a manifest's `schema:`) */
  inOrder?: boolean;
}

export function buildSchema(files: ParsedSchemaFile[], options: BuildSchemaOptions = {}): { schema: SchemaModel; findings: Finding[] } {
  const ordered = options.inOrder ? files : applyOrder(files);
  const declaredKeyspaces = new Set<string>();
  for (const file of ordered) {
    for (const statement of file.parse.statements) {
      if (statement.kind === "create-keyspace") declaredKeyspaces.add(statement.name.name);
    }
  }

  const ctx = new BuildContext(emptySchema(), declaredKeyspaces);
  for (const file of ordered) {
    ctx.file = file.path;
    ctx.text = file.text;
    ctx.currentKeyspace = options.defaultKeyspace ?? "";
    for (const statement of file.parse.statements) {
      try {
        applyStatement(ctx, statement);
      } catch (error) {
        // A bug here must cost one statement, not the review.
        ctx.reportInternalError(statement, error);
      }
    }
  }
  return { schema: ctx.schema, findings: ctx.findings };
}

function applyStatement(ctx: BuildContext, statement: Statement): void {
  switch (statement.kind) {
    case "create-keyspace":
      return createKeyspace(ctx, statement);
    case "alter-keyspace":
      return alterKeyspace(ctx, statement);
    case "drop-keyspace":
      return dropKeyspace(ctx, statement);
    case "use":
      return useKeyspace(ctx, statement);
    case "create-table":
      return createTable(ctx, statement);
    case "alter-table":
      return alterTable(ctx, statement);
    case "drop-table":
      return dropTable(ctx, statement);
    case "truncate":
      return truncateTable(ctx, statement);
    case "create-type":
      return createType(ctx, statement);
    case "alter-type":
      return alterType(ctx, statement);
    case "drop-type":
      return dropType(ctx, statement);
    case "create-index":
      return createIndex(ctx, statement);
    case "drop-index":
      return dropIndex(ctx, statement);
    case "create-materialized-view":
      return createView(ctx, statement);
    case "alter-materialized-view":
      return alterView(ctx, statement);
    case "drop-materialized-view":
      return dropView(ctx, statement);
    case "create-function":
    case "create-aggregate":
      return createFunction(ctx, statement);
    case "drop-function":
    case "drop-aggregate":
      return dropFunction(ctx, statement);
    case "select":
    case "insert":
    case "update":
    case "delete":
    case "batch":
      return keepDml(ctx, statement);
    // Triggers, roles, permissions, DESCRIBE and comments do not shape the data model.
    default:
      return;
  }
}

/** Seed data and sample queries: kept for the write rules, with the keyspace they resolve to. */
function keepDml(ctx: BuildContext, statement: DmlStatement): void {
  const inner = statement.kind === "batch" ? statement.statements : [statement];
  let keyspace: string | undefined;
  for (const dml of inner) {
    const resolved = resolveDmlTable(ctx, dml.table);
    keyspace ??= resolved;
  }
  const resolved = keyspace ?? (ctx.currentKeyspace === "" ? undefined : ctx.currentKeyspace);
  ctx.schema.dml.push({
    statement,
    ...(resolved !== undefined && resolved !== "" ? { keyspace: resolved } : {}),
    source: ctx.location(statement.range),
  });
}

/** The keyspace a DML statement's table is in; an unknown table is reported as Cassandra does. */
function resolveDmlTable(ctx: BuildContext, name: QualifiedName): string | undefined {
  const keyspace = ctx.keyspaceOf(name);
  if (SYSTEM_KEYSPACES.has(keyspace)) return keyspace;
  const table = ctx.lookupTable(name);
  if (table) return table.keyspace;
  ctx.report(name.range, `unconfigured table ${name.name.name}`, `table:${qualify(keyspace, name.name.name)}:unconfigured`);
  return keyspace === "" ? undefined : keyspace;
}
