import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { buildJsonReport, renderJson } from "../../src/report/json.js";
import { estimate, finding, range, reviewOf, tableModel, videoReview } from "../fixtures/report/hand-built-review.js";

const schema = JSON.parse(readFileSync(new URL("../../schema/report.schema.json", import.meta.url), "utf8"));
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

function expectValid(document: unknown): void {
  const valid = validate(document);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
}

describe("renderJson (docs/cli.md, --format json)", () => {
  it("renders the hand-built review as the contract document", async () => {
    const text = renderJson(videoReview());
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.split("\n")[1]).toBe('  "version": 1,');
    await expect(text).toMatchFileSnapshot("__snapshots__/video-review.json");
  });

  it("validates against schema/report.schema.json", () => {
    expectValid(JSON.parse(renderJson(videoReview())));
  });

  it("writes every object's keys in the contract's order", () => {
    const report = JSON.parse(renderJson(videoReview()));
    expect(Object.keys(report)).toEqual(["version", "files", "tables", "queries", "findings", "summary"]);
    expect(Object.keys(report.files[0])).toEqual(["path", "kind", "statements"]);
    expect(Object.keys(report.tables[0])).toEqual(["keyspace", "name", "file", "line", "partitionKey", "clustering", "static", "regular", "estimate"]);
    expect(Object.keys(report.tables[0].estimate)).toEqual(["rowsPerPartition", "values", "bytes", "engineBytes", "basis", "unbounded"]);
    expect(Object.keys(report.queries[0])).toEqual(["id", "file", "line", "table", "candidates", "verdict", "partitions", "reason", "ruleIds"]);
    expect(Object.keys(report.findings[0])).toEqual(["rule", "severity", "file", "line", "column", "endLine", "endColumn", "message", "fix"]);
    expect(Object.keys(report.findings.find((entry: { fix: unknown }) => entry.fix !== null).fix)).toEqual(["description", "replacement"]);
    expect(Object.keys(report.summary)).toEqual(["errors", "warnings", "infos"]);
  });

  it("lists tables by file then line, whatever the schema's map order", () => {
    const report = buildJsonReport(videoReview());
    expect(report.tables.map((table) => `${table.file}:${table.line} ${table.name}`)).toEqual([
      "schema/videos.cql:3 videos",
      "schema/videos.cql:12 videos_by_user",
    ]);
  });

  it("keeps queries in manifest order and names tables as ks.name", () => {
    const report = buildJsonReport(videoReview());
    expect(report.queries.map((query) => [query.id, query.table, query.verdict, query.partitions])).toEqual([
      ["Q1", "killrvideo.videos_by_user", "single-partition", 1],
      ["Q2", "killrvideo.videos", "needs-allow-filtering", "all"],
      ["Q3", null, "unserved", null],
    ]);
    expect(report.queries[0].candidates).toEqual(["killrvideo.videos_by_user"]);
  });

  it("reports the worst partition's figures, and null for a table without an estimate", () => {
    const review = videoReview();
    const report = buildJsonReport(review);
    const byUser = report.tables.find((table) => table.name === "videos_by_user")!;
    expect(byUser.estimate).toEqual({ rowsPerPartition: 50_000, values: 100_000, bytes: 4_750_000, engineBytes: 5_100_000, basis: "growth-retention", unbounded: true });

    review.estimates.delete("killrvideo.videos");
    const videos = buildJsonReport(review).tables.find((table) => table.name === "videos")!;
    expect(videos.estimate).toBeNull();
  });

  it("leaves the config file out of files (the contract knows schema and manifest only)", () => {
    const report = buildJsonReport(videoReview());
    expect(report.files).toEqual([
      { path: "schema/videos.cql", kind: "schema", statements: 2 },
      { path: "access-patterns.yaml", kind: "manifest", statements: 3 },
    ]);
  });

  it("gives findings 1-based positions with their end, and fix null when there is none", () => {
    const [filtering, unbounded] = buildJsonReport(videoReview()).findings.filter((entry) => entry.rule !== "table-no-queries");
    expect(filtering).toMatchObject({ line: 15, column: 10, endLine: 15, endColumn: 60, fix: null });
    expect(unbounded).toMatchObject({
      rule: "partition-unbounded",
      fix: { description: "Add a year bucket to the partition key", replacement: "PRIMARY KEY ((userid, year), added_date, videoid)" },
    });
  });

  it("sorts findings by file, line and column even when the review did not", () => {
    const review = videoReview();
    review.findings.reverse();
    expect(buildJsonReport(review).findings.map((entry) => `${entry.file}:${entry.line}`)).toEqual([
      "access-patterns.yaml:15",
      "schema/videos.cql:3",
      "schema/videos.cql:12",
    ]);
  });

  it("writes figures that are not finite as null, and the document stays valid", () => {
    const table = tableModel("iot", "readings", "schema/iot.cql", 1, [
      { name: "sensor", type: "uuid", kind: "partition" },
      { name: "at", type: "timestamp", kind: "clustering" },
      { name: "value", type: "double", kind: "regular" },
    ]);
    const review = reviewOf({
      tables: [table],
      queries: [],
      estimates: [
        estimate("iot.readings", {
          unbounded: true,
          worst: { rows: Number.POSITIVE_INFINITY, values: Number.POSITIVE_INFINITY, cells: Number.POSITIVE_INFINITY, bytes: Number.POSITIVE_INFINITY, engineBytes: null },
        }),
      ],
      findings: [finding("partition-unbounded", "error", "schema/iot.cql", range(1, 1), "unbounded")],
    });
    const report = JSON.parse(renderJson(review));
    expect(report.tables[0].estimate).toEqual({ rowsPerPartition: null, values: null, bytes: null, engineBytes: null, basis: "manifest", unbounded: true });
    expectValid(report);
  });

  it("the schema rejects a document that breaks the contract", () => {
    const report = JSON.parse(renderJson(videoReview()));
    report.findings[0].line = 0;
    expect(validate(report)).toBe(false);
    const extra = JSON.parse(renderJson(videoReview()));
    extra.queries[0].extra = true;
    expect(validate(extra)).toBe(false);
  });
});

describe("renderJson: read-cost figures", () => {
  it("adds the rows a call returns and the tombstones a read walks, valid against the schema", () => {
    const review = videoReview();
    const query = review.model.queries[0]!;
    query.plan.rowsEstimate = { perCall: 20_000, worstPerCall: 60_000, perSecond: 200_000, because: "filtering", slice: false, basis: "one partition", returned: 20 };
    query.plan.tombstonesEstimate = { perRead: 864, worstPerRead: 4_320, gcGraceSeconds: 864_000, region: "queue", sources: [{ write: "ack", kind: "row-delete", perRead: 864, worstPerRead: 4_320 }] };
    const document = JSON.parse(renderJson(review));
    expectValid(document);
    expect(document.queries[0].rowsRead).toEqual({ perCall: 20_000, worstPerCall: 60_000, perSecond: 200_000, returned: 20 });
    expect(document.queries[0].tombstonesPerRead).toEqual({ perRead: 864, worstPerRead: 4_320, gcGraceSeconds: 864_000, region: "queue" });
  });
});

describe("renderJson: cell sizes", () => {
  it("lists the cells the manifest sizes, valid against the schema", () => {
    const review = videoReview();
    const [first] = review.model.estimates.values();
    first!.cells = [{ column: "labels", kind: "frozen", bytes: 2_200_000, items: 20_000, itemBytes: 100 }];
    const document = JSON.parse(renderJson(review));
    expectValid(document);
    expect(document.tables.flatMap((table: { estimate: { cells?: unknown } | null }) => table.estimate?.cells ?? [])).toEqual([{ column: "labels", kind: "frozen", bytes: 2_200_000, items: 20_000 }]);
  });

  it("gives the largest value a row holds beside the average, valid against the schema", () => {
    const review = videoReview();
    const [first] = review.model.estimates.values();
    first!.cells = [{ column: "labels", kind: "frozen", bytes: 2_200, items: 20, itemBytes: 100, worstBytes: 2_200_000, worstItems: 20_000 }];
    const document = JSON.parse(renderJson(review));
    expectValid(document);
    expect(document.tables.flatMap((table: { estimate: { cells?: unknown } | null }) => table.estimate?.cells ?? [])).toEqual([
      { column: "labels", kind: "frozen", bytes: 2_200, items: 20, maxBytes: 2_200_000, maxItems: 20_000 },
    ]);
  });
});
