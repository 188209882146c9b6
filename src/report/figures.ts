// How figures read in every human format (text, Markdown, explain): grouped digits, bytes in
// decimal units (the config's limits are written `100MB` = 100,000,000 bytes), the verdict words
// of the plan unchanged.
import { groupThousands } from "../analysis/estimator-text.js";
import { largestBytes } from "../analysis/cells.js";
import type { CellSize, PartitionEstimate, QueryPlan } from "../analysis/types.js";

/** 1234567 → "1,234,567"; fractions keep at most two decimals; non-finite numbers say so. */
export function formatCount(value: number): string {
  if (Number.isNaN(value)) return "unknown";
  if (!Number.isFinite(value)) return value > 0 ? "unbounded" : "-unbounded";
  const rounded = Math.round(value * 100) / 100;
  const [whole, fraction] = Math.abs(rounded).toFixed(Number.isInteger(rounded) ? 0 : 2).split(".");
  const grouped = groupThousands(whole);
  const trimmedFraction = fraction?.replace(/0+$/, "");
  return `${rounded < 0 ? "-" : ""}${grouped}${trimmedFraction ? `.${trimmedFraction}` : ""}`;
}

const BYTE_UNITS = ["B", "kB", "MB", "GB", "TB", "PB"] as const;

/** 1095005 → "1.1 MB" (decimal units, as the Cassandra docs and the config's limits use). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return formatCount(bytes);
  let unit = 0;
  let scaled = Math.abs(bytes);
  while (scaled >= 1000 && unit < BYTE_UNITS.length - 1) {
    scaled /= 1000;
    unit++;
  }
  const digits = unit === 0 || scaled >= 100 ? 0 : 1;
  return `${bytes < 0 ? "-" : ""}${scaled.toFixed(digits)} ${BYTE_UNITS[unit]}`;
}

/** The partitions a query reads: a count, "all", or "unknown" (bind markers, token ranges). */
export function formatPartitions(partitions: QueryPlan["partitions"]): string {
  if (partitions === null) return "unknown";
  if (partitions === "all") return "all";
  return formatCount(partitions);
}

/** The estimate's largest single cell (non-frozen collections are a cell per element), by its largest stated size. */
export function largestCell(estimate: PartitionEstimate): CellSize | undefined {
  return estimate.cells?.filter((c) => c.kind !== "collection").sort((a, b) => largestBytes(b) - largestBytes(a))[0];
}

/** "8.0 kB" or, with the largest value stated, "8.0 kB on average, up to 3.0 MB". */
export function cellSizeText(cell: CellSize): string {
  return cell.worstBytes === undefined ? formatBytes(cell.bytes) : `${formatBytes(cell.bytes)} on average, up to ${formatBytes(cell.worstBytes)}`;
}
