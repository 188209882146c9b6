// Every format on two real reviews: the sample repository (examples/iot, a model that should pass)
// and the deliberately bad model (test/fixtures/bad-model). The snapshots are the documents users
// see; when a rule's wording changes on purpose, refresh them with `npx vitest run test/report -u`.
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { explain } from "../../src/explain.js";
import { renderExplainText } from "../../src/report/explain-text.js";
import { renderJson } from "../../src/report/json.js";
import { renderCheckSummary, renderExplainMarkdown } from "../../src/report/markdown.js";
import { buildSarif } from "../../src/report/sarif.js";
import { renderText } from "../../src/report/text.js";
import { review, type SourceFile } from "../../src/review.js";
import { githubProblems } from "./sarif-checks.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const validateReport = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(path.join(REPO_ROOT, "schema/report.schema.json"), "utf8")));

/** The files of a model directory, paths relative to it, the config apart. */
function readModel(relative: string): { files: SourceFile[]; configFile?: SourceFile } {
  const root = path.join(REPO_ROOT, relative);
  const files: SourceFile[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(absolute);
      else files.push({ path: path.relative(root, absolute).split(path.sep).join("/"), content: readFileSync(absolute, "utf8") });
    }
  };
  walk(root);
  const configFile = files.find((file) => file.path === ".github/cql-review.yml");
  return { files: files.filter((file) => file !== configFile), configFile };
}

describe.each([
  ["iot", "examples/iot"],
  ["bad-model", "test/fixtures/bad-model"],
])("the %s model", (name, directory) => {
  const reviewed = review(readModel(directory));

  it("as text", async () => {
    await expect(renderText(reviewed, { color: false })).toMatchFileSnapshot(`__snapshots__/${name}.txt`);
  });

  it("as the §4.2 JSON document, valid against its schema", async () => {
    const json = renderJson(reviewed);
    expect(validateReport(JSON.parse(json))).toBe(true);
    await expect(json).toMatchFileSnapshot(`__snapshots__/${name}.json`);
  });

  it("as SARIF that code scanning accepts", async () => {
    const log = buildSarif(reviewed, { toolVersion: "0.0.0-test" });
    expect(githubProblems(log)).toEqual([]);
    // the results only: the rule descriptors follow the catalogue, tested in sarif.test.ts
    await expect(`${JSON.stringify(log.runs[0].results, null, 2)}\n`).toMatchFileSnapshot(`__snapshots__/${name}.sarif-results.json`);
  });

  it("as the check-run summary, within GitHub's limit", async () => {
    const summary = renderCheckSummary(reviewed);
    expect(summary.length).toBeLessThanOrEqual(65_535);
    await expect(summary).toMatchFileSnapshot(`__snapshots__/${name}.summary.md`);
  });

  it("explains every query and every table without failing", () => {
    for (const query of reviewed.queries) {
      const answer = explain(reviewed, { kind: "query", id: query.id });
      expect(answer.kind).toBe("query");
      expect(renderExplainMarkdown(answer).length).toBeGreaterThan(0);
      expect(renderExplainText(answer, { color: false })).toContain(query.id);
    }
    for (const table of reviewed.schema.tables.values()) {
      expect(explain(reviewed, { kind: "table", name: table.qualifiedName }).kind).toBe("table");
    }
  });
});

describe("explain on the sample", () => {
  const reviewed = review(readModel("examples/iot"));

  it("answers a query served through an index", async () => {
    const served = reviewed.queries.find((query) => query.plan.verdict === "index") ?? reviewed.queries[0];
    await expect(renderExplainMarkdown(explain(reviewed, { kind: "query", id: served.id }))).toMatchFileSnapshot("__snapshots__/iot.explain-query.md");
  });

  it("answers a table", async () => {
    const [first] = reviewed.schema.tables.keys();
    await expect(renderExplainText(explain(reviewed, { kind: "table", name: first }), { color: false })).toMatchFileSnapshot("__snapshots__/iot.explain-table.txt");
  });
});
