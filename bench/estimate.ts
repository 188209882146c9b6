// Benchmark: partition estimates for a large schema (2,000 tables of mixed shapes, half with growth
// figures that call for bucket suggestions). Run after `npm run build`: node dist/bench/estimate.js
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { estimateTables } from "../src/analysis/estimator.js";
import { DEFAULT_CONFIG } from "../src/config.js";
import { FILE_START } from "../src/findings.js";
import type { Manifest, TableVolume } from "../src/manifest/types.js";
import { emptySchema, type ColumnKind, type ColumnModel, type ColumnType, type SchemaModel, type TableModel } from "../src/schema/model.js";

const LOCATION = { file: "bench.cql", range: FILE_START };

function column(name: string, type: ColumnType, kind: ColumnKind, position: number): ColumnModel {
  return { name, type, declaredType: { kind: "native", name: "blob", range: FILE_START }, kind, position, masked: false, source: LOCATION };
}

const native = (name: "text" | "uuid" | "timestamp" | "double" | "int" | "date"): ColumnType => ({ kind: "native", name });

/** A time series, a bucketed series, a lookup table or a wide row with a collection, by index. */
function benchTable(i: number): TableModel {
  const shape = i % 4;
  const partitionKey = [column("id", native("uuid"), "partition", 0)];
  if (shape === 1) partitionKey.push(column("day", native("date"), "partition", 1));
  const clustering = shape === 2 ? [] : [column("at", native("timestamp"), "clustering", 0)];
  const regular = [
    column("value", native("double"), "regular", -1),
    column("label", native("text"), "regular", -1),
    column("tags", { kind: "set", frozen: false, element: native("text") }, "regular", -1),
  ];
  const columns = [...partitionKey, ...clustering, ...regular];
  return {
    keyspace: "bench",
    name: `t${i}`,
    qualifiedName: `bench.t${i}`,
    kind: "table",
    columns,
    partitionKey,
    clustering,
    static: [],
    regular,
    options: {},
    defaultTtlSeconds: shape === 3 ? 30 * 86_400 : 0,
    compactStorage: false,
    indexes: [],
    views: [],
    source: LOCATION,
    statement: { kind: "use", keyspace: { name: "bench", text: "bench", quoted: false, range: FILE_START }, text: "", range: FILE_START },
  };
}

export function benchEstimate(tables = 2_000, rounds = 20): { tables: number; msPerRun: number; usPerTable: number } {
  const schema: SchemaModel = emptySchema();
  const volumes: TableVolume[] = [];
  for (let i = 0; i < tables; i++) {
    const model = benchTable(i);
    schema.tables.set(model.qualifiedName, model);
    volumes.push({ name: model.name, growthPerSecond: i % 2 === 0 ? 0.5 + (i % 13) : undefined, columns: { label: { kind: "bytes", bytes: 24 } }, location: LOCATION });
  }
  const manifest: Manifest = { file: "bench.yaml", version: 1, keyspace: "bench", tables: volumes, queries: [], writes: [] };
  const options = { version: "5.0" as const, limits: DEFAULT_CONFIG.limits };
  estimateTables(schema, manifest, [], options); // warm-up
  const start = performance.now();
  for (let r = 0; r < rounds; r++) estimateTables(schema, manifest, [], options);
  const msPerRun = (performance.now() - start) / rounds;
  return { tables, msPerRun, usPerTable: (msPerRun * 1000) / tables };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = benchEstimate();
  console.log(`estimateTables: ${result.tables} tables in ${result.msPerRun.toFixed(1)} ms (${result.usPerTable.toFixed(1)} µs a table)`);
}
