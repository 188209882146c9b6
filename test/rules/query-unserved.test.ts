import rule from "../../rules/query-unserved.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const users = `CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  email text,
  name text
);
`;
const orders = `CREATE TABLE orders (
  order_id uuid PRIMARY KEY,
  total decimal
);
`;
const usersByEmail = `CREATE TABLE shop.users_by_email (
  email text,
  user_id uuid,
  name text,
  PRIMARY KEY ((email), user_id)
) WITH CLUSTERING ORDER BY (user_id ASC)`;
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
      output: `${users}\n-- Serves Q1.\n${usersByEmail};\n`,
    },
    {
      name: "the table goes to the file whose tables share the query's columns",
      cql: { "schema/010_orders.cql": orders, "schema/020_users.cql": users, "schema/030_more_orders.cql": orders.replace("orders", "orders_archive") },
      manifest: byEmail,
      findings: [{ messageId: "unservedWithFix", line: 4, data: { file: "schema/020_users.cql" } }],
      output: { "schema/020_users.cql": `${users}\n-- Serves Q1.\n${usersByEmail};\n`, "schema/010_orders.cql": orders },
    },
    {
      name: "a last statement without its semicolon is closed first",
      cql: users.replace(");\n", ")"),
      manifest: byEmail,
      findings: [{ messageId: "unservedWithFix", line: 4 }],
      output: `${users.replace(");\n", ")")};\n\n-- Serves Q1.\n${usersByEmail};\n`,
    },
    {
      name: "no file holds the keyspace's tables: the table is shown in the message",
      cql: users.replace("TABLE users", "TABLE accounts.users"),
      manifest: manifestWith([{ id: "Q1", select: "[user_id, name]", where: "{ email: \"=\" }" }], { keyspace: "accounts" }).replace("keyspace: accounts", "keyspace: shop"),
      findings: [{ messageId: "unservedInline", line: 4 }],
    },
  ],
});
