// Every fixable rule's fix, on files laid out the ways real files are (fix-properties.ts): it
// parses, its finding goes away, and nothing outside its range (no comment, no spacing) changes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import keyspaceReplication from "../../rules/keyspace-replication.js";
import queryOrderAgainstClustering from "../../rules/query-order-against-clustering.js";
import queryUnserved from "../../rules/query-unserved.js";
import tableCompactStorage from "../../rules/table-compact-storage.js";
import tableTimestampCollision from "../../rules/table-timestamp-collision.js";
import { expectCleanFix, laidOut } from "./fix-properties.js";
import { manifestWith } from "./manifest-text.js";

const RUNS = { numRuns: 40 };

describe("fix properties", () => {
  it("keyspace-replication: NetworkTopologyStrategy replaces the map alone", () => {
    const keyspace = laidOut([
      { tokens: ["CREATE", "KEYSPACE", "shop"] },
      { tokens: ["WITH", "replication", "=", "{'class':", "'SimpleStrategy',", "'replication_factor':", "3}"] },
      { tokens: ["AND", "durable_writes", "=", "true;"] },
    ]);
    fc.assert(
      fc.property(keyspace, (cql) => {
        const fix = expectCleanFix(keyspaceReplication, { cql }, "simpleStrategy");
        expect(fix.replacement).toBe("{'class': 'NetworkTopologyStrategy', 'datacenter1': 3}");
      }),
      RUNS,
    );
  });

  const groupTable = (options: string[][]) =>
    laidOut([
      { tokens: ["CREATE", "TABLE", "group_join_dates", "("] },
      { tokens: ["groupname", "text,"] },
      { tokens: ["joined", "timeuuid,"] },
      { tokens: ["username", "text,"] },
      { tokens: ["PRIMARY", "KEY", "((groupname),", "joined)"] },
      ...options.map((tokens, i) => ({ tokens: i === options.length - 1 ? [...tokens, ";"] : tokens })),
    ]);

  it("query-order-against-clustering: the clustering order is declared, with or without other options", () => {
    const tables = fc.oneof(groupTable([[")"]]), groupTable([[")", "WITH", "default_time_to_live", "=", "86400"]]), groupTable([[")"], ["WITH", "comment", "=", "'joins'"]]));
    const manifest = manifestWith([{ id: "Q1", cql: "SELECT username FROM group_join_dates WHERE groupname = ? ORDER BY joined DESC LIMIT 10" }]);
    fc.assert(
      fc.property(tables, (cql) => {
        expectCleanFix(queryOrderAgainstClustering, { cql, manifest }, "allReverse");
      }),
      RUNS,
    );
  });

  const sessions = (options: string[][]) =>
    laidOut([
      { tokens: ["CREATE", "TABLE", "sessions", "("] },
      { tokens: ["session_id", "text", "PRIMARY", "KEY,"] },
      { tokens: ["data", "blob"] },
      ...options.map((tokens, i) => ({ tokens: i === options.length - 1 ? [...tokens, ";"] : tokens })),
    ]);

  it("table-compact-storage: the clause goes, the other properties stay", () => {
    const tables = fc.oneof(
      sessions([[")", "WITH", "COMPACT", "STORAGE"]]),
      sessions([[")"], ["WITH", "COMPACT", "STORAGE"], ["AND", "comment", "=", "'web'"]]),
      sessions([[")"], ["WITH", "comment", "=", "'web'"], ["AND", "COMPACT", "STORAGE"]]),
    );
    fc.assert(
      fc.property(tables, (cql) => {
        const fix = expectCleanFix(tableCompactStorage, { cql }, "removed");
        // Nothing is written back but the comments the range held.
        expect(fix.replacement.replace(/--[^\r\n]*|\/\/[^\r\n]*|\/\*[\s\S]*?\*\//g, "").trim()).toBe("");
      }),
      RUNS,
    );
  });

  it("table-timestamp-collision: only the type changes", () => {
    const events = laidOut([
      { tokens: ["CREATE", "TABLE", "events_by_user", "("] },
      { tokens: ["user_id", "uuid,"] },
      { tokens: ["at", "timestamp,"] },
      { tokens: ["action", "text,"] },
      { tokens: ["PRIMARY", "KEY", "((user_id),", "at)"] },
      { tokens: [");"] },
    ]);
    fc.assert(
      fc.property(events, (cql) => {
        const fix = expectCleanFix(tableTimestampCollision, { cql }, "unknownRate");
        expect(fix.replacement).toBe("timeuuid");
      }),
      RUNS,
    );
  });

  it("query-unserved: the table is appended after everything, the last comment included", () => {
    const users = fc.tuple(
      laidOut([
        { tokens: ["CREATE", "TABLE", "users", "("] },
        { tokens: ["user_id", "uuid", "PRIMARY", "KEY,"] },
        { tokens: ["email", "text,"] },
        { tokens: ["name", "text"] },
        { tokens: [");"] },
      ]),
      // Files often end without a line break, sometimes right after a comment.
      fc.boolean(),
    ).map(([text, trimmed]) => (trimmed ? text.replace(/\r?\n$/, "") : text));
    const manifest = manifestWith([{ id: "Q1", select: "[user_id, name]", where: '{ email: "=" }' }]);
    fc.assert(
      fc.property(users, (cql) => {
        const fix = expectCleanFix(queryUnserved, { cql, manifest }, "unservedWithFix");
        expect(fix.range.start.offset).toBe(cql.length);
      }),
      RUNS,
    );
  });
});
