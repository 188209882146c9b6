import rule from "../../rules/query-allow-filtering-scan.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const activities = `CREATE TABLE user_activities (
  user_id uuid,
  activity_time timestamp,
  activity_type text,
  details text,
  PRIMARY KEY ((user_id), activity_time)
);
`;

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
  ],
});
