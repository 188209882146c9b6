import { describe, expect, it } from "vitest";
import rule from "../../rules/table-removed-option.js";
import { ruleTester, runRule } from "../rule-tester.js";

// A metrics table as a 3.x tutorial wrote it, reviewed against the versions it is deployed on.
const metrics = (withClause: string) => `CREATE TABLE metrics.points (
  series text,
  hour timestamp,
  at timestamp,
  value double,
  PRIMARY KEY ((series, hour), at)
) WITH ${withClause};
`;

ruleTester.run("table-removed-option", rule, {
  valid: [
    { name: "read_repair_chance on 3.11, where it still exists", cql: metrics("read_repair_chance = 0.0"), cassandra: "3.11" },
    { name: "DateTieredCompactionStrategy before 5.0", cql: metrics("compaction = {'class': 'DateTieredCompactionStrategy'}"), cassandra: "4.1" },
    { name: "UnifiedCompactionStrategy on 5.0", cql: metrics("compaction = {'class': 'UnifiedCompactionStrategy'}"), cassandra: "5.0" },
    {
      name: "a fully qualified shipped strategy",
      cql: metrics("compaction = {'class': 'org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy', 'compaction_window_unit': 'HOURS', 'compaction_window_size': '6'}"),
    },
    { name: "a plugin strategy from another package", cql: metrics("compaction = {'class': 'com.example.compaction.ArchivingStrategy'}") },
  ],
  invalid: [
    {
      name: "both read repair chances on 4.1",
      cql: metrics("read_repair_chance = 0.0\n  AND dclocal_read_repair_chance = 0.1"),
      cassandra: "4.1",
      findings: [
        { messageId: "removedOption", line: 7, column: 8, data: { option: "read_repair_chance", since: "4.0", version: "4.1", table: "metrics.points" } },
        { messageId: "removedOption", line: 8, column: 7, data: { option: "dclocal_read_repair_chance" } },
      ],
    },
    {
      name: "set again by an ALTER TABLE",
      cql: { "001.cql": metrics("default_time_to_live = 86400"), "002.cql": "ALTER TABLE metrics.points WITH dclocal_read_repair_chance = 0.0;\n" },
      cassandra: "4.0",
      findings: [{ messageId: "removedOption", line: 1, file: "002.cql" }],
    },
    {
      name: "DateTieredCompactionStrategy on 5.0",
      cql: metrics("compaction = {'class': 'org.apache.cassandra.db.compaction.DateTieredCompactionStrategy'}"),
      cassandra: "5.0",
      findings: [{ messageId: "removedStrategy", line: 7, data: { strategy: "DateTieredCompactionStrategy", since: "5.0" } }],
    },
    {
      name: "UnifiedCompactionStrategy on 4.1",
      cql: metrics("compaction = {'class': 'UnifiedCompactionStrategy'}"),
      cassandra: "4.1",
      findings: [{ messageId: "newStrategy", line: 7, data: { from: "5.0" } }],
    },
    {
      name: "a misspelt strategy",
      cql: metrics("compaction = {'class': 'TimeWindowCompactionStrategey'}"),
      findings: [{ messageId: "unknownStrategy", line: 7, data: { strategy: "TimeWindowCompactionStrategey" } }],
    },
  ],
});

describe("table-removed-option messages", () => {
  it("name the option and say the file cannot be applied", () => {
    const [finding] = runRule(rule, { cql: metrics("dclocal_read_repair_chance = 0.1"), cassandra: "4.1" }).findings;
    expect(finding?.message).toMatch(/^metrics\.points sets `dclocal_read_repair_chance`, removed in Cassandra 4\.0: Cassandra 4\.1 rejects the statement/);
    expect(finding?.severity).toBe("error");
  });
});
