// Every format on two real reviews: the sample repository (examples/iot, a model that should pass)
// and the deliberately bad model (test/fixtures/bad-model). The first tests check what the
// renderers promise about any review (every finding shown once, in order, in its place, within
// GitHub's limits); the file snapshots at the end pin the exact documents users see.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { rules } from "../../rules/index.js";
import { explain } from "../../src/explain.js";
import { compareFindings } from "../../src/findings.js";
import { renderExplainText } from "../../src/report/explain-text.js";
import { buildJsonReport, renderJson } from "../../src/report/json.js";
import { readFingerprintMarker, renderCheckSummary, renderExplainMarkdown, renderFindingComment } from "../../src/report/markdown.js";
import { buildSarif, renderSarif } from "../../src/report/sarif.js";
import { renderText } from "../../src/report/text.js";
import { review } from "../../src/review.js";
import { readModel, REPO_ROOT } from "../helpers/read-model.js";
import { splitTableRow } from "./gfm-model.js";
import { githubProblems, type Json } from "./sarif-checks.js";

const validateReport = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(path.join(REPO_ROOT, "schema/report.schema.json"), "utf8")));


describe.each([
  ["iot", "examples/iot"],
  ["bad-model", "test/fixtures/bad-model"],
])("the %s model", (_, directory) => {
  const reviewed = review(readModel(directory));
  const sorted = [...reviewed.findings].sort(compareFindings);

  it("has something to show", () => {
    expect(reviewed.queries.length).toBeGreaterThan(0);
    expect(reviewed.schema.tables.size).toBeGreaterThan(0);
  });

  it("as text: every finding once, under its file, in order, then every query and the counts", () => {
    const lines = renderText(reviewed, { color: false }).split("\n");
    const findingLines = lines.filter((line) => /^ {2}\d+:\d+ +(error|warning|info) {2}/.test(line));
    expect(findingLines).toHaveLength(sorted.length);
    sorted.forEach((finding, index) => {
      const { line, column } = finding.location.range.start;
      expect(findingLines[index]).toMatch(new RegExp(`^ {2}${line}:${column} +${finding.severity} {2}`));
      expect(findingLines[index].endsWith(`${finding.rule}${finding.existing ? " (existing)" : ""}`)).toBe(true);
      // the file header above it is the finding's file
      const header = lines.slice(0, lines.indexOf(findingLines[index])).reverse().find((candidate) => candidate !== "" && !candidate.startsWith(" "));
      expect(header).toBe(finding.location.file);
    });
    for (const query of reviewed.queries) expect(lines.some((line) => line.startsWith(`  ${query.id} `) && line.includes(query.plan.verdict))).toBe(true);
    const { errors, warnings, infos } = reviewed.summary;
    expect(lines.at(-2)).toEqual(
      errors + warnings + infos === 0 ? "✔ No problems found" : expect.stringContaining(`(${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning`),
    );
  });

  it("as the §4.2 JSON document, valid against its schema and complete", () => {
    const json = JSON.parse(renderJson(reviewed));
    expect(validateReport(json)).toBe(true);
    expect(json).toEqual(JSON.parse(JSON.stringify(buildJsonReport(reviewed))));
    expect(json.tables).toHaveLength(reviewed.schema.tables.size);
    expect(json.queries.map((query: Json) => query.id)).toEqual(reviewed.queries.map((query) => query.id));
    expect(json.findings.map((finding: Json) => `${finding.file}:${finding.line}:${finding.column}:${finding.rule}`)).toEqual(
      sorted.map((finding) => `${finding.location.file}:${finding.location.range.start.line}:${finding.location.range.start.column}:${finding.rule}`),
    );
  });

  it("as SARIF that code scanning accepts, one result per finding, linked to the catalogue", () => {
    const log = buildSarif(reviewed, { toolVersion: "0.0.0-test" });
    expect(githubProblems(log)).toEqual([]);
    const results = log.runs[0].results as Json[];
    expect(results).toHaveLength(reviewed.findings.length);
    const known = new Set(rules.map((rule) => rule.meta.id));
    for (const result of results) expect(result.ruleIndex !== undefined).toBe(known.has(result.ruleId));
  });

  it("as the check-run summary: within GitHub's limit, a row per query, estimate and finding", () => {
    const summary = renderCheckSummary(reviewed);
    expect(summary.length).toBeLessThanOrEqual(65_535);
    expect(summary).not.toContain("not shown");
    const rows = summary.split("\n").filter((line) => line.startsWith("| "));
    const queryRows = rows.filter((row) => splitTableRow(row).length === 4 && /^\| `[^`]+` \| /.test(row) && /(single|multi)-partition|index|scan|needs-allow-filtering|invalid|unserved/.test(row));
    expect(queryRows).toHaveLength(reviewed.queries.length);
    // With saved nodetool output the partition table has a measured column (docs/production-stats.md).
    const estimateColumns = (reviewed.model.measured?.size ?? 0) > 0 ? 8 : 7;
    expect(rows.filter((row) => splitTableRow(row).length === estimateColumns && !row.startsWith("| Table") && !row.startsWith("| ---"))).toHaveLength(reviewed.estimates.size);
    expect(rows.filter((row) => row.includes("/rules/"))).toHaveLength(reviewed.findings.length);
    const diagram = summary.slice(summary.indexOf("```mermaid"), summary.indexOf("```", summary.indexOf("```mermaid") + 3));
    expect(diagram.match(/^ {2}t\d+\[\(/gm) ?? []).toHaveLength(reviewed.schema.tables.size);
  });

  it("as one review comment per finding, each with its fingerprint marker", () => {
    for (const finding of reviewed.findings) {
      const body = renderFindingComment(finding, finding.fix ? { suggestion: finding.fix.replacement } : {});
      expect(readFingerprintMarker(body)).toBe(finding.fingerprint);
      expect(body).toContain(`/rules/${finding.rule}.md`);
      if (finding.fix) expect(body).toMatch(/^`{3,}suggestion$/m);
    }
  });

  it("explains every query and every table", () => {
    for (const query of reviewed.queries) {
      const answer = explain(reviewed, { kind: "query", id: query.id });
      expect(answer.kind).toBe("query");
      if (answer.kind !== "query") continue;
      expect(answer.plan).toBe(query.plan);
      expect(renderExplainMarkdown(answer)).toContain(`### \`${query.id}\``);
      expect(renderExplainText(answer, { color: false }).startsWith(query.id)).toBe(true);
    }
    for (const table of reviewed.schema.tables.values()) {
      const answer = explain(reviewed, { kind: "table", name: table.qualifiedName });
      expect(answer.kind).toBe("table");
      expect(renderExplainMarkdown(answer)).toContain(`### \`${table.qualifiedName}\``);
    }
  });
});

// The exact documents, so a change in what users see is a reviewed change of these files. When a
// rule's wording or a figure changes on purpose, refresh them with `npx vitest run -u test/report/models.test.ts`.
describe.each([
  ["iot", "examples/iot"],
  ["bad-model", "test/fixtures/bad-model"],
])("snapshots of the %s model", (name, directory) => {
  const reviewed = review(readModel(directory));

  it("text", async () => {
    await expect(renderText(reviewed, { color: false })).toMatchFileSnapshot(`__snapshots__/${name}.txt`);
  });
  it("json", async () => {
    await expect(renderJson(reviewed)).toMatchFileSnapshot(`__snapshots__/${name}.json`);
  });
  it("sarif", async () => {
    await expect(renderSarif(reviewed, { toolVersion: "0.0.0-test" })).toMatchFileSnapshot(`__snapshots__/${name}.sarif`);
  });
  it("markdown check summary", async () => {
    await expect(renderCheckSummary(reviewed)).toMatchFileSnapshot(`__snapshots__/${name}.summary.md`);
  });
});
