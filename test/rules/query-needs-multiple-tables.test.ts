import rule from "../../rules/query-needs-multiple-tables.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const users = `CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  name text,
  email text
);
`;
const orders = `CREATE TABLE orders_by_user (
  user_id uuid,
  order_id timeuuid,
  total decimal,
  PRIMARY KEY ((user_id), order_id)
);
`;

ruleTester.run("query-needs-multiple-tables", rule, {
  valid: [
    {
      name: "one table holds every column",
      cql: users + orders,
      manifest: manifestWith([{ id: "Q1", select: "[order_id, total]", where: "{ user_id: \"=\" }" }]),
    },
    {
      name: "the query names its table: not this rule's concern",
      cql: users + orders,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT total FROM orders_by_user WHERE user_id = ?" }]),
    },
    {
      name: "columns of one table that no key serves is query-unserved's, not a join",
      cql: users,
      manifest: manifestWith([{ id: "Q1", select: "[user_id, name]", where: "{ email: \"=\" }" }]),
    },
  ],
  invalid: [
    {
      name: "the user's name and their orders live in two tables",
      cql: users + orders,
      manifest: manifestWith([{ id: "Q1", select: "[name, order_id, total]", where: "{ user_id: \"=\" }" }]),
      findings: [
        {
          messageId: "clientJoin",
          line: 4,
          data: { query: "Q1", count: 2, parts: "orders_by_user (user_id, order_id, total) and users (name)" },
        },
      ],
    },
    {
      name: "three tables, each found in the fewest steps",
      cql: {
        "schema/users.cql": users,
        "schema/orders.cql": orders,
        "schema/addresses.cql": "CREATE TABLE addresses_by_user (\n  user_id uuid PRIMARY KEY,\n  city text\n);\n",
      },
      manifest: manifestWith([{ id: "Q9", select: "[name, city, total]", where: "{ user_id: \"=\" }", orderBy: "{ order_id: desc }" }]),
      findings: [{ messageId: "clientJoin", line: 4, data: { query: "Q9", count: 3 } }],
    },
  ],
});
