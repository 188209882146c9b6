import { describe, expect, it } from "vitest";
import rule from "../../rules/query-index-unsupported-operator.js";
import { ruleTester, runRule } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const products = (index: string) => `CREATE TABLE products (
  product_id uuid PRIMARY KEY,
  name text,
  price decimal,
  stock int,
  tags set<text>,
  attributes map<text, text>
);

${index}
`;

const query = (cql: string) => manifestWith([{ id: "Q1", cql }]);

ruleTester.run("query-index-unsupported-operator", rule, {
  valid: [
    { name: "legacy index, equality", cql: products("CREATE INDEX products_name_idx ON products (name);"), manifest: query("SELECT product_id FROM products WHERE name = ?") },
    {
      name: "SAI index, range on a number (5.0)",
      cql: products("CREATE INDEX products_stock_idx ON products (stock) USING 'sai';"),
      cassandra: "5.0",
      manifest: query("SELECT product_id FROM products WHERE stock < 5"),
    },
    { name: "legacy index on a set's values, CONTAINS", cql: products("CREATE INDEX products_tags_idx ON products (tags);"), manifest: query("SELECT product_id FROM products WHERE tags CONTAINS 'sale'") },
    {
      name: "SASI in CONTAINS mode, LIKE with a leading %",
      cql: products("CREATE CUSTOM INDEX products_name_sasi ON products (name) USING 'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = {'mode': 'CONTAINS'};"),
      cassandra: "4.1",
      manifest: query("SELECT product_id FROM products WHERE name LIKE '%lamp%'"),
    },
    {
      name: "the primary key serves the read: the index is beside the point",
      cql: products("CREATE INDEX products_price_idx ON products (price);"),
      manifest: query("SELECT name FROM products WHERE product_id = ?"),
    },
  ],
  invalid: [
    {
      name: "legacy index, range",
      cql: products("CREATE INDEX products_price_idx ON products (price);"),
      manifest: query("SELECT product_id FROM products WHERE price < ?"),
      findings: [{ messageId: "unsupported", line: 4, data: { index: "products_price_idx", column: "price", implementation: "legacy" } }],
    },
    {
      name: "SAI index, range on text (5.0)",
      cql: products("CREATE INDEX products_name_idx ON products (name) USING 'sai';"),
      cassandra: "5.0",
      manifest: query("SELECT product_id FROM products WHERE name > 'm'"),
      findings: [{ messageId: "unsupported", line: 4, data: { because: "SAI serves no ranges on text columns" } }],
    },
    {
      name: "LIKE without SASI",
      cql: products("CREATE INDEX products_name_idx ON products (name) USING 'sai';"),
      cassandra: "5.0",
      manifest: query("SELECT product_id FROM products WHERE name LIKE 'lamp%'"),
      findings: [{ messageId: "unsupported", line: 4, data: { operator: "LIKE" } }],
    },
    {
      name: "CONTAINS KEY with an index on the map's values",
      cql: products("CREATE INDEX products_attributes_idx ON products (values(attributes));"),
      manifest: query("SELECT product_id FROM products WHERE attributes CONTAINS KEY 'colour'"),
      findings: [{ messageId: "unsupported", line: 4, data: { operator: "CONTAINS KEY" } }],
    },
    {
      name: "SASI in PREFIX mode with a leading %",
      cql: products("CREATE CUSTOM INDEX products_name_sasi ON products (name) USING 'org.apache.cassandra.index.sasi.SASIIndex';"),
      cassandra: "4.1",
      manifest: query("SELECT product_id FROM products WHERE name LIKE '%lamp%'"),
      findings: [{ messageId: "unsupported", line: 4, data: { implementation: "sasi" } }],
    },
  ],
});

describe("query-index-unsupported-operator on LIKE", () => {
  it("says only SASI serves LIKE without advising it", () => {
    const [finding] = runRule(rule, {
      cql: products("CREATE INDEX products_name_idx ON products (name) USING 'sai';"),
      cassandra: "5.0",
      manifest: query("SELECT product_id FROM products WHERE name LIKE 'lamp%'"),
    }).findings;
    expect(finding?.message).toMatch(/SASI index, which is experimental, disabled by default since 4\.0 and not advised/);
    expect(finding?.message).not.toMatch(/(use|create|add) (a )?SASI/i);
  });
});
