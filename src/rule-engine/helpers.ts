// Lookups the rules share. Rules never import one another; what two of them need lives here.
import type { QueryAnalysis, QueryPlan } from "../analysis/types.js";
import type {
  BatchStatement,
  CreateTableStatement,
  DeleteStatement,
  InsertStatement,
  Position,
  QualifiedName,
  SelectStatement,
  SourceRange,
  Statement,
  Term,
  UpdateStatement,
} from "../cql/ast.js";
import type { AbstractQuery, ManifestQuery, ManifestWrite, TableVolume } from "../manifest/types.js";
import type { SourceLocation } from "../findings.js";
import { quoteName } from "../cql/print.js";
import { buildSchema } from "../schema/builder.js";
import { applyOrder } from "../schema/file-order.js";
import type { ColumnType, TableModel } from "../schema/model.js";
import type { AnalysedModel, ParsedSchemaFile } from "./model.js";
import type { RuleContext } from "./types.js";

/** The entity of a manifest query, for fingerprints and `ignore:` matching. */
/** Entity names unique within one rule's run: the second finding on `base` becomes `base#2`, and so on. */
export function numberedEntities(): (base: string) => string {
  const counts = new Map<string, number>();
  return (base) => {
    const n = (counts.get(base) ?? 0) + 1;
    counts.set(base, n);
    return n === 1 ? base : `${base}#${n}`;
  };
}

export function queryEntity(queryId: string): string {
  return `query:${queryId}`;
}

/** The line and column (1-based) of an offset (0-based) in a text. */
export function positionAt(text: string, offset: number): Position {
  const clamped = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < clamped; i = text.indexOf("\n", i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: clamped - lineStart + 1, offset: clamped };
}

/** The range between two offsets of a text. */
export function rangeBetween(text: string, start: number, end: number): SourceRange {
  return { start: positionAt(text, start), end: positionAt(text, end) };
}

/**
 * Re-reports the input stage's findings of one rule id (parse, schema, manifest, config, limits):
 * the input rules wrap them so config can change their severity or turn them off like any rule.
 * Their fingerprint is kept when it follows the `rule:entity` convention.
 */
export function reportInputFindings(context: RuleContext<unknown>, ruleId: string): void {
  const prefix = `${ruleId}:`;
  for (const finding of context.model.inputFindings) {
    if (finding.rule !== ruleId) continue;
    context.report({
      messageId: "input",
      message: finding.message,
      ...(finding.data ? { data: finding.data } : {}),
      file: finding.location.file,
      range: finding.location.range,
      entity: finding.fingerprint.startsWith(prefix) ? finding.fingerprint.slice(prefix.length) : finding.fingerprint,
      ...(finding.fix ? { fix: finding.fix } : {}),
    });
  }
}

// Rules look queries up once per query or per table: indexes built once per model keep that linear.
const manifestQueriesById = new WeakMap<object, Map<string, ManifestQuery>>();
const queriesByTable = new WeakMap<AnalysedModel, Map<string, QueryAnalysis[]>>();

/** The manifest entry of an analysed query (the first one with that id). */
export function manifestQuery(model: AnalysedModel, queryId: string): ManifestQuery | undefined {
  if (!model.manifest) return undefined;
  let byId = manifestQueriesById.get(model.manifest);
  if (!byId) {
    byId = new Map();
    for (const query of model.manifest.queries) if (!byId.has(query.id)) byId.set(query.id, query);
    manifestQueriesById.set(model.manifest, byId);
  }
  return byId.get(queryId);
}

/** The analysed queries that read a table (by qualified name), in manifest order. */
export function queriesOnTable(model: AnalysedModel, table: string): QueryAnalysis[] {
  let byTable = queriesByTable.get(model);
  if (!byTable) {
    byTable = new Map();
    for (const query of model.queries) {
      if (query.table === null) continue;
      const list = byTable.get(query.table);
      if (list) list.push(query);
      else byTable.set(query.table, [query]);
    }
    queriesByTable.set(model, byTable);
  }
  return [...(byTable.get(table) ?? [])];
}

/** The parsed schema file a table (or anything with a source) was declared in. */
export function schemaFileOf(model: AnalysedModel, path: string): ParsedSchemaFile | undefined {
  return model.schemaFiles.find((f) => f.path === path);
}

/**
 * The short name users write (`videos`), or the qualified one when the table's keyspace is not the
 * default; quoted as CQL needs it (`"AlertEvents"`), so it can be pasted into a statement.
 */
export function tableLabel(model: AnalysedModel, qualifiedName: string): string {
  // Several rules label the same tables: each label is written once per model.
  let labels = tableLabels.get(model);
  if (!labels) tableLabels.set(model, (labels = new Map()));
  let label = labels.get(qualifiedName);
  if (label === undefined) {
    label = writeTableLabel(model, qualifiedName);
    labels.set(qualifiedName, label);
  }
  return label;
}

const tableLabels = new WeakMap<AnalysedModel, Map<string, string>>();

function writeTableLabel(model: AnalysedModel, qualifiedName: string): string {
  const table = model.schema.tables.get(qualifiedName);
  if (!table) return qualifiedName;
  // A table of no keyspace (no USE, no manifest) has nothing to qualify it with.
  return model.manifest?.keyspace === table.keyspace || table.keyspace === "" ? quoteName(table.name) : `${quoteName(table.keyspace)}.${quoteName(table.name)}`;
}

/** `a`, `a and b`, `a, b and c`. */
export function joinWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Every column name of a table, in declaration order. */
export function columnNames(table: TableModel): string[] {
  return table.columns.map((c) => c.name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The closest known rule id, when one is close enough to be a typo. */
export function closestRuleId(id: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(id.length / 4)) + 1;
  for (const candidate of known) {
    const distance = editDistance(id, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** The columns an abstract query names (select, where, order by), each once, in that order. */
export function abstractQueryColumns(query: AbstractQuery): string[] {
  return [...new Set([...query.select, ...query.where.map((w) => w.column), ...query.orderBy.map((o) => o.column)])];
}

// ---------------------------------------------------------------------------------------------
// Tables, write paths and changes (the table, write and change rules)

/** The entity of a table, for fingerprints: `table:ks.t`. */
export function tableEntity(qualifiedName: string): string {
  return `table:${qualifiedName}`;
}

/** The entity of a column: `column:ks.t.c`. */
export function columnEntity(qualifiedName: string, column: string): string {
  return `column:${qualifiedName}.${column}`;
}

/** The entity of a manifest write path; `ignore:` on the write matches it and everything under it. */
export function writeEntity(writeId: string): string {
  return `write:${writeId}`;
}

/** The table a statement names: `ks.t` as written, else `t` in the given keyspace, else in the manifest's. */
export function resolveTable(model: AnalysedModel, name: QualifiedName, keyspace?: string): TableModel | undefined {
  const space = name.keyspace?.name ?? keyspace ?? model.manifest?.keyspace;
  if (space !== undefined) return model.schema.tables.get(`${space}.${name.name.name}`) ?? model.schema.builtIn?.get(`${space}.${name.name.name}`);
  const matches = [...model.schema.tables.values()].filter((t) => t.name === name.name.name);
  return matches.length === 1 ? matches[0] : undefined;
}

export type ModificationStatement = InsertStatement | UpdateStatement | DeleteStatement;

/** The INSERTs, UPDATEs and DELETEs a statement makes: a batch's statements, or the statement itself. */
export function modifications(statement: Statement): ModificationStatement[] {
  if (statement.kind === "batch") return statement.statements;
  return statement.kind === "insert" || statement.kind === "update" || statement.kind === "delete" ? [statement] : [];
}

/** Whether Cassandra would reject the query only because its table is not in the schema the review read. */
export function readsUnknownTable(query: QueryAnalysis): boolean {
  return query.plan.verdict === "invalid" && query.table === null && query.plan.ruleIds.includes("A10");
}

/** One INSERT, UPDATE or DELETE the application runs: from a write path of the manifest, or seed DML in a schema file. */
export interface WriteStatement {
  /** the manifest write path; absent for seed DML */
  write?: ManifestWrite;
  statement: ModificationStatement;
  /** the batch it is part of, if any */
  batch?: BatchStatement;
  /** the table it writes, when the schema has it */
  table?: TableModel;
  /** the file its ranges are in (the manifest, or the schema file) */
  file: string;
}

const writeStatementsCache = new WeakMap<AnalysedModel, WriteStatement[]>();

/** Every write the manifest's write paths (and the schema files' seed DML) make, batches flattened, in order. */
export function writeStatements(model: AnalysedModel): WriteStatement[] {
  // Several rules ask for every table; resolving the writes once per model keeps that linear.
  const cached = writeStatementsCache.get(model);
  if (cached) return cached;
  const result: WriteStatement[] = [];
  const add = (statement: Statement | undefined, file: string, keyspace: string | undefined, write?: ManifestWrite) => {
    if (!statement) return;
    for (const s of modifications(statement)) {
      const table = resolveTable(model, s.table, keyspace);
      // Built by assignment: rules read these objects many times, and spread-built ones are slow to read.
      const entry: WriteStatement = { statement: s, file };
      if (write) entry.write = write;
      if (statement.kind === "batch") entry.batch = statement;
      if (table) entry.table = table;
      result.push(entry);
    }
  };
  for (const write of model.manifest?.writes ?? []) {
    for (const { statement } of write.statements) add(statement, write.location.file, write.keyspace, write);
  }
  for (const dml of model.schema.dml) add(dml.statement, dml.source.file, dml.keyspace);
  writeStatementsCache.set(model, result);
  return result;
}

const writesByTableCache = new WeakMap<AnalysedModel, Map<TableModel, WriteStatement[]>>();

/** The writes of one table, in the order of writeStatements: rules ask per table, so it is indexed once per model. */
export function writesOnTable(model: AnalysedModel, table: TableModel): readonly WriteStatement[] {
  let byTable = writesByTableCache.get(model);
  if (!byTable) {
    byTable = new Map();
    for (const write of writeStatements(model)) {
      if (!write.table) continue;
      const list = byTable.get(write.table);
      if (list) list.push(write);
      else byTable.set(write.table, [write]);
    }
    writesByTableCache.set(model, byTable);
  }
  return byTable.get(table) ?? [];
}

/** Whether a write is a lightweight transaction (`IF NOT EXISTS`, `IF EXISTS`, `IF <conditions>`). */
export function isLightweightTransaction(statement: ModificationStatement): boolean {
  if (statement.kind === "insert") return statement.ifNotExists;
  return statement.ifExists || statement.conditions.length > 0;
}

interface VolumeIndex {
  /** the first `ks.t` entry for each qualified name, as folded */
  qualified: Map<string, TableVolume>;
  /** the first unqualified entry for each table name, as folded */
  unqualified: Map<string, TableVolume>;
  /** how many tables of the schema have each name */
  tablesNamed: Map<string, number>;
}

// Table rules ask for every table: index the volume figures once per model.
const volumeIndexes = new WeakMap<AnalysedModel, VolumeIndex>();

function volumeIndex(model: AnalysedModel): VolumeIndex {
  let index = volumeIndexes.get(model);
  if (index) return index;
  const fold = (name: string) => (name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name.toLowerCase());
  index = { qualified: new Map(), unqualified: new Map(), tablesNamed: new Map() };
  for (const volume of model.manifest?.tables ?? []) {
    const dot = volume.name.indexOf(".");
    if (dot > 0 && !volume.name.startsWith('"')) {
      const key = `${fold(volume.name.slice(0, dot))}.${fold(volume.name.slice(dot + 1))}`;
      if (!index.qualified.has(key)) index.qualified.set(key, volume);
    } else if (dot < 0 && !index.unqualified.has(fold(volume.name))) {
      index.unqualified.set(fold(volume.name), volume);
    }
  }
  for (const table of model.schema.tables.values()) index.tablesNamed.set(table.name, (index.tablesNamed.get(table.name) ?? 0) + 1);
  volumeIndexes.set(model, index);
  return index;
}

/** The manifest's volume figures for a table (`tables:` entry named `ks.t`, or `t` in the manifest keyspace). */
export function volumeOf(model: AnalysedModel, table: TableModel): TableVolume | undefined {
  const index = volumeIndex(model);
  const qualified = index.qualified.get(table.qualifiedName);
  if (qualified) return qualified;
  const inKeyspace = model.manifest?.keyspace === undefined || model.manifest.keyspace === table.keyspace;
  return inKeyspace || index.tablesNamed.get(table.name) === 1 ? index.unqualified.get(table.name) : undefined;
}

/** The write paths that write a table, with the stated rates summed (undefined when no writing path states a rate). */
export function writePathsOf(model: AnalysedModel, table: TableModel): { writes: ManifestWrite[]; ratePerSecond?: number } {
  const writes = [...new Set(writesOnTable(model, table).filter((w) => w.write).map((w) => w.write!))];
  const rated = writes.filter((w) => w.ratePerSecond !== undefined && Number.isFinite(w.ratePerSecond));
  return rated.length > 0 ? { writes, ratePerSecond: rated.reduce((sum, w) => sum + w.ratePerSecond!, 0) } : { writes };
}

/** The CREATE TABLE of a table (undefined for views and `CREATE TABLE … LIKE`). */
export function createTableStatement(table: TableModel): CreateTableStatement | undefined {
  return table.statement.kind === "create-table" && !table.statement.like ? table.statement : undefined;
}

/** Where a finding about a whole table goes: its name in the CREATE statement. */
export function tableLocation(table: TableModel): { file: string; range: SourceRange } {
  return { file: table.source.file, range: table.source.range };
}

/** Whether two columns have the same type, structurally (a user type's keyspace included). */
export function sameColumnType(a: { type: ColumnType }, b: { type: ColumnType }): boolean {
  return JSON.stringify(a.type) === JSON.stringify(b.type);
}

/** A type as CQL writes it, from the schema model (`frozen<list<text>>`, `map<text, int>`). */
export function typeText(type: ColumnType): string {
  switch (type.kind) {
    case "native":
      return type.name;
    case "list":
    case "set": {
      const inner = `${type.kind}<${typeText(type.element)}>`;
      return type.frozen ? `frozen<${inner}>` : inner;
    }
    case "map": {
      const inner = `map<${typeText(type.key)}, ${typeText(type.value)}>`;
      return type.frozen ? `frozen<${inner}>` : inner;
    }
    case "tuple":
      return `tuple<${type.elements.map(typeText).join(", ")}>`;
    case "udt":
      return type.frozen ? `frozen<${type.name}>` : type.name;
    case "vector":
      return `vector<${typeText(type.element)}, ${type.dimension}>`;
    case "custom":
      return `'${type.className}'`;
    case "unknown":
      return type.name;
  }
}

/** Whether a column holds a non-frozen (multi-cell) list, set or map. */
export function isNonFrozenCollection(type: ColumnType): type is Extract<ColumnType, { kind: "list" | "set" | "map" }> {
  return (type.kind === "list" || type.kind === "set" || type.kind === "map") && !type.frozen;
}

/** The columns a SELECT names: selectors, WHERE, ORDER BY (each once). */
export function selectColumns(select: SelectStatement): string[] {
  const names = new Set<string>();
  const visit = (term: Term | undefined): void => {
    if (!term) return;
    switch (term.kind) {
      case "column":
        names.add(term.name.name);
        return;
      case "function":
        term.args.forEach(visit);
        return;
      case "cast":
      case "type-hint":
        visit(term.value);
        return;
      case "field":
      case "element":
      case "slice":
        visit(term.target);
        return;
      case "binary":
        visit(term.left);
        visit(term.right);
        return;
      case "negate":
        visit(term.operand);
        return;
      default:
        return;
    }
  };
  for (const selector of select.selectors) visit(selector.expression);
  for (const relation of select.where?.relations ?? []) {
    if (relation.kind === "column") names.add(relation.column.name);
    else if (relation.kind === "multi-column" || relation.kind === "token") relation.columns.forEach((c) => names.add(c.name));
  }
  for (const ordering of select.orderBy) names.add(ordering.column.name);
  return [...names];
}

/** The columns a write sets or removes, besides those naming its row. */
export function writtenColumns(statement: ModificationStatement): string[] {
  if (statement.kind === "insert") return statement.columns.map((c) => c.name);
  if (statement.kind === "update") return [...new Set(statement.assignments.map((a) => a.column.name))];
  return [...new Set(statement.selections.map((s) => s.column.name))];
}

const columnNamesCache = new WeakMap<TableModel, ReadonlySet<string>>();
const primaryKeyNamesCache = new WeakMap<TableModel, readonly string[]>();

/** The names of a table's columns; made once per table, as several rules ask for every table. */
export function columnNameSet(table: TableModel): ReadonlySet<string> {
  let names = columnNamesCache.get(table);
  if (!names) {
    names = new Set(table.columns.map((c) => c.name));
    columnNamesCache.set(table, names);
  }
  return names;
}

/** The names of a table's primary key columns, partition key first, then clustering; made once per table. */
export function primaryKeyNames(table: TableModel): readonly string[] {
  let names = primaryKeyNamesCache.get(table);
  if (!names) {
    names = [...table.partitionKey, ...table.clustering].map((c) => c.name);
    primaryKeyNamesCache.set(table, names);
  }
  return names;
}

/** The columns a write binds with `=` in its WHERE clause (UPDATE, DELETE), or its primary key columns (INSERT). */
export function rowKeyColumns(statement: ModificationStatement, table: TableModel | undefined): string[] {
  if (statement.kind === "insert") {
    if (!table) return [];
    const written = statement.columns;
    return primaryKeyNames(table).filter((c) => written.some((w) => w.name === c));
  }
  return statement.where.relations.flatMap((r) => (r.kind === "column" && (r.operator === "=" || r.operator === "IN") && !r.key ? [r.column.name] : []));
}

/**
 * What a write does to one non-frozen collection column:
 * `append`/`prepend` (`l = l + [x]`, `l = [x] + l`, `s += {x}`, `m[k] = v` counts as `append`),
 * `remove` (`c = c - x`, `c -= x`), `set-element` (`l[i] = v`), `remove-element` (`DELETE c[k]`),
 * `replace` (`c = value`, or an INSERT of it) and `reset` (DELETE of the column or of the row).
 */
export type CollectionOperationKind = "append" | "prepend" | "remove" | "set-element" | "remove-element" | "replace" | "reset";

export interface CollectionOperation {
  column: string;
  kind: CollectionOperationKind;
  /** what to point at: the assignment, the deleted element, or the statement */
  range: SourceRange;
}

function refersTo(term: Term, column: string): boolean {
  return term.kind === "column" && term.name.name === column;
}

/** The operations a write makes on the table's non-frozen collections. */
export function collectionOperations(statement: ModificationStatement, table: TableModel): CollectionOperation[] {
  const collections = new Map(table.columns.filter((c) => isNonFrozenCollection(c.type)).map((c) => [c.name, c.type]));
  if (collections.size === 0) return [];
  const operations: CollectionOperation[] = [];
  if (statement.kind === "insert") {
    for (const column of statement.columns) if (collections.has(column.name)) operations.push({ column: column.name, kind: "replace", range: column.range });
    return operations;
  }
  if (statement.kind === "delete") {
    if (statement.selections.length === 0) {
      for (const column of collections.keys()) operations.push({ column, kind: "reset", range: statement.range });
      return operations;
    }
    for (const selection of statement.selections) {
      if (!collections.has(selection.column.name)) continue;
      operations.push({ column: selection.column.name, kind: selection.key ? "remove-element" : "reset", range: selection.range });
    }
    return operations;
  }
  for (const assignment of statement.assignments) {
    const column = assignment.column.name;
    const type = collections.get(column);
    if (!type) continue;
    const add = (kind: CollectionOperationKind) => operations.push({ column, kind, range: assignment.range });
    if (assignment.key) {
      add(type.kind === "list" ? "set-element" : "append");
      continue;
    }
    if (assignment.operator === "+=") add("append");
    else if (assignment.operator === "-=") add("remove");
    else if (assignment.value.kind === "binary" && assignment.value.operator === "+" && refersTo(assignment.value.left, column)) add("append");
    else if (assignment.value.kind === "binary" && assignment.value.operator === "+" && refersTo(assignment.value.right, column)) add("prepend");
    else if (assignment.value.kind === "binary" && assignment.value.operator === "-" && refersTo(assignment.value.left, column)) add("remove");
    else add("replace");
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// Query plans

/** The planner's own failure (it never throws: an unexpected shape becomes this plan), not Cassandra's verdict. */
export function isPlannerFailure(plan: QueryPlan): boolean {
  return plan.verdict === "invalid" && plan.errorGist === PLANNER_FAILURE_GIST;
}

/** The errorGist src/analysis/planner.ts gives a plan it could not make. */
export const PLANNER_FAILURE_GIST = "internal planner error";

/** A BATCH of the manifest's write paths or of seed DML, with its statements resolved. */
export interface WriteBatch {
  batch: BatchStatement;
  write?: ManifestWrite;
  file: string;
  statements: WriteStatement[];
  /** its position among the batches of its write path (or file), for a stable entity */
  index: number;
}

/** Every BATCH the write paths (and seed DML) run. */
export function writeBatches(model: AnalysedModel): WriteBatch[] {
  const batches: WriteBatch[] = [];
  const counts = new Map<string, number>();
  for (const write of writeStatements(model)) {
    if (!write.batch) continue;
    const last = batches[batches.length - 1];
    if (last && last.batch === write.batch) {
      last.statements.push(write);
      continue;
    }
    const owner = write.write ? writeEntity(write.write.id) : `file:${write.file}`;
    const index = (counts.get(owner) ?? 0) + 1;
    counts.set(owner, index);
    batches.push({ batch: write.batch, ...(write.write ? { write: write.write } : {}), file: write.file, statements: [write], index });
  }
  return batches;
}

/** A table as it was and as it is: at the base commit, or before a DROP TABLE that the schema files follow with a new CREATE. */
export interface TableChange {
  before: TableModel;
  after: TableModel;
  how: "base" | "recreated";
  /** for a re-created table: where the old one was dropped */
  dropped?: SourceLocation;
}

/** Every schema statement in the order the builder applies them, with the keyspace unqualified names resolve to. */
export function orderedStatements(model: AnalysedModel): { file: ParsedSchemaFile; index: number; statement: Statement; keyspace: string }[] {
  const ordered = model.appliedSchemaFiles ?? applyOrder(model.schemaFiles);
  const result: { file: ParsedSchemaFile; index: number; statement: Statement; keyspace: string }[] = [];
  for (const file of ordered) {
    let keyspace = model.manifest?.keyspace ?? "";
    file.parse.statements.forEach((statement, index) => {
      if (statement.kind === "use") keyspace = statement.keyspace.name;
      result.push({ file, index, statement, keyspace });
    });
  }
  return result;
}

/**
 * The tables whose definition changed or may have: each head table beside its base-commit
 * definition, and each table the schema files drop and then create again (a migration history),
 * beside the definition it had just before the drop.
 */
const tableChangesCache = new WeakMap<AnalysedModel, { base: AnalysedModel | undefined; changes: TableChange[] }>();

export function tableChanges(model: AnalysedModel, base: AnalysedModel | undefined): TableChange[] {
  // Three change rules ask; re-building the schema before each DROP once per model is enough.
  const cached = tableChangesCache.get(model);
  if (cached && cached.base === base) return cached.changes;
  const changes: TableChange[] = [];
  if (base) {
    for (const after of model.schema.tables.values()) {
      const before = base.schema.tables.get(after.qualifiedName);
      if (before && before.kind === after.kind) changes.push({ before, after, how: "base" });
    }
  }
  const statements = orderedStatements(model);
  statements.forEach(({ statement, keyspace, file, index }, position) => {
    if (statement.kind !== "drop-table") return;
    const name = `${statement.name.keyspace?.name ?? keyspace}.${statement.name.name.name}`;
    const after = model.schema.tables.get(name);
    if (!after) return;
    // Build the schema as it stood just before this DROP: every earlier statement, in order.
    const earlier = new Map<string, ParsedSchemaFile>();
    for (const s of statements.slice(0, position)) {
      const prefix = earlier.get(s.file.path) ?? { ...s.file, parse: { ...s.file.parse, statements: [] } };
      prefix.parse.statements.push(s.statement);
      earlier.set(s.file.path, prefix);
    }
    if (!earlier.has(file.path)) earlier.set(file.path, { ...file, parse: { ...file.parse, statements: file.parse.statements.slice(0, index) } });
    const before = buildSchema([...earlier.values()], { defaultKeyspace: model.manifest?.keyspace, inOrder: true }).schema.tables.get(name);
    if (before) changes.push({ before, after, how: "recreated", dropped: { file: file.path, range: statement.range } });
  });
  tableChangesCache.set(model, { base, changes });
  return changes;
}

/**
 * Advice for a table whose partition is a transaction's scope: a write path runs a conditional
 * batch (BATCH with IF) over several of its rows. Cassandra applies such a batch as one Paxos
 * transaction and only inside one partition, so no change to the partition key keeps it valid; the
 * levers are how many partitions the key's own domain has and how long rows stay.
 */
export function transactionScopeAdvice(model: AnalysedModel, table: TableModel): string | undefined {
  const owners: string[] = [];
  for (const batch of writeBatches(model)) {
    const onTable = batch.statements.filter((s) => s.table === table);
    if (onTable.length < 2 || !batch.statements.some((s) => isLightweightTransaction(s.statement))) continue;
    const owner = batch.write?.id ?? "a batch of the schema files";
    if (!owners.includes(owner)) owners.push(owner);
  }
  if (owners.length === 0) return undefined;
  const key = table.partitionKey.map((c) => `\`${c.name}\``);
  return (
    `${joinWords(owners)} write${owners.length === 1 ? "s" : ""} several rows of ${table.name} in one conditional batch (BATCH … IF), which Cassandra applies as one Paxos transaction and only inside one partition: ` +
    "the partition is that transaction's scope, so splitting it would break the batch. " +
    `Bound what one partition holds instead: more distinct values of ${joinWords(key)} (where the application chooses how many), or a shorter retention.`
  );
}

/** Microseconds since 1970 passed 10^14 in 1973; milliseconds will not until the year 5138. */
const MICROSECOND_THRESHOLD = 1e14;

/**
 * The unit of the write timestamps the application sets itself on a table: the manifest's
 * `write_timestamps`, else the magnitude of a literal `USING TIMESTAMP`; `bound` when the writes
 * bind it and nothing says its unit; undefined when no write sets one.
 */
export function writeTimestampUnit(model: AnalysedModel, table: TableModel): "milliseconds" | "microseconds" | "bound" | undefined {
  const declared = volumeOf(model, table)?.writeTimestamps;
  if (declared) return declared;
  let bound = false;
  for (const write of writesOnTable(model, table)) {
    const timestamp = write.statement.using?.timestamp;
    if (timestamp === undefined) continue;
    if (timestamp.kind === "literal" && /^\d+$/.test(timestamp.value)) return Number(timestamp.value) < MICROSECOND_THRESHOLD ? "milliseconds" : "microseconds";
    bound = true;
  }
  return bound ? "bound" : undefined;
}
