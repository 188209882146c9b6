// The pure core: files in → Review out. No network, no clock, no environment.
// files → parse → model → plan/estimate → rules → findings (CONTRIBUTING.md, "Architecture").
import { estimateTables } from "./analysis/estimator.js";
import { append } from "./arrays.js";
import { attachRowsEstimates } from "./analysis/estimator-rows.js";
import { attachTombstoneEstimates } from "./analysis/estimator-tombstones.js";
import { estimateFromMeasurements } from "./analysis/measured.js";
import { analyseQuery, countQueryPlans, sizeSuggestedTables } from "./analysis/queries.js";
import { mergeCodeIntoManifest } from "./code/entries.js";
import { withEnumDistinctValues } from "./code/enums.js";
import { languageOf, type CodeExtraction } from "./code/types.js";
import type { PartitionEstimate, QueryAnalysis } from "./analysis/types.js";
import { loadConfig, type ReviewConfig } from "./config.js";
import { parseCql } from "./cql/index.js";
import { compareFindings, FILE_START, pointRange, type Finding, type SourceLocation } from "./findings.js";
import { matchesAny } from "./globs.js";
import { checkManifestAgainstSchema } from "./manifest/check.js";
import { changedEntries, normaliseCql } from "./manifest/compare.js";
import { loadManifest } from "./manifest/load.js";
import { modelName, modelRoots, rootOf, type ModelRoot } from "./manifest/model-roots.js";
import type { Manifest } from "./manifest/types.js";
import { runRules } from "./rule-engine/engine.js";
import type { AnalysedModel, ParsedSchemaFile } from "./rule-engine/model.js";
import { buildSchema } from "./schema/builder.js";
import { changedTables } from "./schema/compare.js";
import { defaultKeyspaceOf, isApplicationConfigFile } from "./schema/default-keyspace.js";
import { applyOrder, orderBySetting } from "./schema/file-order.js";
import { systemTables } from "./schema/system-tables.js";
import { DEFAULT_CASSANDRA_VERSION, emptySchema, type CassandraVersion, type SchemaModel } from "./schema/model.js";
import type { SourceFile } from "./source-file.js";
import { combineStats } from "./stats/combine.js";
import { parseStatsFile, STATS_RULE } from "./stats/parse.js";
import type { NodeTableStats, TableMeasurements } from "./stats/types.js";

export type { SourceFile } from "./source-file.js";

export interface ReviewInput {
  /** every candidate file at the head commit (the review picks schema and manifest files by the config globs) */
  files: SourceFile[];
  /** the same at the base commit, to tell new findings from existing ones */
  baseFiles?: SourceFile[];
  /** the config file's text and path, if the repository has one */
  configFile?: SourceFile;
  /** overrides (CLI flags) */
  manifestPath?: string;
  /** files read as saved nodetool output whatever the `stats` globs say (`cql-review check --stats FILE`) */
  statsPaths?: readonly string[];
  cassandra?: CassandraVersion;
  /** the gate's level instead of the config's `fail_on` (`cql-review check --fail-on`) */
  failOn?: ReviewConfig["failOn"];
  /**
   * Asked between files, queries and stages; once it answers true the review stops and says so
   * in an `input-limit-exceeded` finding. The core has no clock: shells pass a wall-clock budget,
   * tests a counter.
   */
  pastDeadline?: () => boolean;
  /**
   * Application code (model files): the statements src/code read out of `files` and `baseFiles`.
   * The shells read them first (`readCode`), since tree-sitter's grammars load asynchronously.
   */
  code?: CodeExtraction;
  baseCode?: CodeExtraction;
  /** files the shell left unread on purpose (the CLI: a symbolic link out of the reviewed directory), each not reviewed */
  notRead?: { file: string; reason: string }[];
  /**
   * The paths the change touched (the App). With several models, a model none of them lies
   * beneath is not reviewed (and the gate says so); without it every model is reviewed.
   */
  changedPaths?: readonly string[];
}

export interface ReviewedFile {
  path: string;
  kind: "schema" | "manifest" | "config";
  statements: number;
}

export interface Review {
  version: CassandraVersion;
  config: ReviewConfig;
  files: ReviewedFile[];
  schema: SchemaModel;
  manifest?: Manifest;
  queries: QueryAnalysis[];
  /** by qualified table name */
  estimates: Map<string, PartitionEstimate>;
  /** sorted with compareFindings; `existing` set when a base was given */
  findings: Finding[];
  summary: { errors: number; warnings: number; infos: number };
  /** whether the gate fails: a new finding at `failOn`, or anything not reviewed unless `unreviewed: warn` */
  gateFails: boolean;
  /** what was not reviewed and why (too large, binary, out of time, internal error): each could hide a finding */
  unreviewed: Unreviewed[];
  /** the analysed model, for explain */
  model: AnalysedModel;
  /** what the change altered, against the base commit; undefined without one, or when the base could not be read in time */
  changed?: ReviewChanges;
  /**
   * Set only when the repository holds several models (docs/configuration.md, "Several models"):
   * each reviewed apart. The findings, summary and gate above are then their union, and schema,
   * manifest, queries, estimates and model are the first reviewed model's.
   */
  models?: ModelReview[];
}

/** One model of a repository with several, and its own review. */
export interface ModelReview {
  /** "" (the repository's root) or a directory with a trailing slash; undefined for the files beneath no model root */
  root: string | undefined;
  /** its directory as written in reports (`apps/shop`, `.`), or "(outside the models)" */
  name: string;
  /** absent when it was not reviewed: then `skipped` says why */
  review?: Review;
  skipped?: string;
}

/** What a change altered, by comparing the base and head models (never file text: a moved or re-formatted table is unchanged). */
export interface ReviewChanges {
  /** qualified names of the head's tables and views that are new or defined differently (columns, types, key, clustering order, options, indexes) */
  tables: ReadonlySet<string>;
  /** qualified names of the base's tables and views the head no longer has */
  droppedTables: ReadonlySet<string>;
  /** ids of the head's queries, writes and code statements that are new or run different CQL */
  queries: ReadonlySet<string>;
}

/** A part of the change the review could not look at; `file` is "" when it is the review as a whole. */
export interface Unreviewed {
  file: string;
  reason: string;
}

/**
 * Explicit limits: a file or a review past them is reported, never parsed half-way. The review
 * limits bound the worst accepted input to the time and memory budgets (docs/limits.md).
 */
export const REVIEW_LIMITS = {
  /** bytes of one schema file, manifest or config file */
  fileBytes: 1024 * 1024,
  /** statements of one schema file */
  statementsPerFile: 10_000,
  /** schema + manifest files in one review */
  filesPerReview: 2_000,
  /** bytes of all schema and manifest files of one commit */
  bytesPerReview: 4 * 1024 * 1024,
  /** schema statements of one commit, all files together (each table costs every table rule, at both commits) */
  statementsPerReview: 10_000,
  /** queries of the manifests, all together */
  queriesPerReview: 5_000,
  /** table plans of the manifests' queries: one per `cql` query, one per table holding all the columns of an abstract one */
  queryPlansPerReview: 40_000,
} as const;

/** The rules whose findings say that part of the input was not reviewed, so a finding may hide behind them. */
export const UNREVIEWED_RULES: ReadonlySet<string> = new Set(["input-limit-exceeded", "internal-error"]);


interface SelectedFiles {
  schema: SourceFile[];
  manifests: SourceFile[];
  /** saved nodetool tablestats / tablehistograms output */
  stats: SourceFile[];
  limitFindings: Finding[];
}

function limitFinding(file: string, message: string, entity: string): Finding {
  return {
    rule: "input-limit-exceeded",
    severity: "warning",
    location: { file, range: FILE_START },
    message,
    fingerprint: `input-limit-exceeded:${entity}`,
  };
}

/** A code file that was not read: a limit, or a grammar that did not load (then an internal error). Either way it was not reviewed. */
function unreadCodeFinding(skipped: CodeExtraction["skipped"][number]): Finding {
  const message = `${skipped.file} was not read as application code: ${skipped.reason}. The statements in it were not reviewed.`;
  if (!skipped.failed) return limitFinding(skipped.file, message, `code:${skipped.file}`);
  return { ...limitFinding(skipped.file, message, `code:${skipped.file}`), rule: "internal-error", severity: "info", fingerprint: `internal-error:code:${skipped.file}` };
}

/** Picks schema and manifest files by the config globs and applies the size and count limits. */
function selectFiles(files: SourceFile[], config: ReviewConfig, manifestPath: string | undefined, statsPaths: readonly string[] = []): SelectedFiles {
  const limitFindings: Finding[] = [];
  const schema: SourceFile[] = [];
  const manifests: SourceFile[] = [];
  const stats: SourceFile[] = [];
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let bytes = 0;
  for (const file of sorted) {
    if (matchesAny(file.path, config.ignore)) continue;
    const isManifest = manifestPath !== undefined ? file.path === manifestPath : matchesAny(file.path, config.manifest);
    const isStats = !isManifest && (statsPaths.includes(file.path) || matchesAny(file.path, config.stats));
    const isSchema = !isManifest && !isStats && matchesAny(file.path, config.schema);
    if (!isManifest && !isSchema && !isStats) continue;
    if (schema.length + manifests.length >= REVIEW_LIMITS.filesPerReview) {
      limitFindings.push(
        limitFinding(file.path, `More than ${REVIEW_LIMITS.filesPerReview} schema and manifest files: ${file.path} and later files were not reviewed.`, "files-per-review"),
      );
      break;
    }
    if (file.content.length > REVIEW_LIMITS.fileBytes) {
      limitFindings.push(
        limitFinding(file.path, `${file.path} is ${file.content.length} bytes, over the ${REVIEW_LIMITS.fileBytes}-byte limit per file; it was not parsed.`, `file-size:${file.path}`),
      );
      continue;
    }
    if (file.content.includes("\u0000")) {
      limitFindings.push(limitFinding(file.path, `${file.path} looks binary (it contains NUL bytes); it was not parsed.`, `binary:${file.path}`));
      continue;
    }
    if (bytes + file.content.length > REVIEW_LIMITS.bytesPerReview) {
      limitFindings.push(
        limitFinding(
          file.path,
          `${file.path} would take the schema and manifest files past ${REVIEW_LIMITS.bytesPerReview} bytes, the limit per review; it was not parsed.`,
          `review-size:${file.path}`,
        ),
      );
      continue;
    }
    bytes += file.content.length;
    (isManifest ? manifests : isStats ? stats : schema).push(file);
  }
  return { schema, manifests, stats, limitFindings };
}

/**
 * Several manifests are read as one: the first (by path) gives `keyspace` and `cassandra`. The
 * entries of a manifest whose `keyspace:` differs keep theirs, so their unqualified table names
 * still resolve where that manifest says.
 */
function mergeManifests(manifests: Manifest[]): Manifest | undefined {
  const [first] = manifests;
  if (!first) return undefined;
  const own = <T extends { keyspace?: string }>(entries: T[], keyspace: string | undefined): T[] =>
    keyspace === undefined || keyspace === first.keyspace ? entries : entries.map((entry) => ({ ...entry, keyspace }));
  return {
    ...first,
    placeholders: manifests.flatMap((m) => m.placeholders ?? []),
    tables: manifests.flatMap((m) => own(m.tables, m.keyspace)),
    queries: manifests.flatMap((m) => own(m.queries, m.keyspace)),
    writes: manifests.flatMap((m) => own(m.writes, m.keyspace)),
  };
}

/** The application's configuration files that may name its keyspace (not tests', not ignored, not too large). */
function applicationConfigs(files: readonly SourceFile[], config: ReviewConfig): SourceFile[] {
  return files.filter(
    (file) =>
      isApplicationConfigFile(file.path) &&
      file.content.length <= REVIEW_LIMITS.fileBytes &&
      !matchesAny(file.path, config.ignore) &&
      !matchesAny(file.path, config.code.exclude),
  );
}

/** Everything up to the rules: parse, model, plans and estimates for one commit. */
export function analyse(input: ReviewInput): AnalysedModel {
  return analyseWithinDeadline(input).model;
}

/**
 * The model of a review stopped by its deadline: what was read and its syntax, manifest and
 * config findings, but no schema, plans or estimates. Rules over a half-read model would be
 * wrong (a query whose table sits in an unread file would look unserved).
 */
function stoppedModel(model: Pick<AnalysedModel, "version" | "config" | "configFile" | "manifestFiles" | "inputFindings">, finding: Finding): AnalysedModel {
  return { ...model, schemaFiles: [], schema: emptySchema(), queries: [], estimates: new Map(), inputFindings: [...model.inputFindings, finding] };
}

/**
 * The config as written, unless it is binary or too large: then the defaults, and a finding
 * saying the file was not read (a half-read config could turn rules off or change the gate).
 */
function readConfig(file: SourceFile | undefined): ReturnType<typeof loadConfig> & { unread?: Finding } {
  if (file && (file.content.length > REVIEW_LIMITS.fileBytes || file.content.includes("\u0000"))) {
    const why = file.content.includes("\u0000") ? "looks binary (it contains NUL bytes)" : `is ${file.content.length} bytes, over the ${REVIEW_LIMITS.fileBytes}-byte limit per file`;
    const loaded = loadConfig(undefined);
    return { ...loaded, unread: limitFinding(file.path, `${file.path} ${why}; it was not read, and the default settings were used.`, `config:${file.path}`) };
  }
  return loadConfig(file);
}

function analyseWithinDeadline(input: ReviewInput): { model: AnalysedModel; stopped: boolean } {
  const { config, findings: configFindings, ruleLocations, unread } = readConfig(input.configFile);
  const selected = selectFiles(input.files, config, input.manifestPath, input.statsPaths);
  const inputFindings: Finding[] = [...configFindings];
  if (unread) inputFindings.push(unread);
  append(inputFindings, selected.limitFindings);
  const manifestFiles = selected.manifests.map((f) => f.path);
  const configFile = input.configFile ? { path: input.configFile.path, ruleLocations } : undefined;
  const pastDeadline = input.pastDeadline ?? (() => false);
  const stopWith = (finding: Finding) => ({
    model: stoppedModel({ version: input.cassandra ?? config.cassandra ?? DEFAULT_CASSANDRA_VERSION, config, configFile, manifestFiles, inputFindings }, finding),
    stopped: true,
  });
  const stop = (at: SourceLocation, what: string) =>
    stopWith({
      ...limitFinding(at.file, `The review ran out of time ${what}; nothing was planned or checked, so only syntax, manifest and config findings are shown.`, "time-budget"),
      location: at,
    });
  const atFile = (file: string): SourceLocation => ({ file, range: FILE_START });
  const andLater = (count: number, one: string, many: string) => (count === 0 ? "" : ` and the ${count} ${count === 1 ? one : many} after it`);

  const manifests: Manifest[] = [];
  for (const [index, file] of selected.manifests.entries()) {
    if (pastDeadline()) return stop(atFile(file.path), `before reading ${file.path}${andLater(selected.manifests.length - index - 1, "manifest", "manifests")}`);
    const loaded = loadManifest(file);
    append(inputFindings, loaded.findings);
    if (loaded.manifest) manifests.push(loaded.manifest);
  }
  const written = mergeManifests(manifests);
  // Application code: its statements join the manifest's entries, planned and checked like them.
  const withCode = input.code ? mergeCodeIntoManifest(input.code, written) : undefined;
  let manifest = withCode ? withCode.manifest : written;
  // An entity column typed by an enum of the code: its constants are its distinct values, where the manifest states none.
  if (input.code) manifest = withEnumDistinctValues(manifest, input.code.tables);
  for (const skipped of input.code?.skipped ?? []) inputFindings.push(unreadCodeFinding(skipped));
  for (const unread of input.notRead ?? []) inputFindings.push(limitFinding(unread.file, `${unread.file} was not read: ${unread.reason}; it was not reviewed.`, `not-read:${unread.file}`));

  const schemaFiles: ParsedSchemaFile[] = [];
  let statements = 0;
  for (const [index, file] of selected.schema.entries()) {
    if (pastDeadline()) return stop(atFile(file.path), `before parsing ${file.path}${andLater(selected.schema.length - index - 1, "schema file", "schema files")}`);
    // Broken statements count against both limits: a file of 100,000 `SELECT ;` is 100,000 diagnostics.
    // A file left out still cost its parse: the statements met count, so the parses of one review stay bounded.
    const remaining = Math.max(0, REVIEW_LIMITS.statementsPerReview - statements);
    const parse = parseCql(file.content, { maxStatements: Math.min(REVIEW_LIMITS.statementsPerFile, remaining) + 1 });
    statements += parse.attempted ?? 0;
    if (parse.stopped && remaining >= REVIEW_LIMITS.statementsPerFile) {
      inputFindings.push(
        limitFinding(file.path, `${file.path} has more than ${REVIEW_LIMITS.statementsPerFile} statements (broken ones included), over the limit per file; it was not reviewed.`, `statements:${file.path}`),
      );
      continue;
    }
    if (parse.statements.length > REVIEW_LIMITS.statementsPerFile) {
      inputFindings.push(
        limitFinding(file.path, `${file.path} has ${parse.statements.length} statements, over the limit of ${REVIEW_LIMITS.statementsPerFile} per file; it was not reviewed.`, `statements:${file.path}`),
      );
      continue;
    }
    if (parse.stopped || statements > REVIEW_LIMITS.statementsPerReview) {
      inputFindings.push(
        limitFinding(
          file.path,
          `${file.path} would take the schema past ${REVIEW_LIMITS.statementsPerReview} statements (broken ones included), the limit per review; it was not reviewed.`,
          `review-statements:${file.path}`,
        ),
      );
      continue;
    }
    // The n-th occurrence of a message keeps its fingerprint when unrelated lines move.
    const occurrences = new Map<string, number>();
    for (const diagnostic of parse.diagnostics) {
      const key = `${diagnostic.code}:${file.path}:${diagnostic.message}`;
      const n = (occurrences.get(key) ?? 0) + 1;
      occurrences.set(key, n);
      inputFindings.push({
        rule: diagnostic.code,
        severity: diagnostic.severity,
        location: { file: file.path, range: diagnostic.range },
        message: diagnostic.message,
        fingerprint: `${key}#${n}`,
      });
    }
    schemaFiles.push({ path: file.path, text: file.content, parse });
  }

  const version = input.cassandra ?? manifest?.cassandra ?? config.cassandra ?? DEFAULT_CASSANDRA_VERSION;
  // Unqualified names without a manifest keyspace: the schema's only keyspace, else the application's.
  // The files applied and their order: as the manifest's `schema:` names them, else as detected.
  const manifestDirectory = manifest ? manifest.file.slice(0, manifest.file.lastIndexOf("/") + 1) : "";
  const appliedSchemaFiles = manifest?.schema ? orderBySetting(schemaFiles, manifest.schema, manifestDirectory) : applyOrder(schemaFiles);
  const inferred = manifest?.keyspace === undefined ? defaultKeyspaceOf(appliedSchemaFiles, applicationConfigs(input.files, config)) : undefined;
  if (manifest && inferred) manifest = { ...manifest, keyspace: inferred.keyspace };
  const keyspace = manifest?.keyspace ?? inferred?.keyspace;
  const firstFile = atFile(selected.schema[0]?.path ?? manifestFiles[0] ?? input.configFile?.path ?? "");
  if (pastDeadline()) return stop(firstFile, "before building the schema model");
  const built = buildSchema(appliedSchemaFiles, { defaultKeyspace: keyspace, inOrder: true });
  append(inputFindings, built.findings);
  // Cassandra's own tables, for queries on them; the rules over the application's tables never see them.
  built.schema.builtIn = systemTables(version);
  if (manifest) append(inputFindings, checkManifestAgainstSchema(manifest, built.schema, { keyspace }));
  const measured = readMeasurements(selected.stats, built.schema, inputFindings);

  const queryCount = manifest?.queries.length ?? 0;
  const overQueries = queryCount > REVIEW_LIMITS.queriesPerReview;
  const plans = overQueries ? 0 : countQueryPlans(manifest, built.schema, { keyspace }, REVIEW_LIMITS.queryPlansPerReview);
  if (overQueries || plans > REVIEW_LIMITS.queryPlansPerReview) {
    const at = manifest!.queries[0]!.location;
    const why = overQueries
      ? `${queryCount} queries, over the limit of ${REVIEW_LIMITS.queriesPerReview} per review`
      : `${queryCount} queries needing more than ${REVIEW_LIMITS.queryPlansPerReview} query plans (each is weighed against every table holding its columns), over the limit per review`;
    return stopWith({
      ...limitFinding(at.file, `The manifests hold ${why}; nothing was planned or checked, so only syntax, manifest and config findings are shown.`, "query-plans"),
      location: at,
    });
  }

  // Query by query, so the deadline is asked between them.
  const queries: QueryAnalysis[] = [];
  for (const [index, query] of (manifest?.queries ?? []).entries()) {
    if (pastDeadline()) return stop(query.location, `before planning query ${query.id}${andLater(manifest!.queries.length - index - 1, "query", "queries")}`);
    queries.push(analyseQuery(query, manifest!, built.schema, { version, keyspace }));
  }
  if (pastDeadline()) return stop(firstFile, "before estimating partition sizes");
  const estimates = estimateTables(built.schema, manifest, queries, { version, limits: config.limits, keyspace });
  // Where the manifest is silent, production's figures stand in for the defaults (and say so).
  for (const [name, measurements] of measured) {
    const estimate = estimates.get(name);
    const fromMeasurements = estimate && estimateFromMeasurements(estimate, measurements);
    if (fromMeasurements) estimates.set(name, fromMeasurements);
  }
  attachRowsEstimates(queries, estimates, manifest, built.schema);
  attachTombstoneEstimates(queries, built.schema, manifest, estimates);
  sizeSuggestedTables(queries, manifest, built.schema, { version, limits: config.limits, keyspace });

  const code = withCode?.code;
  return {
    model: { version, config, configFile, schemaFiles, appliedSchemaFiles, manifestFiles, schema: built.schema, manifest, queries, estimates, inputFindings, ...(code ? { code } : {}), ...(measured.size > 0 ? { measured } : {}) },
    stopped: false,
  };
}

/** Where a 1-based line starts in a text. */
function lineOffset(text: string, line: number): number {
  let offset = 0;
  for (let n = 1; n < line && offset !== -1; n++) offset = text.indexOf("\n", offset) + 1 || -1;
  return Math.max(0, offset);
}

/**
 * The production measurements of the schema's tables, all stats files together. A file that cannot
 * be read, and a table the schema lacks, get a `stats-invalid` finding at their line.
 */
function readMeasurements(files: readonly SourceFile[], schema: SchemaModel, findings: Finding[]): Map<string, TableMeasurements> {
  const known: NodeTableStats[] = [];
  for (const file of files) {
    const parsed = parseStatsFile(file);
    append(findings, parsed.findings);
    const reported = new Set<string>();
    for (const stats of parsed.tables) {
      const name = `${stats.keyspace}.${stats.table}`;
      if (schema.tables.has(name)) {
        known.push(stats);
        continue;
      }
      // System keyspaces are in every full tablestats; they are not the application's model.
      if (/^(system|system_[a-z_]+|dse_[a-z_]+)$/.test(stats.keyspace) || reported.has(name)) continue;
      reported.add(name);
      findings.push({
        rule: STATS_RULE,
        severity: "warning",
        location: { file: file.path, range: pointRange(stats.line, 1, lineOffset(file.content, stats.line)) },
        message: `${file.path}:${stats.line}: ${name} has measurements, but the schema has no such table; its figures are not used (a table dropped or renamed, or schema files the review does not read)`,
        fingerprint: `${STATS_RULE}:${file.path}#unknown-table:${name}`,
      });
    }
  }
  return combineStats(known);
}

function reviewedFiles(model: AnalysedModel): ReviewedFile[] {
  const files: ReviewedFile[] = model.schemaFiles.map((f) => ({ path: f.path, kind: "schema", statements: f.parse.statements.length }));
  // One pass over the queries and writes, not one per manifest file.
  const statementsByFile = new Map<string, number>();
  for (const entry of [...(model.manifest?.queries ?? []), ...(model.manifest?.writes ?? [])]) {
    statementsByFile.set(entry.location.file, (statementsByFile.get(entry.location.file) ?? 0) + 1);
  }
  for (const path of model.manifestFiles) files.push({ path, kind: "manifest", statements: statementsByFile.get(path) ?? 0 });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * What was not reviewed, from the findings that say so. A file left out stays left out at every
 * push, so these count whether or not the base had them too.
 */
export function unreviewedOf(findings: readonly Finding[]): Unreviewed[] {
  const unreviewed: Unreviewed[] = [];
  for (const finding of findings) {
    if (UNREVIEWED_RULES.has(finding.rule)) unreviewed.push({ file: finding.location.file, reason: finding.message });
  }
  return unreviewed;
}

/**
 * The gate: it fails on a new finding at `failOn`, and, unless the config says `unreviewed: warn`,
 * on anything left unreviewed (fail closed: what was not read may hide an error). Shells that add
 * findings of their own (files the collector could not fetch) call it again on the whole list.
 */
export function gateFails(findings: readonly Finding[], config: Pick<ReviewConfig, "failOn" | "unreviewed">): boolean {
  if (config.unreviewed === "fail" && findings.some((f) => UNREVIEWED_RULES.has(f.rule))) return true;
  const { failOn } = config;
  if (failOn === "never") return false;
  return findings.some((f) => !f.existing && (f.severity === "error" || (failOn === "warning" && f.severity === "warning")));
}

/**
 * What the head changed against the base: tables by their definition, manifest entries by their
 * CQL, and code statements by their CQL, each named by its own id and by the entry describing it.
 */
export function changesBetween(base: AnalysedModel, head: AnalysedModel): ReviewChanges {
  const tables = changedTables(base.schema, head.schema);
  const queries = changedEntries(base.manifest, head.manifest);
  const baseStatements = new Map((base.code?.extraction.statements ?? []).map((statement) => [statement.id, normaliseCql(statement.cql)]));
  for (const statement of head.code?.extraction.statements ?? []) {
    if (baseStatements.get(statement.id) === normaliseCql(statement.cql)) continue;
    queries.add(statement.id);
    const describedBy = head.code?.described.get(statement.id);
    if (describedBy !== undefined) queries.add(describedBy);
  }
  return { tables: tables.altered, droppedTables: tables.dropped, queries };
}

/**
 * The whole review of one change. A repository with several models (several manifest
 * directories, or the config's `models:`) is reviewed model by model; otherwise as one.
 */
export function review(input: ReviewInput): Review {
  const parts = input.manifestPath === undefined ? splitByModel(input) : undefined;
  return parts ? reviewModels(input, parts) : reviewOneModel(input);
}

const OUTSIDE_MODELS = "(outside the models)";

interface ModelPart {
  root: ModelRoot | undefined;
  input: ReviewInput;
  /** whether the change touched it (always true without `changedPaths`) */
  touched: boolean;
}

/** The input of each model, or undefined when the repository holds one model or none. */
function splitByModel(input: ReviewInput): ModelPart[] | undefined {
  const { config } = readConfig(input.configFile);
  const roots = modelRoots(
    input.files.map((file) => file.path),
    config,
  );
  if (roots.length < 2) return undefined;
  // A model has schema files of its own: manifests sharing one schema elsewhere (one per service,
  // each in its keyspace) stay one model, and a root with no file here (a review of one directory) is none.
  const isSchema = (path: string) => matchesAny(path, config.schema) && !matchesAny(path, config.ignore) && !matchesAny(path, config.manifest);
  const populated = roots.filter((root) => input.files.some((file) => isSchema(file.path) && rootOf(file.path, roots) === root));
  if (populated.length < 2) return undefined;
  const belongs = (root: ModelRoot | undefined) => (path: string) => rootOf(path, roots) === root;
  const codeOf = (code: CodeExtraction | undefined, within: (path: string) => boolean): CodeExtraction | undefined =>
    code && {
      ...code,
      files: code.files.filter((file) => within(file.path)),
      statements: code.statements.filter((statement) => within(statement.file)),
      dynamic: code.dynamic.filter((statement) => within(statement.file)),
      tables: code.tables.filter((table) => within(table.file)),
      skipped: code.skipped.filter((skipped) => within(skipped.file)),
      ...(code.directives ? { directives: code.directives.filter((directive) => within(directive.file)) } : {}),
    };
  // A change to the config, or to a file the review reads beneath no model, may alter any model: all are reviewed.
  const reviewable = (path: string) =>
    !matchesAny(path, config.ignore) &&
    (matchesAny(path, [...config.schema, ...config.manifest, ...config.stats]) ||
      isApplicationConfigFile(path) ||
      (config.code.enabled && languageOf(path) !== undefined && matchesAny(path, config.code.files) && !matchesAny(path, config.code.exclude)));
  const changed = input.changedPaths;
  const touchesAll = changed === undefined || changed.some((path) => path === input.configFile?.path || (rootOf(path, roots) === undefined && reviewable(path)));
  const parts: ModelPart[] = [];
  for (const root of [...populated, undefined]) {
    const within = belongs(root);
    const files = input.files.filter((file) => within(file.path));
    const code = codeOf(input.code, within);
    const notRead = input.notRead?.filter((unread) => within(unread.file));
    if (root === undefined) {
      // Files beneath no model are reviewed as before, when there is anything to review.
      const hasSchema = files.some((file) => matchesAny(file.path, config.schema) && !matchesAny(file.path, config.ignore));
      const hasCode = code !== undefined && code.statements.length + code.dynamic.length + code.skipped.length > 0;
      if (!hasSchema && !hasCode && (notRead?.length ?? 0) === 0) continue;
    }
    parts.push({
      root,
      touched: touchesAll || changed.some(within),
      input: {
        ...input,
        files,
        ...(input.baseFiles ? { baseFiles: input.baseFiles.filter((file) => within(file.path)) } : {}),
        ...(code ? { code } : {}),
        ...(input.baseCode ? { baseCode: codeOf(input.baseCode, within) } : {}),
        ...(notRead ? { notRead } : {}),
      },
    });
  }
  return parts;
}

/** A finding of one model, told apart from the same finding of another (a table of the same name in two applications). */
function ofModel(finding: Finding, root: ModelRoot | undefined): Finding {
  if (root === undefined || finding.location.file === "" || !finding.location.file.startsWith(root)) return finding;
  return Object.assign({}, finding, { fingerprint: `${finding.fingerprint}@${modelName(root)}` });
}

/** Each model reviewed apart; the findings, summary and gate are their union. */
function reviewModels(input: ReviewInput, parts: ModelPart[]): Review {
  const models: ModelReview[] = parts.map((part) => {
    const name = part.root === undefined ? OUTSIDE_MODELS : modelName(part.root);
    if (!part.touched) return { root: part.root, name, skipped: "nothing in it changed" };
    const reviewed = reviewOneModel(part.input);
    return { root: part.root, name, review: { ...reviewed, findings: reviewed.findings.map((finding) => ofModel(finding, part.root)) } };
  });
  const reviews = models.flatMap((model) => (model.review ? [model.review] : []));
  // The config's findings come with every model: kept once.
  const seen = new Set<string>();
  const findings = reviews
    .flatMap((reviewed) => reviewed.findings)
    .filter((finding) => (seen.has(finding.fingerprint) ? false : (seen.add(finding.fingerprint), true)))
    .sort(compareFindings);
  const first = reviews[0] ?? reviewOneModel({ ...input, files: [], baseFiles: undefined, code: undefined, baseCode: undefined, notRead: undefined });
  const config = first.config;
  const files = [...new Map(reviews.flatMap((reviewed) => reviewed.files).map((file) => [file.path, file])).values()].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  const changes = reviews.map((reviewed) => reviewed.changed);
  const union = (pick: (changed: ReviewChanges) => ReadonlySet<string>) => new Set(changes.flatMap((changed) => (changed ? [...pick(changed)] : [])));
  const { changed: _firstChanges, ...firstModel } = first;
  return {
    ...firstModel,
    files,
    findings,
    summary: summaryOf(findings),
    gateFails: gateFails(findings, config),
    unreviewed: unreviewedOf(findings),
    ...(changes.length > 0 && changes.every((changed) => changed !== undefined)
      ? { changed: { tables: union((c) => c.tables), droppedTables: union((c) => c.droppedTables), queries: union((c) => c.queries) } }
      : {}),
    models,
  };
}

/** How many findings of each severity: the review's summary line. */
export function summaryOf(findings: readonly Finding[]): Review["summary"] {
  const summary = { errors: 0, warnings: 0, infos: 0 };
  for (const finding of findings) {
    if (finding.severity === "error") summary.errors++;
    else if (finding.severity === "warning") summary.warnings++;
    else summary.infos++;
  }
  return summary;
}

/** The review of one model: the head model, its findings, and which of them are new. */
function reviewOneModel(input: ReviewInput): Review {
  const head = analyseWithinDeadline(input);
  const model = head.model;
  let base: AnalysedModel | undefined;
  let baseFingerprints = new Set<string>();
  if (input.baseFiles && !head.stopped) {
    const analysedBase = analyseWithinDeadline({ ...input, files: input.baseFiles, code: input.baseCode });
    if (analysedBase.stopped) {
      // The head was reviewed in full; only the comparison is lost, so every finding counts as new.
      model.inputFindings.push(
        limitFinding(
          model.manifestFiles[0] ?? model.schemaFiles[0]?.path ?? "",
          "The review ran out of time while reading the base commit, so findings are not compared with it: findings that already existed count as new.",
          "time-budget:base",
        ),
      );
    } else {
      base = analysedBase.model;
      baseFingerprints = new Set(runRules(base, { pastDeadline: input.pastDeadline }).map((f) => f.fingerprint));
    }
  }
  // A stopped model is nearly empty and already says it stopped: its rules run in full.
  const findings = runRules(model, { base, ...(head.stopped ? {} : { pastDeadline: input.pastDeadline }) })
    // Object.assign, not `{ ...f, existing }`: such objects are slow to build and read on Node 20.
    .map((f) => (base ? Object.assign({}, f, { existing: baseFingerprints.has(f.fingerprint) }) : f))
    .sort(compareFindings);

  const config = input.failOn ? { ...model.config, failOn: input.failOn } : model.config;
  return {
    version: model.version,
    config,
    files: reviewedFiles(model),
    schema: model.schema,
    manifest: model.manifest,
    queries: model.queries,
    estimates: model.estimates,
    findings,
    summary: summaryOf(findings),
    gateFails: gateFails(findings, config),
    unreviewed: unreviewedOf(findings),
    model,
    ...(base ? { changed: changesBetween(base, model) } : {}),
  };
}
