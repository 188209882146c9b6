import { describe, expect, it } from "vitest";
import rule from "../../rules/write-read-modify-write.js";
import { reviewWithCode } from "../code/review-with-code.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE accounts (
  account_id uuid PRIMARY KEY,
  owner text,
  balance decimal
);
`;
const manifest = (query: string, ...writes: string[]) =>
  `version: 1\nkeyspace: shop\nqueries:\n  - id: Q1\n    cql: ${query}\nwrites:\n${writes.map((c, i) => `  - id: W${i + 1}\n    cql:\n      - ${c}\n`).join("")}`;
const read = "SELECT balance FROM accounts WHERE account_id = ?";
const write = "UPDATE accounts SET balance = ? WHERE account_id = ?";

ruleTester.run("write-read-modify-write", rule, {
  valid: [
    { name: "a compare-and-set on the old value", cql: schema, manifest: manifest(read, `${write} IF balance = ?`) },
    { name: "a literal reset does not depend on the old value", cql: schema, manifest: manifest(read, "UPDATE accounts SET balance = 0 WHERE account_id = ?") },
    { name: "a form that saves several fields", cql: schema, manifest: manifest(read, "UPDATE accounts SET owner = ?, balance = ? WHERE account_id = ?") },
    { name: "SELECT * is no sign the total is what is wanted", cql: schema, manifest: manifest("SELECT * FROM accounts WHERE account_id = ?", write) },
    { name: "a text column is no total", cql: schema, manifest: manifest("SELECT owner FROM accounts WHERE account_id = ?", "UPDATE accounts SET owner = ? WHERE account_id = ?") },
    {
      name: "counters add on the server",
      cql: "CREATE TABLE balances (account_id uuid PRIMARY KEY, cents counter);\n",
      manifest: manifest("SELECT cents FROM balances WHERE account_id = ?", "UPDATE balances SET cents = cents + ? WHERE account_id = ?"),
    },
  ],
  invalid: [
    {
      name: "the manifest reads the balance of the row a write sets: a hint at info",
      cql: schema,
      manifest: manifest(read, write),
      findings: [{ messageId: "manifestOnly", line: 9, column: 9, data: { column: "balance", query: "Q1", write: "W1" } }],
    },
  ],
});

const DAO = "src/main/java/com/example/AccountDao.java";
const accountDao = (update: string) => `package com.example;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.math.BigDecimal;
import java.util.UUID;

public class AccountDao {
    private final CqlSession session;

    public AccountDao(CqlSession session) { this.session = session; }

    public void deposit(UUID account, BigDecimal amount) {
        Row row = session.execute(SimpleStatement.newInstance("SELECT balance FROM accounts WHERE account_id = ?", account)).one();
        BigDecimal balance = row.getBigDecimal("balance");
        session.execute(SimpleStatement.newInstance("${update}", balance.add(amount), account));
    }
}
`;

describe("write-read-modify-write in application code", () => {
  const files = (update: string) => ({ "schema/accounts.cql": schema.replace("accounts", "shop.accounts"), "access-patterns.yaml": "version: 1\nkeyspace: shop\n", [DAO]: accountDao(update) });

  it("reports a method that reads the balance and writes it back, at warning", async () => {
    const result = await reviewWithCode(files("UPDATE accounts SET balance = ? WHERE account_id = ?"));
    const found = result.findings.filter((f) => f.rule === "write-read-modify-write");
    expect(found.map((f) => `${f.location.file}:${f.location.range.start.line}:${f.severity}`)).toEqual([`${DAO}:17:warning`]);
    expect(found[0]!.message).toContain("AccountDao.deposit reads `balance` of accounts");
    expect(found[0]!.message).toContain("IF balance = <the value read>");
  });

  it("says nothing of the compare-and-set", async () => {
    const result = await reviewWithCode(files("UPDATE accounts SET balance = ? WHERE account_id = ? IF balance = ?"));
    expect(result.findings.filter((f) => f.rule === "write-read-modify-write")).toEqual([]);
  });
});
