import { describe, expect, it } from "vitest";
import { analyse } from "../../src/review.js";
import { runRules } from "../../src/rule-engine/engine.js";
import { collectSuppressions, findingEntity, parseDirective } from "../../src/rule-engine/suppression.js";

describe("parseDirective", () => {
  it("reads the verb, the rule ids and the reason", () => {
    expect(parseDirective("cql-review-disable-next-line query-full-scan, schema-invalid -- nightly export job")).toEqual({
      verb: "disable-next-line",
      rules: ["query-full-scan", "schema-invalid"],
      reason: "nightly export job",
    });
  });

  it("accepts ids separated by spaces, and a reason spread over lines in a block comment", () => {
    expect(parseDirective("cql-review-disable a-rule b-rule --\n  kept small by\n  the purge job")).toEqual({
      verb: "disable",
      rules: ["a-rule", "b-rule"],
      reason: "kept small by the purge job",
    });
  });

  it("has no reason when nothing follows the separator, or there is no separator", () => {
    expect(parseDirective("cql-review-disable-next-line query-full-scan --")).toEqual({ verb: "disable-next-line", rules: ["query-full-scan"] });
    expect(parseDirective("cql-review-disable-next-line query-full-scan")).toEqual({ verb: "disable-next-line", rules: ["query-full-scan"] });
  });

  it("keeps dashes inside rule ids (the separator needs white space before it)", () => {
    expect(parseDirective("cql-review-disable query--odd -- why")?.rules).toEqual(["query--odd"]);
  });

  it("reads enable with or without ids", () => {
    expect(parseDirective("cql-review-enable")).toEqual({ verb: "enable", rules: [] });
    expect(parseDirective("cql-review-enable schema-invalid")).toEqual({ verb: "enable", rules: ["schema-invalid"] });
  });

  it("ignores ordinary comments and near misses", () => {
    expect(parseDirective("Q1: a user by id")).toBeUndefined();
    expect(parseDirective("cql-review-disabled query-full-scan")).toBeUndefined();
    expect(parseDirective("see cql-review-disable docs")).toBeUndefined();
  });
});

// A schema with two statements Cassandra rejects (schema-invalid): the primary keys name
// columns that are not declared.
const BROKEN_TABLE = (name: string) => `CREATE TABLE ${name} (\n  id uuid,\n  title text,\n  PRIMARY KEY (missing_id)\n);\n`;

function schemaFindings(cql: string): { rule: string; line: number }[] {
  const model = analyse({ files: [{ path: "schema.cql", content: cql }] });
  return runRules(model).map((f) => ({ rule: f.rule, line: f.location.range.start.line }));
}

describe("suppression comments in CQL", () => {
  it("reports both broken tables when nothing is suppressed", () => {
    expect(schemaFindings(BROKEN_TABLE("a") + BROKEN_TABLE("b")).filter((f) => f.rule === "schema-invalid").map((f) => f.line)).toEqual([4, 9]);
  });

  it("disable-next-line silences the next statement only", () => {
    const cql = `-- cql-review-disable-next-line schema-invalid -- migrated by hand\n${BROKEN_TABLE("a")}${BROKEN_TABLE("b")}`;
    expect(schemaFindings(cql)).toEqual([{ rule: "schema-invalid", line: 10 }]);
  });

  it("accepts // and /* */ comments", () => {
    for (const comment of ["// cql-review-disable-next-line schema-invalid -- legacy", "/* cql-review-disable-next-line schema-invalid -- legacy */"]) {
      expect(schemaFindings(`${comment}\n${BROKEN_TABLE("a")}`)).toEqual([]);
    }
  });

  it("disable silences the rest of the file, and enable ends it", () => {
    const cql = `${BROKEN_TABLE("a")}-- cql-review-disable schema-invalid -- legacy tables\n${BROKEN_TABLE("b")}${BROKEN_TABLE("c")}-- cql-review-enable schema-invalid\n${BROKEN_TABLE("d")}`;
    expect(schemaFindings(cql).map((f) => f.line)).toEqual([4, 21]);
  });

  it("a comment inside a statement silences the next line", () => {
    const cql = "CREATE TABLE a (\n  id uuid,\n  -- cql-review-disable-next-line schema-invalid -- renamed in the next release\n  PRIMARY KEY (missing_id)\n);\n";
    expect(schemaFindings(cql)).toEqual([]);
    const elsewhere = "CREATE TABLE a (\n  -- cql-review-disable-next-line schema-invalid -- not this line\n  id uuid,\n  PRIMARY KEY (missing_id)\n);\n";
    expect(schemaFindings(elsewhere).map((f) => f.rule)).toContain("schema-invalid");
  });

  it("does not reach into another file", () => {
    const model = analyse({
      files: [
        { path: "a.cql", content: "-- cql-review-disable schema-invalid -- legacy\n" },
        { path: "b.cql", content: BROKEN_TABLE("b") },
      ],
    });
    expect(runRules(model).map((f) => f.rule)).toContain("schema-invalid");
  });

  it("gives each directive a key that survives unrelated edits above it", () => {
    const keys = (cql: string) =>
      collectSuppressions(analyse({ files: [{ path: "s.cql", content: cql }] })).suppressions.map((s) => s.directiveKey);
    const directive = "-- cql-review-disable-next-line schema-invalid -- why\n";
    expect(keys(directive + BROKEN_TABLE("a"))).toEqual(keys(`-- a new comment\n\n${directive}${BROKEN_TABLE("a")}`));
  });
});

describe("manifest ignores", () => {
  const cql = "CREATE TABLE videos (\n  video_id uuid PRIMARY KEY,\n  title text\n);\n";
  const manifest = (ignore: string) => `version: 1
keyspace: shop
queries:
  - id: Q1
    description: every video
    cql: SELECT video_id, title FROM videos${ignore}
  - id: Q2
    description: every title
    cql: SELECT title FROM videos
`;

  it("silence that rule's findings on that query only", () => {
    const run = (ignore: string) =>
      runRules(analyse({ files: [{ path: "schema.cql", content: cql }, { path: "access-patterns.yaml", content: manifest(ignore) }] }))
        .filter((f) => f.rule === "query-full-scan")
        .map(findingEntity);
    expect(run("")).toEqual(["query:Q1", "query:Q2"]);
    expect(run("\n    ignore:\n      - rule: query-full-scan\n        reason: nightly export")).toEqual(["query:Q2"]);
  });
});
