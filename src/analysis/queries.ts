// Every query of the access-patterns manifest, analysed: `cql` queries are planned against the
// table they name; abstract queries go through the table matcher.
import type { SelectStatement } from "../cql/ast.js";
import { entryKeyspace, type AbstractQuery, type CqlQuery, type Manifest, type ManifestQuery } from "../manifest/types.js";
import type { CassandraVersion, SchemaModel, TableModel } from "../schema/model.js";
import { findTable } from "../schema/resolve.js";
import { matchVolumes } from "./estimator.js";
import type { PartitionLimits } from "./limits.js";
import { candidateCount, matchAbstractQuery, type MatchOptions } from "./matcher.js";
import { suggestTableFor } from "./suggest-table.js";
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

/**
 * Analyses are built by assignment in the order their keys have always had (reports and their
 * snapshots list them so), never as `{ ...base, more }`: on Node 20 such objects are an order of
 * magnitude slower to build and to read, and every query makes one.
 */
function cqlAnalysisBase(query: CqlQuery): Partial<QueryAnalysis> {
  const analysis: Partial<QueryAnalysis> = { id: query.id };
  if (query.description !== undefined) analysis.description = query.description;
  analysis.location = query.location;
  analysis.form = "cql";
  if (query.ratePerSecond !== undefined) analysis.ratePerSecond = query.ratePerSecond;
  return analysis;
}

function analyseCql(query: CqlQuery, schema: SchemaModel, options: AnalyseOptions, keyspace: string | undefined): QueryAnalysis {
  const analysis = cqlAnalysisBase(query);
  const statement: SelectStatement | undefined = query.statement;
  if (!statement) {
    analysis.table = null;
    analysis.candidates = [];
    analysis.plan = rejected(`${query.id} does not parse; the syntax finding says where.`, "does not parse", []);
    return analysis as QueryAnalysis;
  }
  analysis.select = statement;
  const limit = integerLiteral(statement.limit);
  if (limit !== null) analysis.limit = limit;
  const table = findTable(schema, statement.table, keyspace);
  if (!table) {
    const named = statement.table.keyspace ? `${statement.table.keyspace.name}.${statement.table.name.name}` : statement.table.name.name;
    const missingKeyspace = statement.table.keyspace && !keyspaceExists(schema, statement.table.keyspace.name);
    const gist = missingKeyspace ? `Keyspace ${statement.table.keyspace!.name} does not exist` : `unconfigured table ${statement.table.name.name}`;
    analysis.table = null;
    analysis.candidates = [];
    // The gist names the table already; the reason says why, once.
    analysis.plan = rejected(`A10: ${named} is not a table of the schema.`, gist, ["A10"]);
    return analysis as QueryAnalysis;
  }
  const plan = planSelect(statement, table, options.version);
  analysis.table = table.qualifiedName;
  analysis.candidates = [{ table: table.qualifiedName, plan, because: "named by the query" }];
  analysis.plan = plan;
  return analysis as QueryAnalysis;
}

function analyseAbstract(query: AbstractQuery, schema: SchemaModel, options: AnalyseOptions, keyspace: string | undefined): QueryAnalysis {
  const matchOptions: MatchOptions = { version: options.version };
  if (keyspace !== undefined) matchOptions.keyspace = keyspace;
  const match = matchAbstractQuery(query, schema, matchOptions);
  const analysis: Partial<QueryAnalysis> = { id: query.id };
  if (query.description !== undefined) analysis.description = query.description;
  analysis.location = query.location;
  if (match.select) analysis.select = match.select;
  analysis.form = "abstract";
  analysis.table = match.table;
  analysis.candidates = match.candidates;
  analysis.plan = match.plan;
  if (match.suggestedTable !== undefined) analysis.suggestedTable = match.suggestedTable;
  if (query.ratePerSecond !== undefined) analysis.ratePerSecond = query.ratePerSecond;
  if (query.limit !== undefined) analysis.limit = query.limit;
  if (match.suggestedTableName !== undefined) setSuggestedTableName(analysis, match.suggestedTableName);
  return analysis as QueryAnalysis;
}

/** One query of the manifest, analysed (review() asks between queries whether time is up). */
export function analyseQuery(query: ManifestQuery, manifest: Manifest, schema: SchemaModel, options: AnalyseOptions): QueryAnalysis {
  const keyspace = entryKeyspace(query, manifest) ?? options.keyspace;
  return query.form === "cql" ? analyseCql(query, schema, options, keyspace) : analyseAbstract(query, schema, options, keyspace);
}

/**
 * The table plans analysing the manifest's queries costs: one for a `cql` query (its table), one
 * per candidate table for an abstract one. Counting stops once the total passes `stopAbove`, so
 * checking a limit costs no more than the limit allows.
 */
export function countQueryPlans(manifest: Manifest | undefined, schema: SchemaModel, options: Pick<AnalyseOptions, "keyspace">, stopAbove: number): number {
  let plans = 0;
  for (const query of manifest?.queries ?? []) {
    plans += query.form === "cql" ? 1 : candidateCount(query, schema, entryKeyspace(query, manifest!) ?? options.keyspace);
    if (plans > stopAbove) break;
  }
  return plans;
}

export function analyseQueries(manifest: Manifest | undefined, schema: SchemaModel, options: AnalyseOptions): QueryAnalysis[] {
  if (!manifest) return [];
  return manifest.queries.map((query) => analyseQuery(query, manifest, schema, options));
}

/**
 * Sizes each unserved query's suggested table with the manifest's figures for the table whose rows
 * it copies (suggest-table.ts, sizeFromEntity), once, after the partition estimates: a bucket goes
 * into its partition key when its worst partition would cross the limits, and
 * `suggestedTableSizing` says why in words. The rule's comment, the summary, explain and the JSON
 * all show this one suggestion. The matcher suggests without figures: it plans before the
 * manifest's volumes are matched to tables.
 */
export function sizeSuggestedTables(
  queries: readonly QueryAnalysis[],
  manifest: Manifest | undefined,
  schema: SchemaModel,
  options: { version: CassandraVersion; limits: PartitionLimits; keyspace?: string },
): void {
  if (!manifest || manifest.tables.length === 0) return;
  const unserved = queries.filter((query) => query.plan.verdict === "unserved" && query.suggestedTable !== undefined);
  if (unserved.length === 0) return;
  const entries = new Map<string, ManifestQuery>();
  for (const entry of manifest.queries) if (!entries.has(entry.id)) entries.set(entry.id, entry);
  // Matched to tables as the estimates match them, so both read the same figures for a table.
  const volumes = matchVolumes(schema, manifest.tables, options.keyspace ?? manifest.keyspace);
  const volumeOf = (table: TableModel) => volumes.get(table.qualifiedName);
  for (const query of unserved) {
    const entry = entries.get(query.id);
    if (entry?.form !== "abstract") continue;
    const keyspace = entryKeyspace(entry, manifest) ?? options.keyspace;
    const sized = suggestTableFor(entry, schema, {
      ...(keyspace !== undefined ? { keyspace } : {}),
      sizing: { volumeOf, limits: options.limits, version: options.version, queries: [query] },
    });
    if (sized.sizing === undefined) continue;
    query.suggestedTable = sized.text;
    setSuggestedTableName(query, sized.name);
    query.suggestedTableSizing = sized.sizing;
  }
}

/** Not enumerable (types.ts): it repeats what the text says. Removed when the text is not known to parse. */
function setSuggestedTableName(analysis: Partial<QueryAnalysis>, name: QueryAnalysis["suggestedTableName"]): void {
  if (name === undefined) delete analysis.suggestedTableName;
  else Object.defineProperty(analysis, "suggestedTableName", { value: name, writable: true, enumerable: false, configurable: true });
}

/** How much of its table a scan reads, from the query's LIMIT and the manifest's partition count. */
export type ScanExtent =
  | { kind: "limited"; rows: number }
  | { kind: "small"; partitions: number }
  | { kind: "large"; partitions?: number };

/**
 * A scan that returns every row it reads stops at its LIMIT (the plan's `rowsRead`); otherwise its
 * cost is the table's: small when the manifest sizes the table at `smallTablePartitions` or fewer.
 */
export function scanExtent(plan: QueryPlan, partitions: number | undefined, smallTablePartitions: number): ScanExtent {
  if (plan.verdict === "scan" && plan.partitions === "all" && plan.rowsRead !== null) return { kind: "limited", rows: plan.rowsRead };
  if (partitions !== undefined && partitions <= smallTablePartitions) return { kind: "small", partitions };
  return partitions === undefined ? { kind: "large" } : { kind: "large", partitions };
}
