import { describe, expect, it } from "vitest";
import rule from "../../rules/table-gc-grace-repair.js";
import { ruleTester, runRule } from "../rule-tester.js";

// Carts: items added, removed when bought or dropped.
const carts = (options: string) => `CREATE TABLE cart_items (
  cart_id uuid,
  item_id uuid,
  quantity int,
  note text,
  PRIMARY KEY ((cart_id), item_id)
)${options ? ` WITH ${options}` : ""};
`;

const manifest = (writes: string[], table = "") =>
  [
    "version: 1",
    "keyspace: shop",
    ...(table ? ["tables:", "  cart_items:", `    ${table}`] : []),
    "writes:",
    ...writes.flatMap((w, i) => [`  - id: W${i + 1}`, `    cql: ${w}`, "    rate: 10/s"]),
  ].join("\n") + "\n";

const add = "INSERT INTO cart_items (cart_id, item_id, quantity) VALUES (?, ?, ?)";
const remove = "DELETE FROM cart_items WHERE cart_id = ? AND item_id = ?";

ruleTester.run("table-gc-grace-repair", rule, {
  valid: [
    { name: "the default gc_grace_seconds", cql: carts(""), manifest: manifest([add, remove]) },
    { name: "gc_grace_seconds above a weekly repair", cql: carts("gc_grace_seconds = 864000"), manifest: manifest([add, remove]) },
    { name: "a short grace on a table nothing deletes from", cql: carts("gc_grace_seconds = 3600"), manifest: manifest([add]) },
    {
      name: "rows that expire before their tombstones can be dropped",
      cql: carts("gc_grace_seconds = 3600 AND default_time_to_live = 3600"),
      manifest: manifest([add, remove]),
    },
    {
      name: "a literal TTL no longer than the grace on every write",
      cql: carts("gc_grace_seconds = 600"),
      manifest: manifest([`${add} USING TTL 300`, remove]),
    },
    {
      name: "a bound TTL with no stated retention: the rows' life is unknown",
      cql: carts("gc_grace_seconds = 3600"),
      manifest: manifest([`${add} USING TTL ?`, remove]),
    },
    {
      name: "a repair every day, as the option says",
      cql: carts("gc_grace_seconds = 172800"),
      manifest: manifest([add, remove]),
      config: { rules: { "table-gc-grace-repair": { severity: "warning", options: { repairIntervalDays: 1 } } } },
    },
  ],
  invalid: [
    {
      name: "a one-hour grace on rows deleted and kept for ever",
      cql: carts("gc_grace_seconds = 3600"),
      manifest: manifest([add, remove]),
      findings: [{ messageId: "shortGrace", line: 1, data: { grace: "1 hour", interval: "1 week", deleters: "W2 deletes", life: "its rows have no TTL", suggested: "864000" } }],
    },
    {
      name: "a null written is a delete too",
      cql: carts("gc_grace_seconds = 86400"),
      manifest: manifest(["UPDATE cart_items SET note = null WHERE cart_id = ? AND item_id = ?", add]),
      findings: [{ messageId: "shortGrace", line: 1, data: { deleters: "W1 deletes" } }],
    },
    {
      name: "rows kept longer than the grace: the manifest's retention for a bound TTL",
      cql: carts("gc_grace_seconds = 86400 AND default_time_to_live = 604800"),
      manifest: manifest([`${add} USING TTL ?`, remove], "retention: 7d"),
      findings: [{ messageId: "shortGrace", line: 1, data: { life: "its rows live up to 1 week, longer than gc_grace_seconds" } }],
    },
  ],
});

describe("table-gc-grace-repair", () => {
  it("says that a grace of 0 drops tombstones at the next compaction, and how to fix it", () => {
    const [finding] = runRule(rule, { cql: carts("gc_grace_seconds = 0"), manifest: manifest([add, remove]) }).findings;
    expect(finding?.message).toMatch(/sets gc_grace_seconds to 0 \(tombstones can be dropped at the next compaction\)/);
    expect(finding?.message).toMatch(/the deleted data returns\. Raise gc_grace_seconds above the repair interval \(`gc_grace_seconds = 864000`, 10 days\)/);
  });
});
