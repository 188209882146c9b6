// Every query of the access-patterns manifest, analysed: `cql` queries are planned against the
// table they name; abstract queries go through the table matcher.
import type { SelectStatement } from "../cql/ast.js";
import type { AbstractQuery, CqlQuery, Manifest } from "../manifest/types.js";
import type { CassandraVersion, SchemaModel } from "../schema/model.js";
import { findTable } from "../schema/resolve.js";
import { matchAbstractQuery } from "./matcher.js";
import { planSelect } from "./planner.js";
import { integerLiteral } from "./planner-terms.js";
import type { QueryAnalysis, QueryPlan } from "./types.js";

export interface AnalyseOptions {
  version: CassandraVersion;
  /** the default keyspace for unqualified names (the manifest's `keyspace` wins) */
  keyspace?: string;
}

function rejected(reason: string, errorGist: string, ruleIds: string[]): QueryPlan {
  return {
    verdict: "invalid",
    partitions: null,
    reason,
    ruleIds,
    errorGist,
    direction: null,
    rowsRead: null,
    allowFilteringWritten: false,
    notes: [],
    steps: [{ topic: "verdict", text: `Rejected: ${errorGist}.` }],
  };
}

function keyspaceExists(schema: SchemaModel, keyspace: string): boolean {
  if (schema.keyspaces.has(keyspace)) return true;
  for (const table of schema.tables.values()) if (table.keyspace === keyspace) return true;
  return false;
}

function analyseCql(query: CqlQuery, schema: SchemaModel, options: AnalyseOptions, keyspace: string | undefined): QueryAnalysis {
  const base = {
    id: query.id,
    ...(query.description !== undefined ? { description: query.description } : {}),
    location: query.location,
    form: "cql" as const,
    ...(query.ratePerSecond !== undefined ? { ratePerSecond: query.ratePerSecond } : {}),
  };
  const statement: SelectStatement | undefined = query.statement;
  if (!statement) {
    return {
      ...base,
      table: null,
      candidates: [],
      plan: rejected(`${query.id} does not parse; the syntax finding says where.`, "does not parse", []),
    };
  }
  const limit = integerLiteral(statement.limit);
  const withStatement = { ...base, select: statement, ...(limit !== null ? { limit } : {}) };
  const table = findTable(schema, statement.table, keyspace);
  if (!table) {
    const named = statement.table.keyspace ? `${statement.table.keyspace.name}.${statement.table.name.name}` : statement.table.name.name;
    const missingKeyspace = statement.table.keyspace && !keyspaceExists(schema, statement.table.keyspace.name);
    const gist = missingKeyspace ? `Keyspace ${statement.table.keyspace!.name} does not exist` : `unconfigured table ${statement.table.name.name}`;
    return {
      ...withStatement,
      table: null,
      candidates: [],
      plan: rejected(`A10: ${named} is not a table of the schema (${gist}).`, gist, ["A10"]),
    };
  }
  const plan = planSelect(statement, table, options.version);
  return {
    ...withStatement,
    table: table.qualifiedName,
    candidates: [{ table: table.qualifiedName, plan, because: "named by the query" }],
    plan,
  };
}

function analyseAbstract(query: AbstractQuery, schema: SchemaModel, options: AnalyseOptions, keyspace: string | undefined): QueryAnalysis {
  const match = matchAbstractQuery(query, schema, { version: options.version, ...(keyspace !== undefined ? { keyspace } : {}) });
  return {
    id: query.id,
    ...(query.description !== undefined ? { description: query.description } : {}),
    location: query.location,
    ...(match.select ? { select: match.select } : {}),
    form: "abstract",
    table: match.table,
    candidates: match.candidates,
    plan: match.plan,
    ...(match.suggestedTable !== undefined ? { suggestedTable: match.suggestedTable } : {}),
    ...(query.ratePerSecond !== undefined ? { ratePerSecond: query.ratePerSecond } : {}),
    ...(query.limit !== undefined ? { limit: query.limit } : {}),
  };
}

export function analyseQueries(manifest: Manifest | undefined, schema: SchemaModel, options: AnalyseOptions): QueryAnalysis[] {
  if (!manifest) return [];
  const keyspace = manifest.keyspace ?? options.keyspace;
  return manifest.queries.map((query) =>
    query.form === "cql" ? analyseCql(query, schema, options, keyspace) : analyseAbstract(query, schema, options, keyspace),
  );
}
