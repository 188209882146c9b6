import rule from "../../rules/write-batch-too-large.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE articles (
  article_id uuid PRIMARY KEY,
  title text,
  body text
);

CREATE TABLE articles_by_author (
  author_id uuid,
  article_id uuid,
  title text,
  body text,
  PRIMARY KEY ((author_id), article_id)
);
`;

const publish =
  "BEGIN BATCH INSERT INTO articles (article_id, title, body) VALUES (?, ?, ?); INSERT INTO articles_by_author (author_id, article_id, title, body) VALUES (?, ?, ?, ?); APPLY BATCH";

// Two articles of one author in one batch: the same named marker binds the partition key twice.
const twoOfOneAuthor = (author2 = ":author") =>
  `BEGIN BATCH INSERT INTO articles_by_author (author_id, article_id, title, body) VALUES (:author, :first, :t1, :b1); INSERT INTO articles_by_author (author_id, article_id, title, body) VALUES (${author2}, :second, :t2, :b2); APPLY BATCH`;

const manifest = (body: number | undefined, cql = publish) =>
  `version: 1\nkeyspace: shop\ntables:\n  articles:\n    columns: { title: 80${body !== undefined ? `, body: ${body}` : ""} }\n  articles_by_author:\n    columns: { title: 80${body !== undefined ? `, body: ${body}` : ""} }\nwrites:\n  - id: W1\n    cql:\n      - ${cql}\n`;

ruleTester.run("write-batch-too-large", rule, {
  valid: [
    { name: "small bodies", cql: schema, manifest: manifest(1_000) },
    { name: "no stated sizes: type defaults are small", cql: schema, manifest: manifest(undefined) },
    { name: "large bodies outside a batch", cql: schema, manifest: manifest(40_000, "INSERT INTO articles (article_id, title, body) VALUES (?, ?, ?)") },
    { name: "one partition (the same named marker for the key): exempt, as in Cassandra", cql: schema, manifest: manifest(30_000, twoOfOneAuthor()) },
    { name: "a raised warning threshold", cql: schema, manifest: manifest(4_000), config: { rules: { "write-batch-too-large": { severity: "warning", options: { warnKiB: 16 } } } } },
  ],
  invalid: [
    {
      name: "two partitions of one table: measured",
      cql: schema,
      manifest: manifest(4_000, twoOfOneAuthor(":other_author")),
      findings: [{ messageId: "overWarn", line: 11, data: { statements: 2, tables: "articles_by_author" } }],
    },
    {
      name: "positional markers cannot show one partition: measured",
      cql: schema,
      manifest: manifest(4_000, twoOfOneAuthor("?").replace(":author", "?")),
      findings: [{ messageId: "overWarn", line: 11 }],
    },
    {
      name: "two copies of a 4 kB body: over 5 KiB",
      cql: schema,
      manifest: manifest(4_000),
      findings: [{ messageId: "overWarn", line: 11, column: 9, data: { owner: "W1", statements: 2, tables: "articles and articles_by_author", threshold: "5 KiB" } }],
    },
    {
      name: "two copies of a 30 kB body: over 50 KiB",
      cql: schema,
      manifest: manifest(30_000),
      findings: [{ messageId: "overFail", line: 11, data: { threshold: "50 KiB" } }],
    },
    {
      name: "literal values are measured as written",
      cql: schema,
      manifest: manifest(undefined, `BEGIN UNLOGGED BATCH INSERT INTO articles (article_id, title, body) VALUES (?, 'hello', '${"x".repeat(6_000)}'); APPLY BATCH`),
      findings: [{ messageId: "overWarn", line: 11, data: { estimatedBytes: 6_000 + 5 + 16 } }],
    },
  ],
});
