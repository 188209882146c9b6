import rule from "../../rules/table-compact-storage.js";
import { ruleTester } from "../rule-tester.js";

const table = (properties: string) => `CREATE TABLE sessions (
  session_id text PRIMARY KEY,
  data blob
)${properties};
`;

ruleTester.run("table-compact-storage", rule, {
  valid: [
    { name: "a regular table", cql: table("") },
    { name: "other properties only", cql: table(" WITH comment = 'web sessions'") },
  ],
  invalid: [
    {
      name: "the only property",
      cql: table(" WITH COMPACT STORAGE"),
      findings: [{ messageId: "removed", line: 4, column: 8, data: { table: "sessions", version: "5.0" } }],
      output: table(""),
    },
    {
      name: "first of several properties",
      cql: table("\n  WITH COMPACT STORAGE\n  AND comment = 'web sessions'"),
      findings: [{ messageId: "removed", line: 5 }],
      output: table("\n  WITH comment = 'web sessions'"),
    },
    {
      name: "last of several properties, on 3.11",
      cql: table(" WITH comment = 'web sessions' AND COMPACT STORAGE"),
      cassandra: "3.11",
      findings: [{ messageId: "deprecated", line: 4 }],
      output: table(" WITH comment = 'web sessions'"),
    },
    {
      name: "between a clustering order and an option",
      cql: `CREATE TABLE events (
  source text,
  at timestamp,
  payload blob,
  PRIMARY KEY ((source), at)
) WITH CLUSTERING ORDER BY (at DESC) AND COMPACT STORAGE AND gc_grace_seconds = 3600;
`,
      findings: [{ messageId: "removed", line: 6 }],
      output: `CREATE TABLE events (
  source text,
  at timestamp,
  payload blob,
  PRIMARY KEY ((source), at)
) WITH CLUSTERING ORDER BY (at DESC) AND gc_grace_seconds = 3600;
`,
    },
  ],
});
