// The analysis results the rules and renderers consume: query plans and partition estimates.
// The vocabulary is the contract of the JSON report (docs/cli.md).
import type { SelectStatement } from "../cql/ast.js";
import type { SourceLocation } from "../findings.js";

export type Verdict =
  | "single-partition"
  | "multi-partition"
  | "index"
  | "needs-allow-filtering"
  | "scan"
  | "invalid"
  | "unserved";

/** One line of the step-by-step explanation (`cql-review explain`). */
export interface PlanStep {
  /** what the step is about: `table`, `partition key`, `clustering`, `filter`, `index`, `order`, `limit`, … */
  topic: string;
  text: string;
}

export interface QueryPlan {
  verdict: Verdict;
  /** partitions read: 1, the product of distinct IN lists, "all", or null when not knowable */
  partitions: number | "all" | null;
  /** the rule that decided the verdict in a sentence, naming the planner's rule id */
  reason: string;
  /** the planner's rule ids that applied, e.g. ["B1", "C1"] */
  ruleIds: string[];
  /** for `invalid` and `needs-allow-filtering`: the gist of Cassandra's message */
  errorGist?: string;
  /** read direction against the clustering order, when ORDER BY is given */
  direction: "forward" | "reverse" | null;
  /** rows read when bounded (LIMIT, single-row primary key); null when not bounded */
  rowsRead: number | null;
  /** the index used, when the verdict is `index` */
  index?: string;
  /** ALLOW FILTERING written in the query */
  allowFilteringWritten: boolean;
  /** runtime caveats (O3 paging with IN + ORDER BY, guardrails, …) */
  notes: string[];
  /** rows read per call and per second, set after estimation when the manifest's figures allow */
  rowsEstimate?: RowsReadEstimate;
  /** tombstones one call walks per partition read, set after estimation when the write paths and figures allow */
  tombstonesEstimate?: TombstonesEstimate;
  steps: PlanStep[];
}

/** Rows a query reads, from the plan and the manifest's figures (estimator-rows.ts). */
export interface RowsReadEstimate {
  /** rows read per call, on average partitions */
  perCall: number;
  /** rows read per call when one of the partitions read is the worst the manifest states (the others average) */
  worstPerCall: number;
  /** perCall × the query's rate, when the manifest states one */
  perSecond?: number;
  /**
   * rows one call returns at most, when fewer than it scans and known (a literal LIMIT on a
   * filtering or aggregating read; 1 for an aggregate without GROUP BY)
   */
  returned?: number;
  /** what makes the read as large as it is */
  because: "aggregate" | "filtering" | "unbounded" | "limit";
  /** the query reads a slice of each partition (a clustering restriction): the figures are an upper bound */
  slice: boolean;
  /** where the figure comes from, in words */
  basis: string;
  /** for a read through a secondary index: the index entries it scans for the value (estimator-index.ts) */
  index?: IndexScanEstimate;
}

/** The entries a read through a legacy or SAI index scans for one indexed value. */
export interface IndexScanEstimate {
  index: string;
  implementation: "legacy" | "sai";
  /** the indexed column whose value the read gives (the most selective one, when SAI intersects several) */
  column: string;
  /** entries (and base rows) read for an average value: across the cluster when `fanOut`, else within the bound partition */
  entries: number;
  /** the same for the most common value the manifest states */
  worstEntries: number;
  /** no partition key: every token range is asked, every node reads its share */
  fanOut: boolean;
  /** restricted columns the index does not answer, filtered row by row after the lookup */
  postFiltered: string[];
  /** where the figure comes from, in words */
  basis: string;
}

/** One kind of tombstone a write path leaves where a read walks (estimator-tombstones.ts). */
export interface TombstoneSource {
  /** the manifest write path that writes them */
  write: string;
  kind: "row-delete" | "range-delete" | "cell-delete" | "null" | "ttl-expiry";
  /** tombstones a read of an average partition meets from this source */
  perRead: number;
  /** tombstones a read of the worst partition meets from this source */
  worstPerRead: number;
}

/** Tombstones a read walks per partition, younger than gc_grace_seconds (the ones Cassandra counts). */
export interface TombstonesEstimate {
  /** on an average partition */
  perRead: number;
  /** on the worst partition the manifest states */
  worstPerRead: number;
  gcGraceSeconds: number;
  /**
   * `partition`: the read walks the whole partition; `queue`: it reads from the start, past the
   * deleted rows; `rows`: it reads a known number of rows and walks the nulls written with them
   */
  region: "partition" | "queue" | "rows";
  sources: TombstoneSource[];
}

/** A table that can serve an abstract query, with the plan it would get. */
export interface Candidate {
  table: string;
  plan: QueryPlan;
  /** why it ranks where it does */
  because: string;
}

/** A query of the manifest, analysed. */
export interface QueryAnalysis {
  id: string;
  description?: string;
  location: SourceLocation;
  /** `cql` queries: as written; abstract queries: synthesized against the chosen table */
  select?: SelectStatement;
  form: "cql" | "abstract";
  /** qualified name of the table that serves it, or null */
  table: string | null;
  candidates: Candidate[];
  plan: QueryPlan;
  /** `unserved`: a CREATE TABLE that would serve the query */
  suggestedTable?: string;
  /**
   * The table `suggestedTable` creates, set only when the analysis knows the text parses as exactly
   * that one CREATE TABLE, so that rules need not parse it again. Not enumerable: it repeats what
   * the text says, and JSON output and deep equality leave it out.
   */
  suggestedTableName?: { keyspace?: string; name: string };
  /**
   * `unserved`: how the manifest's figures for the table the suggestion copies size it, in words
   * (the worst partition against the limits, and the bucket added to its key and why), when they do
   */
  suggestedTableSizing?: string;
  /** the rate stated in the manifest, per second */
  ratePerSecond?: number;
  limit?: number;
}

export type EstimateBasis = "manifest" | "growth-retention" | "growth-ttl" | "type-default" | "single-row" | "measured";

export interface PartitionFigures {
  rows: number;
  /** classic Nv (a non-frozen collection is one value) */
  values: number;
  /** every element of a non-frozen collection counted as its own cell */
  cells: number;
  /** classic bytes St */
  bytes: number;
  /** engine-aware bytes (the 3.0+ storage format) for the selected version, or null */
  engineBytes: number | null;
}

export interface BucketSuggestion {
  /**
   * what the advice does: change or add a time `bucket`, `promote` clustering columns into the
   * partition key, add a hash `shard`, or `none` (no split helps: bound the rows instead)
   */
  kind?: "bucket" | "promote" | "shard" | "none";
  /** e.g. `4 days`, `1 hour`; absent when a hash shard is suggested instead */
  width?: string;
  widthSeconds?: number;
  /** shard count when no time width fits both bounds */
  shards?: number;
  /** the bounds used, in seconds */
  minSeconds: number;
  maxSeconds: number;
  explanation: string;
}

/** One column's cell, sized from the manifest (cells.ts). */
export interface CellSize {
  column: string;
  /** `frozen`: a frozen collection, UDT or tuple, one cell rewritten whole; `value`: a plain value; `collection`: a non-frozen collection (a cell per element; bytes are the whole collection) */
  kind: "frozen" | "value" | "collection";
  bytes: number;
  /** for collections sized by `items`: the items and bytes per item (key and value) */
  items?: number;
  itemBytes?: number;
  /** the largest value one row holds, when the manifest states it (`{ avg, max }`): its bytes, and its items for a collection */
  worstBytes?: number;
  worstItems?: number;
}

export interface PartitionEstimate {
  table: string;
  basis: EstimateBasis;
  /** a sentence on where the rows per partition came from */
  basisText: string;
  average: PartitionFigures;
  worst: PartitionFigures;
  unbounded: boolean;
  /** for unbounded partitions: when each limit is crossed, e.g. { values: "after 11 months" } */
  crossesLimitsAfter?: { values?: string; bytes?: string; rows?: string };
  /**
   * for unbounded partitions: seconds until the worst partition crosses the bytes limit and
   * Cassandra's hard cell limit, from the manifest's figures (Infinity when it never does)
   */
  crossesAfterSeconds?: { bytes: number; cells: number };
  bucket?: BucketSuggestion;
  /** counters (engine size ≈ 3× classic) and key-only tables (Nv = 0) */
  flags: ("counter" | "key-only" | "static-only")[];
  /** which column sizes were defaults rather than manifest figures */
  defaultedColumns: string[];
  /** what the engine-aware bytes assume (version, storage layout, timestamp widths), to label them */
  engineNote?: string;
  /** the cells whose size the manifest states, largest first (cells.ts) */
  cells?: CellSize[];
  /** partition-key columns every write path sets to the same literal (key-constants.ts) */
  constantKey?: ConstantKeyColumn[];
  /** partition-key columns every write binds from the current time (key-constants.ts) */
  timeKey?: TimeKeyColumn[];
}

/** A partition-key column every write path sets to the same literal. */
export interface ConstantKeyColumn {
  column: string;
  /** the literal as CQL writes it, e.g. `0` or `'all'` */
  value: string;
  /** the write paths that set it */
  writes: string[];
  /** where application code binds it from a constant, rather than writing the literal in the CQL */
  bound?: { function: string; source: string }[];
}

/** A partition-key column every write path binds from the current time: the table's time bucket, whatever its name. */
export interface TimeKeyColumn {
  column: string;
  /** the write paths that set it */
  writes: string[];
  /** the functions that compute it, with the expression bound */
  computed: { function: string; source: string }[];
}
