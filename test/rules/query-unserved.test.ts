import rule from "../../rules/query-unserved.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCql } from "../../src/cql/index.js";
import { runRules } from "../../src/rule-engine/engine.js";
import { analyse, review } from "../../src/review.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const users = `CREATE TABLE users (
  user_id uuid PRIMARY KEY,
  email text,
  name text
);
`;
const orders = `CREATE TABLE orders (
  order_id uuid PRIMARY KEY,
  total decimal
);
`;
const usersByEmail = `CREATE TABLE shop.users_by_email (
  email text,
  user_id uuid,
  name text,
  PRIMARY KEY ((email), user_id)
) WITH CLUSTERING ORDER BY (user_id ASC)`;
const byEmail = manifestWith([{ id: "Q1", select: "[user_id, name]", where: "{ email: \"=\" }" }]);

ruleTester.run("query-unserved", rule, {
  valid: [
    { name: "a table keyed for the query", cql: `${users}\nCREATE TABLE users_by_email (\n  email text PRIMARY KEY,\n  user_id uuid,\n  name text\n);\n`, manifest: byEmail },
    { name: "a cql query naming its table", cql: users, manifest: manifestWith([{ id: "Q1", cql: "SELECT name FROM users WHERE user_id = ?" }]) },
  ],
  invalid: [
    {
      name: "no table is keyed by email: the table is appended to the schema file",
      cql: users,
      manifest: byEmail,
      findings: [{ messageId: "unservedWithFix", line: 4, data: { query: "Q1", file: "schema.cql", table: `${usersByEmail};` } }],
      output: `${users}\n-- Serves Q1.\n${usersByEmail};\n`,
    },
    {
      name: "the table goes to the file whose tables share the query's columns",
      cql: { "schema/010_orders.cql": orders, "schema/020_users.cql": users, "schema/030_more_orders.cql": orders.replace("orders", "orders_archive") },
      manifest: byEmail,
      findings: [{ messageId: "unservedWithFix", line: 4, data: { file: "schema/020_users.cql" } }],
      output: { "schema/020_users.cql": `${users}\n-- Serves Q1.\n${usersByEmail};\n`, "schema/010_orders.cql": orders },
    },
    {
      name: "between files whose tables share as many of the query's columns, the first one",
      cql: { "schema/010_orders.cql": orders, "schema/020_accounts.cql": users.replace("TABLE users", "TABLE accounts"), "schema/030_users.cql": users },
      manifest: byEmail,
      findings: [{ messageId: "unservedWithFix", line: 4, data: { file: "schema/020_accounts.cql" } }],
      output: {
        "schema/020_accounts.cql": `${users.replace("TABLE users", "TABLE accounts")}\n-- Serves Q1.\n${usersByEmail.replace("users_by_email", "accounts_by_email")};\n`,
        "schema/030_users.cql": users,
      },
    },
    {
      name: "one table holding more of the query's columns beats a file holding more of them in all",
      cql: {
        "schema/010_names.cql": `${users.replace("TABLE users", "TABLE names").replace("  email text,\n", "")}${users.replace("TABLE users", "TABLE emails").replace("  name text\n", "  nickname text\n")}`,
        "schema/020_users.cql": users,
      },
      manifest: byEmail,
      findings: [{ messageId: "unservedWithFix", line: 4, data: { file: "schema/020_users.cql" } }],
      output: { "schema/020_users.cql": `${users}\n-- Serves Q1.\n${usersByEmail};\n` },
    },
    {
      name: "a last statement without its semicolon is closed first",
      cql: users.replace(");\n", ")"),
      manifest: byEmail,
      findings: [{ messageId: "unservedWithFix", line: 4 }],
      output: `${users.replace(");\n", ")")};\n\n-- Serves Q1.\n${usersByEmail};\n`,
    },
    {
      name: "no file holds the keyspace's tables: the table is shown in the message",
      cql: users.replace("TABLE users", "TABLE accounts.users"),
      manifest: manifestWith([{ id: "Q1", select: "[user_id, name]", where: "{ email: \"=\" }" }], { keyspace: "accounts" }).replace("keyspace: accounts", "keyspace: shop"),
      findings: [{ messageId: "unservedInline", line: 4 }],
    },
  ],
});

describe("query-unserved on a manifest naming columns no table has", () => {
  it("appends the table to the file with the most tables of the keyspace, the first of equals", () => {
    const { findings } = review({
      files: [
        { path: "schema/010_orders.cql", content: orders },
        { path: "schema/020_users.cql", content: `${users}${orders.replace("orders", "orders_archive")}` },
        { path: "schema/030_more.cql", content: `${orders.replace("orders", "refunds")}${orders.replace("orders", "returns")}` },
        { path: "access-patterns.yaml", content: manifestWith([{ id: "Q1", select: "[sku]", where: '{ warehouse: "=" }' }]) },
      ],
    });
    const unserved = findings.filter((f) => f.rule === "query-unserved");
    expect(unserved.map((f) => f.fix?.file)).toEqual(["schema/020_users.cql"]);
    // The manifest check still reports the unknown columns.
    expect(findings.filter((f) => f.rule === "manifest-invalid").map((f) => f.message)).toHaveLength(2);
  });
});

describe("query-unserved with several queries to place in one file", () => {
  it("gives each its own fix at the end of the file, closing an unclosed last statement in each", () => {
    const manifest = manifestWith([
      { id: "Q1", select: "[user_id, name]", where: '{ email: "=" }' },
      { id: "Q2", select: "[user_id, email]", where: '{ name: "=" }' },
    ]);
    const text = users.replace(");\n", ")\n");
    const { findings } = review({ files: [{ path: "schema.cql", content: text }, { path: "access-patterns.yaml", content: manifest }] });
    const fixes = findings.filter((f) => f.rule === "query-unserved").map((f) => f.fix!);
    expect(fixes.map((f) => f.replacement.split("\n").slice(0, 3))).toEqual([
      [";", "", "-- Serves Q1."],
      [";", "", "-- Serves Q2."],
    ]);
    const end = { line: 6, column: 1, offset: text.length };
    expect(fixes.map((f) => f.range)).toEqual([
      { start: end, end },
      { start: end, end },
    ]);
    // Each fix applied alone parses as the file plus its table.
    for (const fix of fixes) expect(parseCql(text + fix.replacement).statements).toHaveLength(2);
  });
});

describe("query-unserved checks its fix as a whole reparse of the file would (property)", () => {
  /** The check the rule made before it learned to parse only the appended text of a closed file. */
  function wholeFileOffersFix(text: string, suggestion: string, queryId: string): string | undefined {
    const parse = parseCql(text);
    const last = parse.statements[parse.statements.length - 1];
    const terminator = last && !/^\s*;/.test(text.slice(last.range.end.offset)) ? ";" : "";
    const gap = text.length === 0 ? "" : terminator || !text.endsWith("\n") ? "\n\n" : "\n";
    const replacement = `${terminator}${gap}-- Serves ${queryId}.\n${suggestion};\n`;
    const fixed = parseCql(text + replacement);
    const errors = (diagnostics: { severity: string }[]) => diagnostics.filter((d) => d.severity === "error").length;
    if (errors(fixed.diagnostics) > errors(parse.diagnostics) || fixed.statements.length !== parse.statements.length + 1) return undefined;
    return replacement;
  }

  const statement = fc.constantFrom(
    orders,
    "CREATE TABLE notes (note_id uuid PRIMARY KEY, body text);\n",
    "CREATE INDEX ON orders (total);\n",
    "CREATE TABLE broken (id uuid PRIMARY KEY, ;\n",
    "DESCRIBE TABLES;\n",
    "/* a block comment */\n",
    "-- a line comment\n",
    "INSERT INTO orders (order_id, total) VALUES (uuid(), 1.5);\n",
  );
  const ending = fc.constantFrom("", " ", "\n", "\n\n", "  \n", "-- end\n", "-- end", "/* done */", "/* never closed", "'never closed", "\nCREATE TABLE half (", ";", ";;\n");

  it("offers the same fix, or none, for files with any ending", () => {
    fc.assert(
      fc.property(fc.array(statement, { maxLength: 3 }), fc.boolean(), ending, (before, dropSemicolon, end) => {
        const usersText = dropSemicolon ? users.replace(");\n", ")") : users;
        const text = [...before, usersText].join("") + end;
        const result = review({ files: [{ path: "schema.cql", content: text }, { path: "access-patterns.yaml", content: byEmail }] });
        const finding = result.findings.find((f) => f.rule === "query-unserved");
        const suggestion = result.queries[0]?.suggestedTable?.trim().replace(/;\s*$/, "");
        if (!finding || !suggestion || !result.schema.tables.has("shop.users")) return;
        expect(finding.fix?.replacement, text).toBe(wholeFileOffersFix(text, suggestion, "Q1"));
      }),
      { seed: 20_240_611, numRuns: 150 },
    );
  });
});

describe("query-unserved reads the suggested table's name from the analysis when it has it", () => {
  const manifest = manifestWith([
    { id: "Q1", select: "[user_id, name]", where: '{ email: "=" }' },
    { id: "Q2", select: "[user_id, email]", where: '{ name: "=" }' },
  ]);
  const withoutNames = (model: ReturnType<typeof analyse>) => ({ ...model, queries: model.queries.map((q) => ({ ...q })) });

  it.each([
    ["qualified names", `USE shop;\n${users}`, manifest],
    ["unqualified names (no keyspace anywhere)", users, manifest.replace(/^keyspace: .*\n/m, "")],
  ])("reports the same with %s as when it parses the text", (_, schemaText, manifestText) => {
    const model = analyse({ files: [{ path: "schema.cql", content: schemaText }, { path: "access-patterns.yaml", content: manifestText }] });
    const unserved = model.queries.filter((q) => q.plan.verdict === "unserved");
    expect(unserved).toHaveLength(2);
    // The analysis vouched for both; a spread copy (as hand-made models are) carries no name.
    expect(unserved.every((q) => q.suggestedTableName !== undefined)).toBe(true);
    const copy = withoutNames(model);
    expect(copy.queries.some((q) => q.suggestedTableName !== undefined)).toBe(false);
    const fromNames = runRules(model, { rules: [rule] });
    expect(fromNames.map((f) => f.data?.["file"])).toEqual(["schema.cql", "schema.cql"]);
    expect(fromNames).toEqual(runRules(copy, { rules: [rule] }));
  });

  it("still parses a suggestion the analysis gives no name for, and reports it without a table when it does not parse", () => {
    const model = analyse({ files: [{ path: "schema.cql", content: users }, { path: "access-patterns.yaml", content: byEmail }] });
    const query = model.queries[0]!;
    const broken = { ...model, queries: [{ ...query, suggestedTable: "CREATE TABLE shop.users_by_email (email text" }] };
    expect(runRules(broken, { rules: [rule] }).map((f) => f.message)).toEqual([expect.stringMatching(/^No table serves Q1 .*\.$/)]);
    const plain = { ...model, queries: [{ ...query }] };
    expect(runRules(plain, { rules: [rule] }).map((f) => f.fix?.file)).toEqual(["schema.cql"]);
  });
});
