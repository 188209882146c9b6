import rule from "../../rules/write-logged-batch-multi-partition.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  email text
);

CREATE TABLE users_by_email (
  email text PRIMARY KEY,
  user_id uuid
);

CREATE TABLE events_by_user (
  user_id uuid,
  at timeuuid,
  kind text,
  PRIMARY KEY ((user_id), at)
);
`;

const write = (cql: string) => `version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n    cql:\n      - ${cql}\n`;

ruleTester.run("write-logged-batch-multi-partition", rule, {
  valid: [
    {
      name: "one partition, several rows",
      cql: schema,
      manifest: write("BEGIN BATCH INSERT INTO events_by_user (user_id, at, kind) VALUES (?, now(), 'a'); INSERT INTO events_by_user (user_id, at, kind) VALUES (?, now(), 'b'); APPLY BATCH"),
    },
    {
      name: "an unlogged batch across tables",
      cql: schema,
      manifest: write("BEGIN UNLOGGED BATCH INSERT INTO users (user_id, email) VALUES (?, ?); INSERT INTO users_by_email (email, user_id) VALUES (?, ?); APPLY BATCH"),
    },
    {
      name: "the same named partition key twice",
      cql: schema,
      manifest: write("BEGIN BATCH INSERT INTO events_by_user (user_id, at, kind) VALUES (:u, now(), 'a'); UPDATE events_by_user SET kind = 'c' WHERE user_id = :u AND at = :at; APPLY BATCH"),
    },
    { name: "writes outside a batch", cql: schema, manifest: write("INSERT INTO users (user_id, email) VALUES (?, ?)") },
  ],
  invalid: [
    {
      name: "a denormalised pair in a logged batch",
      cql: schema,
      manifest: write("BEGIN BATCH INSERT INTO users (user_id, email) VALUES (?, ?); INSERT INTO users_by_email (email, user_id) VALUES (?, ?); APPLY BATCH"),
      findings: [{ messageId: "acrossPartitions", line: 6, column: 9, data: { owner: "W1", partitions: 2, tables: "users and users_by_email", sameTable: "; otherwise issue the writes separately and asynchronously" } }],
    },
    {
      name: "bulk loading literal partitions",
      cql: schema,
      manifest: write(
        "BEGIN BATCH INSERT INTO users (user_id, email) VALUES (11111111-1111-1111-1111-111111111111, 'a@x.io'); INSERT INTO users (user_id, email) VALUES (22222222-2222-2222-2222-222222222222, 'b@x.io'); APPLY BATCH",
      ),
      findings: [{ messageId: "acrossPartitions", line: 6, data: { partitions: 2, tables: "users" } }],
    },
    {
      name: "an IN list on the partition key",
      cql: schema,
      manifest: write("BEGIN BATCH UPDATE users SET email = null WHERE user_id IN (?, :other); APPLY BATCH"),
      findings: [{ messageId: "acrossPartitions", line: 6, data: { partitions: 2 } }],
    },
    {
      name: "seed data in a schema file",
      cql: `${schema}BEGIN BATCH\n  INSERT INTO users (user_id, email) VALUES (11111111-1111-1111-1111-111111111111, 'admin@x.io');\n  INSERT INTO users_by_email (email, user_id) VALUES ('admin@x.io', 11111111-1111-1111-1111-111111111111);\nAPPLY BATCH;\n`,
      findings: [{ messageId: "acrossPartitions", line: 17, column: 1, data: { owner: "The seed data" } }],
    },
  ],
});
