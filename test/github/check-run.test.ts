import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/findings.js";
import { annotationOf, conclusionOf } from "../../src/github/api/check-run.js";
import { describeError, withCollectionFindings } from "../../src/github/worker/review-pull-request.js";
import { DEFAULT_CONFIG } from "../../src/config.js";
import type { Review } from "../../src/review.js";

const docUrl = (id: string) => `https://example.test/rules/${id}.md`;

function finding(over: Partial<Finding> = {}): Finding {
  return {
    rule: "query-scan",
    severity: "error",
    location: { file: "schema/a.cql", range: { start: { line: 4, column: 3, offset: 40 }, end: { line: 4, column: 12, offset: 49 } } },
    message: "Q3 reads every partition",
    fingerprint: "query-scan:query:Q3",
    ...over,
  };
}

describe("annotationOf", () => {
  it("maps severities to annotation levels and keeps the figures in raw_details", () => {
    expect(annotationOf(finding({ data: { partitions: "all", rate: 40 } }), docUrl)).toEqual({
      path: "schema/a.cql",
      start_line: 4,
      end_line: 4,
      start_column: 3,
      end_column: 11,
      annotation_level: "failure",
      title: "query-scan",
      message: "Q3 reads every partition",
      raw_details: "partitions: all\nrate: 40\nrule: https://example.test/rules/query-scan.md",
    });
    expect(annotationOf(finding({ severity: "warning" }), docUrl).annotation_level).toBe("warning");
    expect(annotationOf(finding({ severity: "info", existing: true }), docUrl)).toMatchObject({
      annotation_level: "notice",
      title: "query-scan (existing)",
    });
  });

  it("multi-line ranges carry no columns, and an end at column 1 belongs to the line before", () => {
    const annotation = annotationOf(
      finding({ location: { file: "a.cql", range: { start: { line: 2, column: 1, offset: 5 }, end: { line: 7, column: 1, offset: 90 } } } }),
      docUrl,
    );
    expect(annotation).toMatchObject({ start_line: 2, end_line: 6 });
    expect(annotation).not.toHaveProperty("start_column");
  });

  it("clips text fields to GitHub's limits", () => {
    const annotation = annotationOf(finding({ message: "x".repeat(70_000), rule: "r".repeat(300) }), docUrl);
    expect(annotation.message.length).toBeLessThan(65_536);
    expect(annotation.title.length).toBe(255);
  });
});

describe("the gate", () => {
  const review = (findings: Finding[], failOn: "error" | "warning" | "never" = "error", gateFails = false) =>
    ({ findings, gateFails, config: { ...DEFAULT_CONFIG, failOn }, summary: { errors: 0, warnings: 0, infos: 0 } }) as unknown as Review;

  it("fails on the core's verdict, is neutral with only new findings below it, and passes otherwise", () => {
    expect(conclusionOf(review([finding()], "error", true))).toBe("failure");
    expect(conclusionOf(review([finding({ severity: "warning" })]))).toBe("neutral");
    expect(conclusionOf(review([finding({ existing: true })]))).toBe("success");
    expect(conclusionOf(review([]))).toBe("success");
  });

  it("files that could not be read count, fail the gate, and are named as not reviewed", () => {
    const unreadable = finding({ rule: "input-limit-exceeded", severity: "warning", fingerprint: "input-limit-exceeded:binary:a" });
    for (const failOn of ["error", "warning", "never"] as const) {
      expect(withCollectionFindings(review([], failOn), [unreadable])).toMatchObject({
        gateFails: true,
        summary: { warnings: 1 },
        unreviewed: [{ file: unreadable.location.file, reason: unreadable.message }],
      });
    }
  });

  it("with `unreviewed: warn`, files that could not be read gate by their severity", () => {
    const unreadable = finding({ rule: "input-limit-exceeded", severity: "warning", fingerprint: "input-limit-exceeded:binary:a" });
    const warnOnly = (failOn: "error" | "warning" | "never") => ({ ...review([], failOn), config: { ...DEFAULT_CONFIG, failOn, unreviewed: "warn" as const } }) as Review;
    expect(withCollectionFindings(warnOnly("error"), [unreadable]).gateFails).toBe(false);
    expect(withCollectionFindings(warnOnly("warning"), [unreadable]).gateFails).toBe(true);
    expect(withCollectionFindings(warnOnly("never"), [unreadable]).gateFails).toBe(false);
  });
});

describe("describeError", () => {
  it("names the failed GitHub request and never repeats a credential", () => {
    const error = Object.assign(new Error("Not Found: token ghs_abc123 was used"), {
      status: 404,
      request: { method: "GET", url: "https://api.github.com/repos/o/r/git/trees/abc?recursive=true" },
    });
    expect(describeError(error)).toBe(
      "GitHub answered 404 to GET /repos/o/r/git/trees/abc: Not Found: token [redacted] was used (check that the app is installed with the permissions in app.yml)",
    );
    expect(describeError(new RangeError("too deep"))).toBe("RangeError: too deep");
  });
});
