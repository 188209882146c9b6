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

const paths = (...cql: string[]) => `version: 1\nkeyspace: shop\nwrites:\n${cql.map((c, i) => `  - id: W${i + 1}\n    cql:\n      - ${c}\n`).join("")}`;
const claim = "INSERT INTO usernames (username, user_id) VALUES (?, ?) IF NOT EXISTS";

ruleTester.run("write-mixed-lwt", rule, {
  valid: [
    { name: "conditions only", cql: schema, manifest: paths(claim, "DELETE FROM usernames WHERE username = ? IF EXISTS") },
    { name: "plain writes only", cql: schema, manifest: paths("INSERT INTO usernames (username, user_id) VALUES (?, ?)", "DELETE FROM usernames WHERE username = ?") },
    { name: "a conditional table and a plain one", cql: schema, manifest: paths(claim, "UPDATE profiles SET bio = ? WHERE user_id = ?") },
  ],
  invalid: [
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
