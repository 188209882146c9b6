import rule from "../../rules/suppression-unused.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const broken = "CREATE TABLE a (\n  id uuid,\n  PRIMARY KEY (missing_id)\n);\n";
const videos = "CREATE TABLE videos (\n  video_id uuid PRIMARY KEY,\n  title text\n);\n";

ruleTester.run("suppression-unused", rule, {
  valid: [
    { name: "it silences a finding on the next statement", cql: `-- cql-review-disable-next-line schema-invalid -- fixed by migration 42\n${broken}` },
    {
      name: "a manifest ignore that silences its query's finding",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT title FROM videos", extra: "ignore:\n  - rule: query-full-scan\n    reason: nightly export" }]),
    },
  ],
  invalid: [
    {
      name: "nothing to silence on the next statement",
      cql: `-- cql-review-disable-next-line schema-invalid -- legacy\n${videos}${broken}`,
      findings: [{ messageId: "unused", line: 1, column: 1, data: { rule: "schema-invalid", scope: "on the next statement" } }],
    },
    {
      name: "one of two ids is used, the other is not",
      cql: `-- cql-review-disable-next-line schema-invalid, query-full-scan -- legacy\n${broken}`,
      findings: [{ messageId: "unused", line: 1, data: { rule: "query-full-scan" } }],
    },
    {
      name: "a misspelt rule id",
      cql: `-- cql-review-disable schema-invalids -- legacy tables\n${broken}`,
      findings: [{ messageId: "unknownRule", line: 1, data: { rule: "schema-invalids", suggestion: ' (did you mean "schema-invalid"?)' } }],
    },
    {
      name: "a directive naming no rule",
      cql: `-- cql-review-disable-next-line -- everything here is fine\n${videos}`,
      findings: [{ messageId: "noRules", line: 1 }],
    },
    {
      name: "the rule is turned off in the config",
      cql: `-- cql-review-disable-next-line schema-invalid -- legacy\n${broken}`,
      config: { rules: { "schema-invalid": { severity: "off" } } },
      findings: [{ messageId: "ruleOff", line: 1 }],
    },
    {
      name: "a manifest ignore on a query that reads one partition",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT title FROM videos WHERE video_id = ?", extra: "ignore:\n  - rule: query-full-scan\n    reason: was an export" }]),
      findings: [{ messageId: "unused", line: 7, data: { scope: "on query Q1" } }],
    },
  ],
});
