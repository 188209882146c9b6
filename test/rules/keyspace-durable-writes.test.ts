import { describe, expect, it } from "vitest";
import rule from "../../rules/keyspace-durable-writes.js";
import { ruleTester, runRule } from "../rule-tester.js";

ruleTester.run("keyspace-durable-writes", rule, {
  valid: [
    { name: "the default", cql: "CREATE KEYSPACE metrics WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n" },
    {
      name: "written out as true",
      cql: "CREATE KEYSPACE metrics WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3} AND durable_writes = true;\n",
    },
    {
      name: "turned back on by a later migration",
      cql: {
        "migrations/001.cql": "CREATE KEYSPACE metrics WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3} AND durable_writes = false;\n",
        "migrations/002.cql": "ALTER KEYSPACE metrics WITH durable_writes = true;\n",
      },
    },
  ],
  invalid: [
    {
      name: "commit log off on a keyspace with three replicas",
      cql: "CREATE KEYSPACE metrics\n  WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3}\n  AND durable_writes = false;\n",
      findings: [{ messageId: "disabled", line: 3, column: 7, data: { keyspace: "metrics" } }],
    },
    {
      name: "turned off by an ALTER",
      cql: {
        "migrations/001.cql": "CREATE KEYSPACE metrics WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n",
        "migrations/002.cql": "ALTER KEYSPACE metrics WITH durable_writes = false;\n",
      },
      findings: [{ messageId: "disabled", line: 1, file: "migrations/002.cql" }],
    },
  ],
});

describe("keyspace-durable-writes messages", () => {
  it("say the loss is permanent with a single replica", () => {
    const [finding] = runRule(rule, { cql: "CREATE KEYSPACE spans WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1} AND durable_writes = false;\n" }).findings;
    expect(finding?.message).toMatch(/With one replica that loss is permanent/);
  });
});
