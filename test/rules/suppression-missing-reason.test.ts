import rule from "../../rules/suppression-missing-reason.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const broken = "CREATE TABLE a (\n  id uuid,\n  PRIMARY KEY (missing_id)\n);\n";
const videos = "CREATE TABLE videos (\n  video_id uuid PRIMARY KEY,\n  title text\n);\n";

ruleTester.run("suppression-missing-reason", rule, {
  valid: [
    { name: "a comment with its reason", cql: `-- cql-review-disable-next-line schema-invalid -- fixed by migration 42\n${broken}` },
    {
      name: "a manifest ignore with its reason",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT title FROM videos", extra: "ignore:\n  - rule: query-full-scan\n    reason: nightly export" }]),
    },
    { name: "ordinary comments", cql: `-- Q1: a video by id\n${videos}` },
  ],
  invalid: [
    {
      name: "a comment without a reason, reported once for all its rule ids",
      cql: `-- cql-review-disable-next-line schema-invalid, query-full-scan\n${broken}`,
      findings: [{ messageId: "comment", line: 1, column: 1, data: { directive: "cql-review-disable-next-line", rules: "schema-invalid, query-full-scan" } }],
    },
    {
      name: "a block comment with an empty reason",
      cql: `${videos}/* cql-review-disable schema-invalid -- */\n${broken}`,
      findings: [{ messageId: "comment", line: 5, data: { directive: "cql-review-disable" } }],
    },
    {
      name: "a manifest ignore without a reason",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT title FROM videos", extra: "ignore:\n  - rule: query-full-scan" }]),
      findings: [{ messageId: "manifest", line: 7, data: { rules: "query-full-scan", entity: "query Q1" } }],
    },
  ],
});
