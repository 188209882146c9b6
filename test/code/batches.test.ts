// Batches filled at run time with fixed statements: one BATCH entry when every statement the code
// may add is known, listed as dynamic when one is not.
import { describe, expect, it } from "vitest";
import { extractFrom } from "./review-with-code.js";

describe("batches built at run time", () => {
  it("resolves a mapper DAO's statement added to a batch through the DAO field's type", async () => {
    const result = await extractFrom({
      "src/main/java/shop/Account.java": `package shop;

import com.datastax.oss.driver.api.mapper.annotations.*;

@Entity(defaultKeyspace = "shop")
@CqlName("accounts")
public class Account {
    @PartitionKey
    private String id;
    private String email;
}
`,
      "src/main/java/shop/AccountStore.java": `package shop;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.*;
import com.datastax.oss.driver.api.mapper.annotations.*;

public class AccountStore {
    private final CqlSession session;
    private final AccountDao accountDao;
    private final PreparedStatement insertByEmailStmt;

    AccountStore(CqlSession session, AccountDao accountDao) {
        this.session = session;
        this.accountDao = accountDao;
        insertByEmailStmt = session.prepare("INSERT INTO accounts_by_email (email, id) VALUES (:email, :id)");
    }

    void save(Account account) {
        BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
        batch.addStatement(accountDao.saveQuery(account));
        batch.addStatement(insertByEmailStmt.bind());
        session.execute(batch.build());
    }
}

@Dao
interface AccountDao {
    @Insert
    BoundStatement saveQuery(Account account);
}
`,
    });
    const batch = result.statements.find((s) => s.api === "BatchStatement");
    expect(batch?.cql.replace(/\s+/g, " ")).toBe(
      "BEGIN BATCH INSERT INTO shop.accounts (id, email) VALUES (:id, :email); INSERT INTO accounts_by_email (email, id) VALUES (:email, :id); APPLY BATCH",
    );
    expect(batch?.range.start.line).toBe(19);
  });

  it("writes one BATCH of the prepared statements a driver 4 builder adds, in an if or not", async () => {
    const result = await extractFrom({
      "src/main/java/shop/AccountRepository.java": `package shop;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.*;

public class AccountRepository {
    private final CqlSession session;
    private final PreparedStatement insertByEmailStmt;
    private final PreparedStatement insertByNameStmt;
    private final AccountDao accountDao;

    AccountRepository(CqlSession session, AccountDao accountDao) {
        this.session = session;
        this.accountDao = accountDao;
        insertByEmailStmt = session.prepare("INSERT INTO accounts_by_email (email, id) VALUES (:email, :id)");
        insertByNameStmt = session.prepare("INSERT INTO accounts_by_name (name, id) VALUES (:name, :id)");
    }

    void save(Account account) {
        BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
        if (account.getName() != null) {
            batch.addStatement(insertByNameStmt.bind().setString("name", account.getName()).setString("id", account.getId()));
        }
        batch.addStatement(insertByEmailStmt.bind().setString("email", account.getEmail()).setString("id", account.getId()));
        session.execute(batch.build());
    }

    void delete(Account account) {
        BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED);
        batch.addStatement(accountDao.deleteQuery(account));
        batch.addStatement(insertByEmailStmt.bind());
        session.execute(batch.build());
    }
}
`,
      "src/main/java/shop/Counters.java": `package shop;

import com.datastax.driver.core.*;
import java.util.List;

public class Counters {
    private final Session session;
    private final PreparedStatement bump;

    Counters(Session session) {
        this.session = session;
        this.bump = session.prepare("UPDATE views SET n = n + 1 WHERE page = ?");
    }

    void count(List<String> pages) {
        BatchStatement batch = new BatchStatement(BatchStatement.Type.COUNTER);
        for (String page : pages) batch.add(bump.bind(page));
        session.execute(batch);
    }
}
`,
    });
    const batches = result.statements.filter((s) => s.api === "BatchStatement");
    expect(batches.map((s) => [s.id, s.range.start.line, s.cql.replace(/\s+/g, " ")])).toEqual([
      [
        "src/main/java/shop/AccountRepository.java#AccountRepository.save",
        20,
        "BEGIN BATCH INSERT INTO accounts_by_name (name, id) VALUES (:name, :id); INSERT INTO accounts_by_email (email, id) VALUES (:email, :id); APPLY BATCH",
      ],
      ["src/main/java/shop/Counters.java#Counters.count", 16, "BEGIN COUNTER BATCH UPDATE views SET n = n + 1 WHERE page = ?; APPLY BATCH"],
    ]);
    expect(result.dynamic.filter((d) => d.api === "BatchStatement").map((d) => `${d.range.start.line} ${d.reason}`)).toEqual([
      "29 the batch adds `accountDao.deleteQuery(account)`, which is not a statement of the code read",
    ]);
  });
});
