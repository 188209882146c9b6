import { describe, expect, it } from "vitest";
import rule from "../../rules/query-too-many-partitions.js";
import { ruleTester, runRule } from "../rule-tester.js";
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
      name: "a bound IN list on the partition key: a fan-out of unknown width",
      cql: "CREATE TABLE users (\n  userid uuid PRIMARY KEY,\n  name text\n);\n",
      manifest: manifestWith([{ id: "Q1", cql: "SELECT userid, name FROM users WHERE userid IN ?", rate: "300/s" }]),
      findings: [{ messageId: "boundList", line: 4, data: { column: "userid", rate: ", 300/s" } }],
    },
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

describe("query-too-many-partitions on bound IN lists", () => {
  const users = "CREATE TABLE users (\n  userid uuid PRIMARY KEY,\n  name text\n);\n";
  const severity = (rate: string) =>
    runRule(rule, { cql: users, manifest: manifestWith([{ id: "Q1", cql: "SELECT name FROM users WHERE userid IN ?", rate }]) }).findings.map((f) => f.severity);
  it("warns at hundreds of calls a second and only notes a rare one", () => {
    expect(severity("300/s")).toEqual(["warning"]);
    expect(severity("5/s")).toEqual(["info"]);
  });
});
