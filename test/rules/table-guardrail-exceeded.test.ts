import rule from "../../rules/table-guardrail-exceeded.js";
import type { RuleSetting } from "../../src/config.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TYPE address (
  street text,
  city text,
  zip text,
  country text
);

CREATE TABLE customers (
  customer_id uuid PRIMARY KEY,
  name text,
  email text,
  phone text,
  home frozen<address>,
  embedding vector<float, 1536>
);

CREATE INDEX ON customers (email) USING 'sai';
CREATE INDEX ON customers (phone) USING 'sai';
`;

const guardrails = (options: Record<string, number>): { rules: Record<string, RuleSetting> } => ({
  rules: { "table-guardrail-exceeded": { severity: "warning", options } },
});

ruleTester.run("table-guardrail-exceeded", rule, {
  valid: [
    { name: "no thresholds set: Cassandra's defaults disable every guardrail", cql: schema },
    { name: "within the thresholds", cql: schema, config: guardrails({ columns_per_table_warn_threshold: 6, secondary_indexes_per_table_fail_threshold: 2, fields_per_udt_warn_threshold: 4 }) },
    { name: "no guardrails before 4.1", cql: schema, cassandra: "4.0", config: guardrails({ columns_per_table_fail_threshold: 1 }) },
    { name: "vector dimensions are a 5.0 guardrail", cql: schema, cassandra: "4.1", config: guardrails({ vector_dimensions_fail_threshold: 1024 }) },
  ],
  invalid: [
    {
      name: "columns over the warn threshold",
      cql: schema,
      config: guardrails({ columns_per_table_warn_threshold: 5 }),
      findings: [{ messageId: "warn", line: 8, column: 14, data: { what: "customers has 6 columns", threshold: 5 } }],
    },
    {
      name: "the fail threshold wins over the warn threshold",
      cql: schema,
      config: guardrails({ columns_per_table_warn_threshold: 3, columns_per_table_fail_threshold: 5 }),
      findings: [{ messageId: "fail", line: 8, data: { threshold: 5 } }],
    },
    {
      name: "the second index, UDT fields and vector dimensions",
      cql: schema,
      config: guardrails({ secondary_indexes_per_table_fail_threshold: 1, fields_per_udt_warn_threshold: 3, vector_dimensions_warn_threshold: 1024 }),
      findings: [
        { messageId: "warn", line: 1, data: { what: "Type address has 4 fields" } },
        { messageId: "warn", line: 14, data: { value: 1536 } },
        { messageId: "fail", line: 18, data: { what: "Index customers_phone_idx is index number 2 on customers" } },
      ],
    },
    {
      name: "tables over the cluster-wide threshold",
      cql: `${schema}CREATE TABLE orders (order_id uuid PRIMARY KEY);\n`,
      config: guardrails({ tables_fail_threshold: 1 }),
      findings: [{ messageId: "fail", line: 19, data: { what: "orders is table number 2" } }],
    },
    {
      name: "collection and value sizes stated in the manifest",
      cql: "CREATE TABLE profiles (id uuid PRIMARY KEY, prefs map<text, text>, avatar blob, notes text);\n",
      manifest: "version: 1\nkeyspace: shop\ncassandra: '5.0'\ntables:\n  profiles:\n    partitions: 1_000\n    columns: { prefs: { items: 500, key_bytes: 10, value_bytes: 20 }, avatar: 2_000_000 }\n",
      config: guardrails({ items_per_collection_warn_threshold: 100, collection_size_fail_threshold: 1_000_000, column_value_size_warn_threshold: 1_048_576 }),
      findings: [
        { messageId: "warn", line: 1, data: { guardrail: "items_per_collection", what: "`prefs` of profiles holds 500 items by the manifest" } },
        { messageId: "warn", line: 1, data: { guardrail: "column_value_size", what: "`avatar` of profiles is a value of about 2,000,000 bytes by the manifest" } },
      ],
    },
    {
      name: "the largest value a row holds, when the manifest states it",
      cql: "CREATE TABLE profiles (id uuid PRIMARY KEY, prefs map<text, text>, avatar blob);\n",
      manifest: "version: 1\nkeyspace: shop\ncassandra: '5.0'\ntables:\n  profiles:\n    partitions: 1_000\n    columns: { prefs: { items: { avg: 5, max: 500 }, key_bytes: 10, value_bytes: 20 }, avatar: { avg: 40_000, max: 2_000_000 } }\n",
      config: guardrails({ items_per_collection_warn_threshold: 100, column_value_size_warn_threshold: 1_048_576 }),
      findings: [
        { messageId: "warn", line: 1, data: { guardrail: "items_per_collection", what: "`prefs` of profiles holds 500 items in its largest row by the manifest" } },
        { messageId: "warn", line: 1, data: { guardrail: "column_value_size", what: "`avatar` of profiles is a value of about 2,000,000 bytes in its largest row by the manifest" } },
      ],
    },
  ],
});
