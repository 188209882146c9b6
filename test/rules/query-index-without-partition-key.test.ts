import rule from "../../rules/query-index-without-partition-key.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const activities = (using = "") => `CREATE TABLE user_activities (
  user_id uuid,
  activity_time timestamp,
  activity_type text,
  PRIMARY KEY ((user_id), activity_time)
);

CREATE INDEX user_activities_type_idx ON user_activities (activity_type)${using};
`;

ruleTester.run("query-index-without-partition-key", rule, {
  valid: [
    {
      name: "index with the partition key bound",
      cql: activities(),
      manifest: manifestWith([{ id: "Q1", cql: "SELECT activity_time FROM user_activities WHERE user_id = ? AND activity_type = 'login'" }]),
    },
    {
      name: "no index involved",
      cql: activities(),
      manifest: manifestWith([{ id: "Q1", cql: "SELECT activity_time FROM user_activities WHERE user_id = ?" }]),
    },
  ],
  invalid: [
    {
      name: "a legacy index alone",
      cql: activities(),
      manifest: manifestWith([{ id: "Q1", cql: "SELECT user_id FROM user_activities WHERE activity_type = 'login'", rate: "50/s" }]),
      findings: [{ messageId: "fanOut", line: 4, data: { query: "Q1", index: "user_activities_type_idx", columns: "activity_type" } }],
    },
    {
      name: "an SAI index alone (5.0) fans out just the same",
      cql: activities(" USING 'sai'"),
      cassandra: "5.0",
      manifest: manifestWith([{ id: "Q1", cql: "SELECT user_id FROM user_activities WHERE activity_type = ?" }]),
      findings: [{ messageId: "fanOut", line: 4, data: { index: "user_activities_type_idx" } }],
    },
  ],
});
