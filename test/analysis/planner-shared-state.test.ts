// What the planner keeps per table (the Selection of `SELECT *`, index lists) or shares between
// plans must not carry one query's facts into the next: each plan below is compared with the plan
// of the same query on a fresh copy of the table, whatever was planned before on the shared one.
import { describe, expect, it } from "vitest";
import { planSelect } from "../../src/analysis/planner.js";
import type { CassandraVersion } from "../../src/schema/model.js";
import { makeTable, parseSelect } from "./planner-fixtures.js";

const BODY = "id int, c int, d int, v int, tags list<text>, s int STATIC, PRIMARY KEY (id, c, d)";
const INDEXES = { indexes: [{ name: "v_idx", column: "v" }] };
const shared = makeTable(BODY, INDEXES);

const QUERIES: [string, CassandraVersion][] = [
  ["SELECT * FROM t WHERE id = 1", "5.0"],
  ["SELECT * FROM t", "5.0"],
  ["SELECT v AS x FROM t WHERE id = 1 AND x = 2 ALLOW FILTERING", "3.11"],
  ["SELECT * FROM t WHERE id = 1 AND x = 2 ALLOW FILTERING", "3.11"],
  ["SELECT * FROM t WHERE id = 1 AND c IN (1, 2)", "3.11"],
  ["SELECT id, c FROM t WHERE id = 1 AND c IN (1, 2)", "3.11"],
  ["SELECT s FROM t WHERE id = 1", "4.1"],
  ["SELECT s FROM t WHERE id = 1 AND c = 1", "4.1"],
  ["SELECT DISTINCT id, s FROM t", "4.1"],
  ["SELECT * FROM t WHERE v = 3", "4.0"],
  ["SELECT * FROM t WHERE id = 1 AND d = 2 AND v = 3", "4.0"],
  ["SELECT count(*) FROM t WHERE id = 1", "5.0"],
  ["SELECT * FROM t WHERE id = null AND (c, d) > (1, 2) AND v = 1 ALLOW FILTERING", "5.0"],
];

describe("per-table state shared between plans", () => {
  it("gives every query the plan it gets on a table planned for the first time, in any order", () => {
    const fresh = QUERIES.map(([q, version]) => JSON.stringify(planSelect(parseSelect(q), makeTable(BODY, INDEXES), version)));
    for (const order of [QUERIES.keys(), [...QUERIES.keys()].reverse()]) {
      for (const i of order) {
        const [q, version] = QUERIES[i]!;
        expect(JSON.stringify(planSelect(parseSelect(q), shared, version)), q).toBe(fresh[i]);
      }
    }
  });

  it("keeps the facts each query depends on: aliases, the complex column of SELECT *, static-only selections", () => {
    const plan = (i: number) => planSelect(parseSelect(QUERIES[i]![0]), shared, QUERIES[i]![1]);
    expect(plan(2).errorGist).toBe("Aliases aren't allowed in the where clause");
    expect(plan(3).errorGist).toBe("Undefined column name x");
    expect(plan(4).errorGist).toContain("when a collection is selected");
    expect(plan(5)).toMatchObject({ verdict: "single-partition", rowsRead: null });
    expect(plan(6).verdict).toBe("single-partition");
    expect(plan(7).errorGist).toBe("Cannot restrict clustering columns when selecting only static columns");
    // A null is reported before the filtered multi-column range (A9 comes before C5).
    expect(plan(12).errorGist).toBe("Invalid null value in condition for column id");
    // Restrictions of earlier queries are not left behind for a query without a WHERE clause.
    expect(plan(9).verdict).toBe("index");
    expect(plan(1)).toMatchObject({ verdict: "scan", partitions: "all", reason: "no partition key restriction, so every partition is read." });
  });
});
