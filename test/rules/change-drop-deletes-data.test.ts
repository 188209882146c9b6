import rule from "../../rules/change-drop-deletes-data.js";
import { ruleTester } from "../rule-tester.js";

const carts = "CREATE TABLE shop.carts (\n  cart_id uuid PRIMARY KEY,\n  items map<text, int>\n);\n";
const wishlists = "CREATE TABLE shop.wishlists (\n  user_id uuid,\n  product_id uuid,\n  PRIMARY KEY ((user_id), product_id)\n);\n";
const keyspace = "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n";
const manifest = "version: 1\nkeyspace: shop\n";

ruleTester.run("change-drop-deletes-data", rule, {
  valid: [
    { name: "no drop", cql: { "V001__init.cql": keyspace + carts + wishlists }, manifest },
    {
      name: "a tear-down script of DROPs only is not applied, so not reported",
      cql: { "V001__init.cql": keyspace + carts + wishlists, "drop-keyspace.cql": "DROP KEYSPACE IF EXISTS shop;\n" },
      manifest,
    },
    {
      name: "a script dropping every table the others create is a tear-down script",
      cql: { "V001__init.cql": keyspace + carts + wishlists, "reset.cql": "DROP TABLE IF EXISTS shop.carts;\nDROP TABLE IF EXISTS shop.wishlists;\n" },
      manifest,
    },
    {
      name: "a file the manifest's schema: leaves out is not applied",
      cql: { "schema/create.cql": keyspace + carts + wishlists, "scripts/cleanup.cql": "DROP TABLE shop.wishlists;\nCREATE TABLE shop.wishlists_v2 (\n  user_id uuid PRIMARY KEY\n);\n" },
      manifest: `${manifest}schema: [schema/create.cql]\n`,
    },
    { name: "dropping an index or a view loses no data of its own", cql: { "V001__init.cql": `${keyspace}${carts}DROP INDEX IF EXISTS shop.carts_idx;\n` }, manifest },
  ],
  invalid: [
    {
      name: "a versioned migration drops a table",
      cql: { "V001__init.cql": keyspace + carts + wishlists, "V006__drop_wishlists.cql": "-- wishlists moved to another service\nDROP TABLE IF EXISTS shop.wishlists;\n" },
      manifest,
      findings: [{ messageId: "table", file: "V006__drop_wishlists.cql", line: 2, column: 1, data: { file: "V006__drop_wishlists.cql", table: "`shop.wishlists`", recreated: "" } }],
    },
    {
      name: "a table dropped and created again starts empty",
      cql: { "V001__init.cql": keyspace + carts, "V002__rekey.cql": "DROP TABLE shop.carts;\nCREATE TABLE shop.carts (\n  cart_id uuid,\n  sku text,\n  qty int,\n  PRIMARY KEY ((cart_id), sku)\n);\n" },
      manifest,
      findings: [{ messageId: "table", file: "V002__rekey.cql", line: 1, data: { recreated: ", and the CREATE TABLE that follows starts it empty" } }],
    },
    {
      name: "a setup script that begins by dropping the keyspace it then creates",
      cql: { "schema.cql": `DROP KEYSPACE IF EXISTS shop;\n${keyspace}${carts}${wishlists}` },
      manifest,
      findings: [{ messageId: "keyspace", line: 1, data: { keyspace: "shop", tables: "" } }],
    },
    {
      name: "a keyspace dropped after its tables were created, named in the message",
      cql: { "V001__init.cql": keyspace + carts + wishlists, "V002__retire.cql": "DROP KEYSPACE shop;\nCREATE KEYSPACE shop2 WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n" },
      manifest,
      findings: [{ messageId: "keyspace", file: "V002__retire.cql", line: 1, data: { tables: " with its 2 tables `carts` and `wishlists`" } }],
    },
    {
      name: "a TRUNCATE in an applied file",
      cql: { "V001__init.cql": `${keyspace}${carts}TRUNCATE shop.carts;\n` },
      manifest,
      findings: [{ messageId: "truncate", line: 6, data: { table: "`shop.carts`" } }],
    },
  ],
});
