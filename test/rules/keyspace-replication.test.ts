import { describe, expect, it } from "vitest";
import rule from "../../rules/keyspace-replication.js";
import { ruleTester, runRule } from "../rule-tester.js";

ruleTester.run("keyspace-replication", rule, {
  valid: [
    { name: "three replicas in each of two data centers", cql: "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 3};\n" },
    {
      name: "a lowered minimum for a test keyspace",
      cql: "CREATE KEYSPACE scratch WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 1};\n",
      config: { rules: { "keyspace-replication": { severity: "warning", options: { minReplicationFactor: 1 } } } },
    },
    {
      name: "an ALTER that fixes what the CREATE set",
      cql: "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nALTER KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n",
    },
  ],
  invalid: [
    {
      name: "SimpleStrategy with three replicas",
      cql: "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};\n",
      findings: [{ messageId: "simpleStrategy", line: 1, column: 27, data: { keyspace: "shop" } }],
      output: "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\n",
    },
    {
      name: "SimpleStrategy with one replica, by class name, over several lines",
      cql: "CREATE KEYSPACE shop\n  WITH replication = {\n    'class': 'org.apache.cassandra.locator.SimpleStrategy',\n    'replication_factor': '1'\n  }\n  AND durable_writes = true;\n",
      findings: [
        { messageId: "lowFactor", line: 2, column: 8, data: { factor: 1, where: "the cluster" } },
        { messageId: "simpleStrategy", line: 2, column: 8 },
      ],
      output: "CREATE KEYSPACE shop\n  WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': '1'}\n  AND durable_writes = true;\n",
    },
    {
      name: "two replicas in a second data center, set by ALTER",
      cql: "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n\nALTER KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 2};\n",
      findings: [{ messageId: "lowFactor", line: 3, column: 26, data: { factor: 2, where: "data center dc2", min: 3 } }],
    },
  ],
});

describe("keyspace-replication fix descriptions", () => {
  it("state the replication factor as a number, whatever its quotes or count", () => {
    const fixOf = (factor: string) =>
      runRule(rule, { cql: `CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': ${factor}};\n` }).findings.find((f) => f.fix)?.fix
        ?.description;
    expect(fixOf("'1'")).toMatch(/^Use NetworkTopologyStrategy for shop, keeping its replication factor of 1 in one data center named 'datacenter1'/);
    expect(fixOf("3")).toMatch(/keeping its replication factor of 3 in one data center/);
  });
});
