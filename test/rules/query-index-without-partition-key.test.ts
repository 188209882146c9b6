import { describe, expect, it } from "vitest";
import rule from "../../rules/query-index-without-partition-key.js";
import { ruleTester, runRule } from "../rule-tester.js";
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
    {
      name: "a lookup another table already answers from its partition key",
      cql: `${activities()}
CREATE TABLE user_activities_by_type (
  activity_type text,
  activity_time timestamp,
  user_id uuid,
  PRIMARY KEY ((activity_type), activity_time, user_id)
);
`,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT user_id FROM user_activities WHERE activity_type = ?" }]),
      findings: [
        {
          messageId: "fanOut",
          line: 4,
          data: {
            advice:
              "user_activities_by_type already answers the same query from its partition key: read it there, and drop the index if no other query needs it.",
          },
        },
      ],
    },
  ],
});

describe("query-index-without-partition-key messages", () => {
  it("state a slow rate in a readable unit and name what of a map a lookup table would be keyed by", () => {
    const series = `CREATE TABLE series (
  tenant_id uuid,
  metric text,
  series_id uuid,
  tags map<text, text>,
  PRIMARY KEY ((tenant_id, metric), series_id)
);

CREATE INDEX series_tags_idx ON series (ENTRIES(tags)) USING 'sai';
`;
    const [message] = runRule(rule, {
      cql: series,
      cassandra: "5.0",
      manifest: manifestWith([{ id: "Q8", cql: "SELECT series_id FROM series WHERE tags['host'] = ?", rate: "1/min" }]),
    }).findings.map((f) => f.message);
    expect(message).toBe(
      "Q8 is served by index series_tags_idx on series without a partition key: indexes are local to each node, so the coordinator queries every token range of the cluster (1/minute, each one to every node). Bind the partition key too if the query can. Serve the query from a table partitioned by the entries of `tags` (key and value).",
    );
  });
});
