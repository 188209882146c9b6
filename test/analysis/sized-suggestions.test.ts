// sizeSuggestedTables: an unserved query's suggested table is sized once, in the analysis, with
// the manifest's figures for the table whose rows it copies; the rule, the summary, explain and
// the JSON then read that one suggestion (test/report/suggested-table-agreement.test.ts).
import { describe, expect, it } from "vitest";
import { estimateTables } from "../../src/analysis/estimator.js";
import { analyseQueries, sizeSuggestedTables } from "../../src/analysis/queries.js";
import { DEFAULT_CONFIG } from "../../src/config.js";
import { parseCql } from "../../src/cql/index.js";
import { loadManifest } from "../../src/manifest/load.js";
import { buildSchema } from "../../src/schema/builder.js";

const SCHEMA = `CREATE TABLE fleet.trips_by_vehicle (
  vehicle_id uuid,
  trip_id timeuuid,
  driver_id uuid,
  started_at timestamp,
  distance_km double,
  PRIMARY KEY ((vehicle_id), trip_id)
);
`;

const tripsByDriver = ["- id: vehicle-trips-of-driver", "  select: [trip_id, distance_km]", '  where: { vehicle_id: "=", driver_id: "=" }', "  order_by: { started_at: desc }", "  limit: 25"];

function analysed(volume: string[] | undefined, query: string[] = tripsByDriver) {
  const tables = volume ? ["tables:", "  trips_by_vehicle:", ...volume.map((l) => `    ${l}`)] : [];
  const yaml = ["version: 1", "keyspace: fleet", ...tables, "queries:", ...query.map((l) => `  ${l}`), ""].join("\n");
  const { manifest } = loadManifest({ path: "access-patterns.yaml", content: yaml });
  const { schema } = buildSchema([{ path: "schema.cql", text: SCHEMA, parse: parseCql(SCHEMA) }]);
  const options = { version: "5.0" as const, keyspace: "fleet" };
  const queries = analyseQueries(manifest, schema, options);
  const unsized = queries.map((q) => q.suggestedTable);
  estimateTables(schema, manifest, queries, { ...options, limits: DEFAULT_CONFIG.limits });
  sizeSuggestedTables(queries, manifest, schema, { ...options, limits: DEFAULT_CONFIG.limits });
  return { query: queries[0]!, unsized: unsized[0] };
}

const busyVehicles = ["rows_per_partition: { avg: 500, max: 4_000_000 }", "growth: 100/day", "retention: forever"];

describe("sizeSuggestedTables", () => {
  it("puts a time bucket in the suggestion's partition key when the copied table's worst partition crosses the limits, and says why", () => {
    const { query, unsized } = analysed(busyVehicles);
    expect(query.plan.verdict).toBe("unserved");
    expect(unsized).toContain("PRIMARY KEY ((vehicle_id, driver_id), started_at, trip_id)");
    const bucket = /PRIMARY KEY \(\(vehicle_id, driver_id, (\w+)\), started_at, trip_id\)/.exec(query.suggestedTable!)?.[1];
    expect(bucket, query.suggestedTable).toBeDefined();
    // Declared beside the key it joins, with the column it is computed from.
    expect(query.suggestedTable).toMatch(new RegExp(`-- ${bucket} = .+ of started_at: a partition by \\(vehicle_id, driver_id\\) alone would outgrow the limits`));
    expect(query.suggestedTableSizing).toMatch(/^Sized with the manifest's figures for trips_by_vehicle, whose rows it copies/);
    // The worst partition against the limit it crosses, then the width and why.
    expect(query.suggestedTableSizing).toMatch(/its worst partition would hold [\d,]+ rows and [\d.]+ MB \(limit 100 MB\), past the limits/);
    expect(query.suggestedTableSizing).toMatch(/Bucket by \d+ (hours?|days?)/);
    expect(query.suggestedTableSizing).toContain("vehicle-trips-of-driver reads the newest 25 rows");
    expect(query.suggestedTableSizing).toContain(`puts \`${bucket}\` in its partition key`);
    // No planner codes in the words people read.
    expect(query.suggestedTableSizing).not.toMatch(/\b[A-Z]\d{1,2}:/);
    // The name still says what it serves; the bucket is how it is stored.
    expect(query.suggestedTableName).toEqual({ keyspace: "fleet", name: "trips_by_vehicle_id_driver_id" });
    expect(query.suggestedTable).toContain("CREATE TABLE fleet.trips_by_vehicle_id_driver_id (");
    // It repeats the text: left out of JSON, as the matcher leaves it out.
    expect(Object.keys(query)).not.toContain("suggestedTableName");
  });

  it("leaves the suggestion as the matcher made it when the figures keep the partition under the limits", () => {
    const { query, unsized } = analysed(["rows_per_partition: { avg: 30, max: 400 }", "retention: 365d"]);
    expect(query.suggestedTable).toBe(unsized);
    expect(query.suggestedTableSizing).toBeUndefined();
  });

  it("leaves it alone without figures for the copied table", () => {
    const { query, unsized } = analysed(undefined);
    expect(query.suggestedTable).toBe(unsized);
    expect(query.suggestedTableSizing).toBeUndefined();
  });

  it("claims nothing when the new partition key does not hold the copied table's", () => {
    // A partition per driver gathers trips of many vehicles: figures per vehicle do not bound it.
    const byDriver = ["- id: trips-of-driver", "  select: [trip_id, distance_km]", '  where: { driver_id: "=" }', "  order_by: { started_at: desc }"];
    const { query, unsized } = analysed(busyVehicles, byDriver);
    expect(query.plan.verdict).toBe("unserved");
    expect(query.suggestedTable).toBe(unsized);
    expect(query.suggestedTableSizing).toBeUndefined();
  });
});
