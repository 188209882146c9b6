// The shared worked cases (/work/shared/eval/sizing-cases.yaml), when this checkout has them beside
// it: every case's table is rebuilt from its column list and sized from its own figures. The
// estimator test keeps its own copies of these cases, so nothing depends on the file being there.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { estimatePartition } from "../../src/analysis/estimator.js";
import { DEFAULT_CONFIG } from "../../src/config.js";
import type { ColumnSize } from "../../src/manifest/types.js";
import { table, volume, type TableSpec } from "./estimator-helpers.js";

const CASES_FILE = fileURLToPath(new URL("../../../shared/eval/sizing-cases.yaml", import.meta.url));

interface SizingCase {
  id: string;
  title: string;
  columns: { name: string; role: string; type: string; size_bytes?: number; collection_cells_per_row?: number }[];
  assumptions?: { rows_per_partition?: number };
  expected: { Nv: number; Nv_cells_expanded?: number; size_bytes: number; rows_per_partition?: number; flags?: Record<string, boolean> };
  engine_model?: { bytes_cassandra_3x_4x?: number; bytes_cassandra_5x?: number };
}

const cases: SizingCase[] = existsSync(CASES_FILE) ? ((parse(readFileSync(CASES_FILE, "utf8")) as { cases?: SizingCase[] }).cases ?? []) : [];

/** A collection's stated serialized size as items of equal size (4-byte count, 4-byte length each). */
function columnSize(column: SizingCase["columns"][number]): ColumnSize | undefined {
  if (column.size_bytes === undefined) return undefined;
  const items = column.collection_cells_per_row;
  if (items && /^(set|list)</.test(column.type)) return { kind: "collection", items, bytesPerItem: (column.size_bytes - 4) / items - 4 };
  return { kind: "bytes", bytes: column.size_bytes };
}

function sized(c: SizingCase, version: "4.1" | "5.0") {
  const role = (r: string) => c.columns.filter((col) => col.role === r).map((col) => col.name);
  const spec: TableSpec = {
    name: c.id.toLowerCase().replace(/[^a-z0-9]+/g, "_"),
    columns: Object.fromEntries(c.columns.map((col) => [col.name, col.type])),
    partitionKey: role("partition_key"),
    clustering: role("clustering"),
    static: role("static"),
  };
  const sizes: Record<string, ColumnSize> = {};
  for (const column of c.columns) {
    const size = columnSize(column);
    if (size) sizes[column.name] = size;
  }
  const rows = c.expected.rows_per_partition ?? c.assumptions?.rows_per_partition ?? 1;
  return estimatePartition(table(spec), volume({ rows, columns: sizes }), { version, limits: DEFAULT_CONFIG.limits, queries: [] });
}

describe("shared sizing cases", () => {
  if (cases.length === 0) {
    it("are not beside this checkout", () => expect(existsSync(CASES_FILE)).toBe(false));
    return;
  }
  for (const c of cases) {
    it(`${c.id}: ${c.title}`, () => {
      const classic = sized(c, "5.0");
      expect(classic.worst.values).toBe(c.expected.Nv);
      expect(classic.worst.cells).toBe(c.expected.Nv_cells_expanded ?? c.expected.Nv);
      expect(Math.abs(classic.worst.bytes - c.expected.size_bytes)).toBeLessThanOrEqual(1);
      const flags = c.expected.flags;
      if (flags?.values_over_100k !== undefined) expect(Math.max(classic.worst.values, classic.worst.cells) > 100_000).toBe(flags.values_over_100k);
      if (flags?.rows_over_100k !== undefined) expect(classic.worst.rows > 100_000).toBe(flags.rows_over_100k);
      if (flags?.bytes_over_100MB !== undefined) expect(classic.worst.bytes > 100_000_000).toBe(flags.bytes_over_100MB);
      if (c.engine_model?.bytes_cassandra_3x_4x !== undefined) expect(sized(c, "4.1").worst.engineBytes).toBe(c.engine_model.bytes_cassandra_3x_4x);
      if (c.engine_model?.bytes_cassandra_5x !== undefined) expect(classic.worst.engineBytes).toBe(c.engine_model.bytes_cassandra_5x);
    });
  }
});
