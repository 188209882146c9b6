import { describe, expect, it } from "vitest";
import rule from "../../rules/table-unread.js";
import { MAPPER_SCHEMA, SPRING_ENTITY, SPRING_KEY, SPRING_SCHEMA, SPRING_TABLES } from "../code/entity-fixtures.js";
import { reviewWithCode } from "../code/review-with-code.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

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

const byId = { id: "Q1", cql: "SELECT name FROM users WHERE user_id = ?" };

ruleTester.run("table-unread", rule, {
  valid: [
    { name: "no manifest: nothing to judge by", cql: schema },
    { name: "a manifest of volumes only", cql: schema, manifest: "version: 1\nkeyspace: shop\ntables:\n  users:\n    partitions: 1000\n" },
    {
      name: "every table read, one through an abstract query",
      cql: schema,
      manifest: manifestWith([byId, { id: "Q2", select: "[user_id]", where: '{ email: "=" }' }]),
    },
    {
      name: "a uniqueness table read by its conditional insert",
      cql: schema,
      manifest: `${manifestWith([byId])}writes:\n  - id: W1\n    cql:\n      - INSERT INTO users_by_email (email, user_id) VALUES (?, ?) IF NOT EXISTS\n`,
    },
    {
      name: "a query Cassandra rejects still names its table",
      cql: schema,
      manifest: manifestWith([byId, { id: "Q2", cql: "SELECT user_id FROM users_by_email WHERE user_id = ?" }]),
    },
  ],
  invalid: [
    {
      name: "a lookup table nothing reads",
      cql: schema,
      manifest: manifestWith([byId]),
      findings: [{ messageId: "unread", line: 7, column: 14, data: { table: "users_by_email", writtenBy: "" } }],
    },
    {
      name: "written by a write path, read by none",
      cql: schema,
      manifest: `${manifestWith([byId])}writes:\n  - id: W1\n    cql:\n      - INSERT INTO users (user_id, email, name) VALUES (?, ?, ?)\n      - INSERT INTO users_by_email (email, user_id) VALUES (?, ?)\n`,
      findings: [{ messageId: "unread", line: 7, data: { writtenBy: ", yet W1 writes it" } }],
    },
  ],
});

describe("a table a Spring Data entity maps", () => {
  const files = {
    "cql/schema.cql": `${SPRING_SCHEMA}\n${MAPPER_SCHEMA}`,
    "access-patterns.yaml": "version: 1\nkeyspace: shop\nqueries:\n  - id: Q1\n    cql: SELECT user_id FROM user_credentials WHERE email = ?\n",
    "src/main/java/com/example/video/Tables.java": SPRING_TABLES,
    "src/main/java/com/example/video/VideoByUserKey.java": SPRING_KEY,
    "src/main/java/com/example/video/VideoByUser.java": SPRING_ENTITY,
  };

  it("is at most a note: the repository's built-in methods read it unseen", async () => {
    const result = await reviewWithCode(files);
    const unread = result.findings.filter((f) => f.rule === "table-unread");
    expect(unread.map((f) => f.severity)).toEqual(["info"]);
    expect(unread[0]!.message).toContain("Spring Data entity VideoByUser maps it");
  });

  it("stays a warning for a table no entity maps", async () => {
    const { "src/main/java/com/example/video/VideoByUser.java": _entity, ...withoutEntity } = files;
    const result = await reviewWithCode(withoutEntity);
    const unread = result.findings.filter((f) => f.rule === "table-unread");
    expect(unread.map((f) => f.severity)).toEqual(["warning"]);
    expect(unread[0]!.message).not.toContain("Spring Data");
  });
});
