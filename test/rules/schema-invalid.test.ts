import rule from "../../rules/schema-invalid.js";
import { ruleTester } from "../rule-tester.js";

ruleTester.run("schema-invalid", rule, {
  valid: [
    { name: "a valid table", cql: "CREATE TABLE videos (\n  video_id uuid,\n  title text,\n  PRIMARY KEY (video_id)\n);\n" },
    {
      name: "turned off in the config",
      cql: "CREATE TABLE videos (\n  video_id uuid,\n  PRIMARY KEY (videoid)\n);\n",
      config: { rules: { "schema-invalid": { severity: "off" } } },
    },
  ],
  invalid: [
    {
      name: "a primary key naming an undeclared column",
      cql: "CREATE TABLE videos (\n  video_id uuid,\n  title text,\n  PRIMARY KEY (videoid)\n);\n",
      findings: [{ messageId: "input", line: 4, column: 16 }],
    },
    {
      name: "a counter next to a regular column",
      cql: "CREATE TABLE stats (\n  id uuid PRIMARY KEY,\n  views counter,\n  title text\n);\n",
      findings: [{ messageId: "input", line: 3 }],
    },
  ],
});
