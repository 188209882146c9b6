import rule from "../../rules/table-sasi-index.js";
import { ruleTester } from "../rule-tester.js";

const products = `CREATE TABLE products (
  product_id uuid PRIMARY KEY,
  name text,
  price decimal
);
`;
const sasi = `${products}CREATE CUSTOM INDEX products_name_idx ON products (name)
  USING 'org.apache.cassandra.index.sasi.SASIIndex'
  WITH OPTIONS = {'mode': 'CONTAINS'};
`;

ruleTester.run("table-sasi-index", rule, {
  valid: [
    { name: "an SAI index", cql: `${products}CREATE INDEX products_price_idx ON products (price) USING 'sai';\n` },
    { name: "a legacy index", cql: `${products}CREATE INDEX ON products (name);\n` },
  ],
  invalid: [
    { name: "SASI on 5.0: SAI replaces it", cql: sasi, findings: [{ messageId: "disabled", line: 6, data: { index: "products_name_idx", column: "name", version: "5.0" } }] },
    { name: "SASI on 4.1", cql: sasi, cassandra: "4.1", findings: [{ messageId: "disabled", line: 6, data: { version: "4.1" } }] },
    { name: "SASI on 3.11", cql: sasi, cassandra: "3.11", findings: [{ messageId: "experimental", line: 6 }] },
  ],
});
