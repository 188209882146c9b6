// Loads one access-patterns manifest: YAML with positions → zod validation → the normalised
// Manifest (types.ts). Every problem is a `manifest-invalid` finding at its line and column; an
// invalid entry is dropped on its own so the rest of the manifest is still reviewed. Never throws.
import type { Statement } from "../cql/ast.js";
import type { CassandraVersion } from "../schema/model.js";
import { compareFindings, FILE_START, type Finding, type SourceLocation } from "../findings.js";
import type { SourceFile } from "../source-file.js";
import { parseEmbeddedCql } from "./embedded-cql.js";
import { issuesToFindings, plainIssueMessage } from "./issues.js";
import {
  cassandraVersionSchema,
  manifestSchema,
  querySchema,
  TABLE_NAME_PATTERN,
  tableVolumeSchema,
  writeSchema,
  type ManifestDocument,
  type QueryDocument,
  type TableVolumeDocument,
  type WriteDocument,
} from "./schema.js";
import type {
  AbstractQuery,
  ColumnSize,
  CqlQuery,
  Manifest,
  ManifestIgnore,
  ManifestQuery,
  ManifestWrite,
  TableVolume,
} from "./types.js";
import { parseDurationSeconds, parseRatePerSecond } from "./units.js";
import { formatPath, readYamlWithPositions, type PathSegment, type PositionedYaml } from "./yaml-positions.js";
import { append } from "../arrays.js";

export const MANIFEST_RULE = "manifest-invalid";

export interface LoadedManifest {
  /** absent when nothing usable could be read (the findings say why) */
  manifest?: Manifest;
  findings: Finding[];
}

const WRITE_KINDS = new Set<Statement["kind"]>(["insert", "update", "delete", "batch"]);

export function loadManifest(file: SourceFile): LoadedManifest {
  const yaml = readYamlWithPositions(file, { rule: MANIFEST_RULE, noun: "manifest" });
  const findings: Finding[] = [...yaml.findings];
  const problem = (message: string, location: SourceLocation["range"], entity: string): void => {
    findings.push({
      rule: MANIFEST_RULE,
      severity: "error",
      location: { file: file.path, range: location },
      message,
      fingerprint: `${MANIFEST_RULE}:${file.path}#${entity}`,
    });
  };

  if (yaml.data === undefined) {
    if (yaml.empty) {
      problem("the manifest is empty: it needs at least `version: 1` and the application's queries", FILE_START, "empty");
    }
    return { findings };
  }
  const data = yaml.data;
  if (!isPlainObject(data)) {
    problem(
      `the manifest must be a mapping with keys such as version, keyspace, tables, queries and writes, but this file holds ${describeTop(data)}`,
      yaml.locate([]),
      "not-a-mapping",
    );
    return { findings };
  }

  const entityOf = (path: PathSegment[]): string => entityName(data, path);
  const parsed = manifestSchema.safeParse(data, { error: plainIssueMessage });
  if (!parsed.success) {
    append(findings, issuesToFindings(parsed.error.issues, { yaml, rule: MANIFEST_RULE, schema: manifestSchema, data, entityOf }));
  }

  const { keyspace, cassandra, schema, tables, queries, writes } = parsed.success
    ? entriesOf(parsed.data)
    : validEntriesOf(data);
  const context: NormaliseContext = { yaml, findings, problem };
  const manifest: Manifest = {
    file: file.path,
    version: 1,
    ...(keyspace !== undefined ? { keyspace: cqlName(keyspace) } : {}),
    ...(cassandra !== undefined ? { cassandra } : {}),
    ...(schema !== undefined ? { schema } : {}),
    placeholders: placeholdersIn(file),
    tables: tables.map(({ name, doc }) => normaliseTable(name, doc, context)),
    queries: normaliseQueries(queries, context),
    writes: normaliseWrites(writes, context),
  };
  return { manifest, findings: findings.sort(compareFindings) };
}

/**
 * The figures a person has not filled in yet: a key with a value and a comment that starts with
 * TODO on its line (`partitions: 1_000_000   # TODO: distinct partition keys`), as `init` drafts them.
 */
function placeholdersIn(file: SourceFile): SourceLocation[] {
  const found: SourceLocation[] = [];
  let lineStart = 0;
  file.content.split("\n").forEach((line, index) => {
    const match = /^(\s*(?:-\s+)?)([A-Za-z_][\w-]*)\s*:\s*[^#\s][^#]*#\s*TODO\b/.exec(line);
    if (match) {
      const column = match[1]!.length + 1;
      const start = lineStart + column - 1;
      const length = match[2]!.length;
      found.push({
        file: file.path,
        range: { start: { line: index + 1, column, offset: start }, end: { line: index + 1, column: column + length, offset: start + length } },
      });
    }
    lineStart += line.length + 1;
  });
  return found;
}

interface ValidEntries {
  keyspace: string | undefined;
  cassandra: CassandraVersion | undefined;
  schema: string[] | undefined;
  tables: { name: string; doc: TableVolumeDocument }[];
  queries: { index: number; doc: QueryDocument }[];
  writes: { index: number; doc: WriteDocument }[];
}

/** The entries of a manifest that validated as a whole: the document is made of the entry schemas. */
function entriesOf(document: ManifestDocument): ValidEntries {
  return {
    keyspace: document.keyspace,
    cassandra: document.cassandra,
    schema: document.schema,
    tables: Object.entries(document.tables ?? {}).map(([name, doc]) => ({ name, doc })),
    queries: (document.queries ?? []).map((doc, index) => ({ index, doc })),
    writes: (document.writes ?? []).map((doc, index) => ({ index, doc })),
  };
}

/** Entries that validate on their own are kept even when others do not. */
function validEntriesOf(data: Record<string, unknown>): ValidEntries {
  const tables: ValidEntries["tables"] = [];
  if (isPlainObject(data.tables)) {
    for (const [name, value] of Object.entries(data.tables)) {
      const doc = TABLE_NAME_PATTERN.test(name) ? validOr(tableVolumeSchema, value) : undefined;
      if (doc) tables.push({ name, doc });
    }
  }
  const queries: ValidEntries["queries"] = [];
  if (Array.isArray(data.queries)) {
    data.queries.forEach((value, index) => {
      const doc = validOr(querySchema, value);
      if (doc) queries.push({ index, doc });
    });
  }
  const writes: ValidEntries["writes"] = [];
  if (Array.isArray(data.writes)) {
    data.writes.forEach((value, index) => {
      const doc = validOr(writeSchema, value);
      if (doc) writes.push({ index, doc });
    });
  }
  return {
    keyspace: validOr(manifestSchema.shape.keyspace, data.keyspace),
    cassandra: validOr(cassandraVersionSchema.optional(), data.cassandra),
    schema: validOr(manifestSchema.shape.schema, data.schema),
    tables,
    queries,
    writes,
  };
}

interface NormaliseContext {
  yaml: PositionedYaml;
  findings: Finding[];
  problem(message: string, range: SourceLocation["range"], entity: string): void;
}

function validOr<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, value: unknown): T | undefined {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

/**
 * A name as CQL reads it: unquoted names fold to lower case, `"Quoted"` names keep their case
 * (with `""` unescaped). Manifest names follow CQL so they match the schema model.
 */
export function cqlName(written: string): string {
  const trimmed = written.trim();
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) return trimmed.slice(1, -1).replaceAll('""', '"');
  return trimmed.toLowerCase();
}

/** The location of the key or value at `path`. */
function locationOf(yaml: PositionedYaml, path: PathSegment[], part: "key" | "value" = "value"): SourceLocation {
  return { file: yaml.file, range: yaml.locate(path, part) };
}

function normaliseTable(name: string, doc: TableVolumeDocument, { yaml, problem }: NormaliseContext): TableVolume {
  const path = ["tables", name];
  // Null-prototype records: a column named `constructor` must not find Object's.
  const columns: Record<string, ColumnSize> = Object.create(null);
  const columnLocations: Record<string, SourceLocation> = Object.create(null);
  for (const [written, size] of Object.entries(doc.columns ?? {})) {
    const column = cqlName(written);
    const columnPath = [...path, "columns", written];
    if (column in columns) {
      problem(
        `${formatPath(columnPath)}: the same column as an earlier key (unquoted names are case-insensitive); the first one is used`,
        yaml.locate(columnPath, "key"),
        `${formatPath(columnPath)}:duplicate`,
      );
      continue;
    }
    columns[column] = columnSize(size);
    columnLocations[column] = locationOf(yaml, columnPath, "key");
  }
  const volume: TableVolume = { name, columns, columnLocations, location: locationOf(yaml, path, "key") };
  if (doc.partitions !== undefined) volume.partitions = doc.partitions;
  if (doc.rows_per_partition !== undefined) {
    const rows = doc.rows_per_partition;
    volume.rowsPerPartition = typeof rows === "number" ? { avg: rows, max: rows } : { avg: rows.avg, max: rows.max };
  }
  if (doc.growth !== undefined) {
    volume.growthPerSecond = parseRatePerSecond(doc.growth);
    volume.growthText = doc.growth;
  }
  if (doc.retention !== undefined) {
    volume.retentionSeconds = parseDurationSeconds(doc.retention);
    volume.retentionText = doc.retention;
  }
  if (doc.write_timestamps !== undefined) volume.writeTimestamps = doc.write_timestamps;
  if (doc.time_bucket !== undefined) {
    const bucket: NonNullable<TableVolume["timeBucket"]> = { column: cqlName(doc.time_bucket.column), location: locationOf(yaml, [...path, "time_bucket"], "key") };
    const width = doc.time_bucket.width === undefined ? null : parseDurationSeconds(doc.time_bucket.width);
    if (typeof width === "number" && width > 0) bucket.widthSeconds = width;
    volume.timeBucket = bucket;
  }
  if (doc.distinct_values !== undefined) {
    const distinct: NonNullable<TableVolume["distinctValues"]> = Object.create(null);
    for (const [written, figure] of Object.entries(doc.distinct_values)) {
      const entry: NonNullable<TableVolume["distinctValues"]>[string] =
        typeof figure === "number" ? { count: figure, location: locationOf(yaml, [...path, "distinct_values", written], "key") } : { count: figure.count, maxRows: figure.max_rows, location: locationOf(yaml, [...path, "distinct_values", written], "key") };
      distinct[cqlName(written)] = entry;
    }
    volume.distinctValues = distinct;
  }
  if (doc.copies !== undefined) {
    volume.copies = Object.entries(doc.copies).map(([from, columns]) => ({
      from,
      columns: [...new Set(columns.map(cqlName))],
      location: locationOf(yaml, [...path, "copies", from], "key"),
    }));
  }
  return volume;
}

function columnSize(size: NonNullable<TableVolumeDocument["columns"]>[string]): ColumnSize {
  if (typeof size === "number") return { kind: "bytes", bytes: size };
  if ("avg" in size) return size.max > size.avg ? { kind: "bytes", bytes: size.avg, maxBytes: size.max } : { kind: "bytes", bytes: size.avg };
  const items = typeof size.items === "number" ? { items: size.items } : size.items.max > size.items.avg ? { items: size.items.avg, maxItems: size.items.max } : { items: size.items.avg };
  if ("key_bytes" in size) return { kind: "collection", ...items, bytesPerItem: size.value_bytes, keyBytes: size.key_bytes };
  return { kind: "collection", ...items, bytesPerItem: size.bytes };
}

const NO_IGNORES: readonly { rule: string; reason?: string | undefined }[] = Object.freeze([]);

function ignores(base: PathSegment[], entries: { rule: string; reason?: string | undefined }[] | undefined, yaml: PositionedYaml): ManifestIgnore[] {
  return (entries ?? NO_IGNORES).map((entry, k) => {
    const ignore: Partial<ManifestIgnore> = { rule: entry.rule };
    if (entry.reason !== undefined) ignore.reason = entry.reason;
    ignore.location = { file: yaml.file, range: yaml.locate([...base, "ignore", k]) };
    return ignore as ManifestIgnore;
  });
}

/**
 * The fields both query forms share, in the order they have always had. Objects here are built by
 * assignment, never as `{ ...base, more }`: on Node 20 such objects are an order of magnitude
 * slower to build and to read, and thousands are made.
 */
function queryBase(doc: QueryDocument, path: PathSegment[], yaml: PositionedYaml): QueryBase {
  const base: Partial<QueryBase> = { id: doc.id };
  if (doc.description !== undefined) base.description = doc.description;
  if (doc.rate !== undefined) base.ratePerSecond = parseRatePerSecond(doc.rate);
  base.ignore = ignores(path, doc.ignore, yaml);
  base.location = { file: yaml.file, range: yaml.locate(path) };
  if (doc.code !== undefined) base.code = { ref: doc.code, location: { file: yaml.file, range: yaml.locate([...path, "code"]) } };
  return base as QueryBase;
}

type QueryBase = Omit<CqlQuery, "form" | "cql" | "cqlLocation" | "statement">;

function normaliseQueries(entries: { index: number; doc: QueryDocument }[], context: NormaliseContext): ManifestQuery[] {
  const { yaml, findings, problem } = context;
  const firstIndexById = new Map<string, number>();
  const duplicates = new Map<string, number>();
  const queries: ManifestQuery[] = [];
  for (const { index, doc } of entries) {
    const path: PathSegment[] = ["queries", index];
    const first = firstIndexById.get(doc.id);
    if (first !== undefined) {
      problem(
        `${formatPath([...path, "id"])}: duplicate query id "${doc.id}" (already used by queries[${first}]); this query is left out of the review`,
        yaml.locate([...path, "id"]),
        `query:${doc.id}:duplicate-id${duplicateSuffix(duplicates, doc.id)}`,
      );
      continue;
    }
    firstIndexById.set(doc.id, index);
    const base = queryBase(doc, path, yaml);
    if (doc.cql !== undefined) {
      const cqlPath = [...path, "cql"];
      const parsed = parseEmbeddedCql(yaml, cqlPath, doc.cql);
      pushAll(findings, diagnosticFindings(parsed.result.diagnostics, `${doc.id}.cql`, `query:${doc.id}.cql`, yaml.file));
      const query = base as CqlQuery;
      query.form = "cql";
      query.cql = doc.cql;
      query.cqlLocation = { file: yaml.file, range: parsed.range };
      const statements = parsed.result.statements;
      const hasSyntaxError = hasError(parsed.result.diagnostics);
      if (statements.length > 1) {
        problem(
          `${doc.id}.cql must be exactly one SELECT statement (found ${statements.length} statements)`,
          statements[1]!.range,
          `query:${doc.id}.cql:statements`,
        );
      } else if (statements.length === 1 && statements[0]!.kind !== "select") {
        problem(`${doc.id}.cql must be a SELECT statement (found ${kindName(statements[0]!.kind)})`, statements[0]!.range, `query:${doc.id}.cql:kind`);
      } else if (statements.length === 1 && statements[0]!.kind === "select") {
        query.statement = statements[0];
      } else if (!hasSyntaxError) {
        problem(`${doc.id}.cql holds no statement: write one SELECT`, parsed.range, `query:${doc.id}.cql:empty`);
      }
      queries.push(query);
      continue;
    }
    if (doc.code !== undefined && doc.select === undefined) {
      // Only a reference to the code: the review takes the statement from there (src/code/entries.ts).
      const query = base as CqlQuery;
      query.form = "cql";
      query.cql = "";
      query.cqlLocation = base.code!.location;
      queries.push(query);
      continue;
    }
    queries.push(abstractQuery(doc, path, base, context));
  }
  return queries;
}

function abstractQuery(
  doc: QueryDocument,
  path: PathSegment[],
  base: QueryBase,
  { yaml, problem }: NormaliseContext,
): AbstractQuery {
  const where: AbstractQuery["where"] = [];
  const whereDoc = doc.where ?? {};
  const written = Object.keys(whereDoc);
  // Two keys can only name the same column when there are two keys.
  const seen = written.length > 1 ? new Set<string>() : undefined;
  for (const key of written) {
    const column = cqlName(key);
    const wherePath = [...path, "where", key];
    if (seen?.has(column)) {
      problem(
        `${formatPath(wherePath)}: the same column as an earlier key (unquoted names are case-insensitive); the first one is used`,
        yaml.locate(wherePath, "key"),
        `query:${doc.id}.where.${key}:duplicate`,
      );
      continue;
    }
    seen?.add(column);
    where.push({ column, operator: whereDoc[key]!, location: locationOf(yaml, wherePath, "key") });
  }
  const select = doc.select ?? [];
  const selectColumns: string[] = [];
  const selectLocations: SourceLocation[] = [];
  for (let k = 0; k < select.length; k++) {
    selectColumns.push(cqlName(select[k]!));
    selectLocations.push(locationOf(yaml, [...path, "select", k]));
  }
  const orderBy: AbstractQuery["orderBy"] = [];
  const orderDoc = doc.order_by;
  if (orderDoc) {
    for (const key of Object.keys(orderDoc)) {
      orderBy.push({ column: cqlName(key), direction: orderDoc[key]!, location: locationOf(yaml, [...path, "order_by", key], "key") });
    }
  }
  const query = base as AbstractQuery;
  query.form = "abstract";
  query.select = selectColumns;
  query.selectLocations = selectLocations;
  query.where = where;
  query.orderBy = orderBy;
  if (doc.limit !== undefined) query.limit = doc.limit;
  return query;
}

function normaliseWrites(entries: { index: number; doc: WriteDocument }[], context: NormaliseContext): ManifestWrite[] {
  const { yaml, findings, problem } = context;
  const firstIndexById = new Map<string, number>();
  const duplicates = new Map<string, number>();
  const writes: ManifestWrite[] = [];
  for (const { index, doc } of entries) {
    const path: PathSegment[] = ["writes", index];
    const first = firstIndexById.get(doc.id);
    if (first !== undefined) {
      problem(
        `${formatPath([...path, "id"])}: duplicate write id "${doc.id}" (already used by writes[${first}]); this write is left out of the review`,
        yaml.locate([...path, "id"]),
        `write:${doc.id}:duplicate-id${duplicateSuffix(duplicates, doc.id)}`,
      );
      continue;
    }
    firstIndexById.set(doc.id, index);
    const texts =
      doc.cql === undefined ? [] : typeof doc.cql === "string" ? [{ text: doc.cql, path: [...path, "cql"] }] : doc.cql.map((text, k) => ({ text, path: [...path, "cql", k] }));
    const statements: ManifestWrite["statements"] = [];
    texts.forEach(({ text, path: cqlPath }, k) => {
      const label = typeof doc.cql === "string" ? `${doc.id}.cql` : `${doc.id}.cql[${k}]`;
      const parsed = parseEmbeddedCql(yaml, cqlPath, text);
      pushAll(findings, diagnosticFindings(parsed.result.diagnostics, label, `write:${label}`, yaml.file));
      const hasSyntaxError = hasError(parsed.result.diagnostics);
      if (parsed.result.statements.length === 0) {
        if (!hasSyntaxError) problem(`${label} holds no statement: write an INSERT, UPDATE, DELETE or BATCH`, parsed.range, `write:${label}:empty`);
        statements.push({ cql: text, location: { file: yaml.file, range: parsed.range } });
        return;
      }
      // Several statements in one text (a block of INSERTs) are several steps of the write path.
      parsed.result.statements.forEach((statement, n) => {
        const entry: ManifestWrite["statements"][number] = { cql: statement.text, location: { file: yaml.file, range: statement.range } };
        if (WRITE_KINDS.has(statement.kind)) entry.statement = statement;
        else {
          problem(
            `${label} must hold INSERT, UPDATE, DELETE or BATCH statements (found ${kindName(statement.kind)})`,
            statement.range,
            `write:${label}:kind#${n}`,
          );
        }
        statements.push(entry);
      });
    });
    const write: Partial<ManifestWrite> = { id: doc.id };
    if (doc.description !== undefined) write.description = doc.description;
    if (doc.rate !== undefined) write.ratePerSecond = parseRatePerSecond(doc.rate);
    write.statements = statements;
    write.retried = doc.retried ?? false;
    write.ignore = ignores(path, doc.ignore, yaml);
    write.location = { file: yaml.file, range: yaml.locate(path) };
    if (doc.code !== undefined) write.code = { ref: doc.code, location: { file: yaml.file, range: yaml.locate([...path, "code"]) } };
    writes.push(write as ManifestWrite);
  }
  return writes;
}

/** `""` for the first duplicate of an id, `#2` for the second …: stable when entries move. */
function duplicateSuffix(counts: Map<string, number>, id: string): string {
  const n = (counts.get(id) ?? 0) + 1;
  counts.set(id, n);
  return n === 1 ? "" : `#${n}`;
}

const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

function diagnosticFindings(
  diagnostics: { code: string; severity: "error" | "info"; message: string; range: SourceLocation["range"] }[],
  label: string,
  entity: string,
  file: string,
): readonly Finding[] {
  // Nearly every statement parses cleanly: no map, no list for it.
  if (diagnostics.length === 0) return NO_FINDINGS;
  const counts = new Map<string, number>();
  return diagnostics.map((diagnostic) => {
    const key = `${diagnostic.code}:${file}#${entity}:${diagnostic.message}`;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return {
      rule: diagnostic.code,
      severity: diagnostic.severity,
      location: { file, range: diagnostic.range },
      message: `${label}: ${diagnostic.message}`,
      fingerprint: n === 1 ? key : `${key}#${n}`,
    };
  });
}

/** Whether any diagnostic is an error; nearly every statement has none at all. */
function hasError(diagnostics: readonly { severity: "error" | "info" }[]): boolean {
  for (const diagnostic of diagnostics) if (diagnostic.severity === "error") return true;
  return false;
}

function pushAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

/** `create-table` → `CREATE TABLE`, with an article for the message. */
function kindName(kind: Statement["kind"]): string {
  const words = kind.replace(/-/g, " ").toUpperCase();
  return /^[AEIOU]/.test(words) ? `an ${words}` : `a ${words}`;
}

/** Fingerprints name queries and writes by id, so inserting an entry above does not change them. */
function entityName(data: Record<string, unknown>, path: PathSegment[]): string {
  const [section, index, ...rest] = path;
  if ((section === "queries" || section === "writes") && typeof index === "number") {
    const list = data[section];
    const entry = Array.isArray(list) ? list[index] : undefined;
    const id = isPlainObject(entry) ? entry.id : undefined;
    if (typeof id === "string" || typeof id === "number") {
      return `${section === "queries" ? "query" : "write"}:${id}${rest.length > 0 ? `.${formatPath(rest)}` : ""}`;
    }
  }
  return formatPath(path);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function describeTop(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "a single line of text";
  if (value === null) return "an empty value";
  return `a single value (${typeof value})`;
}
