import { describe, expect, it } from "vitest";
import { renderText, terminalSafe } from "../../src/report/text.js";
import { finding, range, reviewOf, videoReview } from "../fixtures/report/hand-built-review.js";

const ANSI_PATTERN = /\u001b\[[0-9;]*m/g;

describe("renderText", () => {
  it("groups findings by file like ESLint's stylish, then the queries and a summary", () => {
    expect(renderText(videoReview(), { color: false })).toMatchInlineSnapshot(`
      "access-patterns.yaml
        15:10  warning  Q2 filters on title, which is not part of the primary key of killrvideo.videos.  query-needs-allow-filtering

      schema/videos.cql
        12:1  error  Partitions of killrvideo.videos_by_user grow without bound (5 rows/day, kept forever).  partition-unbounded

      Already at the base commit (these do not fail the gate)

      schema/videos.cql
        3:1  info  No query of the manifest reads killrvideo.videos directly.  table-no-queries (existing)

      Queries
        id  table                      verdict                partitions
        Q1  killrvideo.videos_by_user  single-partition       1
        Q2  killrvideo.videos          needs-allow-filtering  all
        Q3  —                          unserved               unknown

      ✖ 3 problems (1 error, 1 warning, 1 info, 1 already at the base); the gate fails: 1 new error in this change
      "
    `);
  });

  it("leaves out the infos and the queries table when quiet, and still counts them", () => {
    const quiet = renderText(videoReview(), { color: false, quiet: true });
    expect(quiet).not.toContain(" info ");
    expect(quiet).not.toContain("Queries");
    expect(quiet).toContain("warning  Q2 filters on title");
    expect(quiet.trimEnd().split("\n").at(-1)).toBe(renderText(videoReview(), { color: false }).trimEnd().split("\n").at(-1));
  });

  it("colours only when asked, and colour changes nothing but escape codes", () => {
    const plain = renderText(videoReview(), { color: false });
    const coloured = renderText(videoReview(), { color: true });
    expect(plain).not.toMatch(ANSI_PATTERN);
    expect(coloured).toMatch(/\u001b\[31merror/);
    expect(coloured.replace(ANSI_PATTERN, "")).toBe(plain);
  });

  it("says so when there is nothing to report", () => {
    const review = reviewOf({ tables: [], queries: [], estimates: [], findings: [] });
    expect(renderText(review, { color: false })).toBe("✔ No problems found\n");
  });

  it("reports a passing gate when only existing findings are errors", () => {
    const review = reviewOf({
      tables: [],
      queries: [],
      estimates: [],
      findings: [finding("partition-unbounded", "error", "a.cql", range(1, 1), "old problem", { existing: true })],
    });
    expect(renderText(review, { color: false }).trimEnd().split("\n").at(-1)).toBe(
      "✖ 1 problem (1 error, 0 warnings, 0 infos, 1 already at the base); the gate passes: nothing new",
    );
  });

  it("lists what was not reviewed first and the findings at the base after the new ones", () => {
    const review = reviewOf({
      tables: [],
      queries: [],
      estimates: [],
      findings: [
        finding("partition-unbounded", "error", "a.cql", range(1, 1), "old problem", { existing: true }),
        finding("query-full-scan", "warning", "a.cql", range(9, 1), "new scan"),
        finding("input-limit-exceeded", "warning", "big.cql", range(1, 1), "big.cql is too large"),
      ],
    });
    review.unreviewed = [{ file: "big.cql", reason: "big.cql is too large\u001b[2J" }];
    review.gateFails = true;
    const lines = renderText(review, { color: false }).trimEnd().split("\n");
    expect(lines.slice(0, 2)).toEqual(["Not reviewed (each could hide a finding)", "  big.cql  big.cql is too large\\u{1b}[2J"]);
    const at = (text: string) => lines.findIndex((line) => line.includes(text));
    expect(at("new scan")).toBeLessThan(at("Already at the base commit"));
    expect(at("Already at the base commit")).toBeLessThan(at("old problem"));
    expect(lines.at(-1)).toBe("✖ 3 problems (1 error, 2 warnings, 0 infos, 1 already at the base); the gate fails: 1 part of it not reviewed");
  });

  it("never lets repository text drive the terminal", () => {
    const review = reviewOf({
      tables: [],
      queries: [],
      estimates: [],
      findings: [finding("cql-syntax-error", "error", "evil\u001b]0;owned\u0007.cql", range(1, 1), "name \u001b[2J\nwith a newline")],
    });
    const output = renderText(review, { color: false });
    expect(output).not.toContain("\u001b");
    expect(output).not.toContain("\u0007");
    expect(output).toContain("name \\u{1b}[2J with a newline");
  });
});

describe("terminalSafe", () => {
  it("shows control characters as escapes and keeps ordinary text", () => {
    expect(terminalSafe("tab\there")).toBe("tab here");
    expect(terminalSafe("bell\u0007 del\u007f")).toBe("bell\\u{7} del\\u{7f}");
    expect(terminalSafe("crème brûlée ✓")).toBe("crème brûlée ✓");
    expect(terminalSafe("a\r\nb")).toBe("a b");
  });
});
