// `cql-review init`: a first access-patterns manifest drafted from the schema and the application's
// code, so that editing a draft is the work rather than writing one from nothing. Pure: the schema
// model and the statements read from code in, YAML text out; src/cli.ts finds the files, reads the
// code, writes the file and checks the draft with the review itself.
import type { CodeExtraction, CodeStatement } from "../code/types.js";
import type { QualifiedName, Statement } from "../cql/ast.js";
import { parseCql } from "../cql/index.js";
import { quoteName } from "../cql/print.js";
import { ID_PATTERN } from "../manifest/schema.js";
import type { CassandraVersion, ColumnModel, ColumnType, SchemaModel, TableModel } from "../schema/model.js";
import { findTable } from "../schema/resolve.js";
import { sizeValue } from "../analysis/type-sizes.js";
import { formatBytes, formatCount } from "../analysis/estimator-text.js";
import type { MeasuredFigure, TableMeasurements } from "../stats/types.js";

/** A read the draft proposes: a statement of the code (`code` set), or, when no code was read, a guess for a table. */
export interface DraftQuery {
  id: string;
  description: string;
  cql: string;
  /** the code statement the entry describes, `path#Class.method`: the entry takes its CQL from there */
  code?: string;
}

/** A write the draft proposes: a statement of the code, or, when no code was read, a guess for a table. */
export interface DraftWrite {
  id: string;
  description: string;
  cql: string;
  /** counters are not idempotent: the draft asks whether the client retries them */
  counter: boolean;
  code?: string;
}

export interface DraftOptions {
  cassandra: CassandraVersion;
  /** the modeline's target: a path relative to the manifest, or a URL */
  schemaReference: string;
  /** the schema files the draft was made from, named in its header */
  sourceFiles: readonly string[];
  /** the `schema:` setting: the files applied, in order, relative to the manifest (file-order.ts, settingFor) */
  schemaSetting?: readonly string[];
  /**
   * The statements read from the application's code: each static SELECT becomes a query and each
   * INSERT, UPDATE, DELETE or BATCH a write, pointing at the code with `code:`, in place of the
   * per-table guesses; statements built at run time, and the tables no statement reads or writes,
   * are listed as comments.
   */
  code?: CodeExtraction;
  /**
   * Production's measurements by qualified table name (saved nodetool output, `init --stats`):
   * the volume figures they give replace the placeholders, each marked as measured.
   */
  measured?: ReadonlyMap<string, TableMeasurements>;
}

/** Placeholder figures: plausible, valid, and marked TODO wherever they appear. */
const PLACEHOLDER = {
  partitions: "1_000_000",
  rowsPerPartition: "{ avg: 100, max: 10_000 }",
  rate: "10/s",
  textBytes: 32,
  blobBytes: 256,
  collection: "{ items: 4, bytes: 16 }",
} as const;

const VARIABLE_LENGTH = new Set(["text", "varchar", "ascii", "blob", "varint", "decimal"]);

/** A YAML plain scalar when safe, else a double-quoted one (JSON strings are valid YAML). */
function yamlScalar(text: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(text) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(text) ? text : JSON.stringify(text);
}

/** How a column's average size is written in `columns:`, or undefined for fixed-size types. */
function sizePlaceholder(type: ColumnType): string | undefined {
  switch (type.kind) {
    case "native":
      if (!VARIABLE_LENGTH.has(type.name)) return undefined;
      return String(type.name === "blob" ? PLACEHOLDER.blobBytes : PLACEHOLDER.textBytes);
    case "list":
    case "set":
    case "map":
      return PLACEHOLDER.collection;
    default:
      return undefined;
  }
}

function isCounterTable(table: TableModel): boolean {
  return table.regular.some((column) => column.type.kind === "native" && column.type.name === "counter");
}

/** The name a statement uses: bare in the manifest's keyspace, qualified elsewhere. */
function tableReference(table: TableModel, keyspace: string): string {
  const name = quoteName(table.name);
  return table.keyspace === keyspace ? name : `${quoteName(table.keyspace)}.${name}`;
}

function equalities(columns: readonly ColumnModel[]): string {
  return columns.map((column) => `${quoteName(column.name)} = ?`).join(" AND ");
}

/** One read by the full partition key, in the table's clustering order, bounded when a partition has many rows. */
export function partitionQuery(table: TableModel, keyspace: string): DraftQuery {
  const order = table.clustering.map((column) => `${quoteName(column.name)} ${(column.order ?? "asc").toUpperCase()}`).join(", ");
  const clauses = [
    `SELECT * FROM ${tableReference(table, keyspace)} WHERE ${equalities(table.partitionKey)}`,
    ...(table.clustering.length > 0 ? [`ORDER BY ${order}`, "LIMIT 100"] : []),
  ];
  return {
    id: `${table.name}-by-${table.partitionKey.map((column) => column.name).join("-")}`.toLowerCase().replace(/[^a-z0-9_-]+/g, "-"),
    description: `${table.name}, one partition by its full key (drafted: no code read it; keep it only if the application reads it so)`,
    cql: clauses.join(" "),
  };
}

/** One write that fills every column (counters: an increment), as the application's writes would. */
export function tableWrite(table: TableModel, keyspace: string): DraftWrite {
  const reference = tableReference(table, keyspace);
  const id = `write-${table.name}`.toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
  const description = `every column of ${table.name} (drafted: no code wrote it; keep it only if the application writes it so)`;
  if (isCounterTable(table)) {
    const increments = table.regular.map((column) => `${quoteName(column.name)} = ${quoteName(column.name)} + 1`).join(", ");
    const key = equalities([...table.partitionKey, ...table.clustering]);
    return { id, description, cql: `UPDATE ${reference} SET ${increments} WHERE ${key}`, counter: true };
  }
  const columns = table.columns.map((column) => quoteName(column.name));
  return { id, description, cql: `INSERT INTO ${reference} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, counter: false };
}

/** The keyspace most tables are in (ties: the first in name order). */
export function mainKeyspace(tables: readonly TableModel[]): string | undefined {
  const counts = new Map<string, number>();
  for (const table of tables) counts.set(table.keyspace, (counts.get(table.keyspace) ?? 0) + 1);
  return [...counts].sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))[0]?.[0];
}

/** Ids made unique in order: a later repeat becomes `id-2`, `id-3`, … (skipping any already taken). */
function uniqueIds<T extends { id: string }>(entries: T[]): T[] {
  const taken = new Set<string>();
  return entries.map((entry) => {
    let id = entry.id;
    for (let n = 2; taken.has(id); n++) id = `${entry.id.slice(0, MAX_ID_LENGTH - String(n).length - 1)}-${n}`;
    taken.add(id);
    return id === entry.id ? entry : { ...entry, id };
  });
}

/** The manifest's limit on an id's length. */
const MAX_ID_LENGTH = 64;

/**
 * A manifest id for a code statement: its function, `UserDao.findByEmail` (`UserDao.findByEmail-2`
 * for `~2`); statements outside functions are named by their file, `queries.top-level`.
 */
export function manifestIdOf(statementId: string): string {
  const hash = statementId.indexOf("#");
  const file = statementId.slice(0, hash);
  let name = statementId.slice(hash + 1).replace("(top level)", `${file.slice(file.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "")}.top-level`);
  name = name.replace(/[^A-Za-z0-9_.:-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, MAX_ID_LENGTH);
  return ID_PATTERN.test(name) ? name : "code-statement";
}

/** A YAML scalar for a code reference: plain when it is only path and name characters, else quoted. */
function yamlReference(text: string): string {
  return /^[A-Za-z0-9_][A-Za-z0-9_./#~$-]*$/.test(text) ? text : JSON.stringify(text);
}

/** Text from the code as one line of a YAML comment: no line breaks or control characters. */
function commentText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/\s+/g, " ").trim();
}

interface CodeDrafts {
  queries: DraftQuery[];
  writes: DraftWrite[];
  /** qualified names of the tables the code reads, and writes */
  read: Set<string>;
  written: Set<string>;
  /** comment lines for the statements built at run time */
  notDrafted: string[];
}

function writtenTables(statement: Statement): QualifiedName[] {
  if (statement.kind === "batch") return statement.statements.map((inner) => inner.table);
  if (statement.kind === "insert" || statement.kind === "update" || statement.kind === "delete") return [statement.table];
  return [];
}

/** Names the calling function and its file (the id's), which may differ from where a constant holds the text. */
function codeDescription(statement: CodeStatement): string {
  const hash = statement.id.indexOf("#");
  return `${statement.id.slice(hash + 1)} in ${statement.id.slice(0, hash)} (${statement.api}), drafted from the code`;
}

/** The entries the code gives: one per statement, in the order the code was read. */
function draftsFromCode(code: CodeExtraction | undefined, schema: SchemaModel, keyspace: string): CodeDrafts {
  const drafts: CodeDrafts = { queries: [], writes: [], read: new Set(), written: new Set(), notDrafted: [] };
  if (!code) return drafts;
  const qualified = (name: QualifiedName) => findTable(schema, name, keyspace)?.qualifiedName;
  for (const statement of code.statements) {
    const parsed = parseCql(statement.cql).statements;
    const [only] = parsed;
    if (parsed.length !== 1 || !only) continue;
    const base = { id: manifestIdOf(statement.id), description: codeDescription(statement), cql: statement.cql, code: statement.id };
    if (only.kind === "select") {
      drafts.queries.push(base);
      const table = qualified(only.table);
      if (table) drafts.read.add(table);
      continue;
    }
    const tables = writtenTables(only).map(qualified);
    if (tables.length === 0) continue; // a schema change in code: the .cql files are its place
    for (const table of tables) if (table) drafts.written.add(table);
    const counter = tables.some((table) => table !== undefined && isCounterTable(schema.tables.get(table)!));
    drafts.writes.push({ ...base, counter });
  }
  for (const statement of code.dynamic) {
    drafts.notDrafted.push(
      `# not drafted: built at run time (${commentText(statement.reason)}): ${commentText(statement.file)}:${statement.range.start.line}, ${commentText(statement.api)} \`${commentText(statement.start)}\``,
    );
  }
  return drafts;
}

/** The lines of an entry's statement: `code:` with the CQL shown as a comment, or the CQL itself. */
function statementLines(entry: { cql: string; code?: string }, kind: "query" | "write"): string[] {
  if (entry.code === undefined) return kind === "query" ? [`    cql: ${JSON.stringify(entry.cql)}`] : ["    cql:", `      - ${JSON.stringify(entry.cql)}`];
  // Only the reference: the review reads the CQL from the code, so the entry follows it when it changes.
  return [`    code: ${yamlReference(entry.code)}`, `    # ${commentText(entry.cql)}`];
}

/**
 * A lookup table: nothing but its key, its clustering columns the partition key of another table
 * (`user_by_login (login, id)` beside `user (id PRIMARY KEY)`). It maps a value to the row it
 * names, so a partition holds as many rows as rows share the value: one, when the value is unique
 * (a login, an e-mail address, a token), which is what such tables are made for.
 */
export function lookupTarget(table: TableModel, schema: SchemaModel): TableModel | undefined {
  if (table.kind !== "table" || table.regular.length > 0 || table.clustering.length === 0) return undefined;
  const sameType = (a: ColumnModel, b: ColumnModel) => a.name === b.name && JSON.stringify(a.type) === JSON.stringify(b.type);
  for (const other of schema.tables.values()) {
    if (other === table || other.keyspace !== table.keyspace || other.partitionKey.length !== table.clustering.length) continue;
    if (other.partitionKey.every((column, i) => sameType(column, table.clustering[i]!))) return other;
  }
  return undefined;
}

/** Where a measured figure came from, for the draft's comments: `stats/node1.txt:36, the median of 3 nodes`. */
function measuredSource(figure: MeasuredFigure): string {
  const from = figure.from === "one node" ? "" : `, the ${figure.from === "worst node" ? "worst" : "median"} of ${figure.nodes} nodes`;
  return commentText(`${figure.file}:${figure.line}${from}`);
}

/**
 * The volume figures production's measurements give a table: rows per partition from the cells
 * per partition over the cells a row holds, partitions from the per-node estimate (a lower bound
 * for the cluster), and the variable-length columns' sizes from the mean partition's bytes per
 * row, after the fixed-size columns. Each line says it was measured, and where.
 */
function measuredVolumeLines(table: TableModel, measured: TableMeasurements): { partitions?: string; rows?: string; columns?: string } {
  const { figures } = measured;
  const lines: { partitions?: string; rows?: string; columns?: string } = {};
  if (figures.partitions && figures.partitions.value > 0) {
    lines.partitions = `    partitions: ${Math.round(figures.partitions.value)}   # measured: nodetool's estimate on one node (${measuredSource(figures.partitions)}); the cluster holds at least as many`;
  }
  const cellsPerRow = Math.max(1, table.regular.reduce((total, column) => total + sizeValue(column.type).cells, 0));
  let averageRows = table.clustering.length === 0 ? 1 : undefined;
  if (table.clustering.length > 0 && figures.cellsMax) {
    const typicalCells = figures.cellsP50;
    const max = Math.max(1, Math.round(figures.cellsMax.value / cellsPerRow));
    const avg = typicalCells ? Math.min(max, Math.max(1, Math.round(typicalCells.value / cellsPerRow))) : undefined;
    averageRows = avg ?? max;
    lines.rows =
      `    rows_per_partition: ${avg !== undefined ? `{ avg: ${avg}, max: ${max} }` : max}   # measured: ` +
      `${typicalCells ? `median ${formatCount(typicalCells.value)} cells (${measuredSource(typicalCells)}), ` : ""}` +
      `most ${formatCount(figures.cellsMax.value)} cells (${measuredSource(figures.cellsMax)}) per partition, ÷ ${cellsPerRow} ${cellsPerRow === 1 ? "cell" : "cells"} a row`;
  }
  const mean = figures.partitionBytesMean;
  const variable = table.columns.filter((column) => sizePlaceholder(column.type) !== undefined);
  if (mean && averageRows !== undefined && variable.length > 0) {
    const fixed = table.columns.filter((column) => !variable.includes(column) && !table.partitionKey.includes(column) && !table.static.includes(column));
    const rowBytes = mean.value / averageRows;
    const fixedBytes = fixed.reduce((total, column) => total + sizeValue(column.type).classicBytes, 0);
    const each = Math.max(1, Math.round((rowBytes - fixedBytes) / variable.length));
    const sizes = variable.map((column) => {
      const collection = column.type.kind === "list" || column.type.kind === "set" || column.type.kind === "map";
      return `${yamlScalar(quoteName(column.name))}: ${collection ? `{ items: 4, bytes: ${Math.max(1, Math.round(each / 4))} }` : each}`;
    });
    lines.columns =
      `    columns: { ${sizes.join(", ")} }   # measured: mean partition ${formatBytes(mean.value)} (${measuredSource(mean)}) over ${formatCount(averageRows)} ${averageRows === 1 ? "row" : "rows"}, ` +
      `shared evenly by the variable-length columns: TODO split it as your data does`;
  }
  return lines;
}

function volumeLines(table: TableModel, keyspace: string, schema: SchemaModel, measured?: TableMeasurements): string[] {
  // Manifest names are read as CQL reads them: a name that needs quotes in CQL keeps them here.
  const key = table.keyspace === keyspace ? quoteName(table.name) : `${quoteName(table.keyspace)}.${quoteName(table.name)}`;
  const sizes = table.columns
    .map((column) => [quoteName(column.name), sizePlaceholder(column.type)] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined);
  const fromProduction = measured ? measuredVolumeLines(table, measured) : {};
  return [
    `  ${yamlScalar(key)}:`,
    fromProduction.partitions ?? `    partitions: ${PLACEHOLDER.partitions}   # TODO: distinct partition keys`,
    ...(fromProduction.rows ? [fromProduction.rows] : table.clustering.length > 0 ? [rowsLine(table, schema)] : []),
    ...(fromProduction.columns
      ? [fromProduction.columns]
      : sizes.length > 0
        ? [`    columns: { ${sizes.map(([name, size]) => `${yamlScalar(name)}: ${size}`).join(", ")} }   # TODO: average sizes in bytes`]
        : []),
  ];
}

function rowsLine(table: TableModel, schema: SchemaModel): string {
  const target = lookupTarget(table, schema);
  if (!target) return `    rows_per_partition: ${PLACEHOLDER.rowsPerPartition}   # TODO: rows in a typical and in the largest partition`;
  const key = table.partitionKey.map((column) => column.name).join(", ");
  return `    rows_per_partition: { avg: 1, max: 1 }   # TODO: one ${target.name} row per ${key} (a lookup): more if ${key} is shared`;
}

/** The draft manifest's text; undefined when the schema has no table to draft from. */
export function draftManifest(schema: SchemaModel, options: DraftOptions): string | undefined {
  const tables = [...schema.tables.values()].sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0));
  const keyspace = mainKeyspace(tables);
  if (keyspace === undefined) return undefined;
  const writable = tables.filter((table) => table.kind === "table");
  const fromCode = draftsFromCode(options.code, schema, keyspace);
  // With code read, its statements are the entries: a table none of them reads (writes) is named
  // in a comment, not given a guessed entry that `check` would then report as unused. Without
  // code, one guess per table is the draft.
  const codeRead = options.code !== undefined && options.code.statements.length + options.code.dynamic.length > 0;
  const unread = tables.filter((table) => !fromCode.read.has(table.qualifiedName));
  const unwritten = writable.filter((table) => !fromCode.written.has(table.qualifiedName));
  const queries = uniqueIds([...fromCode.queries, ...(codeRead ? [] : unread.map((table) => partitionQuery(table, keyspace)))]);
  const writes = uniqueIds([...fromCode.writes, ...(codeRead ? [] : unwritten.map((table) => tableWrite(table, keyspace)))]);
  const fromCodeCount = fromCode.queries.length + fromCode.writes.length;
  const guessed = queries.length + writes.length - fromCodeCount;
  const names = (list: readonly TableModel[]) => list.map((table) => tableReference(table, keyspace)).join(", ");
  const untouched = codeRead
    ? [
        ...(unread.length > 0 ? [`# No static statement of the code reads these tables: ${names(unread)}.`] : []),
        ...(unwritten.length > 0 ? [`# No static statement of the code writes these tables: ${names(unwritten)}.`] : []),
        ...(unread.length + unwritten.length > 0 ? ["# Add an entry with its CQL if something outside the code (or a statement built at run time) does."] : []),
      ]
    : [];
  const lines = [
    `# yaml-language-server: $schema=${options.schemaReference}`,
    `# Drafted by \`cql-review init\` from ${options.sourceFiles.join(", ")}.`,
    ...(fromCodeCount > 0
      ? [
          "# Entries with `code:` are statements of the application's code: the review reads their CQL",
          "# there (shown below each as a comment). Give them their real rates.",
        ]
      : []),
    ...(guessed > 0
      ? [
          "# Every TODO is a placeholder: put in your own figures and the application's real queries",
          `# (one read per table by its full partition key was guessed), then run \`cql-review check\`.`,
        ]
      : ["# Every TODO is a placeholder: put in your own figures, then run `cql-review check`."]),
    "version: 1",
    // Tables named without a keyspace that nothing places in one: the manifest names them bare too.
    ...(keyspace === "" ? [] : [`keyspace: ${yamlScalar(keyspace)}`]),
    `cassandra: "${options.cassandra}"`,
    ...(options.schemaSetting && options.schemaSetting.length > 0
      ? ["# The schema files, in the order they are applied (as detected: check it). A file no entry names is not applied.", "schema:", ...options.schemaSetting.map((entry) => `  - ${yamlScalar(entry)}`)]
      : []),
    "",
    "tables:",
    ...writable.flatMap((table) => volumeLines(table, keyspace, schema, options.measured?.get(table.qualifiedName))),
    "",
    queries.length > 0 ? "queries:" : "queries: []",
    ...queries.flatMap((query) => [
      `  - id: ${yamlScalar(query.id)}`,
      `    description: ${JSON.stringify(query.description)}`,
      ...statementLines(query, "query"),
      `    rate: ${PLACEHOLDER.rate}   # TODO: how often it runs`,
    ]),
    ...(writes.length > 0 ? ["", "writes:"] : []),
    ...writes.flatMap((write) => [
      `  - id: ${yamlScalar(write.id)}`,
      `    description: ${JSON.stringify(write.description)}`,
      `    rate: ${PLACEHOLDER.rate}   # TODO: how often it runs`,
      ...(write.counter ? ["    retried: false   # counters are not idempotent: say whether the client retries them"] : []),
      ...statementLines(write, "write"),
    ]),
    ...(fromCode.notDrafted.length > 0
      ? ["", "# Statements the code builds at run time are not reviewed; if one's shape is fixed, add it with its CQL.", ...fromCode.notDrafted]
      : []),
    ...(untouched.length > 0 ? ["", ...untouched] : []),
  ];
  return `${lines.join("\n")}\n`;
}
