import rule from "../../rules/change-dropped-still-used.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const users = `CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  email text,
  nickname text
);
`;
const legacy = `CREATE TABLE users_by_name (
  nickname text PRIMARY KEY,
  user_id uuid
);
`;

const reads = manifestWith([
  { id: "Q1", cql: "SELECT email, nickname FROM users WHERE user_id = ?" },
  { id: "Q2", cql: "SELECT user_id FROM users_by_name WHERE nickname = ?" },
]);

ruleTester.run("change-dropped-still-used", rule, {
  valid: [
    { name: "nothing dropped", cql: users + legacy, manifest: reads, base: { cql: users + legacy, manifest: reads } },
    {
      name: "a dropped column nobody uses",
      cql: `${users}ALTER TABLE users DROP nickname;\n`,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT email FROM users WHERE user_id = ?" }]),
    },
    {
      name: "a table dropped with its query",
      cql: users,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT email FROM users WHERE user_id = ?" }]),
      base: { cql: users + legacy, manifest: reads },
    },
    { name: "SELECT * survives a dropped column", cql: `${users}ALTER TABLE users DROP nickname;\n`, manifest: manifestWith([{ id: "Q1", cql: "SELECT * FROM users WHERE user_id = ?" }]) },
  ],
  invalid: [
    {
      name: "a DROP COLUMN in a migration while Q1 still selects it",
      cql: `${users}ALTER TABLE users DROP nickname;\n`,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT email, nickname FROM users WHERE user_id = ?" }]),
      findings: [{ messageId: "column", line: 6, column: 24, data: { column: "nickname", table: "users", users: "Q1" } }],
    },
    {
      name: "a DROP TABLE while a query and a write use it",
      cql: `${users}${legacy}DROP TABLE users_by_name;\n`,
      manifest: `${reads}writes:\n  - id: W1\n    cql:\n      - INSERT INTO users_by_name (nickname, user_id) VALUES (?, ?)\n`,
      findings: [{ messageId: "table", line: 10, column: 1, data: { table: "users_by_name", users: "Q2 and W1", verb: "use" } }],
    },
    {
      name: "a table deleted from the schema files since the base commit",
      cql: users,
      manifest: reads,
      base: { cql: users + legacy, manifest: reads },
      findings: [{ messageId: "table", line: 6, file: "access-patterns.yaml", data: { users: "Q2" } }],
    },
    {
      name: "a column removed from the CREATE since the base commit, used by an abstract query",
      cql: `CREATE TABLE users (\n  user_id uuid PRIMARY KEY,\n  email text\n);\n${legacy}`,
      manifest: manifestWith([{ id: "Q1", select: "[email, nickname]", where: '{ user_id: "=" }' }]),
      base: { cql: users + legacy, manifest: manifestWith([{ id: "Q1", select: "[email, nickname]", where: '{ user_id: "=" }' }]) },
      findings: [{ messageId: "column", line: 1, column: 14, data: { column: "nickname" } }],
    },
  ],
});
