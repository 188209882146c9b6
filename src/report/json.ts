// The `--format json` document of `cql-review check` (docs/cli.md, a contract): its shape and key
// order are fixed, and schema/report.schema.json describes it. Keys are written in the contract's
// order by building each object literally.
import { jsonWithoutControls } from "./controls.js";
import type { PartitionEstimate, QueryAnalysis } from "../analysis/types.js";
import type { ExplainAnswer } from "../explain.js";
import { compareFindings, type Finding, type SourceLocation } from "../findings.js";
import type { Review } from "../review.js";
import type { TableModel } from "../schema/model.js";
import type { MeasuredFigure, MeasureName, TableMeasurements } from "../stats/types.js";

export interface JsonFinding {
  rule: string;
  severity: Finding["severity"];
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  fix: { description: string; replacement: string } | null;
}

export interface JsonEstimate {
  rowsPerPartition: number | null;
  values: number | null;
  bytes: number | null;
  engineBytes: number | null;
  basis: PartitionEstimate["basis"];
  unbounded: boolean;
  /** the cells whose size the manifest states, largest first: one value each (a non-frozen collection: the whole collection) */
  cells?: { column: string; kind: "frozen" | "value" | "collection"; bytes: number; items?: number; maxBytes?: number; maxItems?: number }[];
}

export interface JsonTable {
  keyspace: string;
  name: string;
  file: string;
  line: number;
  partitionKey: string[];
  clustering: { name: string; order: "asc" | "desc" }[];
  static: string[];
  regular: string[];
  estimate: JsonEstimate | null;
  /** production's figures (saved nodetool output), present only for a table that has measurements */
  measured?: JsonMeasured;
}

/** What nodetool measured for a table, each figure with the file and line it came from (docs/production-stats.md). */
export interface JsonMeasured {
  files: string[];
  figures: Partial<Record<MeasureName, MeasuredFigure>>;
}

export interface JsonQuery {
  id: string;
  file: string;
  line: number;
  table: string | null;
  candidates: string[];
  verdict: QueryAnalysis["plan"]["verdict"];
  partitions: number | "all" | null;
  /** why, in words */
  reason: string;
  /** the planner's rule codes behind the verdict: machine facts, kept out of the sentences */
  ruleIds: string[];
  /** rows read per call and per second, from the manifest's figures; absent when they do not allow an estimate */
  rowsRead?: { perCall: number; worstPerCall: number; perSecond: number | null; returned?: number };
  /** tombstones one call walks per partition read (average and worst partitions), from the write paths' rates and gc_grace_seconds; absent when they do not allow an estimate */
  tombstonesPerRead?: { perRead: number; worstPerRead: number; gcGraceSeconds: number; region: "partition" | "queue" | "rows" };
}

export interface JsonReport {
  version: 1;
  files: { path: string; kind: "schema" | "manifest"; statements: number }[];
  tables: JsonTable[];
  queries: JsonQuery[];
  findings: JsonFinding[];
  summary: { errors: number; warnings: number; infos: number };
  /** only for a repository with several models: each reviewed apart (tables and queries above are all of theirs) */
  models?: JsonModel[];
}

export interface JsonModel {
  /** its directory (`apps/shop`, `.` for the repository's root), or "(outside the models)" */
  name: string;
  /** whether it was reviewed; when not, `reason` says why */
  reviewed: boolean;
  reason?: string;
  files: string[];
  summary: { errors: number; warnings: number; infos: number };
  gateFails: boolean;
}

/** A JSON number, or null where the figure is not finite (JSON has no Infinity). */
function finiteOrNull(value: number | null): number | null {
  return value !== null && Number.isFinite(value) ? value : null;
}

export function findingToJson(finding: Finding): JsonFinding {
  const { start, end } = finding.location.range;
  return {
    rule: finding.rule,
    severity: finding.severity,
    file: finding.location.file,
    line: start.line,
    column: start.column,
    endLine: end.line,
    endColumn: end.column,
    message: finding.message,
    fix: finding.fix ? { description: finding.fix.description, replacement: finding.fix.replacement } : null,
  };
}

/** The worst partition's figures: the ones the limits are held against. */
export function estimateToJson(estimate: PartitionEstimate | undefined): JsonEstimate | null {
  if (!estimate) return null;
  return {
    rowsPerPartition: finiteOrNull(estimate.worst.rows),
    values: finiteOrNull(estimate.worst.values),
    bytes: finiteOrNull(estimate.worst.bytes),
    engineBytes: finiteOrNull(estimate.worst.engineBytes),
    basis: estimate.basis,
    unbounded: estimate.unbounded,
    ...(estimate.cells
      ? {
          cells: estimate.cells.map((cell) => ({
            column: cell.column,
            kind: cell.kind,
            bytes: cell.bytes,
            ...(cell.items === undefined ? {} : { items: cell.items }),
            // The largest value one row holds, when the manifest states it.
            ...(cell.worstBytes === undefined ? {} : { maxBytes: cell.worstBytes }),
            ...(cell.worstItems === undefined ? {} : { maxItems: cell.worstItems }),
          })),
        }
      : {}),
  };
}

/** Tables in a stable order: by file, then line, then name. */
export function tablesInFileOrder(review: Review): TableModel[] {
  return [...review.schema.tables.values()].sort(
    (a, b) =>
      compareText(a.source.file, b.source.file) ||
      a.source.range.start.line - b.source.range.start.line ||
      a.source.range.start.column - b.source.range.start.column ||
      compareText(a.qualifiedName, b.qualifiedName),
  );
}

/** Code-unit order, independent of the machine's locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function measuredToJson(measured: TableMeasurements): JsonMeasured {
  return { files: [...measured.files], figures: Object.fromEntries(Object.entries(measured.figures).map(([name, figure]) => [name, { ...figure }])) };
}

function tableToJson(table: TableModel, estimate: PartitionEstimate | undefined, measured: TableMeasurements | undefined): JsonTable {
  return {
    keyspace: table.keyspace,
    name: table.name,
    file: table.source.file,
    line: table.source.range.start.line,
    partitionKey: table.partitionKey.map((column) => column.name),
    clustering: table.clustering.map((column) => ({ name: column.name, order: column.order ?? "asc" })),
    static: table.static.map((column) => column.name),
    regular: table.regular.map((column) => column.name),
    estimate: estimateToJson(estimate),
    ...(measured ? { measured: measuredToJson(measured) } : {}),
  };
}

function queryToJson(query: QueryAnalysis): JsonQuery {
  return {
    id: query.id,
    file: query.location.file,
    line: query.location.range.start.line,
    table: query.table,
    candidates: query.candidates.map((candidate) => candidate.table),
    verdict: query.plan.verdict,
    partitions: typeof query.plan.partitions === "number" ? finiteOrNull(query.plan.partitions) : query.plan.partitions,
    reason: query.plan.reason,
    ruleIds: [...query.plan.ruleIds],
    ...(query.plan.rowsEstimate
      ? {
          rowsRead: {
            perCall: Math.round(query.plan.rowsEstimate.perCall),
            worstPerCall: Math.round(query.plan.rowsEstimate.worstPerCall),
            perSecond: query.plan.rowsEstimate.perSecond === undefined ? null : finiteOrNull(query.plan.rowsEstimate.perSecond),
            ...(query.plan.rowsEstimate.returned === undefined ? {} : { returned: query.plan.rowsEstimate.returned }),
          },
        }
      : {}),
    ...(query.plan.tombstonesEstimate
      ? {
          tombstonesPerRead: {
            perRead: query.plan.tombstonesEstimate.perRead,
            worstPerRead: query.plan.tombstonesEstimate.worstPerRead,
            gcGraceSeconds: query.plan.tombstonesEstimate.gcGraceSeconds,
            region: query.plan.tombstonesEstimate.region,
          },
        }
      : {}),
  };
}

export function buildJsonReport(review: Review): JsonReport {
  if (review.models) {
    const reviewed = review.models.flatMap((model) => (model.review ? [buildJsonReport({ ...model.review, models: undefined })] : []));
    const models = review.models.map((model): JsonModel => ({
      name: model.name,
      reviewed: model.review !== undefined,
      ...(model.review ? {} : { reason: model.skipped ?? "not reviewed" }),
      files: model.review?.files.filter((file) => file.kind !== "config").map((file) => file.path) ?? [],
      summary: { errors: model.review?.summary.errors ?? 0, warnings: model.review?.summary.warnings ?? 0, infos: model.review?.summary.infos ?? 0 },
      gateFails: model.review?.gateFails ?? false,
    }));
    const single = buildJsonReport({ ...review, models: undefined });
    return { ...single, tables: reviewed.flatMap((report) => report.tables), queries: reviewed.flatMap((report) => report.queries), models };
  }
  return {
    version: 1,
    files: review.files
      .filter((file): file is typeof file & { kind: "schema" | "manifest" } => file.kind !== "config")
      .map((file) => ({ path: file.path, kind: file.kind, statements: file.statements })),
    tables: tablesInFileOrder(review).map((table) => tableToJson(table, review.estimates.get(table.qualifiedName), review.model.measured?.get(table.qualifiedName))),
    // review.queries is in manifest order already
    queries: review.queries.map(queryToJson),
    findings: [...review.findings].sort(compareFindings).map(findingToJson),
    summary: { errors: review.summary.errors, warnings: review.summary.warnings, infos: review.summary.infos },
  };
}

/** The §4.2 document: 2-space indent, trailing newline. */
export function renderJson(review: Review): string {
  return `${jsonWithoutControls(JSON.stringify(buildJsonReport(review), null, 2))}\n`;
}

// ---------------------------------------------------------------------------------------------
// `cql-review explain --format json`: the answer as data, findings and locations as in §4.2.

function locationToJson(location: SourceLocation): { file: string; line: number; column: number } {
  return { file: location.file, line: location.range.start.line, column: location.range.start.column };
}

function explainAnswerToJson(answer: ExplainAnswer): Record<string, unknown> {
  switch (answer.kind) {
    case "query":
      return {
        kind: answer.kind,
        cassandra: answer.version,
        id: answer.id,
        description: answer.description ?? null,
        location: locationToJson(answer.location),
        form: answer.form,
        cql: answer.cql ?? null,
        table: answer.table,
        candidates: answer.candidates,
        plan: answer.plan,
        suggestedTable: answer.suggestedTable ?? null,
        suggestedTableSizing: answer.suggestedTableSizing ?? null,
        ratePerSecond: answer.ratePerSecond ?? null,
        estimate: answer.estimate ?? null,
        findings: answer.findings.map(findingToJson),
        code: answer.code ?? null,
      };
    case "select":
      return { kind: answer.kind, cassandra: answer.version, cql: answer.cql, table: answer.table, plan: answer.plan, estimate: answer.estimate ?? null };
    case "code-dynamic":
      return { kind: answer.kind, cassandra: answer.version, code: answer.code, reason: answer.reason, start: answer.start };
    case "table":
      return {
        kind: answer.kind,
        cassandra: answer.version,
        table: answer.table,
        tableKind: answer.tableKind,
        location: locationToJson(answer.location),
        columns: answer.columns,
        indexes: answer.indexes,
        views: answer.views,
        baseTable: answer.baseTable ?? null,
        defaultTtlSeconds: answer.defaultTtlSeconds,
        compaction: answer.compaction ?? null,
        estimate: answer.estimate ?? null,
        ...(answer.measured ? { measured: answer.measured } : {}),
        queries: answer.queries,
        findings: answer.findings.map(findingToJson),
      };
    case "not-found":
      return { kind: answer.kind, cassandra: answer.version, target: answer.target, name: answer.name, message: answer.message, known: answer.known };
    case "invalid-select":
      return { kind: answer.kind, cassandra: answer.version, cql: answer.cql, errors: answer.errors };
  }
}

/** An explain answer as JSON: `{ "version": 1, "answer": … }`; figures that are not finite become null. */
export function renderExplainJson(answer: ExplainAnswer): string {
  return `${jsonWithoutControls(JSON.stringify({ version: 1, answer: explainAnswerToJson(answer) }, null, 2))}\n`;
}
