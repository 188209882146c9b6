import rule from "../../rules/write-hot-counter.js";
import { ruleTester } from "../rule-tester.js";

// Counters of an article site: a site-wide total, per-article views, and per-article daily views.
const schema = `CREATE TABLE site_totals (
  name text PRIMARY KEY,
  views counter
);
CREATE TABLE article_views (
  article_id uuid PRIMARY KEY,
  views counter,
  likes counter
);
CREATE TABLE daily_views (
  region text,
  day date,
  views counter,
  PRIMARY KEY ((region, day))
);
CREATE TABLE articles (
  article_id uuid PRIMARY KEY,
  title text
);
`;

const manifest = (cql: string, rate?: string, tables = "") =>
  `version: 1\nkeyspace: news\n${tables}writes:\n  - id: W1\n${rate ? `    rate: ${rate}\n` : ""}    cql:\n      - ${cql}\n`;
const sized = (table: string, partitions: number) => `tables:\n  ${table}:\n    partitions: ${partitions}\n`;
const regions = (figures: string) => `tables:\n  daily_views:\n${figures}`;
const countTotal = "UPDATE site_totals SET views = views + 1 WHERE name = 'total'";
const countArticle = "UPDATE article_views SET views = views + 1 WHERE article_id = ?";

ruleTester.run("write-hot-counter", rule, {
  valid: [
    { name: "a literal key at a low rate", cql: schema, manifest: manifest(countTotal, "20/s") },
    { name: "a literal key with no stated rate: the figures do not say", cql: schema, manifest: manifest(countTotal) },
    { name: "a bound key and no stated partitions: the figures do not say", cql: schema, manifest: manifest(countArticle, "50000/s") },
    { name: "a bound key spread over many partitions", cql: schema, manifest: manifest(countArticle, "50000/s", sized("article_views", 2_000_000)) },
    { name: "an ordinary table written at a high rate is not a counter", cql: schema, manifest: manifest("UPDATE articles SET title = ? WHERE article_id = ?", "5000/s", sized("articles", 1)) },
    { name: "a threshold raised in the options", cql: schema, manifest: manifest(countTotal, "400/s"), config: { rules: { "write-hot-counter": { severity: "warning", options: { maxUpdatesPerSecondPerPartition: 500 } } } } },
    {
      name: "the region is literal but the day bound: the table's partitions say how it spreads",
      cql: schema,
      manifest: manifest("UPDATE daily_views SET views = views + 1 WHERE region = 'eu' AND day = ?", "300/s", sized("daily_views", 3650)),
    },
    {
      name: "a bound key of few values that the rate does not overload",
      cql: schema,
      manifest: manifest("UPDATE daily_views SET views = views + 1 WHERE region = ? AND day = ?", "300/s", regions("    distinct_values: { region: 5 }\n    time_bucket: { column: day, width: 1d }\n")),
    },
    {
      name: "a day bound with no declared bucket: its values over time are many partitions, not one",
      cql: schema,
      manifest: manifest("UPDATE daily_views SET views = views + 1 WHERE region = ? AND day = ?", "3000/s", regions("    distinct_values: { region: 5 }\n")),
    },
  ],
  invalid: [
    {
      name: "a daily total whose day is computed from now(): every update of the day in one partition",
      cql: schema,
      manifest: manifest("UPDATE daily_views SET views = views + 1 WHERE region = 'eu' AND day = toDate(now())", "500/s"),
      findings: [{ messageId: "currentBucket", line: 7, data: { bucket: "`day`", rate: "500", shards: "5" } }],
    },
    {
      name: "a declared time bucket bound by the write is the current bucket",
      cql: schema,
      manifest: manifest("UPDATE daily_views SET views = views + 1 WHERE region = 'eu' AND day = ?", "250/s", regions("    time_bucket: { column: day, width: 1d }\n")),
      findings: [{ messageId: "currentBucket", line: 10, data: { bucket: "`day`", shards: "3" } }],
    },
    {
      name: "a region of five values and the current day: the rate over five partitions",
      cql: schema,
      manifest: manifest("UPDATE daily_views SET views = views + 1 WHERE region = ? AND day = ?", "3000/s", regions("    distinct_values: { region: 5 }\n    time_bucket: { column: day, width: 1d }\n")),
      findings: [
        {
          messageId: "fewValues",
          line: 11,
          data: { partitions: "5", why: "`day` is the current time bucket and `region` has 5 values", perPartition: "600", shards: "6" },
        },
      ],
    },
    {
      name: "a site-wide total every view increments",
      cql: schema,
      manifest: manifest(countTotal, "2000/s"),
      findings: [{ messageId: "fixedKey", line: 7, column: 9, data: { write: "W1", counters: "`views`", table: "site_totals", rate: "2,000", limit: "100" } }],
    },
    {
      name: "literal values of IN: every call updates each of them",
      cql: schema,
      manifest: manifest("UPDATE site_totals SET views += 1 WHERE name IN ('total', 'today')", "150/s"),
      findings: [{ messageId: "fixedKey", line: 7, data: { rate: "150" } }],
    },
    {
      name: "a bound key over too few partitions for the rate",
      cql: schema,
      manifest: manifest("UPDATE article_views SET views = views + 1, likes = likes + ? WHERE article_id = ?", "30000/s", sized("article_views", 40)),
      findings: [{ messageId: "spread", line: 10, data: { counters: "`views`, `likes`", partitions: "40", perPartition: "750" } }],
    },
    {
      name: "a composite partition key all literal",
      cql: schema,
      manifest: manifest("UPDATE daily_views SET views = views - 1 WHERE region = 'eu' AND day = '2026-01-01'", "120/s"),
      findings: [{ messageId: "fixedKey", line: 7, data: { table: "daily_views" } }],
    },
    {
      name: "a counter update inside a batch",
      cql: schema,
      manifest: manifest(`BEGIN COUNTER BATCH ${countTotal}; ${countArticle}; APPLY BATCH`, "1000/s"),
      findings: [{ messageId: "fixedKey", line: 7, column: 29 }],
    },
  ],
});
