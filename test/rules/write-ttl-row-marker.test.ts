import rule from "../../rules/write-ttl-row-marker.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE sessions (
  session_id uuid PRIMARY KEY,
  user_id uuid,
  last_seen timestamp
);
`;
const paths = (...cql: string[]) => `version: 1\nkeyspace: shop\nwrites:\n${cql.map((c, i) => `  - id: W${i + 1}\n    cql:\n      - ${c}\n`).join("")}`;
const create = "INSERT INTO sessions (session_id, user_id) VALUES (?, ?)";
const touch = "UPDATE sessions USING TTL 1800 SET last_seen = ? WHERE session_id = ?";

ruleTester.run("write-ttl-row-marker", rule, {
  valid: [
    { name: "the INSERT has the TTL too", cql: schema, manifest: paths(`${create} USING TTL 1800`, touch) },
    { name: "the table expires rows by default", cql: schema.replace(");", ") WITH default_time_to_live = 1800;"), manifest: paths(create, touch) },
    { name: "no write sets a TTL", cql: schema, manifest: paths(create, "UPDATE sessions SET last_seen = ? WHERE session_id = ?") },
    { name: "a TTL of 0 is no TTL", cql: schema, manifest: paths(create, "UPDATE sessions USING TTL 0 SET last_seen = ? WHERE session_id = ?") },
    {
      name: "two INSERTs, one with a TTL, may write different rows on purpose",
      cql: schema,
      manifest: paths(create, "INSERT INTO sessions (session_id, user_id) VALUES (?, ?) USING TTL 60"),
    },
    {
      name: "rows of both lifetimes by design: a TTL'd INSERT creates the rows the TTL'd UPDATE refreshes",
      cql: schema,
      manifest: paths(create, "INSERT INTO sessions (session_id, user_id) VALUES (?, ?) USING TTL 1800", touch),
    },
    {
      name: "USING TTL 0 says the value is meant to last",
      cql: schema,
      manifest: paths(`${create} USING TTL 1800`, touch, "UPDATE sessions USING TTL 0 SET last_seen = ? WHERE session_id = ?"),
    },
    {
      name: "an UPDATE without TTL beside INSERTs without TTL: the table keeps rows that last",
      cql: schema,
      manifest: paths(create, "INSERT INTO sessions (session_id, user_id, last_seen) VALUES (?, ?, ?) USING TTL 60", "UPDATE sessions SET last_seen = ? WHERE session_id = ?"),
    },
    {
      name: "the same UPDATE offered with and without a TTL: a lifetime chosen per row",
      cql: schema,
      manifest: paths(`${create} USING TTL 1800`, "UPDATE sessions USING TTL ? SET user_id = ?, last_seen = ? WHERE session_id = ?", "UPDATE sessions SET user_id = ?, last_seen = ? WHERE session_id = ?"),
    },
    {
      name: "only the UPDATE writes the rows: they vanish when its cells expire",
      cql: schema,
      manifest: paths("UPDATE sessions USING TTL 1800 SET user_id = ?, last_seen = ? WHERE session_id = ?"),
    },
  ],
  invalid: [
    {
      name: "the session is created without a TTL and only its refresh carries one",
      cql: schema,
      manifest: paths(create, touch),
      findings: [{ messageId: "insertWithoutTtl", line: 6, column: 9, data: { insert: "W1", ttlWrites: "W2", ttl: "USING TTL 1800", what: "row marker and its `user_id` cells" } }],
    },
    {
      name: "a batch's TTL applies to its statements, and a bound TTL counts",
      cql: schema,
      manifest: paths(create, "BEGIN BATCH USING TTL ? UPDATE sessions SET last_seen = ? WHERE session_id = ?; APPLY BATCH"),
      findings: [{ messageId: "insertWithoutTtl", line: 6, data: { ttl: "USING TTL ?" } }],
    },
    {
      name: "an UPDATE without TTL of a column another write expires keeps it for ever",
      cql: schema,
      manifest: paths("INSERT INTO sessions (session_id, user_id, last_seen) VALUES (?, ?, ?) USING TTL 1800", "UPDATE sessions SET last_seen = ? WHERE session_id = ?"),
      findings: [{ messageId: "columnWithoutTtl", line: 9, data: { write: "W2", columns: "`last_seen`", ttlWrites: "W1" } }],
    },
  ],
});
