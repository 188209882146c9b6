import { describe, expect, it } from "vitest";
import rule from "../../rules/table-large-cell.js";
import { ruleTester, runRule } from "../rule-tester.js";

// A document store: each document's labels kept frozen with it, and its body inline.
const schema = `CREATE TABLE documents (
  doc_id uuid PRIMARY KEY,
  labels frozen<map<text, text>>,
  body text,
  tags set<text>
);
`;
const sizes = (columns: string) => `version: 1\nkeyspace: shop\ntables:\n  documents:\n    partitions: 1_000_000\n    columns: ${columns}\n`;

ruleTester.run("table-large-cell", rule, {
  valid: [
    { name: "small frozen map and body", cql: schema, manifest: sizes("{ labels: { items: 20, key_bytes: 10, value_bytes: 30 }, body: 20_000 }") },
    { name: "no sizes in the manifest: the type's default says nothing", cql: schema, manifest: "version: 1\nkeyspace: shop\ntables:\n  documents:\n    partitions: 1_000\n" },
    { name: "a large non-frozen set is table-large-collection's (a cell per element)", cql: schema, manifest: sizes("{ tags: { items: 100_000, bytes: 20 } }") },
    { name: "a body whose largest value stays under the guideline", cql: schema, manifest: sizes("{ body: { avg: 2_000, max: 500_000 } }") },
  ],
  invalid: [
    {
      name: "a frozen map of 20,000 entries: one cell rewritten whole",
      cql: schema,
      manifest: sizes("{ labels: { items: 20_000, key_bytes: 20, value_bytes: 80 } }"),
      findings: [{ messageId: "frozen", line: 3, data: { column: "labels", size: "20,000 items of 100 bytes, about 2.2 MB" } }],
    },
    {
      name: "a body of 8 kB on average and 3 MB in the largest row: judged on the largest",
      cql: schema,
      manifest: sizes("{ body: { avg: 8_000, max: 3_000_000 } }"),
      findings: [{ messageId: "value", line: 4, data: { column: "body", size: "about 3 MB in its largest row (about 8 kB on average)" } }],
    },
    {
      name: "a frozen map of 20 entries on average and 20,000 in the largest row",
      cql: schema,
      manifest: sizes("{ labels: { items: { avg: 20, max: 20_000 }, key_bytes: 20, value_bytes: 80 } }"),
      findings: [{ messageId: "frozen", line: 3, data: { column: "labels", size: expect.stringMatching(/^20,000 items, about 2\.2 MB in its largest row \(20 items of 100 bytes, about 2\.\d kB on average\)$/) } }],
    },
    {
      name: "a 3 MB text body",
      cql: schema,
      manifest: sizes("{ body: 3_000_000 }"),
      findings: [{ messageId: "value", line: 4, data: { column: "body", size: "about 3 MB" } }],
    },
  ],
});

describe("table-large-cell", () => {
  it("says when a write is larger than max_mutation_size", () => {
    const [finding] = runRule(rule, { cql: schema, manifest: sizes("{ body: 20_000_000 }") }).findings;
    expect(finding?.message).toMatch(/over the 1 MiB guideline for one cell/);
    expect(finding?.message).toMatch(/larger than max_mutation_size \(16 MiB, half of commitlog_segment_size\): Cassandra rejects it/);
  });

  it("puts the cell sizes in the partition estimate, largest first", () => {
    const { model } = runRule(rule, { cql: schema, manifest: sizes("{ labels: { items: 10, key_bytes: 10, value_bytes: 10 }, body: 5_000 }") });
    expect(model.estimates.get("shop.documents")?.cells).toEqual([
      { column: "body", kind: "value", bytes: 5_000 },
      { column: "labels", kind: "frozen", bytes: expect.any(Number), items: 10, itemBytes: 20 },
    ]);
  });

  it("keeps the average for the partition and the largest value for the cell", () => {
    const { model } = runRule(rule, { cql: schema, manifest: sizes("{ body: { avg: 5_000, max: 2_000_000 } }") });
    expect(model.estimates.get("shop.documents")?.cells).toEqual([{ column: "body", kind: "value", bytes: 5_000, worstBytes: 2_000_000 }]);
    expect(model.estimates.get("shop.documents")?.average.bytes).toBeLessThan(10_000);
  });

  it("says when the largest value's write is larger than max_mutation_size", () => {
    const [finding] = runRule(rule, { cql: schema, manifest: sizes("{ body: { avg: 5_000, max: 20_000_000 } }") }).findings;
    expect(finding?.message).toMatch(/Cassandra rejects it/);
  });

  it("takes its limit from the options", () => {
    const findings = runRule(rule, { cql: schema, manifest: sizes("{ body: 300_000 }"), config: { rules: { "table-large-cell": { severity: "warning", options: { maxCellBytes: 262_144 } } } } }).findings;
    expect(findings).toHaveLength(1);
  });
});
