import rule from "../../rules/table-too-many-clustering-columns.js";
import { ruleTester } from "../rule-tester.js";

const overClustered = `CREATE TABLE activity_by_user (
  user_id uuid,
  year int,
  month int,
  day int,
  hour int,
  activity text,
  PRIMARY KEY ((user_id), year, month, day, hour)
);
`;

ruleTester.run("table-too-many-clustering-columns", rule, {
  valid: [
    { name: "three clustering columns", cql: "CREATE TABLE t (\n  a int,\n  b int,\n  c int,\n  d int,\n  PRIMARY KEY ((a), b, c, d)\n);\n" },
    { name: "a raised maximum", cql: overClustered, config: { rules: { "table-too-many-clustering-columns": { severity: "info", options: { max: 4 } } } } },
    { name: "no clustering at all", cql: "CREATE TABLE t (a int PRIMARY KEY, b text);\n" },
  ],
  invalid: [
    {
      name: "four parts of one time",
      cql: overClustered,
      findings: [{ messageId: "tooMany", line: 1, column: 14, data: { count: 4, max: 3, columns: "year, month, day and hour" } }],
    },
    {
      name: "a lowered maximum, nothing about time",
      cql: "CREATE TABLE t (\n  a int,\n  b int,\n  c int,\n  PRIMARY KEY ((a), b, c)\n);\n",
      config: { rules: { "table-too-many-clustering-columns": { severity: "info", options: { max: 1 } } } },
      findings: [{ messageId: "tooMany", line: 1, data: { count: 2, max: 1, timeParts: "" } }],
    },
  ],
});
