import rule from "../../rules/input-limit-exceeded.js";
import { REVIEW_LIMITS } from "../../src/review.js";
import { ruleTester } from "../rule-tester.js";

const table = "CREATE TABLE videos (\n  video_id uuid PRIMARY KEY,\n  title text\n);\n";
const seedLine = "INSERT INTO videos (video_id, title) VALUES (uuid(), 'seed');\n";

ruleTester.run("input-limit-exceeded", rule, {
  valid: [{ name: "a normal file", cql: table }],
  invalid: [
    {
      name: "a file over the size limit",
      cql: { "schema/a.cql": table, "schema/seed.cql": seedLine.repeat(Math.ceil(REVIEW_LIMITS.fileBytes / seedLine.length) + 1) },
      findings: [{ messageId: "input", line: 1, file: "schema/seed.cql" }],
    },
    {
      name: "a binary file (UTF-16 text has NUL bytes)",
      cql: { "schema/a.cql": table, "schema/utf16.cql": Buffer.from(`\ufeff${table}`, "utf16le").toString("utf8") },
      findings: [{ messageId: "input", line: 1, file: "schema/utf16.cql" }],
    },
  ],
});
