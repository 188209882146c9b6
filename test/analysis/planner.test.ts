// The planner against Cassandra's rules (StatementRestrictions, SelectStatement), rule by rule: each rule has at
// least one query Cassandra accepts and one it rejects, and the version differences are pinned.
import { describe, expect, it } from "vitest";
import { planSelect, reasonWithoutRuleCodes } from "../../src/analysis/planner.js";
import type { QueryPlan } from "../../src/analysis/types.js";
import type { CassandraVersion, TableModel } from "../../src/schema/model.js";
import { makeTable, parseSelect, type TableSpec } from "./planner-fixtures.js";

const AF = "might involve data filtering";

function plan(table: TableModel, query: string, version: CassandraVersion = "5.0"): QueryPlan {
  return planSelect(parseSelect(query), table, version);
}

interface Expectation {
  verdict: QueryPlan["verdict"];
  partitions?: QueryPlan["partitions"];
  gist?: string;
  rule?: string;
}

function expectPlan(p: QueryPlan, want: Expectation): void {
  expect({ verdict: p.verdict, partitions: p.partitions }, p.reason).toEqual({
    verdict: want.verdict,
    partitions: want.partitions === undefined ? p.partitions : want.partitions,
  });
  if (want.gist) expect(p.errorGist).toContain(want.gist);
  if (want.rule) expect(p.reason.startsWith(want.rule + ":") || p.ruleIds.includes(want.rule), `${want.rule} in ${p.reason} / ${p.ruleIds}`).toBe(true);
}

const events = makeTable("tenant text, day date, at timestamp, seq int, payload text, score int, PRIMARY KEY ((tenant, day), at, seq)");
const simple = makeTable("id int, c int, v int, PRIMARY KEY (id, c)");
const deep = makeTable("id int, a int, b int, c int, v int, PRIMARY KEY (id, a, b, c)");

describe("verdicts and partition counts (B1, B2)", () => {
  it("binds a composite partition key by equality: one partition", () => {
    expectPlan(plan(events, "SELECT * FROM t WHERE tenant = 'acme' AND day = '2024-01-02'"), { verdict: "single-partition", partitions: 1, rule: "B1" });
  });
  it("counts the cartesian product of distinct IN values", () => {
    expectPlan(plan(events, "SELECT * FROM t WHERE tenant IN ('a', 'b', 'a') AND day IN ('2024-01-01', '2024-01-02', '2024-01-03')"), {
      verdict: "multi-partition",
      partitions: 6,
      rule: "B2",
    });
  });
  it("treats equal literals written differently as one value", () => {
    expectPlan(plan(simple, "SELECT * FROM t WHERE id IN (7, 07, 8)"), { verdict: "multi-partition", partitions: 2 });
  });
  it("cannot count IN lists of markers: they may be bound to equal values", () => {
    expectPlan(plan(simple, "SELECT * FROM t WHERE id IN (?, ?)"), { verdict: "multi-partition", partitions: null });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id IN ?"), { verdict: "multi-partition", partitions: null });
    expectPlan(plan(events, "SELECT * FROM t WHERE tenant IN ('a', 'b') AND day IN :days"), { verdict: "multi-partition", partitions: null });
  });
  it("names the operators that bind the key: IN alone, or = and IN", () => {
    expect(plan(simple, "SELECT * FROM t WHERE id IN ?").reason).toContain("(id) is bound by IN, so");
    expect(plan(events, "SELECT * FROM t WHERE tenant = 'a' AND day IN ?").reason).toContain("(tenant, day) is bound by = and IN, so");
  });
  it("gives users the reason without the rule codes it cites", () => {
    expect(reasonWithoutRuleCodes(plan(events, "SELECT * FROM t WHERE tenant = ? AND day = ? AND at > ?").reason)).toBe(
      "the partition key (tenant, day) is bound by =, so one partition is read (a slice selected by at)",
    );
    expect(reasonWithoutRuleCodes("B2: the partition key (A1) is bound by IN, so 2 partitions are read. The token() bound only filters the listed keys (T3).")).toBe(
      "the partition key (A1) is bound by IN, so 2 partitions are read. The token() bound only filters the listed keys",
    );
  });
  it("reads nothing for an empty IN, whatever the other lists", () => {
    expectPlan(plan(events, "SELECT * FROM t WHERE tenant IN () AND day IN ?"), { verdict: "multi-partition", partitions: 0 });
  });
  it("bounds rows by the full primary key and by LIMIT on one partition", () => {
    expect(plan(simple, "SELECT * FROM t WHERE id = 1 AND c = 2").rowsRead).toBe(1);
    expect(plan(simple, "SELECT * FROM t WHERE id = 1 LIMIT 20").rowsRead).toBe(20);
    expect(plan(simple, "SELECT * FROM t WHERE id = 1 PER PARTITION LIMIT 5 LIMIT 20").rowsRead).toBe(5);
    expect(plan(simple, "SELECT * FROM t WHERE id = 1").rowsRead).toBeNull();
    // LIMIT bounds the result of an aggregate, not what it reads
    expect(plan(simple, "SELECT count(*) FROM t WHERE id = 1 LIMIT 1").rowsRead).toBeNull();
    // nor does it bound a filtered read, which may scan the partition to find its rows
    expect(plan(simple, "SELECT * FROM t WHERE id = 1 AND v = 2 LIMIT 1 ALLOW FILTERING").rowsRead).toBeNull();
  });
  it("explains the plan step by step", () => {
    const p = plan(events, "SELECT * FROM t WHERE tenant = ? AND day = ? AND at > ? ORDER BY at DESC LIMIT 10");
    const topics = p.steps.map((s) => s.topic);
    expect(topics).toEqual(["table", "partition key", "partition key", "clustering", "order", "limit", "partitions", "verdict"]);
    expect(p.steps[3]!.text).toContain("slice");
    expect(p.direction).toBe("reverse");
    expect(p.rowsRead).toBe(10);
  });
});

describe("relation legality (A1–A10)", () => {
  const coll = makeTable(
    "id int, c int, tags set<text>, attrs map<text, int>, hist list<int>, ftags frozen<set<text>>, fattrs frozen<map<text, int>>, d duration, PRIMARY KEY (id, c)",
  );
  it("A1: != and IS NOT NULL are rejected, ALLOW FILTERING or not", () => {
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND v != 2 ALLOW FILTERING"), { verdict: "invalid", gist: 'Unsupported "!=" relation', rule: "A1" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE v IS NOT NULL ALLOW FILTERING"), { verdict: "invalid", gist: "Unsupported restriction: v IS NOT NULL" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND v = 2 ALLOW FILTERING"), { verdict: "single-partition" });
  });
  it("A1: OR, BETWEEN and NOT IN are outside the grammar of every supported release", () => {
    for (const version of ["3.11", "4.0", "4.1", "5.0"] as const) {
      expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 OR id = 2", version), { verdict: "invalid", gist: "no OR" });
      expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND c BETWEEN 1 AND 3", version), { verdict: "invalid", gist: "BETWEEN" });
      expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND c NOT IN (1, 2)", version), { verdict: "invalid", gist: "NOT IN" });
    }
  });
  it("A2: non-frozen collections take CONTAINS, CONTAINS KEY and map-entry equality only", () => {
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND tags CONTAINS 'x' ALLOW FILTERING"), { verdict: "single-partition" });
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND attrs['k'] = 3 ALLOW FILTERING"), { verdict: "single-partition" });
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND tags = {'x'} ALLOW FILTERING"), { verdict: "invalid", gist: "cannot be restricted by a '=' relation" });
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND hist[0] = 3 ALLOW FILTERING"), { verdict: "invalid", gist: "list entries" });
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND tags CONTAINS KEY 'x' ALLOW FILTERING"), { verdict: "invalid", gist: "non-map column tags" });
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND c CONTAINS 2 ALLOW FILTERING"), { verdict: "invalid", gist: "non-collection column c" });
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND attrs['k'] >= 3 ALLOW FILTERING"), { verdict: "invalid", gist: "Only EQ relations" });
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND fattrs['k'] = 3 ALLOW FILTERING"), { verdict: "invalid", gist: "frozen map column fattrs" });
  });
  it("A3: frozen collections compare as whole values", () => {
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND ftags = {'a', 'b'} ALLOW FILTERING"), { verdict: "single-partition" });
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND ftags CONTAINS 'a' ALLOW FILTERING"), { verdict: "single-partition" });
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND ftags = {'a'}"), { verdict: "needs-allow-filtering", partitions: 1 });
  });
  it("A4: non-frozen user types cannot be restricted; durations take = and IN but no ranges", () => {
    const udt = makeTable("id int PRIMARY KEY, home address, work frozen<address>", {
      udts: { address: [{ name: "city", type: "text" }, { name: "zip", type: "text" }] },
    });
    expectPlan(plan(udt, "SELECT * FROM t WHERE home = {city: 'x', zip: 'y'} ALLOW FILTERING"), { verdict: "invalid", gist: "Non-frozen UDT column 'home'" });
    expectPlan(plan(udt, "SELECT * FROM t WHERE work = {city: 'x', zip: 'y'} ALLOW FILTERING"), { verdict: "scan", partitions: "all" });
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND d < 2h ALLOW FILTERING"), { verdict: "invalid", gist: "duration columns" });
    expectPlan(plan(coll, "SELECT * FROM t WHERE id = 1 AND d = 2h ALLOW FILTERING"), { verdict: "single-partition" });
  });
  it("A5: LIKE needs a SASI index that supports it; ALLOW FILTERING cannot evaluate it", () => {
    const text = makeTable("id int, c int, name text, PRIMARY KEY (id, c)");
    expectPlan(plan(text, "SELECT * FROM t WHERE name LIKE 'ab%' ALLOW FILTERING"), { verdict: "invalid", gist: "LIKE restriction is only supported on properly indexed columns" });
    const legacy = makeTable("id int, c int, name text, PRIMARY KEY (id, c)", { indexes: [{ column: "name" }] });
    expectPlan(plan(legacy, "SELECT * FROM t WHERE name LIKE 'ab%'"), { verdict: "invalid", gist: "properly indexed" });
    const sasi = makeTable("id int, c int, name text, PRIMARY KEY (id, c)", { indexes: [{ column: "name", using: "sasi" }] });
    expectPlan(plan(sasi, "SELECT * FROM t WHERE name LIKE 'ab%'"), { verdict: "index", partitions: "all" });
    // PREFIX mode (the default) cannot answer a leading %: raised at execution
    expectPlan(plan(sasi, "SELECT * FROM t WHERE name LIKE '%ab'"), { verdict: "invalid", rule: "A5" });
    const contains = makeTable("id int, c int, name text, PRIMARY KEY (id, c)", { indexes: [{ column: "name", using: "sasi", options: { mode: "CONTAINS" } }] });
    expectPlan(plan(contains, "SELECT * FROM t WHERE name LIKE '%ab%'"), { verdict: "index" });
  });
  it("A6: a second relation on an EQ, IN or bound column is rejected with the first relation's wording", () => {
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND id = 2"), { verdict: "invalid", gist: "id cannot be restricted by more than one relation if it includes an Equal" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND c IN (1, 2) AND c > 0"), { verdict: "invalid", gist: "if it includes a IN" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND c > 1 AND c = 4"), { verdict: "invalid", gist: 'Column "c" cannot be restricted by both an equality and an inequality relation' });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND c > 1 AND c >= 2"), { verdict: "invalid", gist: "More than one restriction was found for the start bound on c" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND c > 1 AND c <= 9"), { verdict: "single-partition", partitions: 1 });
  });
  it("A7: multi-column relations apply to clustering columns in order", () => {
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND (a, b) = (1, 2)"), { verdict: "single-partition" });
    expectPlan(plan(deep, "SELECT * FROM t WHERE (id, a) = (1, 2)"), { verdict: "invalid", gist: "only be applied to clustering columns but was applied to: id" });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND (a, c) = (1, 2)"), { verdict: "invalid", gist: "PRIMARY KEY order" });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND (a, b) = (1, 2, 3)"), { verdict: "invalid", gist: "Expected 2 elements" });
  });
  it("A8: IN with one value is an equality; IN ? stays an IN", () => {
    expectPlan(plan(simple, "SELECT * FROM t WHERE id IN (4)"), { verdict: "single-partition", partitions: 1 });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id IN (?)"), { verdict: "single-partition", partitions: 1 });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id IN ?"), { verdict: "multi-partition", partitions: null });
  });
  it("A9: literal nulls fail at execution, even with ALLOW FILTERING", () => {
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND v = null ALLOW FILTERING"), { verdict: "invalid", gist: "Unsupported null value for column v" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = null"), { verdict: "invalid", gist: "Invalid null value" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = ? AND v = ? ALLOW FILTERING"), { verdict: "single-partition" });
  });
  it("A10: unknown columns, aliases and ill-typed literals are rejected", () => {
    expectPlan(plan(simple, "SELECT * FROM t WHERE nope = 1"), { verdict: "invalid", gist: "Undefined column name nope" });
    const aliased = plan(simple, "SELECT v AS value FROM t WHERE id = 1 AND value = 2 ALLOW FILTERING");
    expectPlan(aliased, { verdict: "invalid", gist: "Undefined column name value" });
    expect(aliased.reason).toContain("alias");
    expect(plan(simple, "SELECT v AS value FROM t WHERE id = 1 AND value = 2 ALLOW FILTERING", "3.11").errorGist).toBe("Aliases aren't allowed in the where clause");
    expectPlan(plan(simple, "SELECT missing FROM t WHERE id = 1"), { verdict: "invalid", gist: "Undefined column name missing" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 ORDER BY nope DESC"), { verdict: "invalid", gist: "Undefined column name nope" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 'one'"), { verdict: "invalid", gist: 'Invalid STRING constant (one) for "id" of type int' });
  });
});

describe("token() (T1–T3)", () => {
  it("T1: token() names the whole partition key, in order, and never takes IN", () => {
    expectPlan(plan(events, "SELECT * FROM t WHERE token(day, tenant) > 0"), { verdict: "invalid", gist: "partition key order" });
    expectPlan(plan(events, "SELECT * FROM t WHERE token(tenant) > 0"), { verdict: "invalid", gist: "all partition key components" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE token(id) IN (1, 2)"), { verdict: "invalid", gist: "IN cannot be used with token()" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE token(id) > 5 AND token(id) > 7"), { verdict: "invalid", gist: "start bound" });
  });
  it("T2: a token range alone is a range scan without ALLOW FILTERING", () => {
    expectPlan(plan(events, "SELECT * FROM t WHERE token(tenant, day) >= ? AND token(tenant, day) < ?"), { verdict: "scan", partitions: null, rule: "T2" });
  });
  it("T3: token() with the whole key bound reads the key; with part of it, it filters", () => {
    expectPlan(plan(simple, "SELECT * FROM t WHERE token(id) > 0 AND id = 3"), { verdict: "single-partition", partitions: 1 });
    expectPlan(plan(simple, "SELECT * FROM t WHERE token(id) > 0 AND id IN (3, 4)"), { verdict: "multi-partition", partitions: 2 });
    expectPlan(plan(events, "SELECT * FROM t WHERE token(tenant, day) > 0 AND tenant = 'a'"), { verdict: "needs-allow-filtering", partitions: null, gist: AF });
  });
});

describe("partition key filtering (B3, B4)", () => {
  it("B3: a partial or ranged key needs ALLOW FILTERING and becomes a full scan", () => {
    expectPlan(plan(events, "SELECT * FROM t WHERE tenant = 'a'"), { verdict: "needs-allow-filtering", partitions: "all", gist: AF, rule: "B3" });
    expectPlan(plan(events, "SELECT * FROM t WHERE tenant = 'a' ALLOW FILTERING"), { verdict: "scan", partitions: "all" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id > 10"), { verdict: "needs-allow-filtering", partitions: "all" });
  });
  it("B4: a partition-key IN that needs filtering is rejected before 4.1", () => {
    const q = "SELECT * FROM t WHERE tenant IN ('a', 'b') ALLOW FILTERING";
    expectPlan(plan(events, q, "3.11"), { verdict: "invalid", gist: "IN restrictions are not supported when the query involves filtering" });
    expectPlan(plan(events, q, "4.0"), { verdict: "invalid", rule: "B4" });
    expectPlan(plan(events, q, "4.1"), { verdict: "scan", partitions: "all" });
    expectPlan(plan(events, q, "5.0"), { verdict: "scan", partitions: "all" });
  });
});

describe("clustering columns (C1–C8)", () => {
  it("C1: a prefix of equalities then one range is served without filtering", () => {
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND a = 1 AND b IN (1, 2) AND c >= 3"), { verdict: "single-partition", rule: "C1" });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND a IN (1, 2) AND b IN (3, 4)"), { verdict: "single-partition" });
  });
  it("C2: skipping a clustering column names the column, and ALLOW FILTERING cures it", () => {
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND b = 1"), {
      verdict: "needs-allow-filtering",
      partitions: 1,
      gist: 'PRIMARY KEY column "b" cannot be restricted as preceding column "a" is not restricted',
    });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND b = 1 ALLOW FILTERING"), { verdict: "single-partition", partitions: 1 });
  });
  it("C3: a clustering restriction without the partition key always needs ALLOW FILTERING", () => {
    expectPlan(plan(deep, "SELECT * FROM t WHERE a = 1 AND b = 2"), { verdict: "needs-allow-filtering", partitions: "all", gist: AF, rule: "C3" });
    expectPlan(plan(deep, "SELECT * FROM t WHERE a = 1 ALLOW FILTERING"), { verdict: "scan", partitions: "all" });
  });
  it("C4: nothing may follow a range without filtering; the wording follows the written order", () => {
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND a > 1 AND b = 2"), {
      verdict: "needs-allow-filtering",
      gist: 'Clustering column "b" cannot be restricted (preceding column "a" is restricted by a non-EQ relation)',
    });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND b = 2 AND a > 1"), {
      verdict: "needs-allow-filtering",
      gist: 'PRIMARY KEY column "b" cannot be restricted (preceding column "a" is restricted by a non-EQ relation)',
    });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND a > 1 AND b = 2 ALLOW FILTERING"), { verdict: "single-partition" });
  });
  it("C5: filtered multi-column ranges fail at execution; filtered IN only works from 4.1", () => {
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND (b, c) > (1, 2) ALLOW FILTERING"), { verdict: "invalid", gist: "Multi-column slice restrictions cannot be used for filtering" });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND b IN (1, 2) ALLOW FILTERING", "4.0"), { verdict: "invalid", gist: "IN restrictions are not supported on indexed columns" });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND b IN (1, 2) ALLOW FILTERING", "4.1"), { verdict: "single-partition" });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND (b, c) = (1, 2) ALLOW FILTERING"), { verdict: "single-partition" });
  });
  it("C6: CONTAINS on a frozen clustering collection needs an index or filtering", () => {
    const frozen = makeTable("id int, tags frozen<set<text>>, v int, PRIMARY KEY (id, tags)");
    expectPlan(plan(frozen, "SELECT * FROM t WHERE id = 1 AND tags CONTAINS 'x'"), { verdict: "needs-allow-filtering", gist: "Clustering columns can only be restricted with CONTAINS" });
    expectPlan(plan(frozen, "SELECT * FROM t WHERE id = 1 AND tags CONTAINS 'x' ALLOW FILTERING"), { verdict: "single-partition" });
  });
  it("C7: a clustering IN with a non-frozen collection selected is rejected in 3.11 only", () => {
    const withList = makeTable("id int, c int, items list<int>, PRIMARY KEY (id, c)");
    const q = "SELECT * FROM t WHERE id = 1 AND c IN (1, 2)";
    expectPlan(plan(withList, q, "3.11"), { verdict: "invalid", gist: "when a collection is selected" });
    expectPlan(plan(withList, q, "4.0"), { verdict: "single-partition" });
    expectPlan(plan(withList, "SELECT id, c FROM t WHERE id = 1 AND c IN (1, 2)", "3.11"), { verdict: "single-partition" });
  });
  it("C8: two ranges must start on the same column", () => {
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND (a, b) > (1, 2) AND a < 5"), { verdict: "single-partition" });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND (a, b) > (1, 2) AND (b) < (5)"), {
      verdict: "invalid",
      gist: 'Column "b" cannot be restricted by two inequalities not starting with the same column',
    });
  });
});

describe("non-key columns (N1–N5)", () => {
  it("N1/N2: a non-key restriction needs ALLOW FILTERING, even on one row; with it the read stays in the bound partitions", () => {
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND c = 1 AND v = 2"), { verdict: "needs-allow-filtering", partitions: 1, gist: AF, rule: "N1" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id IN (1, 2) AND v = 2 ALLOW FILTERING"), { verdict: "multi-partition", partitions: 2, rule: "N2" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE v = 2 ALLOW FILTERING"), { verdict: "scan", partitions: "all" });
  });
  it("N1: the reason names the unindexed non-key columns in the singular or the plural", () => {
    expect(plan(events, "SELECT * FROM t WHERE tenant = 'a' AND day = ? AND score = 1").reason).toContain(
      "the non-key column score is restricted without an index that serves it;",
    );
    expect(plan(events, "SELECT * FROM t WHERE tenant = 'a' AND day = ? AND score = 1 AND payload = 'x'").reason).toContain(
      "the non-key columns score, payload are restricted without an index that serves them;",
    );
  });
  it("N3: IN on a non-key column is rejected before 4.1 and filterable from 4.1", () => {
    const q = "SELECT * FROM t WHERE id = 1 AND v IN (1, 2) ALLOW FILTERING";
    expectPlan(plan(simple, q, "3.11"), { verdict: "invalid", gist: "IN predicates on non-primary-key columns (v) is not yet supported" });
    expectPlan(plan(simple, q, "4.0"), { verdict: "invalid" });
    expectPlan(plan(simple, q, "4.1"), { verdict: "single-partition", partitions: 1 });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 AND v IN (1) ALLOW FILTERING", "3.11"), { verdict: "single-partition" });
  });
  it("N4: static columns filter like regular ones; static-only selections cannot restrict clustering columns", () => {
    const st = makeTable("id int, c int, s int static, v int, PRIMARY KEY (id, c)");
    expectPlan(plan(st, "SELECT * FROM t WHERE id = 1 AND s = 3"), { verdict: "needs-allow-filtering", partitions: 1 });
    expectPlan(plan(st, "SELECT s FROM t WHERE id = 1 AND c = 2"), { verdict: "invalid", gist: "Cannot restrict clustering columns when selecting only static columns" });
    expectPlan(plan(st, "SELECT id, s FROM t WHERE id = 1"), { verdict: "single-partition" });
  });
  it("N5: counter tables have no indexes, so counter predicates always need ALLOW FILTERING", () => {
    const counters = makeTable("id int, c int, hits counter, PRIMARY KEY (id, c)", { indexes: [{ column: "hits" }] });
    const p = plan(counters, "SELECT * FROM t WHERE hits > 10");
    expectPlan(p, { verdict: "needs-allow-filtering", partitions: "all", rule: "N5" });
    expectPlan(plan(counters, "SELECT * FROM t WHERE hits > 10 ALLOW FILTERING"), { verdict: "scan" });
  });
});

describe("secondary indexes (E1–E11)", () => {
  const indexed = (spec: TableSpec, body = "id int, c int, v int, w int, tags set<text>, attrs map<text, int>, PRIMARY KEY (id, c)") => makeTable(body, spec);

  it("E1: a legacy index serves = only; collections by target", () => {
    const t = indexed({ indexes: [{ column: "v" }, { column: "tags" }, { column: "attrs", target: "keys" }] });
    expectPlan(plan(t, "SELECT * FROM t WHERE v = 3"), { verdict: "index", partitions: "all", rule: "E1" });
    expect(plan(t, "SELECT * FROM t WHERE v = 3").index).toBe("t_v_idx");
    expectPlan(plan(t, "SELECT * FROM t WHERE v > 3"), { verdict: "needs-allow-filtering", partitions: "all" });
    expectPlan(plan(t, "SELECT * FROM t WHERE tags CONTAINS 'a'"), { verdict: "index" });
    expectPlan(plan(t, "SELECT * FROM t WHERE attrs CONTAINS KEY 'a'"), { verdict: "index" });
    expectPlan(plan(t, "SELECT * FROM t WHERE attrs CONTAINS 3"), { verdict: "needs-allow-filtering" });
    expectPlan(plan(t, "SELECT * FROM t WHERE attrs['a'] = 3"), { verdict: "needs-allow-filtering" });
  });
  it("E1: SAI serves ranges on numbers but not on text, and never IN", () => {
    const t = indexed({ indexes: [{ column: "v", using: "sai" }, { column: "name", using: "sai" }] }, "id int, c int, v int, name text, PRIMARY KEY (id, c)");
    expectPlan(plan(t, "SELECT * FROM t WHERE v > 3"), { verdict: "index", partitions: "all" });
    expectPlan(plan(t, "SELECT * FROM t WHERE name > 'm'"), { verdict: "needs-allow-filtering" });
    expectPlan(plan(t, "SELECT * FROM t WHERE v IN (1, 2)"), { verdict: "needs-allow-filtering" });
    // SAI does not exist before 5.0
    expectPlan(plan(t, "SELECT * FROM t WHERE v > 3", "4.1"), { verdict: "needs-allow-filtering" });
  });
  it("E2: two legacy indexes still filter; SAI indexes intersect (5.0)", () => {
    const legacy = indexed({ indexes: [{ column: "v" }, { column: "w" }] });
    expectPlan(plan(legacy, "SELECT * FROM t WHERE v = 1 AND w = 2"), { verdict: "needs-allow-filtering", partitions: "all", gist: AF });
    expectPlan(plan(legacy, "SELECT * FROM t WHERE v = 1 AND w = 2 ALLOW FILTERING"), { verdict: "index", partitions: "all" });
    const sai = indexed({ indexes: [{ column: "v", using: "sai" }, { column: "w", using: "sai" }] });
    expectPlan(plan(sai, "SELECT * FROM t WHERE v = 1 AND w > 2"), { verdict: "index", partitions: "all", rule: "E2" });
    const multiple = indexed({ indexes: [{ column: "tags" }] });
    expectPlan(plan(multiple, "SELECT * FROM t WHERE tags CONTAINS 'a' AND tags CONTAINS 'b'"), { verdict: "needs-allow-filtering" });
    const saiTags = indexed({ indexes: [{ column: "tags", using: "sai" }] });
    expectPlan(plan(saiTags, "SELECT * FROM t WHERE tags CONTAINS 'a' AND tags CONTAINS 'b'"), { verdict: "index" });
  });
  it("E3: clustering restrictions join the index filter on range queries, not on bound partitions", () => {
    const t = indexed({ indexes: [{ column: "v" }] });
    expectPlan(plan(t, "SELECT * FROM t WHERE c = 1 AND v = 2"), { verdict: "needs-allow-filtering", partitions: "all" });
    expectPlan(plan(t, "SELECT * FROM t WHERE id = 1 AND c = 1 AND v = 2"), { verdict: "index", partitions: 1 });
  });
  it("E2 (5.0): a clustering restriction an index answers may follow a range", () => {
    const body = "k1 int, k2 int, c1 int, c2 int, c3 int, c4 int, v1 int, PRIMARY KEY ((k1, k2), c1, c2, c3, c4)";
    const sai = makeTable(body, { indexes: [{ column: "c2", using: "sai" }, { column: "c4", using: "sai" }] });
    expectPlan(plan(sai, "SELECT * FROM t WHERE c2 > 0 AND c4 = 0"), { verdict: "index", partitions: "all" });
    const legacy = makeTable(body, { indexes: [{ column: "c2" }, { column: "c4" }] });
    expectPlan(plan(legacy, "SELECT * FROM t WHERE c2 > 0 AND c4 = 0", "4.1"), { verdict: "needs-allow-filtering", gist: 'Clustering column "c4" cannot be restricted' });
  });
  it("E3: 4.x counts row-filter expressions, so a lone unindexed filter beside an index passes as a filtered key read", () => {
    const t = makeTable("k1 int, k2 int, c1 int, c2 int, v1 int, PRIMARY KEY ((k1, k2), c1, c2)", { indexes: [{ column: "c1" }] });
    const q = "SELECT * FROM t WHERE k1 = 0 AND k2 = 0 AND c1 = 0 AND c2 = 0 AND v1 = 0";
    const old = plan(t, q, "4.1");
    expectPlan(old, { verdict: "single-partition", partitions: 1 });
    expect(old.index).toBeUndefined();
    expectPlan(plan(t, q, "5.0"), { verdict: "needs-allow-filtering", partitions: 1 });
  });
  it("E4/E7: an index on a key column is used only when the key path cannot serve", () => {
    const t = makeTable("a int, b int, c int, v int, PRIMARY KEY ((a, b), c)", { indexes: [{ column: "b" }, { column: "c" }] });
    expectPlan(plan(t, "SELECT * FROM t WHERE a = 1 AND b = 2 AND c = 3"), { verdict: "single-partition", partitions: 1 });
    expect(plan(t, "SELECT * FROM t WHERE a = 1 AND b = 2 AND c = 3").index).toBeUndefined();
    expectPlan(plan(t, "SELECT * FROM t WHERE b = 2"), { verdict: "index", partitions: "all" });
    expectPlan(plan(t, "SELECT * FROM t WHERE c = 3"), { verdict: "index", partitions: "all" });
  });
  it("E5: IN on the partition key cannot be combined with an index, even with ALLOW FILTERING", () => {
    const t = indexed({ indexes: [{ column: "v" }] });
    expectPlan(plan(t, "SELECT * FROM t WHERE id IN (1, 2) AND v = 3 ALLOW FILTERING"), { verdict: "invalid", gist: "Select on indexed columns and with IN clause" });
    const plain = indexed({});
    expectPlan(plan(plain, "SELECT * FROM t WHERE id IN (1, 2) AND v = 3 ALLOW FILTERING"), { verdict: "multi-partition", partitions: 2 });
  });
  it("E6: ORDER BY is refused on index queries; the 5.0 message mentions ANN", () => {
    const t = indexed({ indexes: [{ column: "v" }] });
    const q = "SELECT * FROM t WHERE id = 1 AND v = 2 ORDER BY c DESC";
    expectPlan(plan(t, q, "4.1"), { verdict: "invalid", gist: "ORDER BY with 2ndary indexes is not supported." });
    expect(plan(t, q, "5.0").errorGist).toContain("except for ANN queries");
    expectPlan(plan(indexed({}), q + " ALLOW FILTERING"), { verdict: "single-partition", partitions: 1 });
  });
  it("E8: an index on a static column serves queries that select only static columns", () => {
    const t = makeTable("id int, c int, s int static, v int, PRIMARY KEY (id, c)", { indexes: [{ column: "s" }] });
    expectPlan(plan(t, "SELECT id, s FROM t WHERE s = 4", "3.11"), { verdict: "index", partitions: "all" });
  });
  it("E9: ANN needs an SAI index on a float vector, ascending, a LIMIT, and no unindexed filter", () => {
    const t = makeTable("id int, c int, emb vector<float, 3>, kind text, PRIMARY KEY (id, c)", { indexes: [{ column: "emb", using: "sai" }] });
    expectPlan(plan(t, "SELECT * FROM t ORDER BY emb ANN OF [0.1, 0.2, 0.3] LIMIT 5"), { verdict: "index", partitions: "all", rule: "E1" });
    expectPlan(plan(t, "SELECT * FROM t WHERE id = 2 ORDER BY emb ANN OF [0.1, 0.2, 0.3] LIMIT 5"), { verdict: "index", partitions: 1 });
    expectPlan(plan(t, "SELECT * FROM t ORDER BY emb ANN OF [0.1, 0.2, 0.3]"), { verdict: "invalid", gist: "Top-K queries must have a limit" });
    expectPlan(plan(t, "SELECT * FROM t ORDER BY emb ANN OF [0.1, 0.2, 0.3] DESC LIMIT 5"), { verdict: "invalid", gist: "Descending ANN ordering" });
    expectPlan(plan(t, "SELECT * FROM t WHERE kind = 'a' ORDER BY emb ANN OF [0.1, 0.2, 0.3] LIMIT 5 ALLOW FILTERING"), {
      verdict: "invalid",
      gist: "requires all restricted column(s) to be indexed",
    });
    expectPlan(plan(t, "SELECT * FROM t WHERE emb = [0.1, 0.2, 0.3]"), { verdict: "invalid", gist: "Vector indexes only support ANN queries" });
    expectPlan(plan(t, "SELECT * FROM t ORDER BY emb ANN OF [0.1, 0.2] LIMIT 5"), { verdict: "invalid", gist: "expected 3 elements, but given 2" });
    expectPlan(plan(t, "SELECT * FROM t ORDER BY emb ANN OF [0, 0, 0] LIMIT 5"), { verdict: "invalid", gist: "Zero vectors" });
    expectPlan(plan(t, "SELECT * FROM t ORDER BY emb ANN OF [0.1, 0.2, 0.3] LIMIT 5", "4.1"), { verdict: "invalid", gist: "syntax error" });
    const unindexed = makeTable("id int PRIMARY KEY, emb vector<float, 3>");
    expectPlan(plan(unindexed, "SELECT * FROM t ORDER BY emb ANN OF [0.1, 0.2, 0.3] LIMIT 5"), { verdict: "invalid", gist: "requires the column to be indexed" });
  });
  it("E10/E11: notes explain the cost and the default index class", () => {
    const t = indexed({ indexes: [{ column: "v" }] });
    const p = plan(t, "SELECT * FROM t WHERE v = 1");
    expect(p.notes.some((n) => n.includes("legacy 2i without a partition key"))).toBe(true);
    expect(p.notes.some((n) => n.startsWith("plain CREATE INDEX is assumed"))).toBe(true);
    expect(plan(t, "SELECT * FROM t WHERE v = 1", "4.0").notes.some((n) => n.startsWith("plain CREATE INDEX is assumed"))).toBe(false);
  });
  it("custom index expressions need a custom index that accepts them", () => {
    const t = makeTable("id int PRIMARY KEY, body text", { indexes: [{ column: "body", name: "body_idx", using: "custom" }, { column: "id", name: "plain" }] });
    expectPlan(plan(t, "SELECT * FROM t WHERE expr(body_idx, 'lucene query')"), { verdict: "index", partitions: "all" });
    expectPlan(plan(t, "SELECT * FROM t WHERE expr(nope, 'q')"), { verdict: "invalid", gist: "index nope not found" });
    expectPlan(plan(t, "SELECT * FROM t WHERE expr(plain, 'q')"), { verdict: "invalid", gist: "Only CUSTOM indexes" });
  });
});

describe("ORDER BY (O1–O4)", () => {
  const desc = makeTable("id int, a int, b int, v int, PRIMARY KEY (id, a, b)", { order: { a: "desc", b: "desc" } });
  it("O1: ordering needs the partition key bound by = or IN, checked before ALLOW FILTERING", () => {
    expectPlan(plan(deep, "SELECT * FROM t WHERE a = 1 ORDER BY a DESC ALLOW FILTERING"), { verdict: "invalid", gist: "ORDER BY is only supported when the partition key is restricted by an EQ or an IN" });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 ORDER BY a DESC"), { verdict: "single-partition" });
  });
  it("O2: one direction relative to the declared order; reversed reads are reported", () => {
    const forward = plan(desc, "SELECT * FROM t WHERE id = 1 ORDER BY a DESC, b DESC");
    expect([forward.verdict, forward.direction]).toEqual(["single-partition", "forward"]);
    const reverse = plan(desc, "SELECT * FROM t WHERE id = 1 ORDER BY a ASC");
    expect([reverse.verdict, reverse.direction]).toEqual(["single-partition", "reverse"]);
    expectPlan(plan(desc, "SELECT * FROM t WHERE id = 1 ORDER BY a ASC, b DESC"), { verdict: "invalid", gist: "Unsupported order by relation" });
    expectPlan(plan(desc, "SELECT * FROM t WHERE id = 1 ORDER BY v ASC"), { verdict: "invalid", gist: "clustered columns of the PRIMARY KEY, got v" });
  });
  it("O2: skipping an equality-bound column is allowed from 4.0; the wording changed too", () => {
    const q = "SELECT * FROM t WHERE id = 1 AND a = 3 ORDER BY b DESC";
    expectPlan(plan(deep, q, "3.11"), { verdict: "invalid", gist: "Order by currently only support the ordering" });
    expectPlan(plan(deep, q, "4.0"), { verdict: "single-partition" });
    expectPlan(plan(deep, "SELECT * FROM t WHERE id = 1 AND a > 3 ORDER BY b DESC", "4.0"), { verdict: "invalid", gist: "Order by currently only supports the ordering" });
  });
  it("O3: IN on the partition key with ORDER BY is valid but carries the paging caveat", () => {
    const p = plan(deep, "SELECT * FROM t WHERE id IN (1, 2) ORDER BY a DESC LIMIT 10");
    expectPlan(p, { verdict: "multi-partition", partitions: 2 });
    expect(p.notes.some((n) => n.startsWith("with IN on the partition key, ORDER BY sorts"))).toBe(true);
  });
});

describe("GROUP BY (G1–G3), DISTINCT (D1), limits and aggregates (L1, L2)", () => {
  it("G1: primary key columns in order, skipping only columns bound by =", () => {
    expectPlan(plan(deep, "SELECT id, a, count(*) FROM t WHERE id = 1 GROUP BY id, a"), { verdict: "single-partition", rule: "G1" });
    expectPlan(plan(deep, "SELECT id, b, count(*) FROM t WHERE id = 1 AND a = 2 GROUP BY b"), { verdict: "single-partition" });
    expectPlan(plan(deep, "SELECT id, b, count(*) FROM t WHERE id = 1 GROUP BY id, b"), { verdict: "invalid", gist: "following their declared order" });
    expectPlan(plan(deep, "SELECT id, count(*) FROM t WHERE id = 1 GROUP BY v"), { verdict: "invalid", gist: "got v" });
    expectPlan(plan(events, "SELECT tenant, count(*) FROM t GROUP BY tenant"), { verdict: "invalid", gist: "only a part of the partition key" });
  });
  it("G2: GROUP BY floor(time, …) from 4.1", () => {
    const ts = makeTable("id int, at timestamp, v int, PRIMARY KEY (id, at)");
    const q = "SELECT id, floor(at, 1h), count(v) FROM t WHERE id = 1 GROUP BY id, floor(at, 1h)";
    expectPlan(plan(ts, q, "4.0"), { verdict: "invalid", gist: "syntax error" });
    expectPlan(plan(ts, q, "4.1"), { verdict: "single-partition", rule: "G2" });
  });
  it("G3: DISTINCT cannot group on clustering columns", () => {
    expectPlan(plan(deep, "SELECT DISTINCT id FROM t GROUP BY id"), { verdict: "scan", partitions: "all" });
    expectPlan(plan(deep, "SELECT DISTINCT id FROM t GROUP BY id, a"), { verdict: "invalid", gist: "Grouping on clustering columns is not allowed for SELECT DISTINCT" });
  });
  it("D1: DISTINCT selects and restricts key and static columns only", () => {
    const st = makeTable("a int, b int, c int, s int static, v int, PRIMARY KEY ((a, b), c)");
    expectPlan(plan(st, "SELECT DISTINCT a, b FROM t"), { verdict: "scan", partitions: "all", rule: "D1" });
    expectPlan(plan(st, "SELECT DISTINCT a, b, s FROM t WHERE a = 1 AND b = 2"), { verdict: "single-partition" });
    expectPlan(plan(st, "SELECT DISTINCT a FROM t"), { verdict: "invalid", gist: "must request all the partition key columns (missing b)" });
    expectPlan(plan(st, "SELECT DISTINCT a, b, v FROM t"), { verdict: "invalid", gist: "(not v)" });
    expectPlan(plan(st, "SELECT DISTINCT a, b FROM t WHERE a = 1 AND b = 2 AND c = 3"), { verdict: "invalid", gist: "only supports restriction by partition key and/or static columns" });
    expectPlan(plan(st, "SELECT DISTINCT a, b FROM t PER PARTITION LIMIT 1"), { verdict: "invalid", gist: "PER PARTITION LIMIT is not allowed with SELECT DISTINCT" });
  });
  it("L1: LIMIT and PER PARTITION LIMIT must be positive; PER PARTITION LIMIT refuses plain aggregates", () => {
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 LIMIT 0"), { verdict: "invalid", gist: "LIMIT must be strictly positive" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 PER PARTITION LIMIT 0"), { verdict: "invalid", gist: "PER PARTITION LIMIT must be strictly positive" });
    expectPlan(plan(simple, "SELECT count(*) FROM t WHERE id = 1 PER PARTITION LIMIT 2"), { verdict: "invalid", gist: "not allowed with aggregate queries" });
    expectPlan(plan(simple, "SELECT * FROM t PER PARTITION LIMIT 2 LIMIT 100"), { verdict: "scan", partitions: "all" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 LIMIT ?"), { verdict: "single-partition" });
    expectPlan(plan(simple, "SELECT * FROM t WHERE id = 1 LIMIT 'ten'"), { verdict: "invalid", gist: 'Invalid STRING constant (ten) for "[limit]" of type int' });
  });
  it("L2: an aggregate over a scan is noted", () => {
    const p = plan(simple, "SELECT count(*) FROM t");
    expectPlan(p, { verdict: "scan", partitions: "all" });
    expect(p.notes.some((n) => n.startsWith("an aggregate over a query that is not restricted"))).toBe(true);
    expect(plan(simple, "SELECT count(*) FROM t WHERE id = 1").notes.some((n) => n.startsWith("an aggregate over a query that is not restricted"))).toBe(false);
  });
});

describe("which error wins (§2 order) and the ALLOW FILTERING retry (§1)", () => {
  it("ORDER BY is checked before the final ALLOW FILTERING check, so ALLOW FILTERING cannot help", () => {
    const p = plan(simple, "SELECT * FROM t WHERE c = 2 ORDER BY c DESC");
    expectPlan(p, { verdict: "invalid", gist: "ORDER BY is only supported" });
  });
  it("a non-key filter fails before ORDER BY, and still fails with ALLOW FILTERING", () => {
    const p = plan(simple, "SELECT * FROM t WHERE v = 2 ORDER BY c DESC");
    expect(p.verdict).toBe("invalid");
    expect(p.errorGist).toContain(AF);
    expect(p.errorGist).toContain("with ALLOW FILTERING: ORDER BY is only supported");
  });
  it("needs-allow-filtering reports the scope the query would get", () => {
    const p = plan(simple, "SELECT * FROM t WHERE id IN (1, 2, 3) AND v = 2");
    expectPlan(p, { verdict: "needs-allow-filtering", partitions: 3 });
    expect(p.allowFilteringWritten).toBe(false);
    expect(p.reason).toContain("multi-partition");
  });
  it("notes an ALLOW FILTERING that does nothing", () => {
    expect(plan(simple, "SELECT * FROM t WHERE id = 1 ALLOW FILTERING").notes.some((n) => n.includes("not needed"))).toBe(true);
  });
  it("plans materialized views by their own key", () => {
    const view = makeTable("v int, id int, c int, PRIMARY KEY (v, id, c)", { kind: "view", name: "t_by_v" });
    expectPlan(plan(view, "SELECT * FROM t_by_v WHERE v = 1"), { verdict: "single-partition", partitions: 1 });
    expect(plan(view, "SELECT * FROM t_by_v WHERE v = 1").steps[0]!.text).toContain("Materialized view");
  });
});
