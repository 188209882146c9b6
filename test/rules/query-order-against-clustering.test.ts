import rule from "../../rules/query-order-against-clustering.js";
import { describe, expect, it } from "vitest";
import { ruleTester, runRule } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const table = (options = "") => `CREATE TABLE group_join_dates (
  groupname text,
  joined timeuuid,
  username text,
  PRIMARY KEY ((groupname), joined)
)${options};
`;

const newest = "SELECT username FROM group_join_dates WHERE groupname = ? ORDER BY joined DESC LIMIT 10";

ruleTester.run("query-order-against-clustering", rule, {
  valid: [
    { name: "ORDER BY in the declared order", cql: table(), manifest: manifestWith([{ id: "Q1", cql: "SELECT username FROM group_join_dates WHERE groupname = ? ORDER BY joined ASC" }]) },
    { name: "the table already stores the newest first", cql: table(" WITH CLUSTERING ORDER BY (joined DESC)"), manifest: manifestWith([{ id: "Q1", cql: newest }]) },
    { name: "no ORDER BY", cql: table(), manifest: manifestWith([{ id: "Q1", cql: "SELECT username FROM group_join_dates WHERE groupname = ? LIMIT 10" }]) },
  ],
  invalid: [
    {
      name: "the only query reads backwards: declare the reversed order",
      cql: table(),
      manifest: manifestWith([{ id: "Q1", cql: newest }]),
      findings: [{ messageId: "allReverse", line: 4, data: { query: "Q1", table: "group_join_dates" } }],
      output: table(" WITH CLUSTERING ORDER BY (joined DESC)"),
    },
    {
      name: "the clause goes first among existing options",
      cql: table(" WITH default_time_to_live = 86400"),
      manifest: manifestWith([{ id: "Q1", cql: newest }]),
      findings: [{ messageId: "allReverse", line: 4 }],
      output: table(" WITH CLUSTERING ORDER BY (joined DESC) AND default_time_to_live = 86400"),
    },
    {
      name: "an existing clause is reversed for every clustering column",
      cql: `CREATE TABLE events_by_day (
  day date,
  at timestamp,
  "Source" text,
  payload text,
  PRIMARY KEY ((day), at, "Source")
) WITH CLUSTERING ORDER BY (at ASC, "Source" DESC)
  AND comment = 'events';
`,
      manifest: manifestWith([
        { id: "Q1", cql: 'SELECT payload FROM events_by_day WHERE day = ? ORDER BY at DESC, "Source" ASC' },
        { id: "Q2", cql: "SELECT payload FROM events_by_day WHERE day = ? ORDER BY at DESC LIMIT 5" },
      ]),
      findings: [
        { messageId: "allReverse", line: 4, data: { query: "Q1" } },
        { messageId: "allReverse", line: 6, data: { query: "Q2" } },
      ],
      output: `CREATE TABLE events_by_day (
  day date,
  at timestamp,
  "Source" text,
  payload text,
  PRIMARY KEY ((day), at, "Source")
) WITH CLUSTERING ORDER BY (at DESC, "Source" ASC)
  AND comment = 'events';
`,
    },
    {
      name: "another query reads forwards: no fix, and the message says which",
      cql: table(),
      manifest: manifestWith([
        { id: "Q1", cql: newest },
        { id: "Q2", cql: "SELECT username FROM group_join_dates WHERE groupname = ? LIMIT 10" },
      ]),
      findings: [{ messageId: "someReverse", line: 4, data: { forward: "Q2" } }],
    },
    {
      name: "a lookup of one row does not depend on the order",
      cql: table(),
      manifest: manifestWith([
        { id: "Q1", cql: newest },
        { id: "Q2", cql: "SELECT username FROM group_join_dates WHERE groupname = ? AND joined = ?" },
      ]),
      findings: [{ messageId: "allReverse", line: 4 }],
      output: table(" WITH CLUSTERING ORDER BY (joined DESC)"),
    },
  ],
});

describe("query-order-against-clustering on a table that already exists at the base commit", () => {
  it("says that reversing the order means a new table and a data migration", () => {
    const manifest = manifestWith([{ id: "Q1", cql: newest }]);
    const added = runRule(rule, { cql: table(), manifest });
    const existing = runRule(rule, { cql: table(), manifest, base: { cql: table(), manifest } });
    expect(added.findings[0]?.fix?.description).toBe("Declare CLUSTERING ORDER BY (joined DESC) on group_join_dates, so its queries read forwards.");
    expect(existing.findings[0]?.fix?.description).toMatch(/already exists: the clustering order cannot be altered, so this means a new table and a data migration/);
  });
});
