import { describe, expect, it } from "vitest";
import rule from "../../rules/write-tombstones.js";
import { ruleTester, runRule } from "../rule-tester.js";

// The latest value of each key of a device, one typed column per value kind.
const schema = `CREATE TABLE device_state (
  device_id uuid,
  key text,
  long_v bigint,
  str_v text,
  labels set<text>,
  history frozen<list<bigint>>,
  PRIMARY KEY ((device_id), key)
);
`;
const write = (cql: string, rate = "1000/s") => `version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n    rate: ${rate}\n    cql:\n      - ${cql}\n`;

ruleTester.run("write-tombstones", rule, {
  valid: [
    { name: "only the columns with a value", cql: schema, manifest: write("INSERT INTO device_state (device_id, key, long_v) VALUES (?, ?, ?)") },
    { name: "a frozen collection inserted whole", cql: schema, manifest: write("INSERT INTO device_state (device_id, key, history) VALUES (?, ?, ?)") },
    { name: "adding to a set", cql: schema, manifest: write("UPDATE device_state SET labels = labels + {'hot'} WHERE device_id = ? AND key = ?") },
    { name: "a frozen collection written whole", cql: schema, manifest: write("UPDATE device_state SET history = ? WHERE device_id = ? AND key = ?") },
  ],
  invalid: [
    {
      name: "literal nulls in an INSERT",
      cql: schema,
      manifest: write("INSERT INTO device_state (device_id, key, long_v, str_v) VALUES (?, ?, ?, null)", "80000/s"),
      findings: [{ messageId: "nulls", line: 7, data: { columns: "`str_v`", rate: "; at 80,000 tombstones a second from this write path" } }],
    },
    {
      name: "SET c = null",
      cql: schema,
      manifest: write("UPDATE device_state SET str_v = null, long_v = ? WHERE device_id = ? AND key = ?"),
      findings: [{ messageId: "nulls", line: 7, data: { columns: "`str_v`" } }],
    },
    {
      name: "an INSERT of a non-frozen collection deletes it first, even on a new row",
      cql: schema,
      manifest: write("INSERT INTO device_state (device_id, key, labels) VALUES (?, ?, ?)", "300/s"),
      findings: [{ messageId: "insertCollection", line: 7, data: { columns: "`labels`", rate: "; at 300 tombstones a second from this write path" } }],
    },
    {
      name: "a non-frozen set overwritten",
      cql: schema,
      manifest: write("UPDATE device_state SET labels = {'hot', 'new'} WHERE device_id = ? AND key = ?"),
      findings: [{ messageId: "overwrite", line: 7, data: { columns: "`labels`" } }],
    },
  ],
});

describe("write-tombstones severities", () => {
  it("warns on nulls and notes collection overwrites", () => {
    const severity = (cql: string) => runRule(rule, { cql: schema, manifest: write(cql) }).findings.map((f) => f.severity);
    expect(severity("INSERT INTO device_state (device_id, key, str_v) VALUES (?, ?, null)")).toEqual(["warning"]);
    expect(severity("UPDATE device_state SET labels = ? WHERE device_id = ? AND key = ?")).toEqual(["info"]);
    expect(severity("INSERT INTO device_state (device_id, key, labels) VALUES (?, ?, ?)")).toEqual(["info"]);
  });
});

describe("write-tombstones: nulls bounded by the cells of a partition", () => {
  const sized = (cql: string, rows: string) => `version: 1\nkeyspace: shop\ntables:\n  device_state:\n    partitions: 1_000\n    rows_per_partition: ${rows}\nwrites:\n  - id: W1\n    rate: 1000/s\n    cql:\n      - ${cql}\n  - id: W2\n    rate: 10/s\n    cql:\n      - UPDATE device_state SET long_v = null WHERE device_id = ? AND key = ?\n`;
  const insertNull = "INSERT INTO device_state (device_id, key, long_v, str_v) VALUES (?, ?, ?, null)";

  it("notes nulls a partition cannot hold a thousand of: one per row and nulled column", () => {
    const findings = runRule(rule, { cql: schema, manifest: sized(insertNull, "{ avg: 20, max: 300 }") }).findings;
    expect(findings.map((f) => [f.messageId, f.severity])).toEqual([["nullsBounded", "info"], ["nullsBounded", "info"]]);
    // 300 rows × 2 columns (str_v from W1, long_v from W2).
    expect(findings[0]?.message).toMatch(/holds at most 600 of them \(300 rows × 2 columns written null\), under tombstone_warn_threshold/);
  });

  it("warns when the largest partition can hold more than tombstone_warn_threshold", () => {
    const findings = runRule(rule, { cql: schema, manifest: sized(insertNull, "{ avg: 20, max: 600 }") }).findings;
    expect(findings.map((f) => [f.messageId, f.severity])).toEqual([["nulls", "warning"], ["nulls", "warning"]]);
  });

  it("notes a null in a table of one row per partition, and says one tombstone a second in the singular", () => {
    const lock = "CREATE TABLE locks (name text PRIMARY KEY, owner text);\n";
    const manifest = "version: 1\nkeyspace: shop\nwrites:\n  - id: release\n    rate: 1/s\n    cql: UPDATE locks SET owner = null WHERE name = ?\n";
    const [finding] = runRule(rule, { cql: lock, manifest }).findings;
    expect(finding).toMatchObject({ messageId: "nullsBounded", severity: "info" });
    expect(finding?.message).toMatch(/at 1 tombstone a second .* at most 1 of them \(one row × one column written null\)/);
  });
});
