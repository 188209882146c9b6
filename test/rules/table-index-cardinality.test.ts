import { expect } from "vitest";
import rule from "../../rules/table-index-cardinality.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const orders = `CREATE TABLE orders_by_customer (
  customer_id uuid,
  order_id timeuuid,
  payment_id uuid,
  shipped boolean,
  status text,
  PRIMARY KEY ((customer_id), order_id)
);
`;

const volumes = (figures: string) => `version: 1\nkeyspace: shop\ntables:\n  orders_by_customer:\n${figures}`;

ruleTester.run("table-index-cardinality", rule, {
  valid: [
    { name: "a legacy index on a text status", cql: `${orders}CREATE INDEX ON orders_by_customer (status);\n` },
    { name: "an SAI index on a uuid", cql: `${orders}CREATE INDEX ON orders_by_customer (payment_id) USING 'sai';\n` },
    {
      name: "a uuid index only ever read with the partition key",
      cql: `${orders}CREATE INDEX payment_idx ON orders_by_customer (payment_id);\n`,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT order_id FROM orders_by_customer WHERE customer_id = ? AND payment_id = ?" }]),
    },
    {
      name: "an SAI index on a boolean whose every reader binds the partition key",
      cql: `${orders}CREATE INDEX shipped_idx ON orders_by_customer (shipped) USING 'sai';\n`,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT order_id FROM orders_by_customer WHERE customer_id = ? AND shipped = false" }]),
    },
    {
      name: "a status of five values on a small table: one value's rows fit in a partition",
      cql: `${orders}CREATE INDEX status_idx ON orders_by_customer (status);\n`,
      manifest: volumes("    partitions: 200\n    rows_per_partition: 50\n    distinct_values: { status: 5 }\n"),
    },
    {
      name: "a status of many values is no low-cardinality column",
      cql: `${orders}CREATE INDEX status_idx ON orders_by_customer (status) USING 'sai';\n`,
      manifest: volumes("    partitions: 1_000_000\n    rows_per_partition: 50\n    distinct_values: { status: 20_000 }\n"),
    },
  ],
  invalid: [
    {
      name: "an SAI index on a boolean, read without the partition key",
      cql: `${orders}CREATE INDEX shipped_idx ON orders_by_customer (shipped) USING 'sai';\n`,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT order_id FROM orders_by_customer WHERE shipped = false" }]),
      findings: [{ messageId: "lowCardinalitySai", line: 9, data: { index: "shipped_idx", distinct: "2", share: "1/2", figure: "", readers: " (Q1 reads through it)" } }],
    },
    {
      name: "a legacy index on a status the manifest gives five values, with the rows per value",
      cql: `${orders}CREATE INDEX status_idx ON orders_by_customer (status);\n`,
      manifest: volumes("    partitions: 1_000_000\n    rows_per_partition: 50\n    distinct_values: { status: 5 }\n"),
      findings: [
        {
          messageId: "lowCardinality",
          line: 9,
          data: {
            cardinality: "text, 5 distinct values in the manifest",
            share: "1/5",
            figure: " (50,000,000 rows / 5 values = 10,000,000 rows per value, over the 100,000 rows a partition should hold)",
          },
        },
      ],
    },
    {
      name: "an SAI index on a status of five values, with no row counts",
      cql: `${orders}CREATE INDEX status_idx ON orders_by_customer (status) USING 'sai';\n`,
      manifest: volumes("    distinct_values: { status: 5 }\n"),
      findings: [{ messageId: "lowCardinalitySai", line: 9, data: { distinct: "5", figure: "" } }],
    },
    {
      name: "a legacy index on a uuid, read without the partition key",
      cql: `${orders}CREATE INDEX payment_idx ON orders_by_customer (payment_id);\n`,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT order_id FROM orders_by_customer WHERE payment_id = ?" }]),
      findings: [{ messageId: "highCardinality", line: 9, data: { index: "payment_idx", type: "uuid", readers: " (Q1 reads through it)" } }],
    },
    {
      name: "a legacy index on a boolean, with the default name",
      cql: `${orders}CREATE INDEX ON orders_by_customer (shipped);\n`,
      findings: [{ messageId: "lowCardinality", line: 9, data: { index: "orders_by_customer_shipped_idx", cardinality: "boolean", distinct: "2", figure: "", readers: "" } }],
    },
    {
      name: "a legacy index on a timestamp no query uses",
      cql: "CREATE TABLE logins (\n  user_id uuid PRIMARY KEY,\n  last_login timestamp\n);\nCREATE INDEX ON logins (last_login);\n",
      findings: [
        {
          messageId: "highCardinality",
          line: 5,
          data: { type: "timestamp", advice: expect.stringMatching(/^A range on `last_login` makes it a clustering column, not a partition key/) },
        },
      ],
    },
    {
      name: "a timestamp index the manifest's only query reaches with the partition key bound: drop it",
      cql: "CREATE TABLE members (\n  ring int,\n  host uuid,\n  heartbeat timestamp,\n  PRIMARY KEY ((ring), host)\n);\nCREATE INDEX ON members (heartbeat);\n",
      manifest: manifestWith([{ id: "live-hosts", cql: "SELECT host FROM members WHERE ring = ? AND heartbeat > ? ALLOW FILTERING" }]),
      findings: [{ messageId: "highCardinality", line: 7, data: { advice: expect.stringMatching(/^No query of the manifest reads through it without the partition key: drop the index/) } }],
    },
  ],
});
