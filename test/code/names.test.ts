// Statement ids a person recognises: the field a constructor prepares a statement into, else the
// function that runs it.
import { describe, expect, it } from "vitest";
import { extractFrom } from "./review-with-code.js";

describe("statement ids", () => {
  it("names statements prepared in a constructor or a field after the field that holds them", async () => {
    const result = await extractFrom({
      "src/main/java/shop/AccountRepository.java": `package shop;

import com.datastax.driver.core.PreparedStatement;
import com.datastax.driver.core.Session;

public class AccountRepository {
    private final Session session;
    private final PreparedStatement findByEmailStmt;
    private PreparedStatement insertStmt;
    private final PreparedStatement countStmt = session.prepare("SELECT COUNT(*) FROM accounts");

    public AccountRepository(Session session) {
        this.session = session;
        findByEmailStmt = session.prepare("SELECT id FROM accounts_by_email WHERE email = :email");
        this.insertStmt = session.prepare(
            "INSERT INTO accounts (id, email) VALUES (:id, :email)").setIdempotent(true);
        session.execute("SELECT release_version FROM system.local");
    }

    public void delete(String id) {
        session.execute("DELETE FROM accounts WHERE id = ?", id);
    }
}
`,
      "shop/accounts.py": `from cassandra.cluster import Cluster


class Accounts:
    def __init__(self, session):
        self.by_email = session.prepare("SELECT id FROM accounts_by_email WHERE email = ?")

    def remove(self, account_id):
        self.session.execute("DELETE FROM accounts WHERE id = %s", [account_id])
`,
    });
    expect(result.statements.map((s) => s.id).sort()).toEqual([
      "shop/accounts.py#Accounts.by_email",
      "shop/accounts.py#Accounts.remove",
      "src/main/java/shop/AccountRepository.java#AccountRepository.AccountRepository",
      "src/main/java/shop/AccountRepository.java#AccountRepository.countStmt",
      "src/main/java/shop/AccountRepository.java#AccountRepository.delete",
      "src/main/java/shop/AccountRepository.java#AccountRepository.findByEmailStmt",
      "src/main/java/shop/AccountRepository.java#AccountRepository.insertStmt",
    ]);
  });
});
