import rule from "../../rules/table-token-without-ttl.js";
import { ruleTester } from "../rule-tester.js";

const schema = (name = "password_reset_tokens", key = "code", options = "") => `CREATE TABLE ${name} (
  ${key} text PRIMARY KEY,
  user_id uuid,
  created_at timestamp
)${options};
`;
const manifest = (name = "password_reset_tokens", key = "code", { ttl = "", remove = true, describe = "" } = {}) => `version: 1
keyspace: shop
queries:
  - id: Q1
    cql: SELECT user_id FROM ${name} WHERE ${key} = ?
writes:
  - id: W1${describe ? `\n    description: ${describe}` : ""}
    cql:
      - INSERT INTO ${name} (${key}, user_id, created_at) VALUES (?, ?, ?)${ttl}
${remove ? `  - id: W2\n    cql:\n      - DELETE FROM ${name} WHERE ${key} = ?\n` : ""}`;

ruleTester.run("table-token-without-ttl", rule, {
  valid: [
    { name: "the INSERT sets a TTL", cql: schema(), manifest: manifest(undefined, undefined, { ttl: " USING TTL 3600" }) },
    { name: "the table expires rows by default", cql: schema(undefined, undefined, " WITH default_time_to_live = 3600"), manifest: manifest() },
    { name: "the same shape with no sign of a one-time secret: an API key is meant to last", cql: schema("api_keys", "api_key"), manifest: manifest("api_keys", "api_key") },
    {
      name: "nothing looks the token up",
      cql: schema(),
      manifest: "version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n    cql:\n      - INSERT INTO password_reset_tokens (code, user_id, created_at) VALUES (?, ?, ?)\n",
    },
  ],
  invalid: [
    {
      name: "a reset token inserted, looked up and deleted, with no TTL",
      cql: schema(),
      manifest: manifest(),
      findings: [
        {
          messageId: "noTtl",
          line: 1,
          column: 14,
          data: { table: "password_reset_tokens", evidence: "`password_reset_tokens`, looked up by `code` (Q1) and deleted by it once used (W2)", inserts: "W1", afterUse: "" },
        },
      ],
    },
    {
      name: "an unremarkable name, but the write path says what it is",
      cql: schema("email_codes", "code"),
      manifest: manifest("email_codes", "code", { describe: "Send the e-mail verification link" }),
      findings: [{ messageId: "noTtl", line: 1, data: { evidence: 'described as "Send the e-mail verification link", looked up by `code` (Q1) and deleted by it once used (W2)' } }],
    },
    {
      name: "kept after use too, said at info",
      cql: schema("account_activations", "activation_code"),
      manifest: manifest("account_activations", "activation_code", { remove: false }),
      findings: [{ messageId: "noTtl", line: 1, data: { afterUse: ", and no write path deletes a token once it is used" } }],
    },
  ],
});
