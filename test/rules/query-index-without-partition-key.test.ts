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

describe("query-index-without-partition-key figures", () => {
  const orders = (using = "") => `CREATE TABLE orders (
  customer_id uuid,
  order_id timeuuid,
  status text,
  region text,
  PRIMARY KEY ((customer_id), order_id)
);

CREATE INDEX orders_status_idx ON orders (status)${using};
CREATE INDEX orders_region_idx ON orders (region)${using};
`;
  const manifest = (cql: string, distinct: string, rate = "") => `version: 1
keyspace: shop
tables:
  orders:
    partitions: 1_000_000
    rows_per_partition: { avg: 40, max: 2_000 }
${distinct ? `    distinct_values: ${distinct}\n` : ""}queries:
  - id: Q1
    cql: ${cql}
${rate ? `    rate: ${rate}\n` : ""}`;
  const messageOf = (testCase: { cql: string; manifest: string; cassandra?: "5.0" }) => runRule(rule, testCase).findings.map((f) => f.message);

  it("says how many index entries one value holds and how many a filtering read scans, at the most common value", () => {
    const [message] = messageOf({
      cql: orders(),
      manifest: manifest("SELECT order_id FROM orders WHERE status = 'pending' AND customer_id > ? LIMIT 50 ALLOW FILTERING", "{ status: { count: 5, max_rows: 30_000_000 } }", "2/s"),
    });
    expect(message).toContain(
      "For one `status` value the index holds about 8,000,000 entries, 30,000,000 for the most common one (1,000,000 partitions × 40 rows ÷ 5 distinct values, from the manifest), spread over every node: the read scans up to 30,000,000 entries and their rows",
    );
    expect(message).toContain("to return at most 50 (up to 16,000,000 rows a second at its rate).");
  });

  it("names the columns filtered after the lookup", () => {
    const [message] = messageOf({
      cql: orders().replace("CREATE INDEX orders_region_idx ON orders (region);\n", ""),
      manifest: manifest("SELECT order_id FROM orders WHERE status = ? AND region = ? ALLOW FILTERING", "{ status: 4 }"),
    });
    expect(message).toContain("10,000,000 entries (1,000,000 partitions × 40 rows ÷ 4 distinct values, from the manifest), spread over every node: the read scans up to 10,000,000 entries and their rows, filtering `region` row by row, to return the matches.");
  });

  it("bounds an SAI intersection by its most selective value, with nothing left to filter", () => {
    const [message] = messageOf({
      cql: orders(" USING 'sai'"),
      cassandra: "5.0",
      manifest: manifest("SELECT order_id FROM orders WHERE status = ? AND region = ?", "{ status: 4, region: 200 }"),
    });
    expect(message).toContain("For one `region` value the index holds about 200,000 entries (1,000,000 partitions × 40 rows ÷ 200 distinct values, from the manifest), spread over every node: with no LIMIT the read returns all of them, up to 200,000 rows.");
  });

  it("says the LIMIT stops a read that returns every match", () => {
    const [message] = messageOf({ cql: orders(), manifest: manifest("SELECT order_id FROM orders WHERE status = ? LIMIT 20", "{ status: 4 }") });
    expect(message).toContain("the LIMIT stops the read at 20 rows");
  });

  it("gives no figure without the column's distinct values or the table's partitions", () => {
    const [withoutDistinct] = messageOf({ cql: orders(), manifest: manifest("SELECT order_id FROM orders WHERE status = ?", "") });
    expect(withoutDistinct).not.toContain("entries");
    const [withoutPartitions] = messageOf({
      cql: orders(),
      manifest: manifest("SELECT order_id FROM orders WHERE status = ?", "{ status: 4 }").replace("    partitions: 1_000_000\n", ""),
    });
    expect(withoutPartitions).not.toContain("entries");
  });

  it("counts a boolean's two values from its type", () => {
    const [message] = messageOf({
      cql: orders().replace("region text,", "region text,\n  shipped boolean,").replace("CREATE INDEX orders_region_idx ON orders (region);", "CREATE INDEX orders_shipped_idx ON orders (shipped);"),
      manifest: manifest("SELECT order_id FROM orders WHERE shipped = false", ""),
    });
    expect(message).toContain("For one `shipped` value the index holds about 20,000,000 entries (1,000,000 partitions × 40 rows ÷ 2 distinct values, from its type)");
  });
});

describe("query-index-without-partition-key on a table of one row per partition", () => {
  const accounts = `CREATE TABLE accounts (
  account_id uuid PRIMARY KEY,
  owner_id uuid,
  status text
);

CREATE INDEX accounts_owner_idx ON accounts (owner_id) USING 'sai';
`;
  const manifest = (cql: string, partitions = "    partitions: 20_000_000\n") => `version: 1
keyspace: bank
tables:
  accounts:
${partitions}    distinct_values: { owner_id: { count: 5_000_000, max_rows: 50_000 } }
queries:
  - id: Q1
    cql: ${cql}
    rate: 200/s
`;
  const messageOf = (m: string) => runRule(rule, { cql: accounts, cassandra: "5.0", manifest: m }).findings.map((f) => f.message);

  it("takes the table's rows from its partitions, one row each by the schema", () => {
    const [message] = messageOf(manifest("SELECT account_id FROM accounts WHERE owner_id = ?"));
    expect(message).toContain(
      "For one `owner_id` value the index holds about 4 entries, 50,000 for the most common one (20,000,000 partitions × 1 row ÷ 5,000,000 distinct values, from the manifest), spread over every node: with no LIMIT the read returns all of them, up to 50,000 rows",
    );
  });

  it("still needs the manifest's partitions", () => {
    const [message] = messageOf(manifest("SELECT account_id FROM accounts WHERE owner_id = ?", ""));
    expect(message).not.toContain("entries");
  });
});
