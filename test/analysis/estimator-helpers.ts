// Small builders for the estimator's tests: TableModel objects from a compact description, manifest
// volumes and query analyses. The type strings use CQL's syntax (`frozen<set<text>>`, `map<text, int>`).
import type { NativeTypeName, SelectStatement } from "../../src/cql/ast.js";
import { NATIVE_TYPES } from "../../src/cql/ast.js";
import { FILE_START } from "../../src/findings.js";
import type { ColumnSize, TableVolume } from "../../src/manifest/types.js";
import type { QueryAnalysis } from "../../src/analysis/types.js";
import type { ColumnKind, ColumnModel, ColumnType, TableModel } from "../../src/schema/model.js";

const LOCATION = { file: "schema.cql", range: FILE_START };

/** User types the type strings may name, by name. */
export type UserTypes = Record<string, { name: string; type: string }[]>;

/** Parses a CQL type string into a ColumnType (collections non-frozen unless wrapped in frozen<>). */
export function columnType(text: string, userTypes: UserTypes = {}, frozen = false): ColumnType {
  const source = text.replace(/\s+/g, "");
  const generic = /^(\w+)<(.*)>$/.exec(source);
  if (!generic) {
    if ((NATIVE_TYPES as readonly string[]).includes(source)) return { kind: "native", name: source as NativeTypeName };
    const fields = userTypes[source];
    if (!fields) return { kind: "unknown", name: source };
    return {
      kind: "udt",
      keyspace: "ks",
      name: source,
      frozen,
      fields: fields.map((f) => ({ name: f.name, type: columnType(f.type, userTypes, true) })),
    };
  }
  const [, outer, inner] = generic as unknown as [string, string, string];
  const args = splitTopLevel(inner);
  switch (outer) {
    case "frozen":
      return columnType(args[0]!, userTypes, true);
    case "list":
    case "set":
      return { kind: outer, frozen, element: columnType(args[0]!, userTypes, true) };
    case "map":
      return { kind: "map", frozen, key: columnType(args[0]!, userTypes, true), value: columnType(args[1]!, userTypes, true) };
    case "tuple":
      return { kind: "tuple", elements: args.map((a) => columnType(a, userTypes, true)) };
    case "vector":
      return { kind: "vector", element: columnType(args[0]!, userTypes, true), dimension: Number(args[1]) };
    default:
      return { kind: "unknown", name: source };
  }
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "<") depth++;
    else if (text[i] === ">") depth--;
    else if (text[i] === "," && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

export interface TableSpec {
  keyspace?: string;
  name: string;
  /** column name → CQL type, in declaration order */
  columns: Record<string, string>;
  partitionKey: string[];
  clustering?: string[];
  static?: string[];
  ttl?: number;
  userTypes?: UserTypes;
}

/** A TableModel as the schema builder would produce it. */
export function table(spec: TableSpec): TableModel {
  const keyspace = spec.keyspace ?? "ks";
  const clustering = spec.clustering ?? [];
  const statics = spec.static ?? [];
  const kindOf = (name: string): ColumnKind =>
    spec.partitionKey.includes(name) ? "partition" : clustering.includes(name) ? "clustering" : statics.includes(name) ? "static" : "regular";
  const columns: ColumnModel[] = Object.entries(spec.columns).map(([name, type]) => {
    const kind = kindOf(name);
    const position = kind === "partition" ? spec.partitionKey.indexOf(name) : kind === "clustering" ? clustering.indexOf(name) : -1;
    const column: ColumnModel = {
      name,
      type: columnType(type, spec.userTypes),
      declaredType: { kind: "native", name: "blob", range: FILE_START },
      kind,
      position,
      masked: false,
      source: LOCATION,
    };
    if (kind === "clustering") column.order = "asc";
    return column;
  });
  const byKind = (kind: ColumnKind) => columns.filter((c) => c.kind === kind).sort((a, b) => a.position - b.position);
  return {
    keyspace,
    name: spec.name,
    qualifiedName: `${keyspace}.${spec.name}`,
    kind: "table",
    columns,
    partitionKey: byKind("partition"),
    clustering: byKind("clustering"),
    static: byKind("static"),
    regular: byKind("regular"),
    options: {},
    defaultTtlSeconds: spec.ttl ?? 0,
    compactStorage: false,
    indexes: [],
    views: [],
    source: LOCATION,
    statement: { kind: "use", keyspace: { name: keyspace, text: keyspace, quoted: false, range: FILE_START }, text: "", range: FILE_START },
  };
}

export interface VolumeSpec {
  name?: string;
  rows?: number | { avg: number; max: number };
  growthPerSecond?: number;
  growthText?: string;
  retentionSeconds?: number | null;
  columns?: Record<string, number | ColumnSize>;
}

export function volume(spec: VolumeSpec): TableVolume {
  const columns: Record<string, ColumnSize> = {};
  for (const [name, size] of Object.entries(spec.columns ?? {})) {
    columns[name] = typeof size === "number" ? { kind: "bytes", bytes: size } : size;
  }
  const result: TableVolume = { name: spec.name ?? "t", columns, location: LOCATION };
  if (spec.rows !== undefined) result.rowsPerPartition = typeof spec.rows === "number" ? { avg: spec.rows, max: spec.rows } : spec.rows;
  if (spec.growthPerSecond !== undefined) result.growthPerSecond = spec.growthPerSecond;
  if (spec.growthText !== undefined) result.growthText = spec.growthText;
  if (spec.retentionSeconds !== undefined) result.retentionSeconds = spec.retentionSeconds;
  return result;
}

export interface QuerySpec {
  id: string;
  table: string;
  limit?: number;
  rate?: number;
  /** a clustering column the query restricts to a range */
  rangeOn?: string;
}

/** A QueryAnalysis with only what the estimator reads: table, rate, LIMIT and the WHERE ranges. */
export function query(spec: QuerySpec): QueryAnalysis {
  const relations = spec.rangeOn
    ? [{ kind: "column", column: { name: spec.rangeOn, text: spec.rangeOn, quoted: false, range: FILE_START }, operator: ">=", range: FILE_START }]
    : [];
  const select = { kind: "select", where: { relations, or: [], range: FILE_START } } as unknown as SelectStatement;
  const analysis: QueryAnalysis = {
    id: spec.id,
    location: LOCATION,
    select,
    form: "cql",
    table: spec.table,
    candidates: [],
    plan: {
      verdict: "single-partition",
      partitions: 1,
      reason: "",
      ruleIds: [],
      direction: null,
      rowsRead: spec.limit ?? null,
      allowFilteringWritten: false,
      notes: [],
      steps: [],
    },
  };
  if (spec.limit !== undefined) analysis.limit = spec.limit;
  if (spec.rate !== undefined) analysis.ratePerSecond = spec.rate;
  return analysis;
}
