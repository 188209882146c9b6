import { describe, expect, it } from "vitest";
import rule from "../../rules/write-uniqueness-race.js";
import { reviewWithCode } from "../code/review-with-code.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  username text,
  email text
);
CREATE TABLE users_by_username (
  username text PRIMARY KEY,
  user_id uuid
);
`;

const manifest = (insertLookup: string, query = "SELECT user_id FROM users_by_username WHERE username = ?") => `version: 1
keyspace: shop
queries:
  - id: Q1
    cql: ${query}
writes:
  - id: W1
    description: Register a user
    cql:
      - INSERT INTO users (user_id, username, email) VALUES (?, ?, ?)
      - ${insertLookup}
`;
const plain = "INSERT INTO users_by_username (username, user_id) VALUES (?, ?)";

ruleTester.run("write-uniqueness-race", rule, {
  valid: [
    { name: "the name is claimed with IF NOT EXISTS", cql: schema, manifest: manifest(`${plain} IF NOT EXISTS`) },
    { name: "nothing reads the lookup by its key", cql: schema, manifest: manifest(plain, "SELECT user_id FROM users WHERE user_id = ?") },
    {
      name: "a lookup keyed by a generated uuid reserves nothing",
      cql: "CREATE TABLE sessions (session_id uuid PRIMARY KEY, user_id uuid);\nCREATE TABLE users (user_id uuid PRIMARY KEY, name text);\n",
      manifest: `version: 1
keyspace: shop
queries:
  - id: Q1
    cql: SELECT user_id FROM sessions WHERE session_id = ?
writes:
  - id: W1
    cql:
      - INSERT INTO users (user_id, name) VALUES (?, ?)
      - INSERT INTO sessions (session_id, user_id) VALUES (?, ?)
`,
    },
    {
      name: "a lookup written on its own, not beside the row it points at",
      cql: schema,
      manifest: `version: 1
keyspace: shop
queries:
  - id: Q1
    cql: SELECT user_id FROM users_by_username WHERE username = ?
writes:
  - id: W1
    cql: ${plain}
`,
    },
    {
      name: "a random code issued for the user is no attribute of the user: unique by chance, not by claim",
      cql: "CREATE TABLE users (user_id uuid PRIMARY KEY, name text);\nCREATE TABLE invitations (invite_code text PRIMARY KEY, user_id uuid);\n",
      manifest: `version: 1
keyspace: shop
queries:
  - id: Q1
    cql: SELECT user_id FROM invitations WHERE invite_code = ?
writes:
  - id: W1
    cql:
      - INSERT INTO users (user_id, name) VALUES (?, ?)
      - INSERT INTO invitations (invite_code, user_id) VALUES (?, ?)
`,
    },
    {
      name: "a lookup that keeps every owner of the value as a clustering column",
      cql: "CREATE TABLE users (user_id uuid PRIMARY KEY, city text);\nCREATE TABLE users_by_city (city text, user_id uuid, PRIMARY KEY ((city), user_id));\n",
      manifest: `version: 1
keyspace: shop
queries:
  - id: Q1
    cql: SELECT user_id FROM users_by_city WHERE city = ?
writes:
  - id: W1
    cql:
      - INSERT INTO users (user_id, city) VALUES (?, ?)
      - INSERT INTO users_by_city (city, user_id) VALUES (?, ?)
`,
    },
  ],
  invalid: [
    {
      name: "a username lookup written with a plain INSERT beside the user",
      cql: schema,
      manifest: manifest(plain),
      findings: [{ messageId: "lookup", line: 11, column: 9, data: { table: "users_by_username", key: "`username`", target: "`user_id`", owner: "users", writes: "W1" } }],
    },
  ],
});

const DAO = "src/main/java/com/example/UserDao.java";
const userDao = (insert: string) => `package com.example;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;

public class UserDao {
    private final CqlSession session;

    public UserDao(CqlSession session) { this.session = session; }

    public boolean claim(String email, java.util.UUID user) {
        if (session.execute(SimpleStatement.newInstance("SELECT user_id FROM emails WHERE email = ?", email)).one() != null) {
            return false;
        }
        session.execute(SimpleStatement.newInstance("${insert}", email, user));
        return true;
    }

    public void find(String email) {
        session.execute(SimpleStatement.newInstance("SELECT user_id FROM emails WHERE email = ?", email));
    }

    public void overwrite(String email, java.util.UUID user) {
        session.execute(SimpleStatement.newInstance("INSERT INTO emails (email, user_id) VALUES (?, ?)", email, user));
    }
}
`;
const app = (insert: string) => ({
  "schema/emails.cql": "CREATE TABLE shop.emails (email text PRIMARY KEY, user_id uuid);\n",
  "access-patterns.yaml": "version: 1\nkeyspace: shop\n",
  [DAO]: userDao(insert),
});

describe("write-uniqueness-race in application code", () => {
  it("reports a read of the key and a plain INSERT of it in one method, at the INSERT", async () => {
    const result = await reviewWithCode(app("INSERT INTO emails (email, user_id) VALUES (?, ?)"));
    const found = result.findings.filter((f) => f.rule === "write-uniqueness-race");
    expect(found.map((f) => `${f.location.file}:${f.location.range.start.line}`)).toEqual([`${DAO}:15`]);
    expect(found[0]!.severity).toBe("warning");
    expect(found[0]!.message).toContain("UserDao.claim reads emails by its primary key");
    expect(found[0]!.message).toContain("`INSERT … IF NOT EXISTS`");
  });

  it("says nothing once the INSERT is conditional (the plain INSERT of the other method is write-mixed-lwt's)", async () => {
    const result = await reviewWithCode(app("INSERT INTO emails (email, user_id) VALUES (?, ?) IF NOT EXISTS"));
    expect(result.findings.filter((f) => f.rule === "write-uniqueness-race")).toEqual([]);
  });
});

describe("write-uniqueness-race and statements prepared together", () => {
  it("takes no constructor that prepares every statement of a DAO for one operation (each is named after its field)", async () => {
    const dao = `package com.example;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;

public class EmailDao {
    private final CqlSession session;
    private final PreparedStatement find;
    private final PreparedStatement insert;
    private final PreparedStatement remove;

    public EmailDao(CqlSession session) {
        this.session = session;
        this.find = session.prepare("SELECT user_id FROM emails WHERE email = ?");
        this.insert = session.prepare("INSERT INTO emails (email, user_id) VALUES (?, ?)");
        this.remove = session.prepare("DELETE FROM emails WHERE email = ?");
    }
}
`;
    const result = await reviewWithCode({ ...app("INSERT INTO emails (email, user_id) VALUES (?, ?)"), [DAO]: dao });
    expect(result.findings.filter((f) => f.rule === "write-uniqueness-race")).toEqual([]);
  });
});

describe("write-uniqueness-race and statements prepared into fields, run by methods", () => {
  const javaDao = (methods: string) => `package com.example;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;

public class EmailDao {
    private final CqlSession session;
    private final PreparedStatement find;
    private final PreparedStatement insert;

    public EmailDao(CqlSession session) {
        this.session = session;
        this.find = session.prepare("SELECT user_id FROM emails WHERE email = ?");
        this.insert = session.prepare("INSERT INTO emails (email, user_id) VALUES (?, ?)");
    }
${methods}
}
`;
  const pythonDao = (methods: string) => `from cassandra.cluster import Cluster


class EmailDao:
    def __init__(self, session):
        self.session = session
        self.find = session.prepare("SELECT user_id FROM emails WHERE email = ?")
        self.insert = session.prepare("INSERT INTO emails (email, user_id) VALUES (?, ?)")
${methods}`;
  const PY = "shop/emails.py";

  it("reports the method that reads the key and then inserts it, at the INSERT's field", async () => {
    const dao = javaDao(`
    public boolean claim(String email, java.util.UUID user) {
        if (session.execute(find.bind(email)).one() != null) return false;
        session.execute(insert.bind(email, user));
        return true;
    }`);
    const result = await reviewWithCode({ ...app(""), [DAO]: dao });
    const found = result.findings.filter((f) => f.rule === "write-uniqueness-race");
    expect(found.map((f) => `${f.location.file}:${f.location.range.start.line}`)).toEqual([`${DAO}:14`]);
    expect(found[0]!.message).toContain("EmailDao.claim reads emails by its primary key");
  });

  it("says nothing when one method reads and another writes", async () => {
    const dao = javaDao(`
    public boolean exists(String email) { return session.execute(find.bind(email)).one() != null; }

    public void save(String email, java.util.UUID user) { session.execute(this.insert.bind(email, user)); }`);
    const result = await reviewWithCode({ ...app(""), [DAO]: dao });
    expect(result.findings.filter((f) => f.rule === "write-uniqueness-race")).toEqual([]);
  });

  it("Python: reports a method that runs self.find, then self.insert; not two methods", async () => {
    const files = { "schema/emails.cql": app("")["schema/emails.cql"], "access-patterns.yaml": app("")["access-patterns.yaml"] };
    const racy = await reviewWithCode({
      ...files,
      [PY]: pythonDao(`
    def claim(self, email, user_id):
        if self.session.execute(self.find, (email,)).one() is not None:
            return False
        self.session.execute(self.insert, (email, user_id))
        return True
`),
    });
    expect(racy.findings.filter((f) => f.rule === "write-uniqueness-race").map((f) => `${f.location.file}:${f.location.range.start.line}`)).toEqual([`${PY}:8`]);
    const apart = await reviewWithCode({
      ...files,
      [PY]: pythonDao(`
    def exists(self, email):
        return self.session.execute(self.find, (email,)).one() is not None

    def save(self, email, user_id):
        self.session.execute(self.insert, (email, user_id))
`),
    });
    expect(apart.findings.filter((f) => f.rule === "write-uniqueness-race")).toEqual([]);
  });
});
