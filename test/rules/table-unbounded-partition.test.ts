import { describe, expect, it } from "vitest";
import rule from "../../rules/table-unbounded-partition.js";
import { ruleTester, runRule } from "../rule-tester.js";

const comments = (options = "") => `CREATE TABLE comments_by_video (
  video_id uuid,
  comment_id timeuuid,
  user_id uuid,
  comment text,
  PRIMARY KEY ((video_id), comment_id)
)${options};
`;

function manifest(volume: string, query?: string, extra = ""): string {
  const lines = ["version: 1", "keyspace: shop", "tables:", "  comments_by_video:", ...volume.split("\n").map((l) => `    ${l}`)];
  if (query) lines.push("queries:", "  - id: Q1", `    cql: ${query}`);
  return `${lines.join("\n")}\n${extra}`;
}

const newest50 = "SELECT comment FROM comments_by_video WHERE video_id = ? LIMIT 50";
// 30,000 comments of 300 bytes a day on the busiest video: 100 MB within about nine days.
const busy = "growth: 30000/day\ncolumns: { comment: 300 }";

ruleTester.run("table-unbounded-partition", rule, {
  valid: [
    { name: "growth bounded by a retention", cql: comments(), manifest: manifest("growth: 30000/day\nretention: 1d") },
    { name: "growth bounded by the table's TTL", cql: comments(" WITH default_time_to_live = 86400"), manifest: manifest("growth: 30000/day") },
    {
      name: "a day bucket in the partition key",
      cql: `CREATE TABLE comments_by_video_day (
  video_id uuid,
  day date,
  comment_id timeuuid,
  comment text,
  PRIMARY KEY ((video_id, day), comment_id)
);
`,
      manifest: "version: 1\nkeyspace: shop\ntables:\n  comments_by_video_day:\n    growth: 30000/day\n",
    },
    { name: "rows stated, no growth", cql: comments(), manifest: manifest("rows_per_partition: { avg: 40, max: 5_000 }") },
    { name: "no figures at all", cql: comments() },
    {
      name: "30 comments a day reach 100 MB only after decades: past the 3-year horizon, nothing to say",
      cql: comments(),
      manifest: manifest("growth: 30/day\ncolumns: { comment: 300 }", newest50),
    },
  ],
  invalid: [
    {
      name: "30,000 comments a day: the widest bucket under 100 MB, a week, on a line of its own",
      cql: comments(),
      manifest: manifest(busy, newest50),
      findings: [{ messageId: "unbounded", line: 1, column: 14, data: { table: "comments_by_video" } }],
      output: comments().replace("  PRIMARY KEY ((video_id), comment_id)", "  week date,\n  PRIMARY KEY ((video_id, week), comment_id)"),
    },
    {
      name: "a decades-away limit is reported when the horizon is raised",
      cql: comments(),
      manifest: manifest("growth: 30/day\ncolumns: { comment: 300 }", newest50),
      config: { rules: { "table-unbounded-partition": { severity: "warning", options: { horizon_years: 100 } } } },
      findings: [{ messageId: "unbounded", line: 1 }],
      output: comments().replace("  PRIMARY KEY ((video_id), comment_id)", "  year int,\n  PRIMARY KEY ((video_id, year), comment_id)"),
    },
    {
      name: "a trailing comment on the last column stays where it is, and CRLF line ends are kept",
      cql: comments().replace("comment text,", "comment text, -- the body, up to 1 kB").replace(/\n/g, "\r\n"),
      manifest: manifest(busy, newest50),
      findings: [{ messageId: "unbounded", line: 1 }],
      output: comments()
        .replace("comment text,", "comment text, -- the body, up to 1 kB")
        .replace("  PRIMARY KEY ((video_id), comment_id)", "  week date,\n  PRIMARY KEY ((video_id, week), comment_id)")
        .replace(/\n/g, "\r\n"),
    },
    {
      name: "the PRIMARY KEY clause first, a column already named week",
      cql: `CREATE TABLE "Readings" (
  PRIMARY KEY (("Sensor"), at),
  "Sensor" text,
  at timestamp,
  week int,
  value text
);
`,
      manifest:
        'version: 1\nkeyspace: shop\ntables:\n  \'"Readings"\':\n    growth: 30000/day\n    columns: { value: 300 }\nqueries:\n  - id: Q1\n    cql: SELECT value FROM "Readings" WHERE "Sensor" = ? LIMIT 80\n',
      // a case-sensitive name is shown quoted, as it must be written in CQL
      findings: [{ messageId: "unbounded", line: 1, data: { table: '"Readings"' } }],
      output: `CREATE TABLE "Readings" (
  week_bucket date,
  PRIMARY KEY (("Sensor", week_bucket), at),
  "Sensor" text,
  at timestamp,
  week int,
  value text
);
`,
    },
    {
      name: "PRIMARY KEY on the line of the last column: the column goes just before it",
      cql: "CREATE TABLE comments_by_video (video_id uuid, comment_id timeuuid, comment text, PRIMARY KEY ((video_id), comment_id));\n",
      manifest: manifest(busy, newest50),
      findings: [{ messageId: "unbounded", line: 1 }],
      output: "CREATE TABLE comments_by_video (video_id uuid, comment_id timeuuid, comment text, week date, PRIMARY KEY ((video_id, week), comment_id));\n",
    },
    {
      name: "an existing table gets the same fix (its description says a new table is needed)",
      cql: comments(),
      manifest: manifest(busy, newest50),
      base: { cql: comments(), manifest: manifest(busy, newest50) },
      findings: [{ messageId: "unbounded", line: 1 }],
      output: comments().replace("  PRIMARY KEY ((video_id), comment_id)", "  week date,\n  PRIMARY KEY ((video_id, week), comment_id)"),
    },
    {
      name: "too hot for any bucket, read by point reads: a shard is advised and no fix offered",
      cql: comments(),
      manifest: manifest("growth: 10000000000/day\ncolumns: { comment: 300 }", "SELECT comment FROM comments_by_video WHERE video_id = ? AND comment_id = ?"),
      findings: [{ messageId: "unbounded", line: 1 }],
    },
    {
      name: "too hot for any bucket, read newest first: no shard (each page would merge every shard), no fix",
      cql: comments(),
      manifest: manifest("growth: 10000000000/day\ncolumns: { comment: 300 }", newest50),
      findings: [{ messageId: "unbounded", line: 1 }],
    },
    {
      name: "written by a conditional batch: the partition is the transaction's scope, no split and no fix",
      cql: comments(),
      manifest: manifest(
        busy,
        newest50,
        "writes:\n  - id: post-comment\n    cql: |\n      BEGIN BATCH\n        INSERT INTO comments_by_video (video_id, comment_id, comment) VALUES (?, ?, ?);\n        UPDATE comments_by_video SET user_id = ? WHERE video_id = ? AND comment_id = ? IF comment = ?;\n      APPLY BATCH\n",
      ),
      findings: [{ messageId: "unbounded", line: 1 }],
    },
  ],
});

describe("table-unbounded-partition messages", () => {
  it("say it once (no pasted \"unbounded\"), write names as CQL does, and agree with themselves on when limits are crossed", () => {
    const cql = `CREATE TABLE "Readings" (\n  "Sensor" text,\n  at timestamp,\n  value text,\n  PRIMARY KEY (("Sensor"), at)\n);\n`;
    const manifest =
      'version: 1\nkeyspace: shop\ntables:\n  \'"Readings"\':\n    growth: 30000/day\n    retention: forever\n    columns: { value: 300 }\nqueries:\n  - id: Q1\n    cql: SELECT value FROM "Readings" WHERE "Sensor" = ? LIMIT 50\n';
    const [finding] = runRule(rule, { cql, manifest }).findings;
    expect(finding!.message).toMatch(
      /^Partitions of "Readings" grow without bound: 30000\/day kept forever \(retention: forever\) with no TTL \(sized after one year of growth: 10,950,000 rows per partition\)\. A partition crosses the bytes limit after 10 days\. /,
    );
    expect(finding!.message).toContain('partition by ("Sensor", week) with `week` = a 1-week bucket of `at`');
    expect(finding!.message).toContain("at a key's 1,250 rows/hour the limits allow at most 10 days of rows per partition (bytes 10 days)");
    expect(finding!.fix?.description).toContain('to the partition key of "Readings".');
  });

  it("advise against splitting a partition that a conditional batch writes, naming the write", () => {
    const [finding] = runRule(rule, {
      cql: comments(),
      manifest: manifest(
        busy,
        newest50,
        "writes:\n  - id: post-comment\n    cql: |\n      BEGIN BATCH\n        INSERT INTO comments_by_video (video_id, comment_id, comment) VALUES (?, ?, ?);\n        UPDATE comments_by_video SET user_id = ? WHERE video_id = ? AND comment_id = ? IF comment = ?;\n      APPLY BATCH\n",
      ),
    }).findings;
    expect(finding!.message).toContain("post-comment writes several rows of comments_by_video in one conditional batch");
    expect(finding!.message).not.toMatch(/bucket by|hash shard|partition by \(/i);
    expect(finding!.fix).toBeUndefined();
  });
});

describe("table-unbounded-partition shard advice", () => {
  const hot = "growth: 10000000000/day\ncolumns: { comment: 300 }";
  it("says what a sharded read costs, and that a point read of the whole key reads one partition", () => {
    const [finding] = runRule(rule, { cql: comments(), manifest: manifest(hot, "SELECT comment FROM comments_by_video WHERE video_id = ? AND comment_id = ?") }).findings;
    expect(finding!.message).toMatch(/Add a hash shard .* Cost: a read of one key's rows in a bucket reads \d+ partitions/);
    expect(finding!.message).toContain("a read that binds the whole primary key computes the shard and reads one");
  });

  it("offers no shard to a table read newest-first, nor to one with static columns", () => {
    const paged = runRule(rule, { cql: comments(), manifest: manifest(hot, newest50) }).findings[0]!;
    expect(paged.message).not.toContain("Add a hash shard");
    expect(paged.message).toContain("Q1 pages through a partition in clustering order");
    const withStatic = comments().replace("user_id uuid,", "user_id uuid,\n  title text static,");
    const statics = runRule(rule, { cql: withStatic, manifest: manifest(hot, "SELECT comment FROM comments_by_video WHERE video_id = ? AND comment_id = ?") }).findings[0]!;
    expect(statics.message).not.toContain("Add a hash shard");
    expect(statics.message).toContain("static columns");
  });
});
