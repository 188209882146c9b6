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
