import rule from "../../rules/query-unserved.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const users = `CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  email text,
  name text
);
`;
const byEmail = manifestWith([{ id: "Q1", select: "[user_id, name]", where: "{ email: \"=\" }" }]);

ruleTester.run("query-unserved", rule, {
  valid: [
    { name: "a table keyed for the query", cql: `${users}\nCREATE TABLE users_by_email (\n  email text PRIMARY KEY,\n  user_id uuid,\n  name text\n);\n`, manifest: byEmail },
    { name: "a cql query naming its table", cql: users, manifest: manifestWith([{ id: "Q1", cql: "SELECT name FROM users WHERE user_id = ?" }]) },
  ],
  invalid: [
    {
      name: "no table is keyed by email: the table is appended to the schema file",
      cql: users,
      manifest: byEmail,
      findings: [{ messageId: "unservedWithFix", line: 4, data: { query: "Q1", file: "schema.cql" } }],
      output: `${users}\n-- Serves Q1.\nSUGGESTED;\n`,
    },
  ],
});
