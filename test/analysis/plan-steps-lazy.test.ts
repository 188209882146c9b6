// A plan's steps are made on first read (planner.ts withLazySteps). Whoever reads a plan must not
// be able to tell: the property is own and enumerable, in its place, serialised, copied by spreads,
// deep-equal to a plain plan, stable once read, and assignable.
import { describe, expect, it } from "vitest";
import { planSelect } from "../../src/analysis/planner.js";
import type { QueryPlan } from "../../src/analysis/types.js";
import { makeTable, parseSelect } from "./planner-fixtures.js";

const events = makeTable("tenant text, day date, at timestamp, seq int, payload text, PRIMARY KEY ((tenant, day), at, seq)");
const indexed = makeTable("id int, c int, v int, PRIMARY KEY (id, c)", { indexes: [{ name: "v_idx", column: "v" }] });

function plan(query: string, table = events): QueryPlan {
  return planSelect(parseSelect(query), table, "5.0");
}

const accepted = "SELECT * FROM t WHERE tenant = 'a' AND day = '2024-01-02' AND at > '2024-01-02' LIMIT 10";
const needsFiltering = "SELECT * FROM t WHERE tenant = 'a' AND day = '2024-01-02' AND payload = 'x'";

describe("lazy plan steps", () => {
  it("is an own enumerable property, last, like every other field", () => {
    for (const p of [plan(accepted), plan(needsFiltering), plan("SELECT * FROM t WHERE v = 1", indexed)]) {
      const keys = Object.keys(p);
      expect(keys[keys.length - 1]).toBe("steps");
      expect(Object.getOwnPropertyDescriptor(p, "steps")?.enumerable).toBe(true);
      expect(Object.getOwnPropertySymbols(p).filter((s) => Object.getOwnPropertyDescriptor(p, s)?.enumerable)).toEqual([]);
    }
    expect(Object.keys(plan("SELECT * FROM t WHERE v = 1", indexed))).toEqual([
      "verdict",
      "partitions",
      "reason",
      "ruleIds",
      "direction",
      "rowsRead",
      "index",
      "allowFilteringWritten",
      "notes",
      "steps",
    ]);
  });

  it("hides its maker without any key of its own: only the plan's fields, on a plain object", () => {
    for (const p of [plan(accepted), plan(needsFiltering)]) {
      expect(Reflect.ownKeys(p)).toEqual(Object.keys(p));
      expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
      expect(p).toStrictEqual(JSON.parse(JSON.stringify(p)));
      expect(Reflect.ownKeys(p)).toEqual(Object.keys(p));
    }
  });

  it("serialises, spreads and compares like a plain plan", () => {
    const p = plan(accepted);
    const plain = JSON.parse(JSON.stringify(p)) as QueryPlan;
    expect(plain.steps.map((s) => s.topic)).toEqual(["table", "partition key", "partition key", "clustering", "limit", "partitions", "verdict"]);
    expect(p).toEqual(plain);
    expect({ ...plan(accepted) }).toEqual(plain);
    expect(JSON.stringify(plan(accepted))).toBe(JSON.stringify(plain));
  });

  it("makes the steps once and keeps them", () => {
    const p = plan(accepted);
    expect(Object.getOwnPropertyDescriptor(p, "steps")?.get, "not made before the first read").toBeTypeOf("function");
    const first = p.steps;
    expect(p.steps).toBe(first);
    expect(Object.getOwnPropertyDescriptor(p, "steps")?.value).toBe(first);
  });

  it("accepts an assignment, read before or after the steps were made", () => {
    const unread = plan(accepted);
    unread.steps = [{ topic: "note", text: "replaced" }];
    expect(unread.steps).toEqual([{ topic: "note", text: "replaced" }]);
    const read = plan(accepted);
    void read.steps;
    read.steps = [];
    expect(read.steps).toEqual([]);
    expect(JSON.parse(JSON.stringify(read)).steps).toEqual([]);
  });

  it("keeps the steps of a plan that needs ALLOW FILTERING: the accepted scope's, with one verdict", () => {
    const p = plan(needsFiltering);
    expect(p.verdict).toBe("needs-allow-filtering");
    const verdicts = p.steps.filter((s) => s.topic === "verdict");
    expect(verdicts).toHaveLength(1);
    expect(p.steps[p.steps.length - 1]!.text).toMatch(/^Rejected as written: .*Adding ALLOW FILTERING makes it a single-partition read\.$/);
    expect(p.steps.some((s) => s.topic === "filter" && s.text.startsWith("payload = 'x'"))).toBe(true);
  });

  it("gives plans of different shapes their own steps", () => {
    const a = plan(accepted);
    const b = plan("SELECT * FROM t WHERE tenant IN ('a', 'b') AND day = '2024-01-02'");
    expect(b.steps.find((s) => s.topic === "partitions")?.text).toBe("Reads 2 partitions.");
    expect(a.steps.find((s) => s.topic === "partitions")?.text).toBe("Reads 1 partition, at most 10 rows.");
  });
});
