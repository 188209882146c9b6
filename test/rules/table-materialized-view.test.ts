import rule from "../../rules/table-materialized-view.js";
import { ruleTester } from "../rule-tester.js";

const users = `CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  email text,
  name text
);
`;

const view = `${users}
CREATE MATERIALIZED VIEW users_by_email AS
  SELECT email, user_id, name FROM users
  WHERE email IS NOT NULL AND user_id IS NOT NULL
  PRIMARY KEY (email, user_id);
`;

ruleTester.run("table-materialized-view", rule, {
  valid: [{ name: "a second table instead", cql: `${users}CREATE TABLE users_by_email (email text PRIMARY KEY, user_id uuid, name text);\n` }],
  invalid: [
    { name: "a view on 5.0", cql: view, findings: [{ messageId: "disabled", line: 7, column: 26, data: { view: "users_by_email", base: "users", version: "5.0" } }] },
    { name: "a view on 4.0", cql: view, cassandra: "4.0", findings: [{ messageId: "disabled", line: 7, data: { version: "4.0" } }] },
    { name: "a view on 3.11", cql: view, cassandra: "3.11", findings: [{ messageId: "experimental", line: 7 }] },
  ],
});
