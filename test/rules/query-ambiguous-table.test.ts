import { describe, expect, it } from "vitest";
import rule from "../../rules/query-ambiguous-table.js";
import { ruleTester, runRule } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const byEmail = `CREATE TABLE users_by_email (
  email text PRIMARY KEY,
  user_id uuid,
  name text
);
`;
const logins = `CREATE TABLE login_by_email (
  email text PRIMARY KEY,
  user_id uuid,
  name text,
  password_hash blob
);
`;
const loginByEmail = manifestWith([{ id: "Q1", select: "[user_id, name]", where: "{ email: \"=\" }" }]);

ruleTester.run("query-ambiguous-table", rule, {
  valid: [
    { name: "exactly one table serves it", cql: byEmail, manifest: loginByEmail },
    { name: "the query names its table", cql: byEmail + logins, manifest: manifestWith([{ id: "Q1", cql: "SELECT user_id, name FROM login_by_email WHERE email = ?" }]) },
    {
      name: "a second table that could only filter does not count",
      cql: `${byEmail}CREATE TABLE users (\n  user_id uuid PRIMARY KEY,\n  email text,\n  name text\n);\n`,
      manifest: loginByEmail,
    },
  ],
  invalid: [
    {
      name: "two tables keyed by email",
      cql: byEmail + logins,
      manifest: loginByEmail,
      findings: [{ messageId: "ambiguous", line: 4, data: { query: "Q1", count: 2 } }],
    },
  ],
});

describe("query-ambiguous-table messages", () => {
  it("say why the chosen table ranks first, in words rather than the matcher's ranking notes", () => {
    const [message] = runRule(rule, { cql: byEmail + logins, manifest: loginByEmail }).findings.map((f) => f.message);
    expect(message).toBe(
      "2 tables can serve Q1: users_by_email (single-partition) and login_by_email (single-partition). The review plans it on users_by_email: it holds fewer columns the query does not read (none, login_by_email 1). Write the query as `cql:` naming its table, so the model says which one the application reads.",
    );
  });
});
