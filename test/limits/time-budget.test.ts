// The review's time budget. The core has no clock: it asks `pastDeadline` between files, queries
// and stages, and stops with a finding the first time the answer is yes. These tests answer with a
// counter, so every stopping point is reached deterministically; the shells' tests drive their
// wall-clock budgets with fake clocks.
import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/findings.js";
import { review, type ReviewInput, type SourceFile } from "../../src/review.js";
import { rules } from "../../rules/index.js";

const files: SourceFile[] = [
  { path: "access-patterns.yaml", content: [
    "version: 1",
    "keyspace: shop",
    "queries:",
    "  - id: Q1",
    "    cql: SELECT total FROM orders_by_customer WHERE customer_id = ?",
    "  - id: Q2",
    "    select: [order_id, total]",
    "    where: { customer_id: \"=\" }",
    "  - id: Q3",
    "    cql: SELECT total FROM orders_by_customer WHERE total > 100",
    "",
  ].join("\n") },
  { path: "schema/000_keyspace.cql", content: "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};\n" },
  {
    path: "schema/010_orders.cql",
    content: "USE shop;\nCREATE TABLE orders_by_customer (customer_id uuid, ordered_at timestamp, order_id uuid, total decimal, PRIMARY KEY ((customer_id), ordered_at, order_id));\nCREATE TABLE broken (;\n",
  },
];

/** A deadline that passes at its `n`-th question; records how often it was asked. */
function deadlineAt(n: number): { pastDeadline: () => boolean; asked: () => number } {
  let asked = 0;
  return { pastDeadline: () => ++asked >= n, asked: () => asked };
}

/** A deadline that is past only at its `n`-th question: the stage asking then stops, the later ones go on. */
function deadlineOnlyAt(n: number): { pastDeadline: () => boolean; asked: () => number } {
  let asked = 0;
  return { pastDeadline: () => ++asked === n, asked: () => asked };
}

const budgetFindings = (findings: Finding[]) => findings.filter((f) => f.rule === "input-limit-exceeded");

// Questions of one commit's analysis, in order: 1 manifest, 2 schema files, the model, 3 queries, the estimates.
const STOPS: Array<[number, string, string]> = [
  [1, "access-patterns.yaml", "The review ran out of time before reading access-patterns.yaml;"],
  [2, "schema/000_keyspace.cql", "The review ran out of time before parsing schema/000_keyspace.cql and the 1 schema file after it;"],
  [3, "schema/010_orders.cql", "The review ran out of time before parsing schema/010_orders.cql;"],
  [4, "schema/000_keyspace.cql", "The review ran out of time before building the schema model;"],
  [5, "access-patterns.yaml", "The review ran out of time before planning query Q1 and the 2 queries after it;"],
  [7, "access-patterns.yaml", "The review ran out of time before planning query Q3;"],
  [8, "schema/000_keyspace.cql", "The review ran out of time before estimating partition sizes;"],
];

describe("the review's deadline", () => {
  it("asks between every file, query, stage and rule", () => {
    const deadline = deadlineAt(Number.POSITIVE_INFINITY);
    review({ files, pastDeadline: deadline.pastDeadline });
    // input rules (re-reporting the stages' findings) and suppression-unused (judging the others after them) are never skipped
    expect(deadline.asked()).toBe(8 + rules.filter((rule) => rule.meta.category !== "input").length);
  });

  it("stopped between rules: the rules that ran keep their findings, one finding names the rest, and the gate fails", () => {
    const complete = review({ files });
    const result = review({ files, pastDeadline: deadlineAt(8 + 11).pastDeadline });
    const [finding, ...others] = budgetFindings(result.findings);
    expect(others).toEqual([]);
    expect(finding).toMatchObject({ fingerprint: "input-limit-exceeded:time-budget:rules", location: { file: "access-patterns.yaml" } });
    expect(finding!.message).toMatch(/^The review ran out of time while checking the rules: \d+ of them did not run \(/);
    expect(result.queries.map((q) => q.id)).toEqual(["Q1", "Q2", "Q3"]);
    // what ran is a subset of the complete review
    const completeFingerprints = new Set(complete.findings.map((f) => f.fingerprint));
    for (const other of result.findings) if (other !== finding) expect(completeFingerprints.has(other.fingerprint)).toBe(true);
    expect(result.findings.length).toBeLessThan(complete.findings.length + 1);
    expect(result.gateFails).toBe(true);
    expect(result.unreviewed).toEqual([{ file: "access-patterns.yaml", reason: finding!.message }]);
  });

  it.each(STOPS)("stopped at question %i: one finding in %s saying where, no plans, nothing else from the rules", (n, file, message) => {
    const deadline = deadlineAt(n);
    const result = review({ files, pastDeadline: deadline.pastDeadline });

    expect(deadline.asked()).toBe(n);
    const [finding, ...others] = budgetFindings(result.findings);
    expect(others).toEqual([]);
    expect(finding).toMatchObject({ severity: "warning", location: { file }, fingerprint: "input-limit-exceeded:time-budget" });
    expect(finding!.message.startsWith(message)).toBe(true);
    expect(result.queries).toEqual([]);
    expect(result.estimates.size).toBe(0);
    expect(result.schema.tables.size).toBe(0);
    // only input findings: no query or table rule ran over a half-read model
    for (const other of result.findings) expect(["input-limit-exceeded", "cql-syntax-error", "manifest-invalid", "config-invalid"]).toContain(other.rule);
    // what was not reviewed fails the gate (fail closed) and is named
    expect(result.gateFails).toBe(true);
    expect(result.unreviewed).toEqual([{ file, reason: finding!.message }]);
  });

  it("stopped before the first rule, the files left unread are still named", () => {
    const huge = { path: "schema/900_dump.cql", content: "-".repeat(2 * 1024 * 1024) };
    const result = review({ files: [...files, huge], pastDeadline: deadlineAt(9).pastDeadline });
    expect(budgetFindings(result.findings).map((f) => f.fingerprint).sort()).toEqual([
      "input-limit-exceeded:file-size:schema/900_dump.cql",
      "input-limit-exceeded:time-budget:rules",
    ]);
    expect(result.unreviewed.map((u) => u.file).sort()).toEqual(["access-patterns.yaml", "schema/900_dump.cql"]);
  });

  it.each(STOPS)("stopped at question %i with `unreviewed: warn`: only a syntax error already read fails the gate", (n) => {
    const configFile = { path: ".github/cql-review.yml", content: "unreviewed: warn\n" };
    const result = review({ files, configFile, pastDeadline: deadlineAt(n).pastDeadline });
    expect(result.unreviewed).toHaveLength(1);
    expect(result.gateFails).toBe(result.findings.some((f) => f.rule === "cql-syntax-error"));
  });

  it("points at the query it did not plan", () => {
    const result = review({ files, pastDeadline: deadlineAt(6).pastDeadline });
    const [finding] = budgetFindings(result.findings);
    expect(finding!.location.range.start.line).toBe(6); // `- id: Q2`
  });

  it("keeps the syntax findings of the files it read before stopping", () => {
    const result = review({ files, pastDeadline: deadlineAt(4).pastDeadline });
    expect(result.findings.filter((f) => f.rule === "cql-syntax-error").map((f) => [f.location.file, f.location.range.start.line])).toEqual([
      ["schema/010_orders.cql", 3],
    ]);
  });

  it("a deadline that never passes changes nothing", () => {
    const plain = review({ files });
    const timed = review({ files, pastDeadline: () => false });
    expect(timed.findings).toEqual(plain.findings);
    expect(timed.queries).toEqual(plain.queries);
    expect([...timed.estimates.keys()]).toEqual([...plain.estimates.keys()]);
  });

  it("running out while reading the base keeps the head's review and says that nothing counts as existing", () => {
    const input: ReviewInput = { files, baseFiles: files };
    const complete = review(input);
    expect(complete.findings.every((f) => f.existing)).toBe(true);

    const result = review({ ...input, pastDeadline: deadlineOnlyAt(9).pastDeadline });
    expect(result.queries.map((q) => q.id)).toEqual(["Q1", "Q2", "Q3"]);
    const [finding] = budgetFindings(result.findings);
    expect(finding).toMatchObject({ fingerprint: "input-limit-exceeded:time-budget:base", location: { file: "access-patterns.yaml" } });
    expect(result.findings.filter((f) => f.existing)).toEqual([]);
    expect(result.findings.map((f) => f.rule).sort()).toEqual([...complete.findings.map((f) => f.rule), "input-limit-exceeded"].sort());
  });

  it("a stopped review gates the merge when the config makes the rule an error", () => {
    const configFile = { path: ".github/cql-review.yml", content: "rules:\n  input-limit-exceeded: error\n" };
    const result = review({ files, configFile, pastDeadline: () => true });
    expect(budgetFindings(result.findings)[0]!.severity).toBe("error");
    expect(result.gateFails).toBe(true);
  });
});
