// The worked cases end to end: CQL through parseCql and buildSchema, the manifest through
// loadManifest, queries through analyseQueries, then estimateTables.
import { describe, expect, it } from "vitest";
import { estimateTables } from "../../src/analysis/estimator.js";
import { analyseQueries } from "../../src/analysis/queries.js";
import { DEFAULT_CONFIG } from "../../src/config.js";
import { parseCql } from "../../src/cql/index.js";
import { loadManifest } from "../../src/manifest/load.js";
import { buildSchema } from "../../src/schema/builder.js";
import type { CassandraVersion } from "../../src/schema/model.js";

function estimates(cql: string, manifestYaml: string, version: CassandraVersion = "5.0") {
  const built = buildSchema([{ path: "schema.cql", text: cql, parse: parseCql(cql) }]);
  expect(built.findings.filter((f) => f.severity === "error")).toEqual([]);
  const loaded = loadManifest({ path: "access-patterns.yaml", content: manifestYaml });
  expect(loaded.findings).toEqual([]);
  const manifest = loaded.manifest!;
  const queries = analyseQueries(manifest, built.schema, { version, keyspace: manifest.keyspace });
  return estimateTables(built.schema, manifest, queries, { version, limits: DEFAULT_CONFIG.limits, keyspace: manifest.keyspace });
}

const HOTEL_CQL = `
CREATE KEYSPACE hotel WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE TYPE hotel.address (street text, city text, state_or_province text, postal_code text, country text);
CREATE TABLE hotel.available_rooms_by_hotel_date (
  hotel_id text, date date, room_number smallint, is_available boolean,
  PRIMARY KEY ((hotel_id), date, room_number));
CREATE TABLE hotel.available_rooms_by_hotel_month (
  hotel_id text, month int, date date, room_number smallint, is_available boolean,
  PRIMARY KEY ((hotel_id, month), date, room_number));
CREATE TABLE hotel.hotels (id text PRIMARY KEY, name text, phone text, address frozen<address>, pois set<text>);
`;

describe("estimates from CQL and a manifest", () => {
  it("sizes the docs' hotel model in both engines", () => {
    const manifest = `
version: 1
keyspace: hotel
tables:
  available_rooms_by_hotel_date:
    rows_per_partition: 73_000
    columns: { hotel_id: 5 }
  available_rooms_by_hotel_month:
    rows_per_partition: 3_100
    columns: { hotel_id: 5 }
  hotels:
    columns: { id: 5, name: 30, phone: 12, address: 85, pois: { items: 5, bytes: 15 } }
`;
    const v5 = estimates(HOTEL_CQL, manifest, "5.0");
    const v4 = estimates(HOTEL_CQL, manifest, "4.1");
    expect(v5.get("hotel.available_rooms_by_hotel_date")?.worst).toMatchObject({ values: 73_000, bytes: 1_095_005, engineBytes: 1_460_009 });
    expect(v4.get("hotel.available_rooms_by_hotel_date")?.worst.engineBytes).toBe(1_460_020);
    expect(v5.get("hotel.available_rooms_by_hotel_month")?.worst).toMatchObject({ values: 3_100, bytes: 46_509, engineBytes: 62_019 });
    expect(v5.get("hotel.hotels")?.worst).toMatchObject({ values: 4, cells: 8, bytes: 263, engineBytes: 249 });
    expect(v4.get("hotel.hotels")?.worst.engineBytes).toBe(260);
  });

  it("buckets slow groups by the widest width, naming the query whose LIMIT it serves", () => {
    const cql = `
CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE TABLE app.group_join_dates (
  groupname text, joined timeuuid, username text, email text, age int,
  PRIMARY KEY ((groupname), joined)
) WITH CLUSTERING ORDER BY (joined DESC);
`;
    const manifest = `
version: 1
keyspace: app
tables:
  group_join_dates:
    growth: 3/day
queries:
  - id: Q1
    description: The ten newest users of a group
    cql: SELECT username, email FROM group_join_dates WHERE groupname = ? LIMIT 10
    rate: 20/s
`;
    const estimate = estimates(cql, manifest).get("app.group_join_dates")!;
    expect(estimate.unbounded).toBe(true);
    expect(estimate.basisText).toContain("3/day with no retention or TTL");
    // A group's partition takes centuries to reach 100 MB: the widest calendar width, a year.
    expect(estimate.bucket?.width).toBe("1 year");
    expect(estimate.bucket?.explanation).toContain("Q1's newest 10 rows");
  });

  it("bounds growth by default_time_to_live and counts a time-range query's partitions", () => {
    const cql = `
CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE TABLE iot.readings_by_sensor (
  sensor_id uuid, reading_time timestamp, temperature double, humidity double,
  PRIMARY KEY ((sensor_id), reading_time)
) WITH CLUSTERING ORDER BY (reading_time DESC) AND default_time_to_live = 604800;
`;
    const manifest = `
version: 1
keyspace: iot
tables:
  readings_by_sensor:
    growth: 100/s
queries:
  - id: Q1
    cql: SELECT reading_time, temperature FROM readings_by_sensor WHERE sensor_id = ? AND reading_time > ?
`;
    const estimate = estimates(cql, manifest).get("iot.readings_by_sensor")!;
    expect(estimate.basis).toBe("growth-ttl");
    expect(estimate.worst).toMatchObject({ rows: 60_480_000, values: 120_960_000 });
    // 100 rows/s of about 40 bytes: 100 MB in under 7 hours, inside the week the rows live.
    expect(estimate.bucket?.width).toBe("6 hours");
    expect(estimate.bucket?.explanation).toContain("narrower than the rows' 1 week lifetime");
    expect(estimate.bucket?.explanation).toContain("1 day → 5");
  });
});
