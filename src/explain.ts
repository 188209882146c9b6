// `cql-review explain` and `/cql explain …`: the step-by-step story of one query, one ad-hoc
// SELECT, or one table, taken from a finished review. Pure: it reads the review and, for an ad-hoc
// SELECT, parses and plans it the way the review planned the manifest's queries.
import { measuredBesideEstimate, type MeasuredBeside } from "./analysis/measured.js";
import { planSelect } from "./analysis/planner.js";
import type { PartitionEstimate, QueryAnalysis, QueryPlan, Verdict } from "./analysis/types.js";
import type { SelectStatement, SourceRange } from "./cql/ast.js";
import { parseCql } from "./cql/index.js";
import type { CodeStatement, DynamicStatement } from "./code/types.js";
import type { Finding, SourceLocation } from "./findings.js";
import type { Review } from "./review.js";
import type { CassandraVersion, ColumnKind, IndexModel, TableModel } from "./schema/model.js";
import { findTable, formatColumnType } from "./schema/resolve.js";

export type ExplainRequest =
  | { kind: "query"; id: string }
  | { kind: "select"; cql: string }
  | { kind: "table"; name: string };

export interface ExplainedCandidate {
  table: string;
  verdict: Verdict;
  partitions: QueryPlan["partitions"];
  because: string;
}

/** A query of the manifest, as the review planned it. */
export interface QueryExplanation {
  kind: "query";
  version: CassandraVersion;
  id: string;
  description?: string;
  location: SourceLocation;
  form: "cql" | "abstract";
  /** the CQL as written, or the SELECT synthesized for an abstract query */
  cql?: string;
  table: string | null;
  candidates: ExplainedCandidate[];
  plan: QueryPlan;
  /** for `unserved`: a CREATE TABLE that would serve the query (the one the review's finding suggests) */
  suggestedTable?: string;
  /** why the manifest's figures add a bucket to it (or say it is still too large), in words */
  suggestedTableSizing?: string;
  ratePerSecond?: number;
  /** the partition estimate of the table that serves it */
  estimate?: PartitionEstimate;
  /** the findings about this query */
  findings: Finding[];
  /** when the query is a statement of the application's code: where it is written */
  code?: CodePlace;
}

/** Where a statement of the application's code is: its id, where its text is written, the driver call. */
export interface CodePlace {
  id: string;
  file: string;
  line: number;
  api: string;
  /** where the driver is called with it, when that is elsewhere than the text */
  call?: { file: string; line: number };
}

/** A statement the code builds at run time: not analysed, so there is no plan to give. */
export interface DynamicStatementAnswer {
  kind: "code-dynamic";
  version: CassandraVersion;
  code: CodePlace;
  /** why it is not analysed, e.g. "formatted with fmt.Sprintf" */
  reason: string;
  /** the statement's first literal piece */
  start: string;
}

/** An ad-hoc SELECT, planned against the review's schema. */
export interface SelectExplanation {
  kind: "select";
  version: CassandraVersion;
  cql: string;
  table: string;
  plan: QueryPlan;
  estimate?: PartitionEstimate;
}

export interface ExplainedColumn {
  name: string;
  /** CQL text, e.g. `frozen<map<text, int>>` */
  type: string;
  kind: ColumnKind;
  order?: "asc" | "desc";
}

export interface TableQuery {
  id: string;
  verdict: Verdict;
  partitions: QueryPlan["partitions"];
  /** `serves`: the table chosen for the query; `candidate`: considered but another was preferred */
  role: "serves" | "candidate";
}

/** A table or materialized view: its key layout, size and the queries that hit it. */
export interface TableExplanation {
  kind: "table";
  version: CassandraVersion;
  table: string;
  tableKind: "table" | "view";
  location: SourceLocation;
  /** partition key columns in key order, then clustering columns in order, then static, then regular */
  columns: ExplainedColumn[];
  indexes: Pick<IndexModel, "name" | "column" | "target" | "implementation">[];
  views: string[];
  baseTable?: string;
  defaultTtlSeconds: number;
  compaction?: string;
  estimate?: PartitionEstimate;
  /** production's figures beside the estimate's, each with its source (saved nodetool output) */
  measured?: MeasuredBeside[];
  queries: TableQuery[];
  findings: Finding[];
}

/** The query id or table does not exist; `known` lists what does, nearest first. */
export interface NotFoundAnswer {
  kind: "not-found";
  version: CassandraVersion;
  target: "query" | "table";
  name: string;
  message: string;
  known: string[];
}

/** The SELECT to explain does not parse, or is not one SELECT. */
export interface InvalidSelectAnswer {
  kind: "invalid-select";
  version: CassandraVersion;
  cql: string;
  errors: { line: number; column: number; message: string }[];
}

export type ExplainAnswer = QueryExplanation | SelectExplanation | TableExplanation | NotFoundAnswer | InvalidSelectAnswer | DynamicStatementAnswer;

export const EXPLAIN_USAGE =
  "explain a query id (`Q1`), a statement of the code (`UserDao.findByEmail` or `src/…/UserDao.java#UserDao.findByEmail`), a statement (`SELECT … FROM …`) or a table (`table videos_by_user`)";

/** How many times `char` repeats from `from` forward (step 1) or backward (step -1). */
function runLength(text: string, char: string, from: number, step: 1 | -1): number {
  let length = 0;
  for (let at = from; at >= 0 && at < text.length && text[at] === char; at += step) length++;
  return length;
}

/**
 * A code span's content: `` `x` `` or ``` ``x`` ``` → `x`, trimmed; other text as it is. A scan, not
 * a backreference pattern, so thousands of backticks cost linear time.
 */
export function unwrapCodeSpan(text: string): string {
  const fence = Math.min(runLength(text, "`", 0, 1), runLength(text, "`", text.length - 1, -1), Math.floor(text.length / 2));
  return fence > 0 ? text.slice(fence, text.length - fence).trim() : text;
}

/** A fenced block's content (``` or ~~~, info string dropped), trimmed; undefined when `text` is not one. */
function unwrapFence(text: string): string | undefined {
  const char = text[0];
  if (char !== "`" && char !== "~") return undefined;
  const end = text.trimEnd().length;
  const bodyStart = text.indexOf("\n") + 1;
  // The closing fence may be shorter than the opening one (the rest then reads as the info string), never under three.
  const fence = Math.min(runLength(text, char, 0, 1), runLength(text, char, end - 1, -1));
  if (fence < 3 || bodyStart === 0 || end - fence < bodyStart) return undefined;
  return text.slice(bodyStart, end - fence).trim();
}

/** Strips the quoting people put around a statement in a comment: a fenced block or a code span. */
function unwrapCode(text: string): string {
  return unwrapFence(text) ?? unwrapCodeSpan(text);
}

// a table name: `name`, `ks.name`, either part possibly double-quoted with "" escapes
const TABLE_NAME = /^(?:"(?:[^"]|"")+"|[A-Za-z0-9_]+)(?:\.(?:"(?:[^"]|"")+"|[A-Za-z0-9_]+))?$/;
const QUERY_ID = /^[A-Za-z0-9_.:$-][A-Za-z0-9_.:~$-]*$/;
// a statement of the code: `path#Class.method`, `~2` for a function's second, `(top level)` outside functions
const CODE_ID = /^[\w./@+-]+#(?:\(top level\)|[\w.$:-]+)(?:~\d+)?$/;

/**
 * Reads what to explain: `Q1`, `SELECT …` (any case, possibly in backticks or a fence), or
 * `table NAME`. A leading `/cql explain` or `explain` is accepted, so the GitHub command can pass
 * the comment as it is. Error messages never repeat the input, so they are safe to post as
 * Markdown.
 */
export function parseExplainRequest(text: string): ExplainRequest | { error: string } {
  let rest = text.trim().replace(/^\/cql\s+/i, "");
  rest = rest.replace(/^explain(?:\s+|$)/i, "").trim();
  rest = unwrapCode(rest);
  if (rest === "") return { error: `Nothing to explain: ${EXPLAIN_USAGE}.` };
  if (/^select\b/i.test(rest)) return { kind: "select", cql: rest };

  const tableMatch = /^table(?:\s+([\s\S]*))?$/i.exec(rest);
  if (tableMatch) {
    const name = unwrapCode((tableMatch[1] ?? "").trim()).replace(/;$/, "");
    if (name === "") return { error: "Which table? Write `table videos_by_user` or `table killrvideo.videos_by_user`." };
    if (!TABLE_NAME.test(name)) return { error: "That is not a table name: write `table videos_by_user` or `table killrvideo.videos_by_user` (quote mixed-case names: `table \"Videos\"`)." };
    return { kind: "table", name };
  }
  if (CODE_ID.test(rest)) return { kind: "query", id: rest };
  if (/\s/.test(rest) || !QUERY_ID.test(rest)) return { error: `Cannot tell what to explain: ${EXPLAIN_USAGE}.` };
  return { kind: "query", id: rest };
}

// ---------------------------------------------------------------------------------------------

/**
 * Bounds of the "did you mean" lists: a comment may name a 60,000-character table, and a schema
 * may hold 20,000 tables, so the edit distances are taken on names cut to a length, over at most
 * so many names, and only the nearest few are returned. Worst case a few million steps.
 */
export const NEAREST_LIMITS = { nameLength: 64, candidates: 2_000, shown: 10 } as const;

/** Edit distance (insert, delete, substitute), for "did you mean" lists. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The names nearest to `wanted` (case-insensitive), nearest first, at most NEAREST_LIMITS.shown of
 * them, among the first NEAREST_LIMITS.candidates names; `aliases` lets a table match by its bare name too.
 */
export function nearestFirst(wanted: string, names: readonly string[], aliases: (name: string) => string[] = (name) => [name]): string[] {
  const cut = (text: string) => text.slice(0, NEAREST_LIMITS.nameLength).toLowerCase();
  const target = cut(wanted);
  const scored = names.slice(0, NEAREST_LIMITS.candidates).map((name) => ({
    name,
    distance: Math.min(...aliases(name).map((alias) => editDistance(target, cut(alias)))),
  }));
  return scored
    // ties in natural order, so Q2 comes before Q10
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name, "en", { numeric: true }))
    .slice(0, NEAREST_LIMITS.shown)
    .map((entry) => entry.name);
}

/** Whether `fingerprint` names `entity` as a whole token (`query:Q1` is not in `query:Q10`). */
function mentions(fingerprint: string, entity: string): boolean {
  let from = 0;
  for (;;) {
    const at = fingerprint.indexOf(entity, from);
    if (at < 0) return false;
    const before = at === 0 ? "" : fingerprint[at - 1];
    const after = fingerprint[at + entity.length] ?? "";
    if (!/[A-Za-z0-9_.-]/.test(before) && !/[A-Za-z0-9_-]/.test(after)) return true;
    from = at + 1;
  }
}

function contains(outer: SourceRange, inner: SourceRange): boolean {
  return outer.start.offset <= inner.start.offset && inner.end.offset <= outer.end.offset;
}

function locatedIn(finding: Finding, location: SourceLocation): boolean {
  return finding.location.file === location.file && contains(location.range, finding.location.range);
}

// ---------------------------------------------------------------------------------------------

function explainQuery(review: Review, id: string): QueryExplanation | NotFoundAnswer | DynamicStatementAnswer {
  const found = findQuery(review, id);
  if ("answer" in found) return found.answer;
  const { query } = found;
  const written = review.manifest?.queries.find((candidate) => candidate.id === query.id);
  const cql = written?.form === "cql" ? written.cql : query.select?.text || undefined;
  return {
    kind: "query",
    version: review.version,
    id: query.id,
    description: query.description,
    location: query.location,
    form: query.form,
    cql,
    table: query.table,
    candidates: query.candidates.map((candidate) => ({
      table: candidate.table,
      verdict: candidate.plan.verdict,
      partitions: candidate.plan.partitions,
      because: candidate.because,
    })),
    plan: query.plan,
    suggestedTable: query.suggestedTable,
    suggestedTableSizing: query.suggestedTableSizing,
    ratePerSecond: query.ratePerSecond,
    estimate: query.table ? review.estimates.get(query.table) : undefined,
    findings: review.findings.filter((finding) => mentions(finding.fingerprint, `query:${query.id}`) || locatedIn(finding, query.location)),
    ...codePlaceOf(review, query.id),
  };
}

// ---------------------------------------------------------------------------------------------
// Statements of the application's code: asked for by their id, in full or by its function

/** The query of that id (any case), else the code statement it names: its query, or why there is none. */
function findQuery(review: Review, id: string): { query: QueryAnalysis } | { answer: NotFoundAnswer | DynamicStatementAnswer } {
  const query = review.queries.find((candidate) => candidate.id === id) ?? review.queries.find((candidate) => candidate.id.toLowerCase() === id.toLowerCase());
  if (query) return { query };
  const inCode = codeStatementNamed(review, id);
  if (inCode && "statement" in inCode) {
    // A statement a manifest entry describes is planned under the entry's id.
    const entry = review.model.code?.described.get(inCode.statement.id) ?? inCode.statement.id;
    const ofStatement = review.queries.find((candidate) => candidate.id === entry);
    return ofStatement ? { query: ofStatement } : { answer: notAQuery(review, id, inCode.statement) };
  }
  if (inCode && "dynamic" in inCode) {
    const { dynamic } = inCode;
    return { answer: { kind: "code-dynamic", version: review.version, code: codePlace(dynamic), reason: dynamic.reason, start: dynamic.start } };
  }
  if (inCode) return { answer: queryNotFound(review, id, `${inCode.ambiguous.length} statements of the code are named ${id}: give the one you mean in full.`, inCode.ambiguous) };
  const message = review.model.code
    ? `No query ${id} in the access-patterns manifest or the application's code.`
    : review.manifest
      ? `No query ${id} in the access-patterns manifest.`
      : `No query ${id}: no access-patterns manifest was found.`;
  return { answer: queryNotFound(review, id, message) };
}


/** The part of a code id after the file: `UserDao.findByEmail` of `src/…/UserDao.java#UserDao.findByEmail`. */
function functionPart(codeId: string): string {
  return codeId.slice(codeId.indexOf("#") + 1);
}

function codePlace(statement: CodeStatement | DynamicStatement): CodePlace {
  const call = "call" in statement ? statement.call : undefined;
  return { id: statement.id, file: statement.file, line: statement.range.start.line, api: statement.api, ...(call ? { call } : {}) };
}

type CodeMatch = { statement: CodeStatement } | { dynamic: DynamicStatement } | { ambiguous: string[] };

/**
 * The code statement `wanted` names: its full id, the id's end after a `/` (`UserDao.java#UserDao.find`),
 * or its function alone when only one statement has it; exact case first, then any case.
 */
function codeStatementNamed(review: Review, wanted: string): CodeMatch | undefined {
  const code = review.model.code?.extraction;
  if (!code) return undefined;
  const all: (CodeStatement | DynamicStatement)[] = [...code.statements, ...code.dynamic];
  const dynamic = new Set<CodeStatement | DynamicStatement>(code.dynamic);
  const namedBy = (fold: (text: string) => string) => {
    const target = fold(wanted);
    const matches = (statement: CodeStatement | DynamicStatement) => {
      const id = fold(statement.id);
      return id === target || fold(functionPart(statement.id)) === target || (target.includes("#") && id.endsWith(`/${target}`));
    };
    return all.filter(matches);
  };
  const found = [namedBy((text) => text), namedBy((text) => text.toLowerCase())].find((matches) => matches.length > 0);
  if (!found) return undefined;
  if (found.length > 1) return { ambiguous: found.map((statement) => statement.id).sort() };
  const [only] = found;
  return dynamic.has(only!) ? { dynamic: only as DynamicStatement } : { statement: only as CodeStatement };
}

/** Where the query's statement is in the code, when it is one (an implicit entry, or one with `code:`). */
function codePlaceOf(review: Review, queryId: string): { code?: CodePlace } {
  const code = review.model.code;
  const statement = code?.extraction.statements.find((candidate) => (code.described.get(candidate.id) ?? candidate.id) === queryId);
  return statement ? { code: codePlace(statement) } : {};
}

/** A write (or another statement) of the code asked for as a query. */
function notAQuery(review: Review, id: string, statement: CodeStatement): NotFoundAnswer {
  const verb = statement.cql.trim().split(/\s+/, 1)[0]!.toUpperCase();
  return queryNotFound(review, id, `${id} runs ${verb}, not a SELECT (${statement.file}:${statement.range.start.line}): explain plans reads only.`);
}

/** Query ids, and the code's statements built at run time, with their function as another name. */
function queryNotFound(review: Review, id: string, message: string, known?: string[]): NotFoundAnswer {
  const names = [...review.queries.map((candidate) => candidate.id), ...(review.model.code?.extraction.dynamic.map((statement) => statement.id) ?? [])];
  return {
    kind: "not-found",
    version: review.version,
    target: "query",
    name: id,
    message,
    known: known ?? nearestFirst(id, names, (name) => (name.includes("#") ? [name, functionPart(name)] : [name])),
  };
}

function knownTables(review: Review, wanted: string): string[] {
  return nearestFirst(wanted, [...review.schema.tables.keys()], (qualified) => [qualified, qualified.slice(qualified.indexOf(".") + 1)]);
}

function tableNotFound(review: Review, name: string, message: string): NotFoundAnswer {
  return { kind: "not-found", version: review.version, target: "table", name, message, known: knownTables(review, name) };
}

const KIND_ORDER: Record<ColumnKind, number> = { partition: 0, clustering: 1, static: 2, regular: 3 };

function explainTable(review: Review, name: string): TableExplanation | NotFoundAnswer {
  const table = findTable(review.schema, name, review.manifest?.keyspace);
  if (!table) {
    const message =
      review.schema.tables.size === 0 ? `No table ${name}: the schema has no tables.` : `No table ${name} in the schema.`;
    return tableNotFound(review, name, message);
  }
  const columns = [...table.columns]
    .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.kind === "partition" || a.kind === "clustering" ? a.position - b.position : 0))
    .map((column) => ({
      name: column.name,
      type: formatColumnType(column.type),
      kind: column.kind,
      ...(column.kind === "clustering" ? { order: column.order ?? ("asc" as const) } : {}),
    }));
  const queries: TableQuery[] = [];
  for (const query of review.queries) {
    if (query.table === table.qualifiedName) {
      queries.push({ id: query.id, verdict: query.plan.verdict, partitions: query.plan.partitions, role: "serves" });
      continue;
    }
    const candidate = query.candidates.find((entry) => entry.table === table.qualifiedName);
    if (candidate) queries.push({ id: query.id, verdict: candidate.plan.verdict, partitions: candidate.plan.partitions, role: "candidate" });
  }
  return {
    kind: "table",
    version: review.version,
    table: table.qualifiedName,
    tableKind: table.kind,
    location: table.source,
    columns,
    indexes: table.indexes.map((index) => ({ name: index.name, column: index.column, target: index.target, implementation: index.implementation })),
    views: table.views,
    baseTable: table.baseTable,
    defaultTtlSeconds: table.defaultTtlSeconds,
    compaction: table.compaction?.className,
    estimate: review.estimates.get(table.qualifiedName),
    ...measuredOf(review, table.qualifiedName),
    queries,
    findings: review.findings.filter((finding) => tableFinding(finding, table)),
  };
}

function measuredOf(review: Review, table: string): { measured?: MeasuredBeside[] } {
  const measured = review.model.measured?.get(table);
  return measured ? { measured: measuredBesideEstimate(review.estimates.get(table), measured) } : {};
}

function tableFinding(finding: Finding, table: TableModel): boolean {
  return (
    mentions(finding.fingerprint, `table:${table.qualifiedName}`) ||
    finding.fingerprint.includes(`column:${table.qualifiedName}.`) ||
    locatedIn(finding, table.source)
  );
}

function explainSelect(review: Review, cql: string): SelectExplanation | InvalidSelectAnswer | NotFoundAnswer {
  const parsed = parseCql(cql);
  const errors = parsed.diagnostics
    .filter((diagnostic) => diagnostic.severity === "error")
    .map((diagnostic) => ({ line: diagnostic.range.start.line, column: diagnostic.range.start.column, message: diagnostic.message }));
  if (errors.length > 0) return { kind: "invalid-select", version: review.version, cql, errors };
  const [statement, ...others] = parsed.statements;
  if (!statement || others.length > 0 || statement.kind !== "select") {
    const at = others[0]?.range.start ?? statement?.range.start ?? { line: 1, column: 1 };
    return {
      kind: "invalid-select",
      version: review.version,
      cql,
      errors: [{ line: at.line, column: at.column, message: "explain takes exactly one SELECT statement" }],
    };
  }
  const select: SelectStatement = statement;
  const table = findTable(review.schema, select.table, review.manifest?.keyspace);
  if (!table) {
    const written = select.table.keyspace ? `${select.table.keyspace.text}.${select.table.name.text}` : select.table.name.text;
    // Cassandra's own words for a table it does not know
    return tableNotFound(review, written, `unconfigured table ${written}`);
  }
  return {
    kind: "select",
    version: review.version,
    cql,
    table: table.qualifiedName,
    plan: planSelect(select, table, review.version),
    estimate: review.estimates.get(table.qualifiedName),
  };
}

/** Answers one explain request from a finished review. Never throws on bad input. */
export function explain(review: Review, request: ExplainRequest): ExplainAnswer {
  // Several models: the first model that knows the query or table answers (each has its own schema).
  if (review.models) {
    const answers = review.models.flatMap((model) => (model.review ? [explain(model.review, request)] : []));
    return answers.find((answer) => answer.kind !== "not-found") ?? answers[0] ?? explain({ ...review, models: undefined }, request);
  }
  switch (request.kind) {
    case "query":
      return explainQuery(review, request.id);
    case "table":
      return explainTable(review, request.name);
    case "select":
      return explainSelect(review, request.cql);
  }
}
