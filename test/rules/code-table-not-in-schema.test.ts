import { describe, expect, it } from "vitest";
import { findingsAt, reviewWithCode } from "../code/review-with-code.js";

const RULE = "code-table-not-in-schema";

const dao = (body: string) => `package com.example;

import com.datastax.oss.driver.api.core.CqlSession;

public class Dao {
    private final CqlSession session;

    Dao(CqlSession session) {
        this.session = session;
    }
${body}
}
`;

const BOOK_READ = `
    void find(String id) {
        session.execute("SELECT title FROM library.book WHERE id_book = ?", id);
    }
`;
const BOOK_WRITE = `
    void add(String id, String title) {
        session.execute("INSERT INTO library.book (id_book, title) VALUES (?, ?)", id, title);
    }
`;
const READERS = "CREATE TABLE library.readers (id int PRIMARY KEY, name text);\n";

describe(RULE, () => {
  it("says once per table which code statements went unreviewed, without failing the gate", async () => {
    const result = await reviewWithCode({ "src/main/java/com/example/Dao.java": dao(BOOK_WRITE + BOOK_READ) });
    expect(findingsAt(result, RULE)).toEqual([`${RULE} src/main/java/com/example/Dao.java:13`]);
    const finding = result.findings.find((f) => f.rule === RULE)!;
    expect(finding.severity).toBe("info");
    expect(finding.message).toContain("library.book");
    expect(finding.message).toContain("this review read no CREATE TABLE for it (2 of the code's statements use it)");
    // Not a rejection: the table may be created elsewhere.
    expect(findingsAt(result, "query-invalid")).toEqual([]);
    expect(result.gateFails).toBe(false);
  });

  it("names a schema table one or two edits away, the likely typo", async () => {
    const result = await reviewWithCode({
      "schema/library.cql": "CREATE TABLE library.books (id_book text PRIMARY KEY, title text);\n" + READERS,
      "src/main/java/com/example/Dao.java": dao(BOOK_READ),
    });
    const finding = result.findings.find((f) => f.rule === RULE)!;
    expect(finding.message).toContain("The schema has library.books");
    expect(findingsAt(result, "query-invalid")).toEqual([]);
  });

  it("looks for near names within a budget: past it, the finding names none", async () => {
    // 60 misspelt tables against 2,000 schema tables: 120,000 names to look at, over the budget.
    // Names of eight pseudo-random letters lie far apart, so each misspelling has one near name.
    let seed = 7;
    const letters = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + ((seed = (seed * 48_271) % 2_147_483_647) % 26))).join("");
    const names = Array.from({ length: 2_000 }, letters);
    const schema = names.map((name) => `CREATE TABLE library.${name} (id text PRIMARY KEY, title text);\n`).join("");
    const methods = names.slice(0, 60).map((name, i) => `
    void find${i}(String id) {
        session.execute("SELECT title FROM library.${name}s WHERE id = ?", id);
    }
`).join("");
    const result = await reviewWithCode({ "schema/library.cql": schema, "src/main/java/com/example/Dao.java": dao(methods) });
    const messages = result.findings.filter((f) => f.rule === RULE).map((f) => f.message);
    expect(messages).toHaveLength(60);
    const named = messages.filter((m) => m.includes("The schema has library."));
    expect(named.length).toBeGreaterThan(0);
    expect(named.length).toBeLessThan(60);
  });

  it("says nothing when the schema defines the table, and leaves manifest entries to query-invalid", async () => {
    const result = await reviewWithCode({
      "schema/library.cql": "CREATE TABLE library.book (id_book text PRIMARY KEY, title text);\n",
      "src/main/java/com/example/Dao.java": dao(BOOK_READ + BOOK_WRITE),
    });
    expect(findingsAt(result, RULE)).toEqual([]);

    const written = await reviewWithCode({
      "schema/library.cql": READERS,
      "access-patterns.yaml": "version: 1\nkeyspace: library\nqueries:\n  - id: Q1\n    cql: SELECT title FROM book WHERE id_book = ?\n    rate: 1/s\n",
    });
    expect(findingsAt(written, RULE)).toEqual([]);
    expect(findingsAt(written, "query-invalid")).toEqual(["query-invalid access-patterns.yaml:5"]);
  });
});
