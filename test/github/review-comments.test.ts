import { describe, expect, it } from "vitest";
import type { Finding, Fix } from "../../src/findings.js";
import type { ChangedFile } from "../../src/github/api/collect.js";
import { parsePatch } from "../../src/github/api/diff-hunks.js";
import { planComments, suggestedLines } from "../../src/github/api/review-comments.js";
import { fakeCore } from "./helpers/fake-core.js";
import { fixture } from "./helpers/fixtures.js";
import { unifiedPatch } from "./helpers/unified-diff.js";

const TABLE = fixture("readings-unbucketed.cql");

/** A range over `text` from the first occurrence of `from` to the end of the first `to` after it. */
function rangeOf(text: string, from: string, to = from) {
  const startOffset = text.indexOf(from);
  const endOffset = text.indexOf(to, startOffset) + to.length;
  const position = (offset: number) => {
    const before = text.slice(0, offset).split("\n");
    return { line: before.length, column: before[before.length - 1]!.length + 1, offset };
  };
  return { start: position(startOffset), end: position(endOffset) };
}

function fixOf(replacement: string, from: string, to?: string): Fix {
  return { description: "fix", file: "schema/readings.cql", range: rangeOf(TABLE, from, to), replacement };
}

describe("suggestedLines", () => {
  it("rewrites the whole line around a fix inside it", () => {
    expect(suggestedLines(TABLE, fixOf("PRIMARY KEY ((device_id, day), reading_time)", "PRIMARY KEY ((device_id), reading_time)"))).toEqual({
      startLine: 9,
      endLine: 9,
      suggestion: "  PRIMARY KEY ((device_id, day), reading_time)",
    });
  });

  it("spans every line a multi-line fix touches", () => {
    const fix = fixOf("humidity double,\n  day date,\n  PRIMARY KEY ((device_id, day)", "humidity double,", "PRIMARY KEY ((device_id)");
    expect(suggestedLines(TABLE, fix)).toEqual({
      startLine: 8,
      endLine: 9,
      suggestion: "  humidity double,\n  day date,\n  PRIMARY KEY ((device_id, day), reading_time)",
    });
  });

  it("a fix ending at the start of the next line rewrites whole lines only", () => {
    const start = rangeOf(TABLE, "  humidity double,\n").start;
    const end = rangeOf(TABLE, "  PRIMARY KEY").start;
    const fix: Fix = { description: "drop", file: "x", range: { start, end }, replacement: "" };
    expect(suggestedLines(TABLE, fix)).toEqual({ startLine: 8, endLine: 8, suggestion: "" });
    expect(suggestedLines(TABLE, { ...fix, range: { start: { ...start, column: 3, offset: start.offset + 2 }, end } })).toBeUndefined();
  });

  it("refuses a fix whose offsets do not match the file", () => {
    const fix = fixOf("x", "humidity");
    expect(suggestedLines(TABLE, { ...fix, range: { ...fix.range, start: { ...fix.range.start, offset: 3 } } })).toBeUndefined();
    expect(suggestedLines("short", fix)).toBeUndefined();
  });
});

describe("planComments", () => {
  const before = TABLE.replace("  PRIMARY KEY ((device_id), reading_time)\n", "  PRIMARY KEY ((device_id), reading_time)\n").replace("  humidity double,\n", "");
  const changed: ChangedFile[] = [{ path: "schema/readings.cql", status: "modified", hunks: parsePatch(unifiedPatch(before, TABLE, 0)) }];
  const finding = (over: Partial<Finding>): Finding => ({
    rule: "r",
    severity: "warning",
    location: { file: "schema/readings.cql", range: rangeOf(TABLE, "humidity double") },
    message: "m",
    fingerprint: "r:1",
    ...over,
  });
  const plan = (findings: Finding[], max = 50) =>
    planComments({
      findings,
      changedFiles: changed,
      headFiles: [{ path: "schema/readings.cql", content: TABLE }],
      posted: [{ nodeId: "n", fingerprint: "posted", minimized: false, author: "cql-review" }],
      max,
      render: fakeCore(() => []).renderFindingComment,
    });

  it("comments only on lines inside the hunks, and never on existing or already posted findings", () => {
    const result = plan([
      finding({ fingerprint: "on-added-line" }),
      finding({ fingerprint: "outside", location: { file: "schema/readings.cql", range: rangeOf(TABLE, "device_id uuid") } }),
      finding({ fingerprint: "existing", existing: true }),
      finding({ fingerprint: "posted" }),
      finding({ fingerprint: "other-file", location: { file: "schema/other.cql", range: rangeOf(TABLE, "humidity") } }),
    ]);
    expect(result.comments.map((c) => [c.finding.fingerprint, c.line])).toEqual([["on-added-line", 8]]);
    expect(result.notInline.map((f) => f.fingerprint)).toEqual(["outside", "other-file"]);
    expect(result.alreadyPosted.map((f) => f.fingerprint)).toEqual(["posted"]);
  });

  it("errors go first when comments.max cuts the list", () => {
    const result = plan([finding({ fingerprint: "w" }), finding({ fingerprint: "e", severity: "error" })], 1);
    expect(result.comments.map((c) => c.finding.fingerprint)).toEqual(["e"]);
    expect(result.notInline.map((f) => f.fingerprint)).toEqual(["w"]);
  });

  it("a fix outside the diff still gets its comment, without a suggestion", () => {
    const result = plan([finding({ fix: fixOf("x", "device_id uuid") })]);
    expect(result.comments[0]).toMatchObject({ line: 8 });
    expect(result.comments[0]!.body).not.toContain("suggestion");
  });
});
