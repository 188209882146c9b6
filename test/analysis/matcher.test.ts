// The table matcher on a realistic model: ranking, the chosen table, candidates' reasons, and
// the suggested table for patterns no table serves (which must parse, build and then serve).
import { describe, expect, it } from "vitest";
import { matchAbstractQuery, synthesizeSelect } from "../../src/analysis/matcher.js";
import { planSelect } from "../../src/analysis/planner.js";
import { suggestTable } from "../../src/analysis/suggest-table.js";
import { parseCql } from "../../src/cql/index.js";
import type { SourceLocation } from "../../src/findings.js";
import type { AbstractQuery, WhereOperator } from "../../src/manifest/types.js";
import { buildSchema } from "../../src/schema/builder.js";
import type { SchemaModel } from "../../src/schema/model.js";
import { findTable } from "../../src/schema/resolve.js";

const AT: SourceLocation = { file: "access-patterns.yaml", range: { start: { line: 3, column: 5, offset: 40 }, end: { line: 3, column: 9, offset: 44 } } };

const VIDEO_SCHEMA = `
CREATE KEYSPACE video WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
USE video;
CREATE TABLE users (userid uuid PRIMARY KEY, email text, firstname text, lastname text, created_date timestamp);
CREATE TABLE users_by_email (email text PRIMARY KEY, userid uuid, firstname text, lastname text);
CREATE TABLE videos (videoid uuid PRIMARY KEY, userid uuid, title text, added_date timestamp, tags set<text>, location text);
CREATE TABLE videos_by_user (
  userid uuid, added_date timestamp, videoid uuid, title text,
  PRIMARY KEY ((userid), added_date, videoid)
) WITH CLUSTERING ORDER BY (added_date DESC, videoid ASC);
CREATE TABLE videos_by_user_oldest_first (
  userid uuid, added_date timestamp, videoid uuid, title text, location text,
  PRIMARY KEY ((userid), added_date, videoid)
);
CREATE TABLE comments_by_video (videoid uuid, commentid timeuuid, userid uuid, comment text, PRIMARY KEY (videoid, commentid))
  WITH CLUSTERING ORDER BY (commentid DESC);
CREATE INDEX videos_tags_idx ON videos (tags);
`;

function schemaOf(text: string): SchemaModel {
  const parse = parseCql(text);
  expect(parse.diagnostics).toEqual([]);
  const built = buildSchema([{ path: "schema.cql", text, parse }]);
  expect(built.findings.map((f) => f.message)).toEqual([]);
  return built.schema;
}

const schema = schemaOf(VIDEO_SCHEMA);

function pattern(
  id: string,
  select: string[],
  where: Record<string, WhereOperator>,
  orderBy: Record<string, "asc" | "desc"> = {},
  limit?: number,
): AbstractQuery {
  return {
    form: "abstract",
    id,
    select,
    where: Object.entries(where).map(([column, operator]) => ({ column, operator, location: AT })),
    orderBy: Object.entries(orderBy).map(([column, direction]) => ({ column, direction })),
    ...(limit !== undefined ? { limit } : {}),
    ignore: [],
    location: AT,
  };
}

describe("matchAbstractQuery", () => {
  it("chooses the table keyed by the equality attribute and ranks the others below it", () => {
    const m = matchAbstractQuery(pattern("Q1", ["userid", "firstname", "lastname"], { email: "=" }), schema, { version: "5.0" });
    expect(m.table).toBe("video.users_by_email");
    expect(m.plan.verdict).toBe("single-partition");
    expect(m.candidates.map((c) => [c.table, c.plan.verdict])).toEqual([
      ["video.users_by_email", "single-partition"],
      ["video.users", "needs-allow-filtering"],
    ]);
    expect(m.candidates[0]!.because).toMatch(/^chosen: single-partition, no columns beyond the query's\. /);
    expect(m.candidates[1]!.because).toContain("ranked 2");
    expect(m.select?.text).toBe("SELECT userid, firstname, lastname FROM video.users_by_email WHERE email = ?");
    expect(m.suggestedTable).toBeUndefined();
  });

  it("prefers the table whose clustering order matches ORDER BY (forward beats reverse)", () => {
    const m = matchAbstractQuery(pattern("Q2", ["videoid", "title"], { userid: "=" }, { added_date: "desc" }, 20), schema, { version: "5.0" });
    expect(m.table).toBe("video.videos_by_user");
    expect(m.plan.direction).toBe("forward");
    expect(m.plan.rowsRead).toBe(20);
    const other = m.candidates.find((c) => c.table === "video.videos_by_user_oldest_first")!;
    expect(other.plan.direction).toBe("reverse");
    expect(m.candidates.indexOf(other)).toBe(1);
  });

  it("breaks a tie of verdict and direction by fewer extra columns", () => {
    const m = matchAbstractQuery(pattern("Q3", ["videoid", "title"], { userid: "=" }), schema, { version: "5.0" });
    expect(m.candidates.slice(0, 2).map((c) => c.table)).toEqual(["video.videos_by_user", "video.videos_by_user_oldest_first"]);
  });

  it("reads IN patterns as multi-partition with an unknown count", () => {
    const m = matchAbstractQuery(pattern("Q4", ["title"], { userid: "IN" }), schema, { version: "5.0" });
    expect(m.table).toBe("video.videos_by_user");
    expect([m.plan.verdict, m.plan.partitions]).toEqual(["multi-partition", null]);
  });

  it("accepts an index-served pattern when no table reads it by key", () => {
    const m = matchAbstractQuery(pattern("Q5", ["videoid", "title"], { tags: "CONTAINS" }), schema, { version: "5.0" });
    expect(m.table).toBe("video.videos");
    expect(m.plan.verdict).toBe("index");
    expect(m.plan.index).toBe("videos_tags_idx");
  });

  it("declares a pattern unserved when every candidate needs filtering, and suggests a table that serves it", () => {
    const q = pattern("Q6", ["videoid", "title", "added_date"], { location: "=" }, { added_date: "desc" });
    const m = matchAbstractQuery(q, schema, { version: "5.0", keyspace: "video" });
    expect(m.table).toBeNull();
    expect(m.plan.verdict).toBe("unserved");
    // one sentence for users: the candidate's own reason follows a colon, without its rule code
    expect(m.plan.reason).toMatch(
      /^No table serves Q6 from its primary key or an index: the best candidate, video\.\w+, gets the verdict invalid: ORDER BY needs the partition key bound by = or IN; Cassandra rejects the query even with ALLOW FILTERING\.$/,
    );
    expect(m.plan.steps[0]!.text).toMatch(/^\d+ tables hold the columns/);
    expect(m.candidates.length).toBeGreaterThan(0);
    expect(m.suggestedTable).toContain("CREATE TABLE video.videos_by_location");
    expect(m.suggestedTable).toContain("PRIMARY KEY ((location), added_date, videoid)");
    expect(m.suggestedTable).toContain("WITH CLUSTERING ORDER BY (added_date DESC, videoid ASC)");
  });

  it("says so when no table holds the pattern's columns", () => {
    const m = matchAbstractQuery(pattern("Q7", ["rating"], { videoid: "=" }), schema, { version: "5.0" });
    expect(m.table).toBeNull();
    expect(m.candidates).toEqual([]);
    expect(m.plan.reason).toContain("No table holds all of the columns rating, videoid");
    expect(m.suggestedTable).toContain("rating text");
  });

  it("serves a pattern without WHERE as a scan of the narrowest table", () => {
    const m = matchAbstractQuery(pattern("Q8", ["email"], {}), schema, { version: "5.0" });
    expect(m.table).toBe("video.users_by_email");
    expect([m.plan.verdict, m.plan.partitions]).toEqual(["scan", "all"]);
  });

  it("limits candidates to the keyspace when it has any", () => {
    const two = schemaOf(`${VIDEO_SCHEMA}
CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE other.users_by_email (email text PRIMARY KEY, userid uuid, firstname text, lastname text);`);
    const q = pattern("Q9", ["userid"], { email: "=" });
    expect(matchAbstractQuery(q, two, { version: "5.0", keyspace: "other" }).table).toBe("other.users_by_email");
    expect(matchAbstractQuery(q, two, { version: "5.0", keyspace: "video" }).table).toBe("video.users_by_email");
  });

  it("builds the SELECT the pattern implies with markers, ordering and limit", () => {
    const table = findTable(schema, "video.videos_by_user")!;
    const select = synthesizeSelect(pattern("Q10", ["title"], { userid: "=", added_date: ">=" }, { added_date: "desc" }, 5), table);
    expect(select.text).toBe("SELECT title FROM video.videos_by_user WHERE userid = ? AND added_date >= ? ORDER BY added_date DESC LIMIT 5");
    expect(select.where?.relations.map((r) => r.range)).toEqual([AT.range, AT.range]);
    expect(planSelect(select, table, "5.0")).toMatchObject({ verdict: "single-partition", direction: "forward", rowsRead: 5 });
  });

  it("returns the SELECT of the chosen table, whichever table the candidates were ranked from", () => {
    // Three tables hold the columns; the chosen one is not the first in name order.
    const q = pattern("Q11", ["title"], { userid: "=" }, { added_date: "asc" }, 3);
    const m = matchAbstractQuery(q, schema, { version: "5.0", keyspace: "video" });
    expect(m.candidates.map((c) => c.table)).toEqual(["video.videos_by_user_oldest_first", "video.videos_by_user", "video.videos"]);
    expect(m.table).toBe("video.videos_by_user_oldest_first");
    expect(m.select?.text).toBe("SELECT title FROM video.videos_by_user_oldest_first WHERE userid = ? ORDER BY added_date ASC LIMIT 3");
    expect(m.select?.table.name.name).toBe("videos_by_user_oldest_first");
    expect(m.select).toEqual(synthesizeSelect(q, findTable(schema, "video.videos_by_user_oldest_first")!));
    const other = synthesizeSelect(q, findTable(schema, "video.videos_by_user")!);
    expect(other.text).toBe("SELECT title FROM video.videos_by_user WHERE userid = ? ORDER BY added_date ASC LIMIT 3");
  });

  it("writes the SELECT of a pattern with no WHERE, ORDER BY or LIMIT, quoting names that need it", () => {
    const quoted = schemaOf(`CREATE KEYSPACE "Shop" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE "Shop"."Orders" ("Id" int PRIMARY KEY, "order" text);`);
    const select = synthesizeSelect(pattern("Q12", ["Id", "order"], {}), findTable(quoted, '"Shop"."Orders"')!);
    expect(select.text).toBe('SELECT "Id", "order" FROM "Shop"."Orders"');
    expect(select.where).toBeUndefined();
    expect(synthesizeSelect(pattern("Q13", [], {}), findTable(quoted, '"Shop"."Orders"')!).text).toBe('SELECT * FROM "Shop"."Orders"');
  });
});

describe("suggested tables round-trip: they parse, build, and serve the pattern", () => {
  const cases: [string, AbstractQuery][] = [
    ["equality", pattern("S1", ["firstname", "lastname"], { lastname: "=" })],
    ["equality, range and order", pattern("S2", ["videoid", "title"], { location: "=", added_date: ">" }, { added_date: "desc" })],
    ["two equalities", pattern("S3", ["comment"], { userid: "=", videoid: "=" }, { commentid: "desc" })],
    ["unknown columns", pattern("S4", ["score", "name"], { region: "=" }, { score: "desc" })],
    ["IN on the key", pattern("S5", ["title"], { location: "IN" })],
    ["names that need quotes", pattern("S9", ["Score", "order"], { Region: "=" }, { order: "asc" })],
  ];
  for (const [name, q] of cases) {
    it(name, () => {
      const ddl = suggestTable(q, schema, { keyspace: "video" });
      const text = `${VIDEO_SCHEMA}\n${ddl}`;
      const parse = parseCql(text);
      expect(parse.diagnostics, ddl).toEqual([]);
      const built = buildSchema([{ path: "schema.cql", text, parse }]);
      expect(built.findings.map((f) => f.message), ddl).toEqual([]);
      const m = matchAbstractQuery(q, built.schema, { version: "5.0", keyspace: "video" });
      expect(m.plan.verdict, `${ddl}\n${m.plan.reason}`).toBe(q.where.some((w) => w.operator === "IN") ? "multi-partition" : "single-partition");
      expect(m.plan.direction === null || m.plan.direction === "forward").toBe(true);
    });
  }

  it("names the table after the entity and its equality attributes, with types from existing tables", () => {
    const ddl = suggestTable(pattern("S6", ["userid", "firstname"], { lastname: "=" }), schema, { keyspace: "video" });
    expect(ddl).toBe(
      [
        "CREATE TABLE video.users_by_lastname (",
        "  lastname text,",
        "  userid uuid,",
        "  firstname text,",
        "  PRIMARY KEY ((lastname), userid)",
        ") WITH CLUSTERING ORDER BY (userid ASC);",
      ].join("\n"),
    );
  });

  it("keys a CONTAINS pattern by the element, one row per element", () => {
    const ddl = suggestTable(pattern("S8", ["videoid", "title"], { tags: "CONTAINS" }), schema, { keyspace: "video" });
    expect(ddl).toContain("-- one row per element of tags");
    expect(ddl).toContain("CREATE TABLE video.videos_by_tag (\n  tag text,");
    expect(ddl).toContain("PRIMARY KEY ((tag), videoid)");
  });

  it("adds a bucket when the pattern has no equality attribute", () => {
    const ddl = suggestTable(pattern("S7", ["title"], { added_date: ">" }), schema, { keyspace: "video" });
    expect(ddl).toMatch(/^-- no equality attribute/);
    expect(ddl).toContain("PRIMARY KEY ((bucket), added_date, videoid)");
  });
});
