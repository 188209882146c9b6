import rule from "../../rules/write-non-idempotent-retried.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE page_views (
  page_id uuid PRIMARY KEY,
  views counter
);
CREATE TABLE carts (
  cart_id uuid PRIMARY KEY,
  items list<uuid>,
  coupons set<text>
);
`;

const write = (cql: string, retried?: boolean) =>
  `version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n${retried === undefined ? "" : `    retried: ${retried}\n`}    cql:\n      - ${cql}\n`;

ruleTester.run("write-non-idempotent-retried", rule, {
  valid: [
    { name: "a counter on a path that is not retried", cql: schema, manifest: write("UPDATE page_views SET views = views + 1 WHERE page_id = ?", false) },
    { name: "adding to a set is idempotent", cql: schema, manifest: write("UPDATE carts SET coupons = coupons + {'SPRING'} WHERE cart_id = ?") },
    { name: "replacing a list is idempotent", cql: schema, manifest: write("UPDATE carts SET items = ? WHERE cart_id = ?") },
    { name: "a list append, not retried", cql: schema, manifest: write("UPDATE carts SET items = items + [?] WHERE cart_id = ?", false) },
  ],
  invalid: [
    {
      name: "a counter increment, retried by default",
      cql: schema,
      manifest: write("UPDATE page_views SET views = views + 1 WHERE page_id = ?"),
      findings: [{ messageId: "counter", line: 6, column: 31, data: { write: "W1", column: "views", table: "page_views" } }],
    },
    {
      name: "a counter decrement with -=, retried explicitly",
      cql: schema,
      manifest: write("UPDATE page_views SET views -= 1 WHERE page_id = ?", true),
      findings: [{ messageId: "counter", line: 7, column: 31 }],
    },
    {
      name: "a list append and a prepend",
      cql: schema,
      manifest: write("UPDATE carts SET items = items + [?], items = [?] + items WHERE cart_id = ?"),
      findings: [
        { messageId: "listAppend", line: 6, column: 26, data: { verb: "appends" } },
        { messageId: "listAppend", line: 6, column: 47, data: { verb: "prepends" } },
      ],
    },
  ],
});
