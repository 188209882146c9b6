import rule from "../../rules/write-lightweight-transaction.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE users_by_email (
  email text PRIMARY KEY,
  user_id uuid,
  status text
);
`;

const write = (cql: string, rate?: string) => `version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n${rate ? `    rate: ${rate}\n` : ""}    cql:\n      - ${cql}\n`;

ruleTester.run("write-lightweight-transaction", rule, {
  valid: [
    { name: "a plain insert", cql: schema, manifest: write("INSERT INTO users_by_email (email, user_id) VALUES (?, ?)") },
    { name: "a plain update", cql: schema, manifest: write("UPDATE users_by_email SET status = ? WHERE email = ?") },
  ],
  invalid: [
    {
      name: "IF NOT EXISTS",
      cql: schema,
      manifest: write("INSERT INTO users_by_email (email, user_id) VALUES (?, ?) IF NOT EXISTS"),
      findings: [{ messageId: "lwt", line: 6, column: 9, data: { owner: "W1", table: "users_by_email", condition: "IF NOT EXISTS", rate: "" } }],
    },
    {
      name: "a compare-and-set with its rate",
      cql: schema,
      manifest: write("UPDATE users_by_email SET status = 'active' WHERE email = ? IF status = 'pending'", "50/s"),
      findings: [{ messageId: "lwt", line: 7, data: { condition: "IF status …", rate: " At 50/s that is 200/s Paxos round trips." } }],
    },
    {
      name: "a rare compare-and-set: its rate is not rounded to 0 a second",
      cql: schema,
      manifest: write("UPDATE users_by_email SET status = 'active' WHERE email = ? IF status = 'pending'", "1/min"),
      findings: [{ messageId: "lwt", line: 7, data: { rate: " At 1/minute that is 4/minute Paxos round trips." } }],
    },
    {
      name: "IF EXISTS on a delete",
      cql: schema,
      manifest: write("DELETE FROM users_by_email WHERE email = ? IF EXISTS"),
      findings: [{ messageId: "lwt", line: 6, data: { condition: "IF EXISTS" } }],
    },
  ],
});
