// Annotations are bounded: a model with thousands of findings costs at most ten check-run
// requests, the most urgent findings are the ones annotated, and the summary says how many are not.
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/config.js";
import type { Finding, Severity } from "../../src/findings.js";
import { completeCheckRun, MAX_ANNOTATIONS } from "../../src/github/api/check-run.js";
import type { GitHubPort, PullRequestRef } from "../../src/github/port.js";
import type { Review } from "../../src/review.js";

const pr: PullRequestRef = { owner: "o", repo: "r", number: 1, headSha: "a".repeat(40), baseSha: "b".repeat(40), defaultBranch: "main" };

function findingsOf(count: number, severity: Severity, existing = false): Finding[] {
  return Array.from({ length: count }, (_, i) => ({
    rule: `rule-${severity}`,
    severity,
    message: `finding ${i}`,
    location: { file: "schema/a.cql", range: { start: { line: i + 1, column: 1, offset: 0 }, end: { line: i + 1, column: 2, offset: 1 } } },
    fingerprint: `${severity}:${existing}:${i}`,
    ...(existing ? { existing } : {}),
  }));
}

function recordingGitHub() {
  const updates: any[] = [];
  const github = {
    rest: {
      checks: {
        update: async (body: unknown) => {
          updates.push(body);
          return { data: {} };
        },
      },
    },
  } as unknown as GitHubPort;
  return { github, updates };
}

const core = {
  renderCheckSummary: (_: Review, options?: { maxLength?: number }) => "x".repeat(options?.maxLength ?? 65_000),
  ruleDocUrl: (id: string) => `https://example.test/${id}`,
};

describe("annotations", () => {
  it("at most 500, in 10 requests, new errors first; the summary says how many more", async () => {
    const findings = [...findingsOf(40_000, "info", true), ...findingsOf(600, "warning"), ...findingsOf(300, "error")];
    const review = { findings, gateFails: true, config: DEFAULT_CONFIG } as unknown as Review;
    const { github, updates } = recordingGitHub();

    await completeCheckRun(github, pr, 1, review, core);

    expect(MAX_ANNOTATIONS).toBe(500);
    expect(updates).toHaveLength(10);
    const annotated = updates.flatMap((update) => update.output.annotations);
    expect(annotated).toHaveLength(500);
    expect(annotated.slice(0, 300).every((a) => a.annotation_level === "failure")).toBe(true);
    expect(annotated.slice(300).every((a) => a.annotation_level === "warning")).toBe(true);
    const last = updates.at(-1);
    expect(last.status).toBe("completed");
    expect(last.output.summary.length).toBeLessThanOrEqual(65_000);
    expect(last.output.summary).toMatch(/_40400 more findings are not annotated: a review annotates at most 500\./);
  });

  it("says nothing when every finding is annotated", async () => {
    const review = { findings: findingsOf(500, "warning"), gateFails: false, config: DEFAULT_CONFIG } as unknown as Review;
    const { github, updates } = recordingGitHub();

    await completeCheckRun(github, pr, 1, review, core);

    expect(updates).toHaveLength(10);
    expect(updates.at(-1).output.summary).not.toMatch(/not annotated/);
  });
});
