import { describe, expect, it } from "vitest";
import rule from "../../rules/query-in-with-order-by.js";
import { ruleTester, runRule } from "../rule-tester.js";
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
      name: "IN of literals with ORDER BY and no LIMIT",
      cql: readings,
      manifest: query("SELECT value FROM readings_by_sensor WHERE sensor_id IN ('a', 'b') ORDER BY reading_time DESC"),
      findings: [{ messageId: "inWithOrderBy", line: 4, data: { query: "Q1", column: "sensor_id", partitions: 2 } }],
    },
    {
      name: "a LIMIT within one page: Cassandra runs it unpaged",
      cql: readings,
      manifest: query("SELECT value FROM readings_by_sensor WHERE sensor_id IN ('a', 'b') ORDER BY reading_time DESC LIMIT 20"),
      findings: [{ messageId: "limitWithinPage", line: 4, data: { limit: "20" } }],
    },
    {
      name: "a LIMIT over the default page size",
      cql: readings,
      manifest: query("SELECT value FROM readings_by_sensor WHERE sensor_id IN ('a', 'b') ORDER BY reading_time DESC LIMIT 20000"),
      findings: [{ messageId: "overPage", line: 4, data: { limit: "20,000" } }],
    },
    {
      name: "a bound LIMIT",
      cql: readings,
      manifest: query("SELECT value FROM readings_by_sensor WHERE sensor_id IN ? ORDER BY reading_time DESC LIMIT ?"),
      findings: [{ messageId: "limitBound", line: 4 }],
    },
    {
      name: "IN of a bound list",
      cql: readings,
      manifest: query("SELECT value FROM readings_by_sensor WHERE sensor_id IN ? ORDER BY reading_time ASC"),
      findings: [{ messageId: "inWithOrderBy", line: 4, data: { column: "sensor_id" } }],
    },
  ],
});

describe("query-in-with-order-by severity", () => {
  const severity = (cql: string) => runRule(rule, { cql: readings, manifest: query(cql) }).findings.map((f) => f.severity);
  it("is a note when a LIMIT can keep the query unpaged, a warning when it cannot", () => {
    expect(severity("SELECT value FROM readings_by_sensor WHERE sensor_id IN ? ORDER BY reading_time DESC LIMIT 300")).toEqual(["info"]);
    expect(severity("SELECT value FROM readings_by_sensor WHERE sensor_id IN ? ORDER BY reading_time DESC LIMIT ?")).toEqual(["info"]);
    expect(severity("SELECT value FROM readings_by_sensor WHERE sensor_id IN ? ORDER BY reading_time DESC LIMIT 6000")).toEqual(["warning"]);
    expect(severity("SELECT value FROM readings_by_sensor WHERE sensor_id IN ? ORDER BY reading_time DESC")).toEqual(["warning"]);
  });
});
