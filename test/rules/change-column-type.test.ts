import rule from "../../rules/change-column-type.js";
import { ruleTester } from "../rule-tester.js";

const orders = (columns: Record<string, string>) => `CREATE TABLE IF NOT EXISTS orders (
  order_id ${columns["order_id"] ?? "uuid"},
  status ${columns["status"] ?? "text"},
  total ${columns["total"] ?? "int"},
  placed ${columns["placed"] ?? "timestamp"},
  lines ${columns["lines"] ?? "frozen<list<text>>"},
  PRIMARY KEY (order_id)
);
`;

ruleTester.run("change-column-type", rule, {
  valid: [
    { name: "no change", cql: orders({}), base: { cql: orders({}) } },
    { name: "text and varchar are one type", cql: orders({ status: "varchar" }), base: { cql: orders({}) } },
    { name: "no base", cql: orders({ total: "text" }) },
    {
      name: "re-created with another key: change-primary-key reports the lost rows",
      cql: `${orders({})}DROP TABLE orders;\n${orders({ total: "decimal" }).replace("PRIMARY KEY (order_id)", "PRIMARY KEY (order_id, placed)")}`,
    },
  ],
  invalid: [
    {
      name: "int to text cannot read the old values",
      cql: orders({ total: "text" }),
      base: { cql: orders({}) },
      findings: [{ messageId: "incompatible", line: 4, column: 3, data: { column: "total", before: "int", after: "text" } }],
    },
    {
      name: "int to varint, timestamp to bigint: readable, still no ALTER",
      cql: orders({ total: "varint", placed: "bigint" }),
      base: { cql: orders({}) },
      findings: [
        { messageId: "compatible", line: 4, data: { before: "int", after: "varint" } },
        { messageId: "compatible", line: 5, data: { before: "timestamp", after: "bigint" } },
      ],
    },
    {
      name: "text and a frozen list, both readable as blobs",
      cql: orders({ lines: "blob", status: "blob" }),
      base: { cql: orders({}) },
      findings: [
        { messageId: "compatible", line: 3, data: { before: "text", after: "blob" } },
        { messageId: "compatible", line: 6, data: { before: "frozen<list<text>>", after: "blob" } },
      ],
    },
    {
      name: "a key column",
      cql: orders({ order_id: "timeuuid" }),
      base: { cql: orders({}) },
      findings: [{ messageId: "keyColumn", line: 2, data: { before: "uuid", after: "timeuuid" } }],
    },
    {
      name: "dropped and re-created with another type",
      cql: `${orders({})}DROP TABLE orders;\n${orders({ total: "decimal" })}`,
      findings: [{ messageId: "recreated", line: 13, data: { before: "int", after: "decimal" } }],
    },
  ],
});
