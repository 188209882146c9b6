import { describe, expect, it } from "vitest";
import rule from "../../rules/query-allow-filtering-scan.js";
import { ruleTester, runRule } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const activities = `CREATE TABLE user_activities (
  user_id uuid,
  activity_time timestamp,
  activity_type text,
  details text,
  PRIMARY KEY ((user_id), activity_time)
);
`;

const dlqQueues = `CREATE TABLE dead_letter_queues (
  queue_name text PRIMARY KEY,
  queue_kind int,
  settings blob
);
`;
const dlqManifest = (partitions: string) =>
  `version: 1\nkeyspace: shop\ntables:\n  dead_letter_queues:\n    partitions: ${partitions}\nqueries:\n  - id: queues-of-kind\n    cql: SELECT queue_name, settings FROM dead_letter_queues WHERE queue_kind = ? ALLOW FILTERING\n    rate: 1/min\n`;

ruleTester.run("query-allow-filtering-scan", rule, {
  valid: [
    {
      name: "ALLOW FILTERING with the partition key bound stays inside one partition",
      cql: activities,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT details FROM user_activities WHERE user_id = ? AND activity_type = 'login' ALLOW FILTERING" }]),
    },
    {
      name: "a scan without ALLOW FILTERING is query-full-scan's",
      cql: activities,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT details FROM user_activities" }]),
    },
  ],
  invalid: [
    {
      name: "ALLOW FILTERING on a regular column, no partition key",
      cql: activities,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT user_id FROM user_activities WHERE activity_type = 'purchase' ALLOW FILTERING" }]),
      findings: [{ messageId: "scan", line: 4, data: { query: "Q1", table: "user_activities" } }],
    },
    {
      name: "ALLOW FILTERING over a token range",
      cql: activities,
      manifest: manifestWith([
        { id: "Q1", cql: "SELECT details FROM user_activities WHERE user_id = ?" },
        { id: "Q2", cql: "SELECT details FROM user_activities WHERE token(user_id) > ? AND activity_type = 'login' ALLOW FILTERING" },
      ]),
      findings: [{ messageId: "tokenRange", line: 6, data: { query: "Q2" } }],
    },
    {
      name: "a table the manifest sizes at a few dozen partitions",
      cql: dlqQueues,
      manifest: dlqManifest("40"),
      findings: [{ messageId: "smallTable", line: 7, data: { partitions: "40" } }],
    },
  ],
});

describe("query-allow-filtering-scan severity", () => {
  const severities = (partitions: string) => runRule(rule, { cql: dlqQueues, manifest: dlqManifest(partitions) }).findings.map((f) => f.severity);
  it("is info on a small table and keeps its configured severity on a large one", () => {
    expect(severities("40")).toEqual(["info"]);
    expect(severities("5_000_000")).toEqual(["error"]);
  });
});
