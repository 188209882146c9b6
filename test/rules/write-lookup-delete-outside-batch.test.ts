import { describe, expect, it } from "vitest";
import rule from "../../rules/write-lookup-delete-outside-batch.js";
import { reviewWithCode } from "../code/review-with-code.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  email text,
  name text
);
CREATE TABLE users_by_email (
  email text PRIMARY KEY,
  user_id uuid
);
`;
const path = (...cql: string[]) => `version: 1\nkeyspace: shop\nwrites:\n  - id: change-email\n    cql:\n${cql.map((c) => `      - ${c}\n`).join("")}`;
const update = "UPDATE users SET email = ? WHERE user_id = ?";
const insert = "INSERT INTO users_by_email (email, user_id) VALUES (?, ?)";
const remove = "DELETE FROM users_by_email WHERE email = ?";

ruleTester.run("write-lookup-delete-outside-batch", rule, {
  valid: [
    { name: "all three in one logged batch", cql: schema, manifest: path(`BEGIN BATCH ${update}; ${insert}; ${remove}; APPLY BATCH`) },
    { name: "no DELETE: the lookup only grows", cql: schema, manifest: path(update, insert) },
    {
      name: "a delete of another table's rows is no move of a lookup entry",
      cql: schema + "CREATE TABLE audit (user_id uuid, at timeuuid, what text, PRIMARY KEY ((user_id), at));\n",
      manifest: path(update, "INSERT INTO audit (user_id, at, what) VALUES (?, now(), ?)", "DELETE FROM audit WHERE user_id = ?"),
    },
    {
      name: "a table that neither holds the value nor points at the row is not its lookup",
      cql: schema + "CREATE TABLE newsletter (email text PRIMARY KEY, since timestamp);\n",
      manifest: path(update, "INSERT INTO newsletter (email, since) VALUES (?, ?)", "DELETE FROM newsletter WHERE email = ?"),
    },
  ],
  invalid: [
    {
      name: "three separate statements",
      cql: schema,
      manifest: path(update, insert, remove),
      findings: [{ messageId: "split", line: 8, column: 9, data: { operation: "change-email", lookup: "users_by_email", value: "`email`", base: "users", where: "as a statement of its own" } }],
    },
    {
      name: "the DELETE left out of the logged batch",
      cql: schema,
      manifest: path(`BEGIN BATCH ${update}; ${insert}; APPLY BATCH`, remove),
      findings: [{ messageId: "split", line: 7, data: { where: "outside the logged batch that writes the new entry" } }],
    },
    {
      name: "an unlogged batch is not atomic across partitions",
      cql: schema,
      manifest: path(`BEGIN UNLOGGED BATCH ${update}; ${insert}; ${remove}; APPLY BATCH`),
      findings: [{ messageId: "split", line: 6, data: { where: "in an UNLOGGED batch, which Cassandra does not make atomic across partitions" } }],
    },
  ],
});

const DAO = "src/main/java/com/example/UserDao.java";
const userDao = `package com.example;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.util.UUID;

public class UserDao {
    private final CqlSession session;

    public UserDao(CqlSession session) { this.session = session; }

    public void changeEmail(UUID user, String oldEmail, String newEmail) {
        session.execute(SimpleStatement.newInstance("UPDATE users SET email = ? WHERE user_id = ?", newEmail, user));
        session.execute(SimpleStatement.newInstance("INSERT INTO users_by_email (email, user_id) VALUES (?, ?)", newEmail, user));
        session.execute(SimpleStatement.newInstance("DELETE FROM users_by_email WHERE email = ?", oldEmail));
    }

    public void forget(String email) {
        session.execute(SimpleStatement.newInstance("DELETE FROM users_by_email WHERE email = ?", email));
    }
}
`;

describe("write-lookup-delete-outside-batch in application code", () => {
  it("reports the DELETE of a method that moves the entry in separate statements, and not a method that only deletes", async () => {
    const result = await reviewWithCode({ "schema/users.cql": schema.replace(/CREATE TABLE /g, "CREATE TABLE shop."), "access-patterns.yaml": "version: 1\nkeyspace: shop\n", [DAO]: userDao });
    const found = result.findings.filter((f) => f.rule === "write-lookup-delete-outside-batch");
    expect(found.map((f) => `${f.location.file}:${f.location.range.start.line}`)).toEqual([`${DAO}:15`]);
    expect(found[0]!.message).toContain("UserDao.changeEmail moves the entry of users_by_email");
  });
});

describe("write-lookup-delete-outside-batch and statements prepared into fields", () => {
  const preparedDao = (save: string) => `package com.example;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.UUID;

public class UserRepository {
    private final CqlSession session;
    private final PreparedStatement updateUser;
    private final PreparedStatement insertByEmail;
    private final PreparedStatement deleteByEmail;

    public UserRepository(CqlSession session) {
        this.session = session;
        updateUser = session.prepare("UPDATE users SET email = ? WHERE user_id = ?");
        insertByEmail = session.prepare("INSERT INTO users_by_email (email, user_id) VALUES (?, ?)");
        deleteByEmail = session.prepare("DELETE FROM users_by_email WHERE email = ?");
    }
${save}
}
`;
  const files = (save: string) => ({ "schema/users.cql": schema.replace(/CREATE TABLE /g, "CREATE TABLE shop."), "access-patterns.yaml": "version: 1\nkeyspace: shop\n", [DAO]: preparedDao(save) });

  it("reports the prepared DELETE that a method runs before the logged batch writing the new entry", async () => {
    const result = await reviewWithCode(
      files(`
    public void changeEmail(UUID user, String oldEmail, String newEmail) {
        session.execute(deleteByEmail.bind(oldEmail));
        BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
        batch.addStatement(updateUser.bind(newEmail, user));
        batch.addStatement(insertByEmail.bind(newEmail, user));
        session.execute(batch.build());
    }`),
    );
    const found = result.findings.filter((f) => f.rule === "write-lookup-delete-outside-batch");
    expect(found.map((f) => `${f.location.file}:${f.location.range.start.line}`)).toEqual([`${DAO}:20`]);
    expect(found[0]!.message).toContain("UserRepository.changeEmail moves the entry of users_by_email");
    expect(found[0]!.message).toContain("outside the logged batch that writes the new entry");
  });

  it("says nothing when each prepared statement runs in a method of its own", async () => {
    const result = await reviewWithCode(
      files(`
    public void setEmail(UUID user, String email) { session.execute(updateUser.bind(email, user)); }

    public void index(UUID user, String email) { session.execute(insertByEmail.bind(email, user)); }

    public void unindex(String email) { session.execute(deleteByEmail.bind(email)); }`),
    );
    expect(result.findings.filter((f) => f.rule === "write-lookup-delete-outside-batch")).toEqual([]);
  });
});
