import rule from "../../rules/write-mixed-lwt.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE usernames (
  username text PRIMARY KEY,
  user_id uuid
);
CREATE TABLE profiles (
  user_id uuid PRIMARY KEY,
  bio text
);
`;

const groups = `CREATE TABLE group_members (
  group_id uuid,
  title text STATIC,
  user_id uuid,
  joined_at timestamp,
  PRIMARY KEY ((group_id), user_id)
);
`;
const createGroup = "INSERT INTO group_members (group_id, title) VALUES (?, ?) IF NOT EXISTS";
const join = "INSERT INTO group_members (group_id, user_id, joined_at) VALUES (?, ?, ?)";
const steps = (...cql: string[]) => `version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n    cql:\n${cql.map((c) => `      - ${c}\n`).join("")}`;

const paths = (...cql: string[]) => `version: 1\nkeyspace: shop\nwrites:\n${cql.map((c, i) => `  - id: W${i + 1}\n    cql:\n      - ${c}\n`).join("")}`;
const claim = "INSERT INTO usernames (username, user_id) VALUES (?, ?) IF NOT EXISTS";

ruleTester.run("write-mixed-lwt", rule, {
  valid: [
    { name: "conditions only", cql: schema, manifest: paths(claim, "DELETE FROM usernames WHERE username = ? IF EXISTS") },
    { name: "plain writes only", cql: schema, manifest: paths("INSERT INTO usernames (username, user_id) VALUES (?, ?)", "DELETE FROM usernames WHERE username = ?") },
    { name: "a conditional table and a plain one", cql: schema, manifest: paths(claim, "UPDATE profiles SET bio = ? WHERE user_id = ?") },
    {
      name: "a group created with a condition on its static row, members added plainly: no row in common",
      cql: groups,
      manifest: steps(createGroup, join),
    },
    {
      name: "plain statements inside a conditional batch are applied under its Paxos ballot",
      cql: groups,
      manifest: paths(
        "BEGIN BATCH INSERT INTO group_members (group_id, title) VALUES (?, ?) IF NOT EXISTS; UPDATE group_members SET title = ? WHERE group_id = ?; APPLY BATCH",
      ),
    },
  ],
  invalid: [
    {
      name: "the static row written both ways, by the same write path",
      cql: groups,
      manifest: steps(createGroup, join, "UPDATE group_members SET title = ? WHERE group_id = ?"),
      findings: [{ messageId: "mixed", line: 8, data: { write: "W1", lwtWrites: "W1 itself" } }],
    },
    {
      name: "a partition delete removes the static row a condition created",
      cql: groups,
      manifest: paths(createGroup, "DELETE FROM group_members WHERE group_id = ?"),
      findings: [{ messageId: "mixed", line: 9, data: { write: "W2", lwtWrites: "W1" } }],
    },
    {
      name: "a plain delete of a claimed name",
      cql: schema,
      manifest: paths(claim, "DELETE FROM usernames WHERE username = ?"),
      findings: [{ messageId: "mixed", line: 9, column: 9, data: { write: "W2", lwtWrites: "W1", suggestion: "DELETE … IF EXISTS" } }],
    },
    {
      name: "a plain insert beside a compare-and-set",
      cql: schema,
      manifest: paths("UPDATE usernames SET user_id = ? WHERE username = ? IF user_id = ?", "INSERT INTO usernames (username, user_id) VALUES (?, ?)"),
      findings: [{ messageId: "mixed", line: 9, data: { suggestion: "IF NOT EXISTS" } }],
    },
  ],
});
