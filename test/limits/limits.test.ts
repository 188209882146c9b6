// The explicit input limits of docs/configuration.md, each driven through `review()` as a repository would hit
// it: the file past the limit gets a positioned finding, and the rest of the review still happens.
import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/findings.js";
import { parseCql } from "../../src/cql/index.js";
import { YAML_LIMITS } from "../../src/manifest/yaml-positions.js";
import { REVIEW_LIMITS, review, type SourceFile } from "../../src/review.js";

const keyspace: SourceFile = {
  path: "schema/000_keyspace.cql",
  content: "CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n",
};
const orders: SourceFile = {
  path: "schema/010_orders.cql",
  content: [
    "USE shop;",
    "",
    "CREATE TABLE orders_by_customer (",
    "  customer_id uuid,",
    "  ordered_at timestamp,",
    "  order_id uuid,",
    "  total decimal,",
    "  PRIMARY KEY ((customer_id), ordered_at, order_id)",
    ") WITH CLUSTERING ORDER BY (ordered_at DESC, order_id ASC);",
    "",
  ].join("\n"),
};
const manifestText = [
  "version: 1",
  "keyspace: shop",
  "queries:",
  "  - id: Q1",
  "    description: Latest orders of a customer",
  "    cql: SELECT order_id, total FROM orders_by_customer WHERE customer_id = ? LIMIT 20",
  "",
].join("\n");
const manifest: SourceFile = { path: "access-patterns.yaml", content: manifestText };

const limitFindings = (findings: Finding[]) => findings.filter((f) => f.rule === "input-limit-exceeded");

/** A schema file of exactly `length` characters: a table, then comment lines as padding. */
function paddedSchemaFile(path: string, table: string, length: number): SourceFile {
  const head = `USE shop;\nCREATE TABLE ${table} (id uuid PRIMARY KEY, v text);\n`;
  const line = `-- ${"x".repeat(76)}\n`;
  let content = head + line.repeat(Math.floor((length - head.length) / line.length));
  content += "-".repeat(length - content.length);
  return { path, content };
}

describe("file size limit", () => {
  it("a schema file one character over the limit is reported at its first line and not parsed; the others are reviewed", () => {
    const big = paddedSchemaFile("schema/020_big.cql", "big_table", REVIEW_LIMITS.fileBytes + 1);
    const result = review({ files: [keyspace, orders, big, manifest] });

    const [finding] = limitFindings(result.findings);
    expect(finding).toMatchObject({ severity: "warning", location: { file: "schema/020_big.cql", range: { start: { line: 1, column: 1 } } } });
    expect(finding!.message).toContain(`over the ${REVIEW_LIMITS.fileBytes}-byte limit`);
    expect(result.schema.tables.has("shop.big_table")).toBe(false);
    expect(result.files.map((f) => f.path)).not.toContain("schema/020_big.cql");
    // the rest of the review still happened
    expect(result.queries.map((q) => [q.id, q.plan.verdict])).toEqual([["Q1", "single-partition"]]);
  });

  it("a schema file of exactly the limit is parsed", () => {
    const edge = paddedSchemaFile("schema/020_edge.cql", "edge_table", REVIEW_LIMITS.fileBytes);
    expect(edge.content.length).toBe(REVIEW_LIMITS.fileBytes);
    const result = review({ files: [keyspace, edge] });
    expect(limitFindings(result.findings)).toEqual([]);
    expect(result.schema.tables.has("shop.edge_table")).toBe(true);
  });

  it("a binary file is reported and skipped", () => {
    const binary = { path: "schema/020_dump.cql", content: `USE shop;\u0000\u0001\u0002` };
    const result = review({ files: [keyspace, orders, binary, manifest] });
    expect(limitFindings(result.findings).map((f) => [f.location.file, f.message])).toEqual([
      ["schema/020_dump.cql", "schema/020_dump.cql looks binary (it contains NUL bytes); it was not parsed."],
    ]);
    expect(result.queries[0]!.plan.verdict).toBe("single-partition");
  });
});

describe("statements per file", () => {
  it("a file with more statements than the limit is reported and left out of the model", () => {
    const many = { path: "schema/020_many.cql", content: `CREATE TABLE shop.flood (id uuid PRIMARY KEY);\n${"USE shop;\n".repeat(REVIEW_LIMITS.statementsPerFile)}` };
    const result = review({ files: [keyspace, orders, many, manifest] });

    const [finding] = limitFindings(result.findings);
    expect(finding!.location.file).toBe("schema/020_many.cql");
    // With the other files' statements, the review's limit (as large as a file's) is the one it passes.
    expect(finding!.message).toBe(
      `schema/020_many.cql would take the schema past ${REVIEW_LIMITS.statementsPerReview} statements (broken ones included), the limit per review; it was not reviewed.`,
    );
    expect(result.schema.tables.has("shop.flood")).toBe(false);
    expect(result.schema.tables.has("shop.orders_by_customer")).toBe(true);
  });

  it("a file of exactly the limit is reviewed", () => {
    // the keyspace in the same file: the statements per review are no more than per file
    const full = { path: "schema/020_full.cql", content: `${keyspace.content}CREATE TABLE shop.full_house (id uuid PRIMARY KEY);\n${"USE shop;\n".repeat(REVIEW_LIMITS.statementsPerFile - 2)}` };
    const result = review({ files: [full] });
    expect(limitFindings(result.findings)).toEqual([]);
    expect(result.schema.tables.has("shop.full_house")).toBe(true);
  });
});

describe("broken statements", () => {
  // Two 1 MB files of nothing but `SELECT ;`: 232,000 broken statements, each a diagnostic.
  const flood = (path: string) => ({ path, content: "SELECT ;\n".repeat(116_000) });

  it("count against the limits per file and per review: the parses stop past them, and the files are not reviewed", () => {
    const parse = parseCql(flood("f.cql").content, { maxStatements: REVIEW_LIMITS.statementsPerFile + 1 });
    expect(parse.stopped).toBe(true);
    expect(parse.attempted).toBe(REVIEW_LIMITS.statementsPerFile + 1);
    expect(parse.diagnostics).toHaveLength(REVIEW_LIMITS.statementsPerFile + 1);

    const result = review({ files: [flood("schema/a_flood.cql"), flood("schema/b_flood.cql")] });
    expect(limitFindings(result.findings).map((f) => f.message)).toEqual([
      `schema/a_flood.cql has more than ${REVIEW_LIMITS.statementsPerFile} statements (broken ones included), over the limit per file; it was not reviewed.`,
      // The first file's parse used the review's room: the second is not parsed past its first statement.
      `schema/b_flood.cql would take the schema past ${REVIEW_LIMITS.statementsPerReview} statements (broken ones included), the limit per review; it was not reviewed.`,
    ]);
    expect(result.findings.filter((f) => f.rule === "cql-syntax-error")).toEqual([]);
    expect(result.gateFails).toBe(true);
  });

  it("count against the limit per review: the files after it are parsed only as far as the review has room", () => {
    const broken = (path: string, count: number) => ({ path, content: "SELECT ;\n".repeat(count) });
    const third = Math.floor(REVIEW_LIMITS.statementsPerReview / 3);
    const result = review({ files: [broken("schema/a.cql", third), broken("schema/b.cql", third), broken("schema/c.cql", third), broken("schema/d.cql", third)] });
    expect(result.findings.filter((f) => f.rule === "cql-syntax-error")).toHaveLength(3 * third);
    expect(limitFindings(result.findings).map((f) => f.message)).toEqual([
      `schema/d.cql would take the schema past ${REVIEW_LIMITS.statementsPerReview} statements (broken ones included), the limit per review; it was not reviewed.`,
    ]);
  });
});

describe("files per review", () => {
  const schemaFiles = (count: number): SourceFile[] =>
    Array.from({ length: count }, (_, i) => ({ path: `schema/t${String(i).padStart(5, "0")}.cql`, content: `CREATE TABLE shop.t${i} (id uuid PRIMARY KEY);\n` }));

  it("the first file past the limit, in path order, is named; the files before it are reviewed", () => {
    const files = [keyspace, ...schemaFiles(REVIEW_LIMITS.filesPerReview)].reverse();
    const result = review({ files });

    const [finding] = limitFindings(result.findings);
    const firstLeftOut = `schema/t${String(REVIEW_LIMITS.filesPerReview - 1).padStart(5, "0")}.cql`;
    expect(finding!.location.file).toBe(firstLeftOut);
    expect(finding!.message).toBe(`More than ${REVIEW_LIMITS.filesPerReview} schema and manifest files: ${firstLeftOut} and later files were not reviewed.`);
    expect(result.files).toHaveLength(REVIEW_LIMITS.filesPerReview);
    expect(result.schema.tables.size).toBe(REVIEW_LIMITS.filesPerReview - 1);
  });

  it("files the globs do not select do not count", () => {
    const notes = Array.from({ length: 50 }, (_, i) => ({ path: `docs/note${i}.md`, content: "notes" }));
    const result = review({ files: [...schemaFiles(REVIEW_LIMITS.filesPerReview), ...notes] });
    expect(limitFindings(result.findings)).toEqual([]);
    expect(result.files).toHaveLength(REVIEW_LIMITS.filesPerReview);
  });
});

describe("manifest size", () => {
  it("a manifest over the per-file limit is reported and not read; the schema is still reviewed", () => {
    const padding = `# ${"x".repeat(77)}\n`.repeat(Math.ceil(REVIEW_LIMITS.fileBytes / 80) + 1);
    const result = review({ files: [keyspace, orders, { path: "access-patterns.yaml", content: manifestText + padding }] });

    expect(limitFindings(result.findings).map((f) => f.location.file)).toEqual(["access-patterns.yaml"]);
    expect(result.manifest).toBeUndefined();
    expect(result.queries).toEqual([]);
    expect(result.schema.tables.has("shop.orders_by_customer")).toBe(true);
  });

  it("a manifest within the character limit but over 1 MiB of UTF-8 is refused by the manifest loader", () => {
    // 600,000 two-byte characters: 0.6 M UTF-16 units, 1.2 MB of UTF-8
    const description = "é".repeat(600_000);
    const content = manifestText.replace("Latest orders of a customer", description);
    expect(content.length).toBeLessThanOrEqual(REVIEW_LIMITS.fileBytes);
    expect(Buffer.byteLength(content)).toBeGreaterThan(YAML_LIMITS.maxBytes);

    const result = review({ files: [keyspace, orders, { path: "access-patterns.yaml", content }] });
    const refused = result.findings.filter((f) => f.rule === "manifest-invalid");
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ severity: "error", location: { file: "access-patterns.yaml", range: { start: { line: 1, column: 1 } } } });
    expect(refused[0]!.message).toMatch(/^the manifest is 1\.\d MiB, over the 1 MiB limit; it was not read$/);
    expect(result.queries).toEqual([]);
    expect(result.schema.tables.size).toBe(1);
  });

  it("an alias bomb is refused at the first alias, without expanding it", () => {
    const bomb = [
      "version: 1",
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
      "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]",
      "g: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]",
      "",
    ].join("\n");
    const result = review({ files: [keyspace, orders, { path: "access-patterns.yaml", content: bomb }] });
    const refused = result.findings.filter((f) => f.rule === "manifest-invalid");
    expect(refused).toHaveLength(1);
    expect(refused[0]!.message).toContain("alias bomb");
    expect(refused[0]!.location.range.start).toMatchObject({ line: 3, column: 8 });
  });
});

describe("review-wide limits", () => {
  it("statements past the limit per review leave the next file out, named, and fail the gate", () => {
    const perFile = Math.min(REVIEW_LIMITS.statementsPerFile, REVIEW_LIMITS.statementsPerReview - 1);
    const full = (name: string) => ({ path: `schema/${name}.cql`, content: `CREATE TABLE shop.${name} (id uuid PRIMARY KEY);\n${"USE shop;\n".repeat(perFile - 1)}` });
    const result = review({ files: [keyspace, full("a_first"), full("b_second")] });
    const [finding, ...others] = limitFindings(result.findings);
    expect(others).toEqual([]);
    expect(finding).toMatchObject({ location: { file: "schema/b_second.cql" }, fingerprint: "input-limit-exceeded:review-statements:schema/b_second.cql" });
    expect(finding!.message).toBe(`schema/b_second.cql would take the schema past ${REVIEW_LIMITS.statementsPerReview} statements (broken ones included), the limit per review; it was not reviewed.`);
    expect(result.schema.tables.has("shop.a_first")).toBe(true);
    expect(result.schema.tables.has("shop.b_second")).toBe(false);
    expect(result.gateFails).toBe(true);
    expect(result.unreviewed).toEqual([{ file: "schema/b_second.cql", reason: finding!.message }]);
  });

  it("bytes past the limit per review leave the next files out, each named", () => {
    const count = Math.floor(REVIEW_LIMITS.bytesPerReview / REVIEW_LIMITS.fileBytes) + 2;
    const big = (i: number) => ({ path: `schema/big${i}.cql`, content: `CREATE TABLE shop.big${i} (id uuid PRIMARY KEY);\n${"-".repeat(REVIEW_LIMITS.fileBytes - 100)}\n` });
    const result = review({ files: [keyspace, ...Array.from({ length: count }, (_, i) => big(i))] });
    const left = limitFindings(result.findings);
    expect(left.length).toBeGreaterThanOrEqual(2);
    for (const finding of left) expect(finding.message).toMatch(/^schema\/big\d\.cql would take the schema and manifest files past \d+ bytes, the limit per review; it was not parsed\.$/);
    const reviewedBytes = result.files.reduce((sum, f) => sum + (f.path.startsWith("schema/big") ? REVIEW_LIMITS.fileBytes : 0), 0);
    expect(reviewedBytes).toBeLessThanOrEqual(REVIEW_LIMITS.bytesPerReview);
  });

  it("a binary or oversized config file is reported, not read half-way: the defaults apply and the gate fails", () => {
    const configs = [
      { path: ".github/cql-review.yml", content: "fail_on: never\nrules:\n  table-unread: off\n\u0000\u0001" },
      { path: ".github/cql-review.yml", content: `fail_on: never\n#${"x".repeat(REVIEW_LIMITS.fileBytes)}\n` },
    ];
    for (const configFile of configs) {
      const result = review({ files: [keyspace, orders], configFile });
      const [finding] = limitFindings(result.findings);
      expect(finding).toMatchObject({ location: { file: ".github/cql-review.yml" }, fingerprint: "input-limit-exceeded:config:.github/cql-review.yml" });
      expect(finding!.message).toMatch(/^\.github\/cql-review\.yml (looks binary|is \d+ bytes).*; it was not read, and the default settings were used\.$/);
      expect(result.config.failOn).toBe("error");
      expect(result.gateFails).toBe(true);
    }
  });
});

describe("query plans per review", () => {
  it("more plans than the limit: nothing is planned, the manifest says why, and the gate fails", () => {
    // Every query could use each of the 100 tables holding id and v (orders holds neither).
    const tables = 101;
    const queries = Math.floor(REVIEW_LIMITS.queryPlansPerReview / (tables - 1)) + 1;
    const schema = { path: "schema/020_many.cql", content: Array.from({ length: tables - 1 }, (_, i) => `CREATE TABLE shop.t${i} (id uuid PRIMARY KEY, v int);\n`).join("") };
    const entries = Array.from({ length: queries }, (_, i) => `  - id: Q${i}\n    select: [v]\n    where: { id: "=" }`);
    const manifestFile = { path: "access-patterns.yaml", content: `version: 1\nkeyspace: shop\nqueries:\n${entries.join("\n")}\n` };
    const result = review({ files: [keyspace, orders, schema, manifestFile] });
    const [finding, ...others] = limitFindings(result.findings);
    expect(others).toEqual([]);
    expect(finding).toMatchObject({ fingerprint: "input-limit-exceeded:query-plans", location: { file: "access-patterns.yaml", range: { start: { line: 4 } } } });
    expect(finding!.message).toBe(
      `The manifests hold ${queries} queries needing more than ${REVIEW_LIMITS.queryPlansPerReview} query plans (each is weighed against every table holding its columns), over the limit per review; nothing was planned or checked, so only syntax, manifest and config findings are shown.`,
    );
    expect(result.queries).toEqual([]);
    expect(result.gateFails).toBe(true);
  });

  it("counts the tables each query could use, not every table: a large model whose queries name their tables is planned", () => {
    const tables = 2_000;
    const queries = 1_000;
    const schema = {
      path: "schema/020_many.cql",
      content: Array.from({ length: tables }, (_, i) => `CREATE TABLE shop.t${i} (k${i} uuid PRIMARY KEY, v${i} int);\n`).join(""),
    };
    // Half written as CQL (one plan each), half abstract over columns only one table holds.
    const entries = Array.from({ length: queries }, (_, i) =>
      i % 2 === 0 ? `  - id: Q${i}\n    cql: SELECT v${i} FROM t${i} WHERE k${i} = ?` : `  - id: Q${i}\n    select: [v${i}]\n    where: { k${i}: "=" }`,
    );
    const manifestFile = { path: "access-patterns.yaml", content: `version: 1\nkeyspace: shop\nqueries:\n${entries.join("\n")}\n` };
    const result = review({ files: [keyspace, schema, manifestFile] });
    expect(limitFindings(result.findings)).toEqual([]);
    expect(result.queries).toHaveLength(queries);
    expect(result.queries.every((query) => query.plan.verdict === "single-partition")).toBe(true);
  });

  it("more queries than the limit, whatever the tables: nothing is planned", () => {
    const queries = REVIEW_LIMITS.queriesPerReview + 1;
    const entries = Array.from({ length: queries }, (_, i) => `  - id: Q${i}\n    cql: SELECT total FROM orders_by_customer WHERE customer_id = ?`);
    const manifestFile = { path: "access-patterns.yaml", content: `version: 1\nkeyspace: shop\nqueries:\n${entries.join("\n")}\n` };
    const result = review({ files: [keyspace, orders, manifestFile] });
    const [finding] = limitFindings(result.findings);
    expect(finding!.message).toBe(
      `The manifests hold ${queries} queries, over the limit of ${REVIEW_LIMITS.queriesPerReview} per review; nothing was planned or checked, so only syntax, manifest and config findings are shown.`,
    );
    expect(result.queries).toEqual([]);
  });
});
