import rule from "../../rules/stats-invalid.js";
import { tablestatsText } from "../helpers/stats-text.js";
import { ruleTester } from "../rule-tester.js";

const cql = `CREATE TABLE shop.carts (
  cart_id uuid PRIMARY KEY,
  user_id uuid
);
`;
const good = tablestatsText({ keyspace: "shop", table: "carts" });

ruleTester.run("stats-invalid", rule, {
  valid: [
    { name: "a whole tablestats output of the schema's tables", cql, files: { "cassandra-stats/node1.txt": good } },
    {
      name: "system keyspaces are not the application's tables",
      cql,
      files: { "cassandra-stats/node1.txt": good + tablestatsText({ keyspace: "system_schema", table: "tables" }) },
    },
  ],
  invalid: [
    {
      name: "a table the schema lacks",
      cql,
      files: { "cassandra-stats/node1.txt": tablestatsText({ keyspace: "shop", table: "carts" }, { keyspace: "shop", table: "wishlists" }) },
      findings: [{ messageId: "input", line: 44, file: "cassandra-stats/node1.txt" }],
    },
    {
      name: "a file cut off in the middle",
      cql,
      files: { "cassandra-stats/node1.txt": good.slice(0, good.indexOf("Compacted partition mean bytes")) },
      findings: [{ messageId: "input", line: 36, file: "cassandra-stats/node1.txt" }],
    },
    {
      name: "a file of another nodetool command",
      cql,
      files: { "cassandra-stats/status.txt": "Datacenter: dc1\n===============\nStatus=Up/Down\nUN  10.0.0.1  1.2 GiB  16  ?  rack1\n" },
      findings: [{ messageId: "input", line: 1, file: "cassandra-stats/status.txt" }],
    },
    {
      name: "JSON that does not parse",
      cql,
      files: { "cassandra-stats/node1.json": '{\n  "shop" : {\n    "tables" : {\n      "carts" : {\n        "sstable_count" : 4,\n' },
      findings: [{ messageId: "input", line: 6, file: "cassandra-stats/node1.json" }],
    },
  ],
});
