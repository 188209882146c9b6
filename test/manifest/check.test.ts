import { describe, expect, it } from "vitest";
import { parseCql } from "../../src/cql/index.js";
import type { Finding } from "../../src/findings.js";
import { checkManifestAgainstSchema } from "../../src/manifest/check.js";
import { loadManifest } from "../../src/manifest/load.js";
import { buildSchema } from "../../src/schema/builder.js";
import { emptySchema } from "../../src/schema/model.js";

const SCHEMA = `
CREATE KEYSPACE killrvideo WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE KEYSPACE analytics WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
USE killrvideo;
CREATE TABLE videos_by_user (
  userid uuid, added_date timestamp, videoid uuid, title text, tags set<text>, ratings map<text, int>,
  PRIMARY KEY (userid, added_date, videoid)
) WITH CLUSTERING ORDER BY (added_date DESC, videoid ASC);
CREATE TABLE users (userid uuid PRIMARY KEY, email text, firstname text, lastname text, "DisplayName" text);
CREATE TABLE events (id uuid PRIMARY KEY, payload blob);
CREATE TABLE analytics.events (id uuid PRIMARY KEY, kind text);
CREATE TABLE analytics.daily_views (day date, videoid uuid, views counter, PRIMARY KEY (day, videoid));
`;

function schemaOf(cql: string) {
  const parse = parseCql(cql);
  expect(parse.diagnostics).toEqual([]);
  const built = buildSchema([{ path: "schema.cql", text: cql, parse }]);
  expect(built.findings).toEqual([]);
  return built.schema;
}

const schema = schemaOf(SCHEMA);
const check = (manifestText: string, options?: { keyspace?: string }) => {
  const loaded = loadManifest({ path: "access-patterns.yaml", content: manifestText });
  expect(loaded.findings).toEqual([]);
  return checkManifestAgainstSchema(loaded.manifest!, schema, options);
};
const where = (f: Finding) => `${f.location.range.start.line}:${f.location.range.start.column} ${f.message}`;

describe("checkManifestAgainstSchema", () => {
  it("accepts names that exist, qualified or not, in any letter case for unquoted names", () => {
    const findings = check(`version: 1
keyspace: killrvideo
tables:
  videos_by_user:
    columns: { title: 60, TAGS: { items: 3, bytes: 10 }, ratings: { items: 4, key_bytes: 8, value_bytes: 4 } }
  analytics.daily_views: { partitions: 365 }
  users:
    columns: { '"DisplayName"': 20 }
queries:
  - id: Q1
    select: [firstName, lastname]
    where: { email: "=" }
  - id: Q2
    select: [videoid]
    where: { userid: "=", added_date: "<" }
    order_by: { added_date: desc }
  - id: Q3
    cql: SELECT * FROM no_such_table WHERE x = ?
`);
    expect(findings).toEqual([]);
  });

  it("reports an unknown table at its name, with the closest names in the keyspace", () => {
    const findings = check(`version: 1
keyspace: killrvideo
tables:
  videos_by_usr: { partitions: 5 }
  killrvideo.userz: { partitions: 5 }
  nothing_like_it: { partitions: 5 }
`);
    expect(findings.map(where)).toEqual([
      '4:3 tables.videos_by_usr: no table "videos_by_usr" in keyspace killrvideo (did you mean "videos_by_user"?)',
      '5:3 tables.killrvideo.userz: no table "killrvideo.userz" in the schema (did you mean "killrvideo.users"?)',
      '6:3 tables.nothing_like_it: no table "nothing_like_it" in keyspace killrvideo',
    ]);
    expect(findings.every((f) => f.rule === "manifest-invalid" && f.severity === "error")).toBe(true);
    expect(findings[0]!.fingerprint).toBe("manifest-invalid:access-patterns.yaml#tables.videos_by_usr:unknown-table");
  });

  it("resolves an unqualified name in the only keyspace that has it, and asks to qualify an ambiguous one", () => {
    expect(check("version: 1\ntables:\n  daily_views: { partitions: 1 }\n")).toEqual([]);
    expect(check("version: 1\ntables:\n  events: { partitions: 1 }\n").map(where)).toEqual([
      '3:3 tables.events: a table "events" exists in keyspaces killrvideo and analytics; write it as killrvideo.events or set keyspace:',
    ]);
    // The keyspace given by the caller (or the manifest) settles it.
    expect(check("version: 1\ntables:\n  events: { partitions: 1 }\n", { keyspace: "analytics" })).toEqual([]);
  });

  it("reports unknown columns of a table's sizes, and sizes that do not fit the column's type", () => {
    const findings = check(`version: 1
keyspace: killrvideo
tables:
  videos_by_user:
    columns:
      titel: 60
      title: { items: 2, bytes: 30 }
      tags: { items: 5, key_bytes: 4, value_bytes: 8 }
`);
    expect(findings.map(where)).toEqual([
      '6:7 tables.videos_by_user.columns.titel: table killrvideo.videos_by_user has no column "titel" (did you mean "title"?)',
      "7:7 tables.videos_by_user.columns.title: title is text, not a list, set or map; give its size in bytes (title: 60)",
      "8:7 tables.videos_by_user.columns.tags: tags is set<text>; key_bytes and value_bytes are for maps, write { items, bytes }",
    ]);
  });

  it("checks declared copies: the table copied from, and each column in both tables", () => {
    const findings = check(`version: 1
keyspace: killrvideo
tables:
  videos_by_user:
    copies:
      users: [email]
      user: [firstname]
      videos_by_user: [title]
`);
    expect(findings.map(where)).toEqual([
      '6:7 tables.videos_by_user.copies.users: table killrvideo.videos_by_user has no column "email"; a copy has the same name in both tables',
      '7:7 tables.videos_by_user.copies.user: no table "user" in keyspace killrvideo (did you mean "users"?)',
      "8:7 tables.videos_by_user.copies.videos_by_user: a table cannot hold copies of its own columns; name the table they are copied from",
    ]);
    expect(check("version: 1\nkeyspace: killrvideo\ntables:\n  videos_by_user:\n    copies:\n      users: [userid]\n")).toEqual([]);
  });

  it("checks a declared time bucket: a column of the partition key", () => {
    const bucket = (column: string) => check(`version: 1\nkeyspace: killrvideo\ntables:\n  daily_views:\n    time_bucket: { column: ${column}, width: 1d }\n`, { keyspace: "analytics" });
    expect(bucket("day")).toEqual([]);
    expect(bucket("videoid").map(where)).toEqual(['5:5 tables.daily_views.time_bucket.column: "videoid" is not in the partition key (day); a time bucket is a partition-key column']);
    expect(bucket("dya").map(where)).toEqual(['5:5 tables.daily_views.time_bucket.column: table analytics.daily_views has no column "dya" (did you mean "day"?); a time bucket is a partition-key column']);
  });

  it("checks distinct_values: columns of the table, at least one value", () => {
    const distinct = (figures: string) => check(`version: 1\nkeyspace: killrvideo\ntables:\n  daily_views:\n    distinct_values: ${figures}\n`, { keyspace: "analytics" });
    expect(distinct("{ videoid: 1000 }")).toEqual([]);
    expect(distinct("{ vidoeid: 1000 }").map(where)).toEqual(['5:24 tables.daily_views.distinct_values.vidoeid: table analytics.daily_views has no column "vidoeid" (did you mean "videoid"?)']);
    expect(distinct("{ videoid: 0 }").map(where)).toEqual(["5:24 tables.daily_views.distinct_values.videoid: a column takes at least one value; give the count of distinct values"]);
  });

  it("reports abstract-query columns that no table of the keyspace has, wherever they appear", () => {
    const findings = check(`version: 1
keyspace: killrvideo
queries:
  - id: Q1
    select: [firstname, lastnme]
    where: { emial: "=" }
    order_by: { added_dat: desc }
  - id: Q2
    select: [kind]
    where: { id: "=" }
`);
    expect(findings.map(where)).toEqual([
      '5:25 Q1.select.lastnme: no table in keyspace killrvideo has a column "lastnme" (did you mean "lastname"?)',
      '6:14 Q1.where.emial: no table in keyspace killrvideo has a column "emial" (did you mean "email"?)',
      '7:17 Q1.order_by.added_dat: no table in keyspace killrvideo has a column "added_dat" (did you mean "added_date"?)',
      // `kind` exists only in analytics.events: not in this keyspace.
      '9:14 Q2.select.kind: no table in keyspace killrvideo has a column "kind"',
    ]);
  });

  it("looks in every keyspace when the manifest names none", () => {
    expect(check("version: 1\nqueries:\n  - id: Q2\n    select: [kind]\n    where: { id: '=' }\n")).toEqual([]);
  });

  it("says nothing when the schema has no table at all (that problem is reported elsewhere, once)", () => {
    const loaded = loadManifest({ path: "m.yaml", content: "version: 1\ntables:\n  t: { partitions: 1 }\nqueries:\n  - id: Q1\n    select: [a]\n    where: { b: '=' }\n" });
    expect(checkManifestAgainstSchema(loaded.manifest!, emptySchema())).toEqual([]);
  });
});
