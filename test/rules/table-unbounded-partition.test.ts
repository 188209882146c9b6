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

function manifest(volume: string, query?: string): string {
  const lines = ["version: 1", "keyspace: shop", "tables:", "  comments_by_video:", ...volume.split("\n").map((l) => `    ${l}`)];
  if (query) lines.push("queries:", "  - id: Q1", `    cql: ${query}`);
  return `${lines.join("\n")}\n`;
}

const newest50 = "SELECT comment FROM comments_by_video WHERE video_id = ? LIMIT 50";

ruleTester.run("table-unbounded-partition", rule, {
  valid: [
    { name: "growth bounded by a retention", cql: comments(), manifest: manifest("growth: 30/day\nretention: 365d") },
    { name: "growth bounded by the table's TTL", cql: comments(" WITH default_time_to_live = 7776000"), manifest: manifest("growth: 30/day") },
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
      manifest: "version: 1\nkeyspace: shop\ntables:\n  comments_by_video_day:\n    growth: 30/day\n",
    },
    { name: "rows stated, no growth", cql: comments(), manifest: manifest("rows_per_partition: { avg: 40, max: 5_000 }") },
    { name: "no figures at all", cql: comments() },
  ],
  invalid: [
    {
      name: "the newest 50 of 30 a day: a 2-day window bucket",
      cql: comments(),
      manifest: manifest("growth: 30/day\ncolumns: { comment: 300 }", newest50),
      findings: [{ messageId: "unbounded", line: 1, column: 14, data: { table: "comments_by_video" } }],
      output: `CREATE TABLE comments_by_video (
  video_id uuid,
  comment_id timeuuid,
  user_id uuid,
  comment text,
  bucket timestamp,
  PRIMARY KEY ((video_id, bucket), comment_id)
);
`,
    },
    {
      name: "the newest 80 of 100 a day: a day bucket, typed date",
      cql: comments(" WITH CLUSTERING ORDER BY (comment_id DESC)"),
      manifest: manifest("growth: 100/day", "SELECT comment FROM comments_by_video WHERE video_id = ? LIMIT 80"),
      findings: [{ messageId: "unbounded", line: 1 }],
      output: `CREATE TABLE comments_by_video (
  video_id uuid,
  comment_id timeuuid,
  user_id uuid,
  comment text,
  day date,
  PRIMARY KEY ((video_id, day), comment_id)
) WITH CLUSTERING ORDER BY (comment_id DESC);
`,
    },
    {
      name: "no query bounds the width: the largest inside the limits, a year; stated rows keep growing",
      cql: comments(),
      manifest: manifest("rows_per_partition: { avg: 10, max: 200 }\ngrowth: 100/day"),
      findings: [{ messageId: "unbounded", line: 1 }],
      output: `CREATE TABLE comments_by_video (
  video_id uuid,
  comment_id timeuuid,
  user_id uuid,
  comment text,
  year int,
  PRIMARY KEY ((video_id, year), comment_id)
);
`,
    },
    {
      name: "the PRIMARY KEY clause first, a column already named day",
      cql: `CREATE TABLE "Readings" (
  PRIMARY KEY (("Sensor"), at),
  "Sensor" text,
  at timestamp,
  day int,
  value double
);
`,
      manifest: 'version: 1\nkeyspace: shop\ntables:\n  \'"Readings"\':\n    growth: 100/day\nqueries:\n  - id: Q1\n    cql: SELECT value FROM "Readings" WHERE "Sensor" = ? LIMIT 80\n',
      // a case-sensitive name is shown quoted, as it must be written in CQL
      findings: [{ messageId: "unbounded", line: 1, data: { table: '"Readings"' } }],
      output: `CREATE TABLE "Readings" (
  PRIMARY KEY (("Sensor", day_bucket), at),
  "Sensor" text,
  at timestamp,
  day int,
  value double,
  day_bucket date
);
`,
    },
    {
      name: "an existing table gets the same fix (its description says a new table is needed)",
      cql: comments(),
      manifest: manifest("growth: 100/day", "SELECT comment FROM comments_by_video WHERE video_id = ? LIMIT 80"),
      base: { cql: comments(), manifest: manifest("growth: 100/day", "SELECT comment FROM comments_by_video WHERE video_id = ? LIMIT 80") },
      findings: [{ messageId: "unbounded", line: 1 }],
      output: comments().replace("  PRIMARY KEY ((video_id), comment_id)", "  day date,\n  PRIMARY KEY ((video_id, day), comment_id)"),
    },
    {
      name: "too hot for any bucket: a shard is advised and no fix offered",
      cql: comments(),
      manifest: manifest("growth: 10000000/day", "SELECT comment FROM comments_by_video WHERE video_id = ? LIMIT 1000000"),
      findings: [{ messageId: "unbounded", line: 1 }],
    },
  ],
});

describe("table-unbounded-partition messages", () => {
  it("say it once (no pasted \"unbounded\"), write names as CQL does, and agree with themselves on when limits are crossed", () => {
    const cql = `CREATE TABLE "Readings" (\n  "Sensor" text,\n  at timestamp,\n  value double,\n  PRIMARY KEY (("Sensor"), at)\n);\n`;
    const manifest = 'version: 1\nkeyspace: shop\ntables:\n  \'"Readings"\':\n    growth: 300/day\n    retention: forever\nqueries:\n  - id: Q1\n    cql: SELECT value FROM "Readings" WHERE "Sensor" = ? LIMIT 50\n';
    const [finding] = runRule(rule, { cql, manifest }).findings;
    expect(finding!.message).toMatch(
      /^Partitions of "Readings" grow without bound: 300\/day kept forever \(retention: forever\) with no TTL \(sized after one year of growth: 109,500 rows per partition\)\. A partition crosses the values limit after 10 months, /,
    );
    expect(finding!.message).toContain('partition by ("Sensor", bucket) with bucket = a 4-hour bucket of `at`');
    expect(finding!.message).toContain("at most 10 months of rows per partition (values 10 months;");
    expect(finding!.fix?.description).toContain('to the partition key of "Readings".');
  });
});
