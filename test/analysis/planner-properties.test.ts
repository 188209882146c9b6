// Properties of the planner over random WHERE clauses on a table with every kind of column and
// index: it never throws, its plans are internally consistent, and the §1 verdict definitions hold
// (a needs-allow-filtering query is accepted once ALLOW FILTERING is added, with the stated scope).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planSelect } from "../../src/analysis/planner.js";
import type { QueryPlan } from "../../src/analysis/types.js";
import type { CassandraVersion } from "../../src/schema/model.js";
import { makeTable, parseSelect } from "./planner-fixtures.js";

const table = makeTable(
  "k1 int, k2 text, c1 int, c2 timestamp, c3 frozen<set<int>>, s int static, v int, w text, tags set<text>, attrs map<text, int>, d duration, " +
    "PRIMARY KEY ((k1, k2), c1, c2, c3)",
  {
    order: { c2: "desc" },
    indexes: [
      { column: "v" },
      { column: "tags" },
      { column: "w", using: "sai" },
      { column: "c2", using: "sai" },
      { column: "attrs", target: "keys", using: "sai" },
      { column: "s" },
    ],
  },
);

const RELATIONS = [
  "k1 = 1", "k1 IN (1, 2, 2)", "k1 > 0", "k2 = 'a'", "k2 IN ?", "k2 = null",
  "token(k1, k2) > 0", "token(k1, k2) = token(1, 'a')",
  "c1 = 1", "c1 > 0", "c1 <= 9", "c1 IN (1, 2)", "c2 = '2024-01-01'", "c2 > ?", "c3 CONTAINS 1", "(c1, c2) > (1, '2024-01-01')",
  "(c1, c2) = (1, ?)", "(c2, c3) IN ((?, ?), (?, ?))",
  "s = 1", "v = 3", "v > 3", "v IN (1, 2)", "w = 'x'", "w > 'a'", "w LIKE 'a%'", "tags CONTAINS 'x'", "attrs CONTAINS KEY 'k'",
  "attrs['k'] = 1", "d = 1h", "d > 1h", "v != 2", "v IS NOT NULL", "nope = 1",
];
const TAILS = ["", " ORDER BY c1 DESC", " ORDER BY c1 ASC, c2 ASC", " LIMIT 10", " PER PARTITION LIMIT 2", " LIMIT 0", " GROUP BY k1, k2"];
const SELECTS = ["*", "k1, k2, s", "DISTINCT k1, k2", "count(*)", "v AS value"];
const VERSIONS: CassandraVersion[] = ["3.11", "4.0", "4.1", "5.0"];

const query = fc.record({
  select: fc.constantFrom(...SELECTS),
  relations: fc.uniqueArray(fc.constantFrom(...RELATIONS), { maxLength: 5 }),
  tail: fc.constantFrom(...TAILS),
  version: fc.constantFrom(...VERSIONS),
});

function text(q: { select: string; relations: string[]; tail: string }, allowFiltering = false): string {
  const where = q.relations.length > 0 ? ` WHERE ${q.relations.join(" AND ")}` : "";
  return `SELECT ${q.select} FROM t${where}${q.tail}${allowFiltering ? " ALLOW FILTERING" : ""}`;
}

function checkShape(p: QueryPlan): void {
  // the rule codes are machine facts (ruleIds); the reason is for people
  expect(p.reason).not.toMatch(/\b[A-Z]\d{1,2}: /);
  expect(p.ruleIds.length).toBeGreaterThan(0);
  expect(p.steps.length).toBeGreaterThan(0);
  if (p.verdict === "invalid") {
    expect(p.partitions).toBeNull();
    expect(p.errorGist).toBeTruthy();
  }
  if (p.verdict === "needs-allow-filtering") expect(p.errorGist).toBeTruthy();
  if (p.verdict === "index") expect(p.index).toBeTruthy();
  if (p.verdict === "single-partition") expect(p.partitions).toBe(1);
  if (p.verdict === "scan") expect(p.partitions === "all" || p.partitions === null).toBe(true);
  if (p.rowsRead !== null) expect(p.rowsRead).toBeGreaterThanOrEqual(0);
}

describe("planner properties", () => {
  it("every plan is well-formed and needs-allow-filtering means ALLOW FILTERING makes it pass", () => {
    fc.assert(
      fc.property(query, (q) => {
        const plan = planSelect(parseSelect(text(q)), table, q.version);
        checkShape(plan);
        const withFiltering = planSelect(parseSelect(text(q, true)), table, q.version);
        checkShape(withFiltering);
        if (plan.verdict === "needs-allow-filtering") {
          expect(["single-partition", "multi-partition", "index", "scan"]).toContain(withFiltering.verdict);
          expect(withFiltering.partitions).toEqual(plan.partitions);
        }
        // ALLOW FILTERING only removes refusals: an accepted query stays accepted with the same scope
        if (!["invalid", "needs-allow-filtering"].includes(plan.verdict)) {
          expect(withFiltering.verdict).toBe(plan.verdict);
          expect(withFiltering.partitions).toEqual(plan.partitions);
        }
      }),
      { numRuns: 300, seed: 20240501 },
    );
  });
});
