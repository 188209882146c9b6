import rule from "../../rules/cql-unsupported-statement.js";
import { ruleTester } from "../rule-tester.js";

const table = "CREATE TABLE videos (\n  video_id uuid PRIMARY KEY,\n  title text\n);\n";

ruleTester.run("cql-unsupported-statement", rule, {
  valid: [{ name: "plain CQL", cql: table }],
  invalid: [
    { name: "a cqlsh command", cql: `CONSISTENCY QUORUM\n${table}`, findings: [{ messageId: "input", line: 1, column: 1 }] },
    { name: "SOURCE of another file", cql: `${table}SOURCE 'more.cql'\n`, findings: [{ messageId: "input", line: 5 }] },
  ],
});
