// Cell sizes from the manifest's column figures. A frozen collection, a frozen UDT, a tuple and
// every plain value (text, blob, …) is one cell: written, read and rewritten whole. A non-frozen
// collection stores one cell per element, but Cassandra's collection guardrails weigh what one
// write puts in it. Only sizes the manifest states are reported; a type's default size says nothing.
import type { ColumnSize, TableVolume } from "../manifest/types.js";
import type { ColumnModel, ColumnType, TableModel } from "../schema/model.js";
import { sizeValue } from "./type-sizes.js";
import type { CellSize } from "./types.js";

function isCollection(type: ColumnType): boolean {
  return type.kind === "list" || type.kind === "set" || type.kind === "map";
}

function isMultiCell(type: ColumnType): boolean {
  return (isCollection(type) || type.kind === "udt") && !("frozen" in type && type.frozen);
}

/** The cells of a table's non-key columns whose size the manifest states, largest first. */
export function statedCells(table: TableModel, volume: TableVolume | undefined): CellSize[] {
  if (!volume) return [];
  const keys = new Set<ColumnModel>([...table.partitionKey, ...table.clustering]);
  const cells: CellSize[] = [];
  for (const column of table.columns) {
    if (keys.has(column)) continue;
    const size = volume.columns[column.name] ?? Object.entries(volume.columns).find(([name]) => name.toLowerCase() === column.name.toLowerCase())?.[1];
    if (!size) continue;
    const sized = sizeValue(column.type, size);
    if (sized.defaulted || !Number.isFinite(sized.classicBytes)) continue;
    const multiCell = isMultiCell(column.type);
    const cell: CellSize = { column: column.name, kind: multiCell ? "collection" : isCollection(column.type) || column.type.kind === "udt" || column.type.kind === "tuple" ? "frozen" : "value", bytes: Math.round(sized.classicBytes) };
    if (size.kind === "collection") {
      cell.items = size.items;
      cell.itemBytes = size.bytesPerItem + (size.keyBytes ?? 0);
    }
    // The largest value one row holds is the one a write carries whole and a guardrail refuses.
    const largest = largestSize(size);
    if (largest) {
      const worst = sizeValue(column.type, largest);
      if (Number.isFinite(worst.classicBytes) && worst.classicBytes > cell.bytes) {
        cell.worstBytes = Math.round(worst.classicBytes);
        if (largest.kind === "collection") cell.worstItems = largest.items;
      }
    }
    // A non-frozen UDT is a cell per field: no one value is large; its fields are not sized separately.
    if (multiCell && column.type.kind === "udt") continue;
    cells.push(cell);
  }
  return cells.sort((a, b) => largestBytes(b) - largestBytes(a));
}

/** The size of the largest value one row holds, as a size of its own, when the manifest states one. */
function largestSize(size: ColumnSize): ColumnSize | undefined {
  if (size.kind === "bytes") return size.maxBytes === undefined ? undefined : { kind: "bytes", bytes: size.maxBytes };
  return size.maxItems === undefined ? undefined : { ...size, items: size.maxItems };
}

/** A cell's largest stated size: the largest value when stated, else the average. */
export function largestBytes(cell: CellSize): number {
  return cell.worstBytes ?? cell.bytes;
}
