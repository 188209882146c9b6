// Estimates set beside production: the figures `nodetool tablestats` / `tablehistograms` measured
// (src/stats) against the partition estimate of the same table. The rules turn the differences
// into findings (table-measured-size, query-measured-tombstones); where the manifest gives no
// volume figures, the measured ones take the default's place in the estimate, and say so.
import type { MeasuredFigure, TableMeasurements } from "../stats/types.js";
import { formatBytes, formatCount } from "./estimator-text.js";
import type { PartitionLimits } from "./limits.js";
import type { PartitionEstimate, PartitionFigures } from "./types.js";

/**
 * Differences smaller than these do not change how Cassandra treats a partition, whatever their
 * ratio: a 4 kB partition measured at 20 kB is still small.
 */
export const MEASURED_FLOOR = { bytes: 1_000_000, cells: 10_000 } as const;

/** The figure an estimate's bytes are compared with: the engine-aware size when the version has one (as the SSTables hold it). */
export function estimatedBytes(figures: PartitionFigures): number {
  return figures.engineBytes ?? figures.bytes;
}

export interface MeasuredDifference {
  /** which figure: the largest partition, the typical one, or the cells of the largest */
  figure: "largest" | "typical" | "cells";
  unit: "bytes" | "cells";
  estimated: number;
  measured: MeasuredFigure;
  /** measured ÷ estimated */
  ratio: number;
  /** set when the measured figure crosses this limit and the estimate stays under it */
  crossedLimit?: number;
}

export interface CompareOptions {
  /** how far apart (either way) the two figures may be before they differ */
  factor: number;
  limits: PartitionLimits;
}

/** The figures of one table that differ from its estimate by more than the factor, or cross a limit the estimate stays under. */
export function compareWithMeasurements(estimate: PartitionEstimate, measured: TableMeasurements, options: CompareOptions): MeasuredDifference[] {
  // An estimate made from the measurements cannot disagree with them.
  if (estimate.basis === "measured") return [];
  const differences: MeasuredDifference[] = [];
  const compare = (figure: MeasuredDifference["figure"], unit: MeasuredDifference["unit"], estimated: number, measuredFigure: MeasuredFigure | undefined, limit: number): void => {
    if (!measuredFigure || !Number.isFinite(estimated)) return;
    const measuredValue = measuredFigure.value;
    const crossed = limit > 0 && measuredValue > limit && estimated <= limit;
    const floor = unit === "bytes" ? MEASURED_FLOOR.bytes : MEASURED_FLOOR.cells;
    const ratio = estimated > 0 ? measuredValue / estimated : Infinity;
    const apart = Math.max(measuredValue, estimated) >= floor && (ratio >= options.factor || ratio <= 1 / options.factor);
    if (!apart && !crossed) return;
    differences.push({ figure, unit, estimated, measured: measuredFigure, ratio, ...(crossed ? { crossedLimit: limit } : {}) });
  };
  compare("largest", "bytes", estimatedBytes(estimate.worst), measured.figures.partitionBytesMax, options.limits.partitionBytes);
  // The typical partition has no limit of its own: only the factor applies.
  compare("typical", "bytes", estimatedBytes(estimate.average), measured.figures.partitionBytesMean, 0);
  compare("cells", "cells", estimate.worst.cells, measured.figures.cellsMax, options.limits.partitionValues);
  return differences;
}

/** "140 MB (stats/prod-node3.txt, the worst of 3 nodes)" */
export function describeMeasured(figure: MeasuredFigure, unit: "bytes" | "cells" | "tombstones" | "count" | "ratio"): string {
  const value = formatMeasuredValue(figure.value, unit);
  const from = figure.from === "one node" ? "" : `, the ${figure.from === "worst node" ? "worst" : "median"} of ${figure.nodes} nodes`;
  return `${value} (${figure.file}${from})`;
}

/**
 * Where the manifest states no volume figures (the estimate is the type default), the measured
 * partition sizes replace the default's: rows follow from the measured cells, or else from the
 * measured bytes at the default's bytes per row. Undefined when nothing measured applies.
 */
export function estimateFromMeasurements(estimate: PartitionEstimate, measured: TableMeasurements): PartitionEstimate | undefined {
  if (estimate.basis !== "type-default") return undefined;
  const { figures } = measured;
  const largest = figures.partitionBytesMax ?? figures.partitionBytesP99;
  const typical = figures.partitionBytesMean ?? figures.partitionBytesP50;
  if (!largest && !typical && !figures.cellsMax) return undefined;
  const scaled = (base: PartitionFigures, bytes: MeasuredFigure | undefined, cells: MeasuredFigure | undefined): PartitionFigures => {
    const cellsPerRow = base.rows > 0 ? base.cells / base.rows : 0;
    const valuesPerRow = base.rows > 0 ? base.values / base.rows : 0;
    const bytesPerRow = base.rows > 0 ? estimatedBytes(base) / base.rows : 0;
    const rows =
      cells && cellsPerRow > 0 ? Math.max(1, Math.round(cells.value / cellsPerRow)) : bytes && bytesPerRow > 0 ? Math.max(1, Math.round(bytes.value / bytesPerRow)) : base.rows;
    const measuredBytes = bytes?.value ?? (bytesPerRow > 0 ? rows * bytesPerRow : estimatedBytes(base));
    return {
      rows,
      values: Math.round(rows * valuesPerRow),
      cells: cells?.value ?? Math.round(rows * cellsPerRow),
      bytes: Math.round(measuredBytes),
      engineBytes: Math.round(measuredBytes),
    };
  };
  const parts = [
    ...(typical ? [`mean partition ${describeMeasured(typical, "bytes")}`] : []),
    ...(largest ? [`largest ${describeMeasured(largest, "bytes")}`] : []),
    ...(figures.cellsMax ? [`at most ${describeMeasured(figures.cellsMax, "cells")}`] : []),
  ];
  const { bucket: _bucket, crossesLimitsAfter: _after, crossesAfterSeconds: _seconds, ...rest } = estimate;
  return {
    ...rest,
    basis: "measured",
    basisText: `measured in production (the manifest states no volume figures): ${parts.join(", ")}`,
    average: scaled(estimate.average, typical, figures.cellsP50),
    worst: scaled(estimate.worst, largest, figures.cellsMax),
    unbounded: false,
  };
}

/** One line of "measured beside estimated": what explain and the reports show for a table. */
export interface MeasuredBeside {
  /** what the figure is, in words: "largest partition", "tombstones per read (most)" */
  label: string;
  unit: "bytes" | "cells" | "tombstones" | "count" | "ratio";
  /** the estimate's figure, when the estimate has one for this */
  estimated: number | null;
  measured: MeasuredFigure;
}

/** Every measured figure of a table, in a fixed order, with the estimate's figure beside it where there is one. */
export function measuredBesideEstimate(estimate: PartitionEstimate | undefined, measured: TableMeasurements): MeasuredBeside[] {
  const { figures } = measured;
  const rows: [string, MeasuredBeside["unit"], number | null, MeasuredFigure | undefined][] = [
    ["largest partition", "bytes", estimate ? estimatedBytes(estimate.worst) : null, figures.partitionBytesMax],
    ["partition, 99th percentile", "bytes", null, figures.partitionBytesP99],
    ["mean partition", "bytes", estimate ? estimatedBytes(estimate.average) : null, figures.partitionBytesMean],
    ["cells in the largest partition", "cells", estimate ? estimate.worst.cells : null, figures.cellsMax],
    ["cells per partition, 99th percentile", "cells", null, figures.cellsP99],
    ["partitions on a node (estimate)", "count", null, figures.partitions],
    ["tombstones per read, average (last five minutes)", "tombstones", null, figures.tombstonesPerSliceAverage],
    ["tombstones per read, most (last five minutes)", "tombstones", null, figures.tombstonesPerSliceMax],
    ["SSTables", "count", null, figures.sstables],
    ["droppable tombstone ratio", "ratio", null, figures.droppableTombstoneRatio],
  ];
  return rows.flatMap(([label, unit, estimated, figure]) => (figure ? [{ label, unit, estimated, measured: figure }] : []));
}

/** A figure of `measuredBesideEstimate` in words, without its source. */
export function formatMeasuredValue(value: number, unit: MeasuredBeside["unit"]): string {
  if (unit === "bytes") return formatBytes(value);
  if (unit === "ratio") return String(Math.round(value * 1000) / 1000);
  return `${formatCount(value)}${unit === "cells" || unit === "tombstones" ? ` ${unit}` : ""}`;
}
