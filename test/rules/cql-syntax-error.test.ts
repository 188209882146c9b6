import rule from "../../rules/cql-syntax-error.js";
import { ruleTester } from "../rule-tester.js";

const good = "CREATE TABLE videos (\n  video_id uuid,\n  title text,\n  PRIMARY KEY (video_id)\n);\n";
const missingComma = "CREATE TABLE videos (\n  video_id uuid,\n  title text\n  added timestamp,\n  PRIMARY KEY (video_id)\n);\n";

ruleTester.run("cql-syntax-error", rule, {
  valid: [
    { name: "a table that parses", cql: good },
    { name: "turned off in the config", cql: missingComma, config: { rules: { "cql-syntax-error": { severity: "off" } } } },
  ],
  invalid: [
    { name: "a missing comma between columns", cql: missingComma, findings: [{ messageId: "input", line: 4, column: 3 }] },
    {
      name: "the error is reported in the file it is in, and the next statement still parses",
      cql: { "schema/a.cql": good, "schema/b.cql": `CREATE TABLE t (id uuid PRIMARY KEY;\n${good}` },
      findings: [{ messageId: "input", line: 1, file: "schema/b.cql" }],
    },
  ],
});
