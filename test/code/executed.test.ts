// Statements prepared once into a field (a DAO's constructor, a field's declaration, a set-up
// method) and run by the methods that bind or execute that field.
import { describe, expect, it } from "vitest";
import { extractFrom } from "./review-with-code.js";

const runs = async (files: Record<string, string>) =>
  Object.fromEntries((await extractFrom(files)).statements.map((s) => [s.id.slice(s.id.indexOf("#") + 1), s.executedIn?.map((fn) => fn.slice(fn.indexOf("#") + 1))]));

describe("where a prepared statement runs", () => {
  it("Java: the methods that bind the field, by `x`, `this.x`, and a set-up method's fields too", async () => {
    const found = await runs({
      "src/main/java/shop/UserDao.java": `package shop;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;

public class UserDao {
    private final CqlSession session;
    private final PreparedStatement findByEmail;
    private final PreparedStatement insertEmail;
    private final PreparedStatement count = session.prepare("SELECT COUNT(*) FROM users");
    private PreparedStatement deleteUser;

    public UserDao(CqlSession session) {
        this.session = session;
        this.findByEmail = session.prepare("SELECT user_id FROM users_by_email WHERE email = ?");
        insertEmail = session.prepare("INSERT INTO users_by_email (email, user_id) VALUES (?, ?)");
        prepareMore();
    }

    private void prepareMore() {
        deleteUser = session.prepare("DELETE FROM users WHERE user_id = ?");
        PreparedStatement local = session.prepare("SELECT name FROM users WHERE user_id = ?");
        session.execute(local.bind("x"));
    }

    public void register(String email, java.util.UUID user) {
        BoundStatement find = findByEmail.bind(email);
        if (session.execute(find).one() == null) session.execute(this.insertEmail.bind(email, user));
    }

    public long total() { return session.execute(count.bind()).one().getLong(0); }

    public void remove(java.util.UUID user) { session.executeAsync(deleteUser.bind(user)); }

    public PreparedStatement getInsertEmail() { return insertEmail; }

    public void other(PreparedStatement findByEmail) { session.execute(findByEmail.bind("y")); }
}
`,
    });
    expect(found).toEqual({
      "UserDao.count": ["UserDao.total"],
      "UserDao.findByEmail": ["UserDao.register"],
      "UserDao.insertEmail": ["UserDao.register"],
      "UserDao.prepareMore": ["UserDao.remove"],
      "UserDao.prepareMore~2": undefined,
    });
  });

  it("Kotlin: an init block's and a property's statements, run through `this.x` and `x`", async () => {
    const found = await runs({
      "src/main/kotlin/shop/UserDao.kt": `package shop

import com.datastax.oss.driver.api.core.CqlSession
import com.datastax.oss.driver.api.core.cql.PreparedStatement

class UserDao(private val session: CqlSession) {
    private val findByEmail: PreparedStatement = session.prepare("SELECT user_id FROM users_by_email WHERE email = ?")
    private val insertEmail: PreparedStatement

    init {
        insertEmail = session.prepare("INSERT INTO users_by_email (email, user_id) VALUES (?, ?)")
    }

    fun register(email: String, user: java.util.UUID) {
        if (session.execute(findByEmail.bind(email)).one() == null) session.execute(this.insertEmail.bind(email, user))
    }

    fun lookup(email: String) = session.execute(findByEmail.bind(email)).one()
}
`,
    });
    // The property's statement is named after the class (ids are kept as they are); where it runs is found all the same.
    expect(found).toEqual({
      UserDao: ["UserDao.lookup", "UserDao.register"],
      "UserDao.insertEmail": ["UserDao.register"],
    });
  });

  it("Python: `self.x` prepared in __init__, run by execute(self.x, …); a local of __init__ is not a field", async () => {
    const found = await runs({
      "shop/users.py": `from cassandra.cluster import Cluster


class UserDao:
    def __init__(self, session):
        self.session = session
        self.find_by_email = session.prepare("SELECT user_id FROM users_by_email WHERE email = ?")
        self.insert_email = session.prepare("INSERT INTO users_by_email (email, user_id) VALUES (?, ?)")
        warmup = session.prepare("SELECT release_version FROM system.local")
        session.execute(warmup)

    def register(self, email, user_id):
        if self.session.execute(self.find_by_email, (email,)).one() is None:
            self.session.execute(self.insert_email.bind((email, user_id)))

    def lookup(self, email):
        return self.session.execute(self.find_by_email, [email]).one()
`,
    });
    expect(found).toEqual({
      "UserDao.find_by_email": ["UserDao.lookup", "UserDao.register"],
      "UserDao.insert_email": ["UserDao.register"],
      "UserDao.__init__": undefined,
    });
  });
});
