// Production measurements of a table, as `nodetool tablestats` and `nodetool tablehistograms`
// print them (docs/production-stats.md). One file is one node's view; src/stats/combine.ts makes
// one figure per table out of several nodes, each figure remembering the file it came from.

/** The figures cql-review reads; every other line of nodetool's output is skipped. */
export const MEASURE_NAMES = [
  "partitionBytesMean",
  "partitionBytesP50",
  "partitionBytesP99",
  "partitionBytesMax",
  "cellsP50",
  "cellsP99",
  "cellsMax",
  "partitions",
  "tombstonesPerSliceAverage",
  "tombstonesPerSliceMax",
  "liveCellsPerSliceAverage",
  "liveCellsPerSliceMax",
  "sstables",
  "droppableTombstoneRatio",
] as const;
export type MeasureName = (typeof MEASURE_NAMES)[number];

/**
 * Figures where the cluster's worst node is the one that matters (the largest partition, the most
 * tombstones a read met); the others (means, percentiles, counts per node) take the median node.
 */
export const WORST_NODE_MEASURES: ReadonlySet<MeasureName> = new Set([
  "partitionBytesMax",
  "cellsMax",
  "tombstonesPerSliceMax",
  "liveCellsPerSliceMax",
  "sstables",
]);

export type StatsFormat = "tablestats" | "tablestats-json" | "tablestats-yaml" | "tablehistograms";

/** A figure as one file states it. */
export interface NodeFigure {
  value: number;
  /** 1-based line of the file */
  line: number;
}

/** One table as one node's file describes it. */
export interface NodeTableStats {
  keyspace: string;
  table: string;
  file: string;
  format: StatsFormat;
  /** where the table's section starts */
  line: number;
  figures: Partial<Record<MeasureName, NodeFigure>>;
}

/** A figure of the cluster, from the node that decides it. */
export interface MeasuredFigure {
  value: number;
  file: string;
  line: number;
  /** how many nodes gave this figure: the most files of one format (a node saves one of each) */
  nodes: number;
  /** how the node was chosen */
  from: "worst node" | "median node" | "one node";
}

/** Everything measured for one table, all files together. */
export interface TableMeasurements {
  keyspace: string;
  table: string;
  figures: Partial<Record<MeasureName, MeasuredFigure>>;
  /** the files that describe the table, sorted */
  files: string[];
  /** where each file describes the table, for findings about the table itself */
  sections: { file: string; line: number }[];
}
