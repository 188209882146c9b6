import rule from "../../rules/config-invalid.js";
import { ruleTester } from "../rule-tester.js";

const table = "CREATE TABLE videos (\n  video_id uuid PRIMARY KEY,\n  title text\n);\n";

ruleTester.run("config-invalid", rule, {
  valid: [
    { name: "no config", cql: table },
    { name: "a valid config file", cql: table, config: "fail_on: warning\nrules:\n  query-full-scan: warning\n" },
  ],
  invalid: [
    {
      name: "a bad value in the config file",
      cql: table,
      config: "fail_on: sometimes\n",
      findings: [{ messageId: "input", line: 1 }],
    },
    {
      name: "an unknown rule id, with the closest known one",
      cql: table,
      config: { rules: { "query-ful-scan": { severity: "error" } } },
      findings: [{ messageId: "unknownRule", line: 1, data: { rule: "query-ful-scan", suggestion: ' (did you mean "query-full-scan"?)' } }],
    },
    {
      name: "an unknown rule id in the config file is reported where it is written",
      cql: table,
      config: "fail_on: error\nrules:\n  query-full-scan: warning\n  query-allow-filtering: error\n",
      findings: [{ messageId: "unknownRule", line: 4, column: 3, file: ".github/cql-review.yml", data: { rule: "query-allow-filtering" } }],
    },
    {
      name: "options for a rule that takes none",
      cql: table,
      config: { rules: { "table-unread": { severity: "error", options: { max: 3 } } } },
      findings: [{ messageId: "noOptions", line: 1, data: { rule: "table-unread" } }],
    },
  ],
});
