import rule from "../../rules/write-non-idempotent-retried.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE page_views (
  page_id uuid PRIMARY KEY,
  views counter
);
CREATE TABLE carts (
  cart_id uuid PRIMARY KEY,
  items list<uuid>,
  coupons set<text>,
  version int
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
    { name: "a counter with no retried: the drivers do not retry non-idempotent statements", cql: schema, manifest: write("UPDATE page_views SET views = views + 1 WHERE page_id = ?") },
    {
      name: "a list append under a condition: a retry of an attempt that applied fails the condition",
      cql: schema,
      manifest: write("UPDATE carts SET items = items + [?], version = ? WHERE cart_id = ? IF version = ?", true),
    },
    {
      name: "a list append in a conditional batch",
      cql: schema,
      manifest: write("BEGIN BATCH UPDATE carts SET version = ? WHERE cart_id = ? IF version = ?; UPDATE carts SET items = items + [?] WHERE cart_id = ?; APPLY BATCH", true),
    },
  ],
  invalid: [
    {
      name: "a counter increment, retried",
      cql: schema,
      manifest: write("UPDATE page_views SET views = views + 1 WHERE page_id = ?", true),
      findings: [{ messageId: "counter", line: 7, column: 31, data: { write: "W1", column: "views", table: "page_views" } }],
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
      manifest: write("UPDATE carts SET items = items + [?], items = [?] + items WHERE cart_id = ?", true),
      findings: [
        { messageId: "listAppend", line: 7, column: 26, data: { verb: "appends" } },
        { messageId: "listAppend", line: 7, column: 47, data: { verb: "prepends" } },
      ],
    },
  ],
});
