// The schema model: what the schema files declare once every statement has been applied in
// path order, then file order (see docs/manifest.md). Built by src/schema/builder.ts.
// Names are Cassandra's: unquoted names folded to lower case, quoted names kept as written.
import type { CqlType, NativeTypeName, Statement } from "../cql/ast.js";
import type { SourceLocation } from "../findings.js";

export type CassandraVersion = "3.11" | "4.0" | "4.1" | "5.0";
export const CASSANDRA_VERSIONS: readonly CassandraVersion[] = ["3.11", "4.0", "4.1", "5.0"];
export const DEFAULT_CASSANDRA_VERSION: CassandraVersion = "5.0";

/** A column type with user types resolved and frozenness made explicit on every level. */
export type ColumnType =
  | { kind: "native"; name: NativeTypeName }
  | { kind: "list" | "set"; frozen: boolean; element: ColumnType }
  | { kind: "map"; frozen: boolean; key: ColumnType; value: ColumnType }
  | { kind: "tuple"; elements: ColumnType[] }
  | { kind: "udt"; keyspace: string; name: string; frozen: boolean; fields: { name: string; type: ColumnType }[] }
  | { kind: "vector"; element: ColumnType; dimension: number }
  | { kind: "custom"; className: string }
  /** a user type that is not declared (reported as schema-invalid) */
  | { kind: "unknown"; name: string };

export type ColumnKind = "partition" | "clustering" | "static" | "regular";

export interface ColumnModel {
  name: string;
  type: ColumnType;
  /** the type as written, for messages and fixes */
  declaredType: CqlType;
  kind: ColumnKind;
  /** position inside the partition key or the clustering columns, 0-based; -1 otherwise */
  position: number;
  /** for clustering columns */
  order?: "asc" | "desc";
  masked: boolean;
  source: SourceLocation;
}

export type IndexImplementation = "legacy" | "sai" | "sasi" | "custom";

export interface IndexModel {
  keyspace: string;
  /** the given name, or Cassandra's default `<table>_<column>_idx` */
  name: string;
  table: string;
  column: string;
  target: "simple" | "values" | "keys" | "entries" | "full";
  implementation: IndexImplementation;
  /** the class named in USING, if any */
  className?: string;
  /** WITH OPTIONS, flattened to strings (e.g. SASI `mode`) */
  options: Record<string, string>;
  source: SourceLocation;
}

/** A table option value, flattened: maps become nested records, everything else a string. */
export type OptionValue = string | number | boolean | { [key: string]: OptionValue };

export interface TableModel {
  keyspace: string;
  name: string;
  /** `keyspace.name` */
  qualifiedName: string;
  kind: "table" | "view";
  /** in declaration order */
  columns: ColumnModel[];
  partitionKey: ColumnModel[];
  clustering: ColumnModel[];
  static: ColumnModel[];
  regular: ColumnModel[];
  options: Record<string, OptionValue>;
  /** `default_time_to_live` in seconds; 0 = none */
  defaultTtlSeconds: number;
  /** the compaction class's simple name, e.g. `TimeWindowCompactionStrategy` */
  compaction?: { className: string; options: Record<string, OptionValue> };
  compactStorage: boolean;
  indexes: IndexModel[];
  /** for a view: the base table's qualified name */
  baseTable?: string;
  /** for a table: the qualified names of its views */
  views: string[];
  /** the CREATE statement that declared it (its latest ALTERs are applied to the model) */
  source: SourceLocation;
  statement: Statement;
}

export interface UserTypeModel {
  keyspace: string;
  name: string;
  fields: { name: string; type: CqlType }[];
  source: SourceLocation;
}

export interface KeyspaceModel {
  name: string;
  /** replication class simple name, e.g. `NetworkTopologyStrategy` */
  replicationClass: string;
  /** `replication_factor` for SimpleStrategy; per data center for NetworkTopologyStrategy */
  replicationFactors: Record<string, number>;
  durableWrites: boolean;
  source: SourceLocation;
}

export interface FunctionModel {
  keyspace: string;
  name: string;
  kind: "function" | "aggregate";
  argumentTypes: CqlType[];
  returns?: CqlType;
  source: SourceLocation;
}

/** A DML statement found in a schema file (seed data), kept for the write rules. */
export interface SchemaDml {
  statement: Statement;
  keyspace?: string;
  source: SourceLocation;
}

export interface SchemaModel {
  keyspaces: Map<string, KeyspaceModel>;
  /** by qualified name `ks.table`; views included */
  tables: Map<string, TableModel>;
  /** by qualified name `ks.type` */
  types: Map<string, UserTypeModel>;
  functions: FunctionModel[];
  /** columns dropped by ALTER TABLE … DROP, by qualified table name, with their last type */
  droppedColumns: Map<string, { name: string; type: ColumnType; source: SourceLocation }[]>;
  dml: SchemaDml[];
  /** Cassandra's own tables (system-tables.ts), found by name when no schema file defines one; never the application's */
  builtIn?: { get(qualifiedName: string): TableModel | undefined; has(qualifiedName: string): boolean };
}

export function emptySchema(): SchemaModel {
  return {
    keyspaces: new Map(),
    tables: new Map(),
    types: new Map(),
    functions: [],
    droppedColumns: new Map(),
    dml: [],
  };
}
