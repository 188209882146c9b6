import rule from "../../rules/query-too-many-partitions.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const readings = `CREATE TABLE readings_by_sensor_day (
  sensor_id text,
  day date,
  reading_time timestamp,
  value double,
  PRIMARY KEY ((sensor_id, day), reading_time)
);
`;

const threeDays = "SELECT value FROM readings_by_sensor_day WHERE sensor_id = 'boiler-1' AND day IN ('2024-05-01', '2024-05-02', '2024-05-03')";

ruleTester.run("query-too-many-partitions", rule, {
  valid: [
    { name: "one partition", cql: readings, manifest: manifestWith([{ id: "Q1", cql: "SELECT value FROM readings_by_sensor_day WHERE sensor_id = ? AND day = ?" }]) },
    { name: "within a raised limit", cql: readings, config: { limits: { partitionsPerQuery: 3 } }, manifest: manifestWith([{ id: "Q1", cql: threeDays }]) },
    {
      name: "duplicate literals collapse to one partition",
      cql: readings,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT value FROM readings_by_sensor_day WHERE sensor_id = 'b' AND day IN ('2024-05-01', '2024-05-01')" }]),
    },
  ],
  invalid: [
    {
      name: "three literal days over the default limit of one",
      cql: readings,
      manifest: manifestWith([{ id: "Q1", cql: threeDays }]),
      findings: [{ messageId: "tooMany", line: 4, data: { query: "Q1", partitions: 3, limit: 1 } }],
    },
    {
      name: "the cartesian product of two IN lists",
      cql: readings,
      config: { limits: { partitionsPerQuery: 2 } },
      manifest: manifestWith([{ id: "Q1", cql: "SELECT value FROM readings_by_sensor_day WHERE sensor_id IN ('a', 'b') AND day IN ('2024-05-01', '2024-05-02')" }]),
      findings: [{ messageId: "tooMany", line: 4, data: { partitions: 4, limit: 2 } }],
    },
  ],
});
