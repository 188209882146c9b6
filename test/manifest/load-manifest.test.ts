import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { SourceRange } from "../../src/cql/ast.js";
import type { Finding } from "../../src/findings.js";
import { loadManifest, type LoadedManifest } from "../../src/manifest/load.js";
import type { AbstractQuery, CqlQuery, Manifest } from "../../src/manifest/types.js";
import { withCpuTime } from "../helpers/cpu-time.js";

const fixtureText = (name: string) => readFileSync(new URL(`../fixtures/manifests/${name}`, import.meta.url), "utf8");
const loadFixture = (name: string): LoadedManifest => loadManifest({ path: `db/${name}`, content: fixtureText(name) });
const load = (content: string): LoadedManifest => loadManifest({ path: "access-patterns.yaml", content });

/** `line:column message`, the way a reader checks a finding against the file. */
const where = (f: Finding) => `${f.location.range.start.line}:${f.location.range.start.column} ${f.message}`;
const text = (content: string, range: SourceRange) => content.slice(range.start.offset, range.end.offset);
const query = (manifest: Manifest | undefined, id: string) => manifest!.queries.find((q) => q.id === id)!;

describe("loadManifest on a complete, valid manifest", () => {
  const content = fixtureText("killrvideo.yaml");
  const { manifest, findings } = loadFixture("killrvideo.yaml");

  it("reports nothing and keeps every entry", () => {
    expect(findings).toEqual([]);
    expect(manifest!.file).toBe("db/killrvideo.yaml");
    expect(manifest!.tables.map((t) => t.name)).toEqual(["videos_by_user", "killrvideo.users", "comments_by_video"]);
    expect(manifest!.queries.map((q) => q.id)).toEqual(["Q1", "Q2", "Q3", "Q4"]);
    expect(manifest!.writes.map((w) => w.id)).toEqual(["W1", "W2"]);
  });

  it("reads an unquoted `cassandra: 5.0` (the YAML number 5) as version 5.0", () => {
    expect(manifest!.version).toBe(1);
    expect(manifest!.keyspace).toBe("killrvideo");
    expect(manifest!.cassandra).toBe("5.0");
  });

  it("normalises volume figures: underscores, rates per second, retention seconds, {avg, max}", () => {
    const [videos, users, comments] = manifest!.tables;
    expect(videos).toMatchObject({
      partitions: 2_000_000,
      rowsPerPartition: { avg: 300, max: 50_000 },
      growthPerSecond: 5 / 86_400,
      growthText: "5/day",
      retentionSeconds: 365 * 86_400,
      retentionText: "365d",
    });
    expect(users!.rowsPerPartition).toEqual({ avg: 1, max: 1 });
    expect(comments).toMatchObject({ growthPerSecond: 300, retentionSeconds: null, retentionText: "forever" });
  });

  it("reads a table's write-timestamp unit and time bucket, the bucket's width in seconds", () => {
    const loaded = loadManifest({
      path: "access-patterns.yaml",
      content: "version: 1\ntables:\n  samples:\n    write_timestamps: milliseconds\n    time_bucket: { column: Shard, width: 7d }\n  other:\n    time_bucket: { column: day }\n",
    });
    expect(loaded.findings).toEqual([]);
    const [samples, other] = loaded.manifest!.tables;
    expect(samples).toMatchObject({ writeTimestamps: "milliseconds", timeBucket: { column: "shard", widthSeconds: 7 * 86_400 } });
    expect(other!.timeBucket).toMatchObject({ column: "day" });
    expect(other!.timeBucket!.widthSeconds).toBeUndefined();
    const wrong = loadManifest({ path: "access-patterns.yaml", content: "version: 1\ntables:\n  samples:\n    write_timestamps: seconds\n" });
    expect(wrong.findings.map((f) => f.message).join("\n")).toContain('expected "milliseconds" or "microseconds"');
  });

  it("reads distinct values of columns, with the rows of the most common value when given", () => {
    const loaded = loadManifest({ path: "access-patterns.yaml", content: "version: 1\ntables:\n  orders:\n    distinct_values: { Status: 5, region: { count: 200, max_rows: 3_000_000 } }\n" });
    expect(loaded.findings).toEqual([]);
    expect(loaded.manifest!.tables[0]!.distinctValues).toMatchObject({ status: { count: 5 }, region: { count: 200, maxRows: 3_000_000 } });
    const wrong = loadManifest({ path: "access-patterns.yaml", content: "version: 1\ntables:\n  orders:\n    distinct_values: { status: many }\n" });
    expect(wrong.findings.map((f) => f.message).join("\n")).toContain("expected a count of distinct values such as 5");
  });

  it("normalises column sizes, and folds unquoted column names like CQL", () => {
    const [videos, users] = manifest!.tables;
    expect({ ...videos!.columns }).toEqual({
      title: { kind: "bytes", bytes: 60 },
      tags: { kind: "collection", items: 5, bytesPerItem: 12 },
      ratings: { kind: "collection", items: 20, bytesPerItem: 4, keyBytes: 16 },
    });
    // `"DisplayName"` is a quoted CQL name: it keeps its case.
    expect(Object.keys(users!.columns)).toEqual(["email", "DisplayName"]);
  });

  it("normalises declared copies: column names folded like CQL, duplicates once, each at its table's key", () => {
    const loaded = load('version: 1\ntables:\n  user_videos:\n    copies:\n      videos: [Name, name, PreviewImage]\n');
    expect(loaded.findings).toEqual([]);
    const [copy] = loaded.manifest!.tables[0]!.copies!;
    expect(copy).toMatchObject({ from: "videos", columns: ["name", "previewimage"] });
    expect(copy!.location.range.start).toMatchObject({ line: 5, column: 7 });
    expect(load("version: 1\ntables:\n  user_videos:\n    copies:\n      videos: []\n").findings.map((f) => f.message)).toEqual([
      expect.stringContaining("list at least one column"),
    ]);
  });

  it("puts every table, column, query, where entry and ignore at its key in the file", () => {
    const videos = manifest!.tables[0]!;
    expect(text(content, videos.location.range)).toBe("videos_by_user");
    expect(videos.location.range.start).toMatchObject({ line: 7, column: 3 });
    expect(text(content, videos.columnLocations!.tags!.range)).toBe("tags");

    const q3 = query(manifest, "Q3") as AbstractQuery;
    expect(q3.location.range.start).toMatchObject({ line: 34, column: 5 });
    expect(q3.where.map((w) => [w.column, text(content, w.location.range), w.location.range.start.line])).toEqual([
      ["userid", "userid", 38],
      ["added_date", "added_date", 39],
      ["tags", "tags", 40],
    ]);
    expect(q3.selectLocations!.map((l) => text(content, l.range))).toEqual(["videoid", "title"]);
    expect(q3.orderBy.map((o) => text(content, o.location!.range))).toEqual(["added_date"]);
    expect(q3.ignore).toMatchObject([{ rule: "query-needs-allow-filtering", reason: "the tag filter reads one partition" }]);
    expect(q3.ignore[0]!.location.range.start.line).toBe(43);
  });

  it("normalises the abstract form: operators and directions in any case", () => {
    const q2 = query(manifest, "Q2") as AbstractQuery;
    expect(q2).toMatchObject({ form: "abstract", select: ["userid", "firstname", "lastname"], limit: 1, ratePerSecond: 10 / 60 });
    expect(q2.where.map((w) => [w.column, w.operator])).toEqual([["email", "="]]);
    const q3 = query(manifest, "Q3") as AbstractQuery;
    expect(q3.where.map((w) => w.operator)).toEqual(["=", ">=", "CONTAINS"]);
    expect(q3.orderBy.map((o) => [o.column, o.direction])).toEqual([["added_date", "desc"]]);
  });

  it("parses each query's CQL and maps its positions into the manifest, also in a block scalar", () => {
    const q1 = query(manifest, "Q1") as CqlQuery;
    expect(q1.statement?.kind).toBe("select");
    expect(q1.ratePerSecond).toBe(300);
    expect(text(content, q1.statement!.table.name.range)).toBe("videos_by_user");
    expect(q1.statement!.table.name.range.start).toMatchObject({ line: 26, column: 37 });

    const q4 = query(manifest, "Q4") as CqlQuery;
    expect(q4.ratePerSecond).toBe(2 / 3600);
    expect(text(content, q4.statement!.table.name.range)).toBe("comments_by_video");
    expect(q4.statement!.table.name.range.start).toMatchObject({ line: 49, column: 12 });
    expect(text(content, q4.cqlLocation.range).startsWith("|")).toBe(true);
  });

  it("splits write paths into statements, each parsed and placed", () => {
    const [w1, w2] = manifest!.writes;
    expect(w1!.ratePerSecond).toBeCloseTo(1000 / (7 * 86_400), 12);
    expect(w1!.retried).toBe(false);
    expect(w1!.statements.map((s) => [s.statement?.kind, s.location.range.start.line])).toEqual([
      ["insert", 57],
      ["insert", 58],
    ]);
    expect(w1!.statements[1]!.cql).toBe("INSERT INTO videos_by_user (userid, added_date, videoid, title) VALUES (?, ?, ?, ?)");
    expect(w2).toMatchObject({ retried: false, ignore: [{ rule: "write-counter-retried", reason: "the client never retries" }] });
    expect(w2!.statements[0]!.statement?.kind).toBe("update");
  });

  it("does not depend on the directive: YAML 1.1 reads 2_000_000 as a number, with the same result", () => {
    const yaml11 = load("%YAML 1.1\n---\nversion: 1\ntables:\n  t: { partitions: 2_000_000, rows_per_partition: 1_500 }\n");
    expect(yaml11.findings).toEqual([]);
    expect(yaml11.manifest!.tables[0]).toMatchObject({ partitions: 2_000_000, rowsPerPartition: { avg: 1500, max: 1500 } });
  });
});

describe("loadManifest on broken manifests: each problem at its line and column", () => {
  it("misspelt keys, with the key it probably meant", () => {
    const { manifest, findings } = loadFixture("typo-key.yaml");
    expect(findings.map(where)).toEqual([
      '6:5 tables.videos_by_user.growht: unknown key (did you mean "growth"?)',
      '12:5 queries[0].descripton: unknown key (did you mean "description"?)',
    ]);
    expect(findings.every((f) => f.rule === "manifest-invalid" && f.severity === "error")).toBe(true);
    // The broken table and query are left out; the valid table stays.
    expect(manifest!.tables.map((t) => t.name)).toEqual(["users"]);
    expect(manifest!.queries).toEqual([]);
  });

  it("lists the accepted keys when nothing is close", () => {
    const { findings } = load("version: 1\ntables:\n  t:\n    size_of_everything: 1\n");
    expect(findings.map(where)).toEqual([
      "4:5 tables.t.size_of_everything: unknown key (expected one of: partitions, rows_per_partition, growth, retention, columns, write_timestamps, time_bucket, distinct_values, copies)",
    ]);
  });

  it("a wrong operator or direction, keeping the valid queries", () => {
    const { manifest, findings } = loadFixture("bad-operator.yaml");
    expect(findings.map(where)).toEqual([
      "13:14 queries[2].where.email: expected one of =, IN, <, <=, >, >=, CONTAINS, CONTAINS KEY",
      "14:29 queries[2].order_by.added_date: expected asc or desc",
    ]);
    expect(manifest!.queries.map((q) => q.id)).toEqual(["Q1", "Q2"]);
    expect((query(manifest, "Q2") as AbstractQuery).where[0]!.operator).toBe("IN");
  });

  it("a query in both forms, in neither, or half of the abstract form", () => {
    const { manifest, findings } = loadFixture("forms.yaml");
    expect(findings.map(where)).toEqual([
      "4:10 queries[0].cql: use either cql or the abstract form (select, where), not both; with cql, write ORDER BY and LIMIT in the statement",
      "7:5 queries[1]: needs either cql (a SELECT statement) or select and where (the abstract form)",
      "9:5 queries[2]: the abstract form needs where as well",
    ]);
    expect(manifest!.queries.map((q) => q.id)).toEqual(["Q4"]);
  });

  it("duplicate ids at the second occurrence; the duplicate is left out", () => {
    const { manifest, findings } = loadFixture("duplicate-ids.yaml");
    expect(findings.map(where)).toEqual([
      '9:9 queries[2].id: duplicate query id "Q1" (already used by queries[0]); this query is left out of the review',
      '15:9 writes[1].id: duplicate write id "W1" (already used by writes[0]); this write is left out of the review',
    ]);
    expect(manifest!.queries.map((q) => q.id)).toEqual(["Q1", "Q2"]);
    expect((query(manifest, "Q1") as AbstractQuery).where[0]!.column).toBe("email");
    expect(manifest!.writes.map((w) => w.statements[0]!.statement?.kind)).toEqual(["insert"]);
  });

  it("figures in the wrong format, each with an example of the right one", () => {
    const { manifest, findings } = loadFixture("bad-figures.yaml");
    expect(findings.map(where)).toEqual([
      "4:17 tables.videos.partitions: expected a partition count, a whole number such as 2000000 or 2_000_000",
      "5:13 tables.videos.growth: expected a rate such as 300/s, 10/min, 2/hour, 5/day, 1000/week, 3/month or 1/year",
      '6:16 tables.videos.retention: expected a duration such as 90s, 30m, 12h, 365d, 2w, 6mo, 1y, or "forever"',
      "8:41 tables.comments.rows_per_partition.max: max must be at least avg",
      "10:13 tables.comments.columns.tags: expected a size in bytes (title: 60, or { avg: 60, max: 4_000 }), { items, bytes } for a list or set, or { items, key_bytes, value_bytes } (or { items, bytes }) for a map",
      "11:13 tables.comments.columns.body: expected an average size in bytes, a number such as 60 or 1201.8, or { avg: 60, max: 4_000 }",
      "13:25 tables.ratings.rows_per_partition: expected a row count such as 300, or { avg: 300, max: 50_000 }",
      "22:11 queries[0].rate: expected a rate such as 300/s, 10/min, 2/hour, 5/day, 1000/week, 3/month or 1/year",
      "23:12 queries[0].limit: expected a whole number of rows, at least 1",
    ]);
    expect(manifest!.tables.map((t) => t.name)).toEqual(["users"]);
    expect(manifest!.tables[0]).toMatchObject({ partitions: 1_000_000, retentionSeconds: null });
  });

  it("CQL that is not one SELECT, syntax errors inside a block, and reads among writes", () => {
    const content = fixtureText("cql-errors.yaml");
    const { manifest, findings } = loadFixture("cql-errors.yaml");
    expect(findings.map((f) => `${where(f)} [${f.rule}]`)).toEqual([
      "5:10 Q1.cql must be a SELECT statement (found an INSERT) [manifest-invalid]",
      "7:48 Q2.cql must be exactly one SELECT statement (found 2 statements) [manifest-invalid]",
      "12:27 Q3.cql: expected a name, `(` or `TOKEN` in WHERE, found the end of the statement [cql-syntax-error]",
      "19:9 W1.cql[1] must hold INSERT, UPDATE, DELETE or BATCH statements (found a SELECT) [manifest-invalid]",
    ]);
    // Queries stay in the manifest without a statement (the planner says why they are invalid).
    expect(manifest!.queries.map((q) => [q.id, (q as CqlQuery).statement?.kind])).toEqual([
      ["Q1", undefined],
      ["Q2", undefined],
      ["Q3", undefined],
      ["Q4", "select"],
    ]);
    // A block holding two statements is two steps of the write path, each placed on its line.
    const w2 = manifest!.writes[1]!;
    expect(w2.statements.map((s) => [s.statement?.kind, s.location.range.start.line, text(content, s.location.range).slice(0, 6)])).toEqual([
      ["insert", 22, "INSERT"],
      ["update", 23, "UPDATE"],
    ]);
  });

  it("a string literal with `: ` in an unquoted query, with the way out", () => {
    const { manifest, findings } = loadFixture("colon-in-cql.yaml");
    expect(manifest).toBeUndefined();
    expect(findings.map(where)).toEqual([
      "4:10 a value containing \": \" must be quoted or written as a block (key: |), e.g. CQL with a string literal such as 'a: b' (nested mappings are not allowed in compact mappings)",
    ]);
  });

  it("a missing version, a future version, and wrong types", () => {
    expect(load("keyspace: ks\nqueries: []\n").findings.map(where)).toEqual(['1:1 missing required key "version"']);
    expect(load("version: 2\n").findings.map(where)).toEqual(["1:10 version: must be 1 (the only manifest format so far)"]);
    expect(load("version: 1\nqueries:\n  Q1: { cql: SELECT a FROM t }\n").findings.map(where)).toEqual([
      "3:3 queries: expected a list of queries (each item starts with `- id:`)",
    ]);
    expect(load("version: 1\ntables:\n  'bad name!': { partitions: 1 }\n").findings.map(where)).toEqual([
      '3:3 tables["bad name!"]: expected a table name such as videos_by_user or killrvideo.videos_by_user',
    ]);
    expect(load("version: 1\nqueries:\n  - id: Q1\n    select: [a]\n    where: {}\n").findings.map(where)).toEqual([
      '5:12 queries[0].where: list at least one column, e.g. { userid: "=" }; to read a whole table, write the query with cql',
    ]);
    expect(load("version: 1\nqueries:\n  - select: [a]\n    where: { a: '=' }\n").findings.map(where)).toEqual([
      '3:5 queries[0]: missing required key "id"',
    ]);
  });

  it("empty CQL and write paths without statements", () => {
    const { findings } = load("version: 1\nwrites:\n  - id: W1\n    cql: []\n  - id: W2\n    cql: '   '\n  - id: W3\n    cql: -- just a comment\n");
    expect(findings.map(where)).toEqual([
      "4:10 writes[0].cql: list at least one statement",
      "6:10 writes[1].cql: the CQL is empty",
      "8:10 W3.cql holds no statement: write an INSERT, UPDATE, DELETE or BATCH",
    ]);
  });

  it("accepts a numeric id, merge keys and anchors, and reports problems in merged tables at the key", () => {
    expect(load("version: 1\nqueries:\n  - id: 7\n    select: [a]\n    where: { a: '=' }\n").manifest!.queries[0]!.id).toBe("7");
    const { manifest, findings } = loadFixture("anchors.yaml");
    expect(findings.map(where)).toEqual(['11:5 tables.ratings.growht: unknown key (did you mean "growth"?)']);
    expect(manifest!.tables.map((t) => [t.name, t.partitions, t.growthText, t.retentionText])).toEqual([
      ["videos", 1000, "5/day", undefined],
      ["users", 1000, "5/day", "30d"],
    ]);
  });

  it("gives fingerprints that name queries by id, not by line or index", () => {
    const before = load("version: 1\nqueries:\n  - id: Q7\n    select: [a]\n    where: { a: LIKE }\n").findings[0]!;
    const after = load(
      "version: 1\n# a new query above\nqueries:\n  - id: Q1\n    select: [b]\n    where: { b: '=' }\n  - id: Q7\n    select: [a]\n    where: { a: LIKE }\n",
    ).findings[0]!;
    expect(before.message).toBe("queries[0].where.a: expected one of =, IN, <, <=, >, >=, CONTAINS, CONTAINS KEY");
    expect(after.message).toBe("queries[1].where.a: expected one of =, IN, <, <=, >, >=, CONTAINS, CONTAINS KEY");
    expect(after.fingerprint).toBe(before.fingerprint);
    expect(before.fingerprint).toBe("manifest-invalid:access-patterns.yaml#query:Q7.where.a:invalid_format");
  });
});

describe("loadManifest on YAML that cannot be read", () => {
  it("tabs used for indentation", () => {
    const { manifest, findings } = loadFixture("tabs.yaml");
    expect(manifest).toBeUndefined();
    expect(findings.map(where)).toEqual(["3:1 tab used for indentation: YAML indents with spaces only", "4:1 tab used for indentation: YAML indents with spaces only"]);
  });

  it("wrong indentation", () => {
    expect(loadFixture("bad-indent.yaml").findings.map(where)).toEqual(["5:1 wrong indentation: all mapping items must start at the same column"]);
  });

  it("a second document", () => {
    expect(loadFixture("multi-doc.yaml").findings.map(where)).toEqual([
      '3:1 the manifest holds more than one YAML document (a second "---"); keep everything in one document',
    ]);
  });

  it("a list or a single value instead of a mapping", () => {
    expect(loadFixture("list.yaml").findings.map(where)).toEqual([
      "1:1 the manifest must be a mapping with keys such as version, keyspace, tables, queries and writes, but this file holds a list",
    ]);
    expect(loadFixture("scalar.yaml").findings.map(where)).toEqual([
      "1:1 the manifest must be a mapping with keys such as version, keyspace, tables, queries and writes, but this file holds a single line of text",
    ]);
  });

  it("an empty file, or one with only comments", () => {
    for (const content of ["", "\n\n", fixtureText("empty.yaml")]) {
      const { manifest, findings } = load(content);
      expect(manifest).toBeUndefined();
      expect(findings.map(where)).toEqual(["1:1 the manifest is empty: it needs at least `version: 1` and the application's queries"]);
    }
  });
});

describe("loadManifest on hostile input: one clear finding, quickly, nothing polluted", () => {
  it("an alias bomb", () => {
    const { result: { manifest, findings }, cpuMs } = withCpuTime(() => loadFixture("alias-bomb.yaml"));
    expect(cpuMs).toBeLessThan(2000);
    expect(manifest).toBeUndefined();
    expect(findings.map(where)).toEqual([
      '3:8 too many aliases: expanding the *references would build a huge document (an "alias bomb"); the manifest was not read',
    ]);
  });

  it("an alias inside its own anchor", () => {
    expect(load("version: 1\nqueries: &x [*x]\n").findings.map(where)).toEqual(["2:14 queries[0]: an alias refers to the mapping or list that contains it"]);
  });

  it("__proto__ keys: reported, dropped, and no prototype changes", () => {
    const { manifest, findings } = loadFixture("proto.yaml");
    expect(findings.map(where)).toEqual([
      '3:3 tables.__proto__: "__proto__" cannot be used as a key',
      '10:27 queries[0].where.__proto__: "__proto__" cannot be used as a key',
    ]);
    expect(({} as Record<string, unknown>).partitions).toBeUndefined();
    expect(Object.getPrototypeOf(manifest!.queries[0]!)).toBe(Object.prototype);
    // A table named like an Object.prototype member is an ordinary table.
    expect(manifest!.tables.map((t) => [t.name, t.partitions])).toEqual([["constructor", 7]]);
    // Column records have no prototype: a column named `constructor` with no size finds nothing.
    expect(manifest!.tables[0]!.columns.constructor).toBeUndefined();
  });

  it("binary content", () => {
    const { manifest, findings } = load("version: 1\nqueries:\u0000\u0001\u00ff\n");
    expect(manifest).toBeUndefined();
    expect(findings.map(where)).toEqual(["2:9 the manifest looks like a binary file (it contains NUL bytes); it must be YAML text in UTF-8"]);
  });

  it("a 2 MB file, refused before parsing", () => {
    const huge = `version: 1\nqueries:\n${"  - id: Q\n    select: [a]\n    where: { a: '=' }\n".repeat(45_000)}`;
    expect(huge.length).toBeGreaterThan(2_000_000);
    const { result: { manifest, findings }, cpuMs } = withCpuTime(() => load(huge));
    expect(cpuMs).toBeLessThan(500);
    expect(manifest).toBeUndefined();
    expect(findings.map(where)).toEqual(["1:1 the manifest is 2.1 MiB, over the 1 MiB limit; it was not read"]);
  });

  it("deep nesting, in flow and in block style", () => {
    const flow = load(`version: 1\nqueries: ${"[".repeat(200_000)}${"]".repeat(200_000)}\n`);
    expect(flow.findings.map(where)).toEqual(["2:74 nested more than 64 levels deep; the manifest was not read"]);
    const block = load(`version: 1\n${Array.from({ length: 200 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")}\n`);
    expect(block.manifest).toBeUndefined();
    expect(block.findings).toHaveLength(1);
    expect(block.findings[0]!.message).toBe("nested more than 64 levels deep; the manifest was not read");
  });
});

describe("average column sizes", () => {
  // Averages measured on real data are rarely whole: a blob of 1201.8 bytes on average.
  const manifestText = `version: 1
keyspace: telemetry
tables:
  readings:
    partitions: 10_000
    rows_per_partition: 500
    columns: { ck: 1201.8, tags: { items: 2.5, bytes: 12.5 }, attrs: { items: 3, key_bytes: 8.25, value_bytes: "40.5" } }
`;

  it("accept decimals, as numbers or as text", () => {
    const { manifest, findings } = load(manifestText);
    expect(findings).toEqual([]);
    expect({ ...manifest!.tables[0]!.columns }).toEqual({
      ck: { kind: "bytes", bytes: 1201.8 },
      tags: { kind: "collection", items: 2.5, bytesPerItem: 12.5 },
      attrs: { kind: "collection", items: 3, bytesPerItem: 40.5, keyBytes: 8.25 },
    });
  });

  it("refuse negative sizes and words, at the value", () => {
    const { manifest, findings } = load(manifestText.replace("ck: 1201.8", "ck: -3").replace("bytes: 12.5", "bytes: lots"));
    expect(findings.map(where)).toEqual([
      "7:20 tables.readings.columns.ck: expected an average size in bytes, a number such as 60 or 1201.8, or { avg: 60, max: 4_000 }",
      "7:51 tables.readings.columns.tags.bytes: expected an average size in bytes, a number such as 60 or 1201.8",
    ]);
    expect(manifest!.tables).toEqual([]);
  });

  it("read { avg, max } for a value's bytes and a collection's items, the largest kept beside the average", () => {
    const { manifest, findings } = load(manifestText.replace("ck: 1201.8", "ck: { avg: 1201.8, max: 2_000_000 }").replace("items: 2.5, bytes: 12.5", "items: { avg: 2.5, max: 10_000 }, bytes: 12.5"));
    expect(findings).toEqual([]);
    expect(manifest!.tables[0]!.columns).toMatchObject({
      ck: { kind: "bytes", bytes: 1201.8, maxBytes: 2_000_000 },
      tags: { kind: "collection", items: 2.5, maxItems: 10_000, bytesPerItem: 12.5 },
    });
  });

  it("refuse a largest value smaller than the average, at max", () => {
    const { findings } = load(manifestText.replace("ck: 1201.8", "ck: { avg: 500, max: 20 }"));
    expect(findings.map((f) => f.message)).toEqual(["tables.readings.columns.ck.max: max must be at least avg"]);
  });

  it("keep the table's estimate in a review", async () => {
    const { review } = await import("../../src/review.js");
    const schema = `CREATE KEYSPACE telemetry WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE telemetry.readings (sensor_id text, ck blob, tags list<text>, attrs map<text, text>, PRIMARY KEY (sensor_id, ck));
`;
    const result = review({ files: [{ path: "schema.cql", content: schema }, { path: "access-patterns.yaml", content: manifestText }] });
    expect(result.model.inputFindings.filter((f) => f.rule === "manifest-invalid")).toEqual([]);
    const estimate = result.model.estimates.get("telemetry.readings")!;
    expect(estimate.basis).not.toBe("default");
    for (const column of ["ck", "tags", "attrs"]) expect(estimate.defaultedColumns).not.toContain(column);
    // 500 rows of a 1201.8-byte clustering value alone: over 600 kB a partition.
    expect(estimate.average.bytes).toBeGreaterThan(500 * 1201.8);
  });
});
