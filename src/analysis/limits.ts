// The partition and query limits the analysis measures against. The repository config sets them
// (src/config.ts, `limits:`); they are defined here, at the lowest layer that reads them, so the
// analysis never imports the config.

export interface PartitionLimits {
  /** values (cells) in one partition */
  partitionValues: number;
  /** bytes in one partition */
  partitionBytes: number;
  /** partitions one query may read */
  partitionsPerQuery: number;
  /** rows in one partition */
  rowsPerPartition: number;
}
