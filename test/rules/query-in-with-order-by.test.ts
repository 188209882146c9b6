import rule from "../../rules/query-in-with-order-by.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const readings = `CREATE TABLE readings_by_sensor (
  sensor_id text,
  reading_time timestamp,
  value double,
  PRIMARY KEY ((sensor_id), reading_time)
);
`;

const query = (cql: string) => manifestWith([{ id: "Q1", cql }]);

ruleTester.run("query-in-with-order-by", rule, {
  valid: [
    { name: "IN without ORDER BY", cql: readings, manifest: query("SELECT value FROM readings_by_sensor WHERE sensor_id IN ('a', 'b')") },
    { name: "ORDER BY on one partition", cql: readings, manifest: query("SELECT value FROM readings_by_sensor WHERE sensor_id = ? ORDER BY reading_time DESC") },
    { name: "IN of one value is an equality", cql: readings, manifest: query("SELECT value FROM readings_by_sensor WHERE sensor_id IN ('a') ORDER BY reading_time DESC") },
    { name: "IN on a clustering column", cql: readings, manifest: query("SELECT value FROM readings_by_sensor WHERE sensor_id = ? AND reading_time IN (?, ?) ORDER BY reading_time DESC") },
  ],
  invalid: [
    {
      name: "IN of literals with ORDER BY",
      cql: readings,
      manifest: query("SELECT value FROM readings_by_sensor WHERE sensor_id IN ('a', 'b') ORDER BY reading_time DESC LIMIT 20"),
      findings: [{ messageId: "inWithOrderBy", line: 4, data: { query: "Q1", column: "sensor_id", partitions: 2 } }],
    },
    {
      name: "IN of a bound list",
      cql: readings,
      manifest: query("SELECT value FROM readings_by_sensor WHERE sensor_id IN ? ORDER BY reading_time ASC"),
      findings: [{ messageId: "inWithOrderBy", line: 4, data: { column: "sensor_id" } }],
    },
  ],
});
