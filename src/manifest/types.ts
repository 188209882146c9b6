// The access-patterns manifest after validation and normalisation (docs/manifest.md).
// src/manifest/schema.ts holds the zod schema of the YAML as written; src/manifest/load.ts turns a
// valid document into this shape (rates per second, durations in seconds, positions kept).
import type { SelectStatement, Statement } from "../cql/ast.js";
import type { SourceLocation } from "../findings.js";
import type { CassandraVersion } from "../schema/model.js";

export type WhereOperator = "=" | "IN" | "<" | "<=" | ">" | ">=" | "CONTAINS" | "CONTAINS KEY";

/** Average size of a variable-length column: bytes, or a collection's item count and item bytes. */
/** A column's average size; `maxBytes` / `maxItems`, when stated, the largest value one row holds. */
export type ColumnSize =
  | { kind: "bytes"; bytes: number; maxBytes?: number }
  | { kind: "collection"; items: number; bytesPerItem: number; keyBytes?: number; maxItems?: number };

export interface TableVolume {
  /** the table as written in the manifest (`videos_by_user` or `ks.videos_by_user`) */
  name: string;
  /**
   * the `keyspace:` of the manifest that declares this entry, set when several manifests are read
   * as one and this one's differs from the first's (review.ts); unset, the manifest's applies
   */
  keyspace?: string;
  partitions?: number;
  rowsPerPartition?: { avg: number; max: number };
  /** rows added per partition, per second (from `5/day`) */
  growthPerSecond?: number;
  /** the growth figure as written, for messages */
  growthText?: string;
  /** seconds rows live; null = "forever"; undefined = not stated */
  retentionSeconds?: number | null;
  retentionText?: string;
  columns: Record<string, ColumnSize>;
  /** where each column's size is written (the key), by column name */
  columnLocations?: Record<string, SourceLocation>;
  location: SourceLocation;
  /** the unit of the write timestamps the application sets itself, when stated */
  writeTimestamps?: "milliseconds" | "microseconds";
  /** the declared time bucket of the partition key: the column, and its width in seconds when stated */
  timeBucket?: { column: string; widthSeconds?: number; location: SourceLocation };
  /** distinct values of a column across the table, and the rows of its most common value when stated (index reads) */
  distinctValues?: Record<string, { count: number; maxRows?: number; location: SourceLocation; /** where a figure the manifest does not state comes from (an enum of the code), for messages */ source?: string }>;
  /**
   * declared copies: the columns this table holds copies of, by the table (as written) they are
   * copied from; the column has the same name in both
   */
  copies?: { from: string; columns: string[]; location: SourceLocation }[];
}

export interface ManifestIgnore {
  rule: string;
  reason?: string;
  location: SourceLocation;
}

/** `code: path#function` of a manifest entry: the application's statement it describes (src/code). */
export interface CodeReference {
  ref: string;
  location: SourceLocation;
}

interface QueryBase {
  id: string;
  /** the statement of the application's code this entry describes; its CQL comes from there when the entry has none */
  code?: CodeReference;
  description?: string;
  /** executions per second, from `rate: 300/s` */
  ratePerSecond?: number;
  ignore: ManifestIgnore[];
  location: SourceLocation;
  /**
   * the `keyspace:` of the manifest that declares this entry, set when several manifests are read
   * as one and this one's differs from the first's (review.ts); unset, the manifest's applies
   */
  keyspace?: string;
}

export interface CqlQuery extends QueryBase {
  form: "cql";
  cql: string;
  /** the parsed statement; undefined when it did not parse (a finding says why). Its node ranges are positions in the manifest file, already mapped from the CQL text. */
  statement?: SelectStatement;
  /** where the CQL text starts in the manifest, for mapping parser positions */
  cqlLocation: SourceLocation;
}

export interface AbstractQuery extends QueryBase {
  form: "abstract";
  select: string[];
  /** where each `select` entry is written, in the same order */
  selectLocations?: SourceLocation[];
  where: { column: string; operator: WhereOperator; location: SourceLocation }[];
  orderBy: { column: string; direction: "asc" | "desc"; location?: SourceLocation }[];
  limit?: number;
}

export type ManifestQuery = CqlQuery | AbstractQuery;

export interface ManifestWrite {
  id: string;
  /** the statement of the application's code this entry describes; its CQL comes from there when the entry has none */
  code?: CodeReference;
  description?: string;
  ratePerSecond?: number;
  /** each CQL statement of the write path, parsed (undefined when it did not parse); node ranges are positions in the manifest file */
  statements: { cql: string; statement?: Statement; location: SourceLocation; binds?: BindSite[] }[];
  /** retried by the client on timeout (for non-idempotent write checks); default false, as the DataStax drivers do not retry non-idempotent statements */
  retried: boolean;
  ignore: ManifestIgnore[];
  location: SourceLocation;
  /**
   * set on an entry read from code whose statement runs only inside a batch that is an entry of its
   * own: rules that judge a statement's atomicity or timestamps judge that batch instead
   */
  insideBatch?: true;
  /**
   * the `keyspace:` of the manifest that declares this entry, set when several manifests are read
   * as one and this one's differs from the first's (review.ts); unset, the manifest's applies
   */
  keyspace?: string;
}

/**
 * What application code binds to one marker of a statement (src/code/bind-arguments.ts): a fixed
 * value, a value computed from the current time, or anything else. `source` is the expression as written.
 */
export type BoundArgument = { kind: "constant"; value: string; source: string } | { kind: "time"; source: string } | { kind: "unknown" };

/** One place the code binds a statement's markers: a driver call with its values, or a prepared statement's `bind`. */
export interface BindSite {
  /** the function that binds, `Class.method` or `function` */
  function: string;
  file: string;
  line: number;
  /** by marker position, every marker counted (a named marker too, as Cassandra's bind variables are) */
  positional: BoundArgument[];
  /** by marker name, where the code binds by name (`%(name)s` with a dict, `.setLong("day", …)`) */
  named?: Record<string, BoundArgument>;
  /** `positional` need not hold every marker (setters by index, values by name): a marker past it is unknown, and its length says nothing */
  partial?: true;
}

export interface Manifest {
  file: string;
  version: 1;
  keyspace?: string;
  cassandra?: CassandraVersion;
  /** `schema:` as written: the model's schema files, in the order applied (paths or globs relative to the manifest) */
  schema?: string[];
  /** figures still marked `# TODO` (a drafted placeholder), by the key that holds each */
  placeholders?: SourceLocation[];
  tables: TableVolume[];
  queries: ManifestQuery[];
  writes: ManifestWrite[];
}

/** The keyspace an entry's unqualified table names resolve to: its own manifest's, else the merged manifest's. */
export function entryKeyspace(entry: { keyspace?: string }, manifest: Pick<Manifest, "keyspace"> | undefined): string | undefined {
  return entry.keyspace ?? manifest?.keyspace;
}
