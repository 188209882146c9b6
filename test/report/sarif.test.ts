import { describe, expect, it } from "vitest";
import { rules } from "../../rules/index.js";
import type { Finding } from "../../src/findings.js";
import { buildSarif, renderSarif, SARIF_FINGERPRINT_KEY } from "../../src/report/sarif.js";
import type { RuleMeta } from "../../src/rule-engine/types.js";
import { finding, range, reviewOf, videoReview } from "../fixtures/report/hand-built-review.js";

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

type Json = Record<string, any>;

const LEVELS = ["none", "note", "warning", "error"];

/**
 * The checks GitHub code scanning documents for an upload ("SARIF support for code scanning" and
 * "SARIF results exceed limits"): what must be present, the level vocabulary, 1-based regions,
 * relative POSIX artifact URIs, fingerprints, and the per-run limits.
 */
function githubProblems(log: Json): string[] {
  const problems: string[] = [];
  const problem = (where: string, what: string) => problems.push(`${where}: ${what}`);
  if (typeof log.$schema !== "string") problem("log", "$schema missing");
  if (log.version !== "2.1.0") problem("log", "version must be 2.1.0");
  if (!Array.isArray(log.runs) || log.runs.length === 0 || log.runs.length > 20) problem("log", "1 to 20 runs");
  for (const [runIndex, run] of (log.runs ?? []).entries()) {
    const driver = run.tool?.driver;
    if (!driver?.name) problem(`run ${runIndex}`, "tool.driver.name missing");
    const descriptors: Json[] = driver?.rules ?? [];
    if (descriptors.length > 25_000) problem(`run ${runIndex}`, "more than 25,000 rules");
    for (const rule of descriptors) {
      const where = `rule ${rule.id}`;
      if (!rule.id) problem(where, "id missing");
      if (!rule.shortDescription?.text) problem(where, "shortDescription.text missing");
      if (!rule.fullDescription?.text) problem(where, "fullDescription.text missing");
      if (!rule.help?.text) problem(where, "help.text missing");
      if (rule.defaultConfiguration && !LEVELS.includes(rule.defaultConfiguration.level)) problem(where, "bad default level");
      if ((rule.properties?.tags ?? []).length > 20) problem(where, "more than 20 tags");
    }
    if (!Array.isArray(run.results)) problem(`run ${runIndex}`, "results missing");
    if ((run.results ?? []).length > 25_000) problem(`run ${runIndex}`, "more than 25,000 results");
    for (const [resultIndex, result] of (run.results ?? []).entries()) {
      const where = `result ${resultIndex}`;
      if (typeof result.ruleId !== "string") problem(where, "ruleId missing");
      if (result.ruleIndex !== undefined && descriptors[result.ruleIndex]?.id !== result.ruleId) problem(where, "ruleIndex does not point at ruleId");
      if (!LEVELS.includes(result.level)) problem(where, `bad level ${result.level}`);
      if (!result.message?.text) problem(where, "message.text missing");
      if (!Array.isArray(result.locations) || result.locations.length === 0 || result.locations.length > 1_000) problem(where, "1 to 1,000 locations");
      if (typeof result.partialFingerprints?.[SARIF_FINGERPRINT_KEY] !== "string") problem(where, "partialFingerprints missing");
      for (const location of result.locations ?? []) checkPhysicalLocation(location.physicalLocation, where, problem);
      for (const fix of result.fixes ?? []) {
        if (!fix.description?.text) problem(where, "fix description missing");
        for (const change of fix.artifactChanges ?? []) {
          checkUri(change.artifactLocation?.uri, where, problem);
          for (const replacement of change.replacements ?? []) {
            checkRegion(replacement.deletedRegion, `${where} fix`, problem);
            if (typeof replacement.insertedContent?.text !== "string") problem(where, "insertedContent.text missing");
          }
        }
      }
    }
  }
  return problems;
}

function checkPhysicalLocation(location: Json | undefined, where: string, problem: (where: string, what: string) => void): void {
  if (!location) return problem(where, "physicalLocation missing");
  checkUri(location.artifactLocation?.uri, where, problem);
  checkRegion(location.region, where, problem);
}

function checkUri(uri: unknown, where: string, problem: (where: string, what: string) => void): void {
  if (typeof uri !== "string" || uri === "") return problem(where, "artifactLocation.uri missing");
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith("/") || uri.startsWith("./") || uri.includes("\\")) {
    problem(where, `uri ${uri} is not a relative POSIX path`);
  }
}

function checkRegion(region: Json | undefined, where: string, problem: (where: string, what: string) => void): void {
  if (!region) return problem(where, "region missing");
  const { startLine, startColumn, endLine, endColumn } = region;
  for (const [name, value] of Object.entries({ startLine, startColumn, endLine, endColumn })) {
    if (!Number.isInteger(value) || (value as number) < 1) problem(where, `${name} must be a 1-based integer`);
  }
  if (endLine < startLine || (endLine === startLine && endColumn <= startColumn)) problem(where, "region ends before it starts");
}

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
