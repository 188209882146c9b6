// Which index serves which restriction (SecondaryIndexManager and the index
// implementations in apache/cassandra; CQL docs https://cassandra.apache.org/doc/latest/cassandra/developing/cql/dml.html).
// Legacy 2i: CassandraIndex.supportsOperator per target; SAI: IndexTermType.supports; SASI: the
// operators of its mode (OnDiskIndexBuilder.Mode). Used only by the planner.
import type { CassandraVersion, ColumnModel, ColumnType, IndexModel, TableModel } from "../schema/model.js";

/** The operation a restriction asks of an index. */
export type IndexOperation =
  | "eq"
  | "slice"
  | "in"
  | "contains"
  | "contains-key"
  | "entry-eq"
  | "like"
  | "ann";

export type LikePatternKind = "prefix" | "suffix" | "contains" | "matches";

const EQ_ONLY_SAI_TYPES = new Set(["text", "varchar", "ascii", "boolean", "uuid"]);
const STRING_TYPES = new Set(["text", "varchar", "ascii"]);

export function isNonFrozenCollection(type: ColumnType): boolean {
  return (type.kind === "list" || type.kind === "set" || type.kind === "map") && !type.frozen;
}

export function isFrozenCollection(type: ColumnType): boolean {
  return (type.kind === "list" || type.kind === "set" || type.kind === "map") && type.frozen;
}

function isStringType(type: ColumnType): boolean {
  return type.kind === "native" && STRING_TYPES.has(type.name);
}

/** The target an index really has: a plain index on a non-frozen collection indexes its values. */
export function effectiveTarget(index: IndexModel, column: ColumnModel): IndexModel["target"] {
  if (index.target !== "simple") return index.target;
  if (isNonFrozenCollection(column.type)) return "values";
  if (isFrozenCollection(column.type)) return "full";
  return "simple";
}

export function sasiMode(index: IndexModel): "PREFIX" | "CONTAINS" | "SPARSE" {
  const mode = (index.options["mode"] ?? "PREFIX").toUpperCase();
  return mode === "CONTAINS" || mode === "SPARSE" ? mode : "PREFIX";
}

function sasiTokenized(index: IndexModel): boolean {
  return (index.options["analyzer_class"] ?? "").includes("StandardAnalyzer");
}

/** Whether `index` can answer `operation` on `column` (prepare-time support, E1). */
export function indexSupports(index: IndexModel, column: ColumnModel, operation: IndexOperation): boolean {
  if (index.column !== column.name) return false;
  const target = effectiveTarget(index, column);
  switch (index.implementation) {
    case "legacy":
      switch (target) {
        case "values":
          return operation === "contains";
        case "keys":
          return operation === "contains-key";
        case "entries":
          return operation === "entry-eq";
        default:
          return operation === "eq";
      }
    case "sai": {
      if (operation === "like" || operation === "in") return false;
      if (column.type.kind === "vector") return operation === "ann";
      if (operation === "ann") return false;
      if (isNonFrozenCollection(column.type)) {
        if (target === "keys") return operation === "contains-key";
        if (target === "values") return operation === "contains";
        return target === "entries" && operation === "entry-eq";
      }
      if (target === "full") return operation === "eq";
      if (operation === "eq") return true;
      if (operation !== "slice") return false;
      // Range searches need a non-literal index: no strings, booleans, uuids or frozen values.
      if (column.type.kind === "native") return !EQ_ONLY_SAI_TYPES.has(column.type.name);
      return false;
    }
    case "sasi": {
      // SASI indexes no collections; LIKE is judged against the pattern at execution.
      if (column.type.kind !== "native") return false;
      const literal = isStringType(column.type);
      const mode = sasiMode(index);
      switch (operation) {
        case "like":
          return literal;
        case "eq":
          return !sasiTokenized(index);
        case "slice":
          return !literal && mode !== "CONTAINS";
        default:
          return false;
      }
    }
    case "custom":
      // An unknown index class: assume it answers equality on its column, as most do.
      return operation === "eq";
  }
}

/** Whether a SASI index in its mode accepts a LIKE pattern of this shape (checked at execution). */
export function sasiAcceptsPattern(index: IndexModel, kind: LikePatternKind): boolean {
  const mode = sasiMode(index);
  if (mode === "SPARSE") return false;
  if (mode === "PREFIX") return kind === "prefix" || kind === "matches";
  if (kind === "prefix" && sasiTokenized(index)) return false;
  return true;
}

/** Legacy and SASI indexes answer one CONTAINS value per lookup; SAI intersects several. */
export function filtersMultipleContains(index: IndexModel): boolean {
  return index.implementation !== "sai";
}

/** The indexes the query may use for this version: SAI exists from 5.0; counter tables have none (N5). */
export function usableIndexes(table: TableModel, version: CassandraVersion): IndexModel[] {
  if (table.columns.some((c) => c.type.kind === "native" && c.type.name === "counter")) return [];
  if (table.kind === "view") return [];
  return table.indexes.filter((index) => index.implementation !== "sai" || version === "5.0");
}

export function describeIndex(index: IndexModel): string {
  switch (index.implementation) {
    case "legacy":
      return "legacy 2i";
    case "sai":
      return "SAI";
    case "sasi":
      return `SASI, ${sasiMode(index)} mode`;
    case "custom":
      return `custom ${index.className ?? "index"}`;
  }
}

/** Groups whose indexes may be intersected without filtering (5.0): all SAI together, every other index alone. */
export function indexGroups(indexes: IndexModel[]): IndexModel[][] {
  const sai = indexes.filter((i) => i.implementation === "sai");
  const groups = indexes.filter((i) => i.implementation !== "sai").map((i) => [i]);
  if (sai.length > 0) groups.push(sai);
  return groups;
}
