import { describe, expect, it } from "vitest";
import { rules } from "../../rules/index.js";
import type { Finding } from "../../src/findings.js";
import { buildSarif, renderSarif } from "../../src/report/sarif.js";
import type { RuleMeta } from "../../src/rule-engine/types.js";
import { finding, range, reviewOf, videoReview } from "../fixtures/report/hand-built-review.js";
import { githubProblems, type Json } from "./sarif-checks.js";

const RULES: RuleMeta[] = [
  {
    id: "partition-unbounded",
    category: "table",
    defaultSeverity: "error",
    description: "Partitions must not grow without bound.",
    messages: {},
    fixable: true,
  },
  {
    id: "query-needs-allow-filtering",
    category: "query",
    defaultSeverity: "warning",
    description: "Queries must not need ALLOW FILTERING.",
    messages: {},
    fixable: false,
  },
];

describe("renderSarif", () => {
  it("renders the hand-built review", async () => {
    await expect(renderSarif(videoReview(), { toolVersion: "0.1.0", rules: RULES })).toMatchFileSnapshot("__snapshots__/video-review.sarif.json");
  });

  it("meets GitHub code scanning's documented requirements", () => {
    expect(githubProblems(buildSarif(videoReview(), { toolVersion: "0.1.0", rules: RULES }))).toEqual([]);
  });

  it("the checks catch what GitHub would reject", () => {
    const log: Json = buildSarif(videoReview(), { toolVersion: "0.1.0", rules: RULES });
    log.runs[0].results[0].level = "info";
    log.runs[0].results[1].locations[0].physicalLocation.region.startLine = 0;
    log.runs[0].results[2].locations[0].physicalLocation.artifactLocation.uri = "/abs/path.cql";
    expect(githubProblems(log)).toEqual([
      "result 0: bad level info",
      "result 1: startLine must be a 1-based integer",
      "result 2: uri /abs/path.cql is not a relative POSIX path",
    ]);
  });

  it("maps severities to SARIF levels and links results to their rules", () => {
    const run = buildSarif(videoReview(), { toolVersion: "0.1.0", rules: RULES }).runs[0];
    const byRule = Object.fromEntries(run.results.map((result: Json) => [result.ruleId, result]));
    expect(byRule["partition-unbounded"]).toMatchObject({ level: "error", ruleIndex: 0 });
    expect(byRule["query-needs-allow-filtering"]).toMatchObject({ level: "warning", ruleIndex: 1 });
    // a rule without metadata keeps its ruleId and gets no ruleIndex
    expect(byRule["table-no-queries"].level).toBe("note");
    expect(byRule["table-no-queries"]).not.toHaveProperty("ruleIndex");
  });

  it("turns a fix into an artifact change that replaces the fixed region", () => {
    const run = buildSarif(videoReview(), { toolVersion: "0.1.0", rules: RULES }).runs[0];
    const fixed = run.results.find((result: Json) => result.ruleId === "partition-unbounded") as Json;
    expect(fixed.fixes).toEqual([
      {
        description: { text: "Add a year bucket to the partition key" },
        artifactChanges: [
          {
            artifactLocation: { uri: "schema/videos.cql" },
            replacements: [
              {
                deletedRegion: { startLine: 16, startColumn: 3, endLine: 16, endColumn: 43 },
                insertedContent: { text: "PRIMARY KEY ((userid, year), added_date, videoid)" },
              },
            ],
          },
        ],
      },
    ]);
  });

  it("gives a zero-width finding a one-character region and encodes odd paths", () => {
    const review = reviewOf({
      tables: [],
      queries: [],
      estimates: [],
      findings: [finding("cql-syntax-error", "error", "schema/my tables#1.cql", { start: { line: 3, column: 7, offset: 40 }, end: { line: 3, column: 7, offset: 40 } }, "expected `)`")],
    });
    const [result] = buildSarif(review, { toolVersion: "0.1.0", rules: [] }).runs[0].results as Json[];
    expect(result.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: "schema/my%20tables%231.cql" },
      region: { startLine: 3, startColumn: 7, endLine: 3, endColumn: 8 },
    });
  });

  it("keeps the most severe results within the per-run limit and says how many were left out", () => {
    const findings: Finding[] = [
      ...Array.from({ length: 3 }, (_, index) => finding("table-no-queries", "info", "a.cql", range(index + 1, 1), `info ${index}`)),
      finding("partition-unbounded", "error", "b.cql", range(9, 1), "the error"),
    ];
    const log = buildSarif(reviewOf({ tables: [], queries: [], estimates: [], findings }), { toolVersion: "0.1.0", rules: RULES, maxResults: 2 });
    const run = log.runs[0];
    expect(run.results.map((result: Json) => result.message.text)).toEqual(["info 0", "the error"]);
    expect((run.invocations[0] as Json).toolExecutionNotifications[0].message.text).toMatch(/^2 more results not shown: code scanning accepts 25,000 per run/);
    expect(githubProblems(log)).toEqual([]);
  });

  it("describes every rule of the catalogue by default", () => {
    const driver = buildSarif(videoReview(), { toolVersion: "0.1.0" }).runs[0].tool.driver;
    expect(driver.rules.map((rule: Json) => rule.id)).toEqual(rules.map((rule) => rule.meta.id));
    expect(driver.rules[0].helpUri).toBe(`https://github.com/cql-review/cql-review/blob/main/rules/${rules[0].meta.id}.md`);
    expect(githubProblems(buildSarif(videoReview(), { toolVersion: "0.1.0" }))).toEqual([]);
  });
});
