// The bucket fix changes only what it means to change: on files with trailing comments of every
// kind, odd spacing and CRLF line ends, the fixed file parses, the finding goes away, and every
// character outside the fix's range is where it was.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import rule from "../../rules/table-unbounded-partition.js";
import { parseCql } from "../../src/cql/index.js";
import { applyFixes, runRule } from "../rule-tester.js";
import { blank, indent, lineEnd, trailingComment } from "./fix-properties.js";

const COLUMNS: [string, string][] = [
  ["video_id", "uuid"],
  ["comment_id", "timeuuid"],
  ["user_id", "uuid"],
  ["comment", "text"],
];

const trailing = trailingComment;

const tableText = fc
  .record({
    comments: fc.array(trailing, { minLength: COLUMNS.length, maxLength: COLUMNS.length }),
    gaps: fc.array(blank, { minLength: COLUMNS.length, maxLength: COLUMNS.length }),
    indent,
    keyIndent: indent,
    keyOnOwnLine: fc.boolean(),
    eol: lineEnd,
  })
  .map(({ comments, gaps, indent: pad, keyIndent, keyOnOwnLine, eol }) => {
    const lines = COLUMNS.map(([name, type], i) => {
      const last = i === COLUMNS.length - 1;
      // A trailing comment on the line of the PRIMARY KEY would swallow it: keep that line clean.
      const comment = last && !keyOnOwnLine ? "" : comments[i]!;
      return `${pad}${name}${gaps[i]}${type},${comment}`;
    });
    const key = "PRIMARY KEY ((video_id), comment_id)";
    if (keyOnOwnLine) lines.push(`${keyIndent}${key}`);
    else lines[lines.length - 1] += ` ${key}`;
    return `CREATE TABLE comments_by_video (${eol}${lines.join(eol)}${eol});${eol}`;
  });

const manifest = [
  "version: 1",
  "keyspace: shop",
  "tables:",
  "  comments_by_video:",
  "    growth: 30000/day",
  "    columns: { comment: 300 }",
  "queries:",
  "  - id: Q1",
  "    cql: SELECT comment FROM comments_by_video WHERE video_id = ? LIMIT 50",
  "",
].join("\n");

describe("table-unbounded-partition fix properties", () => {
  it("parses after the fix, removes its finding and leaves everything outside its range alone", () => {
    fc.assert(
      fc.property(tableText, (cql) => {
        expect(parseCql(cql).diagnostics.filter((d) => d.code === "cql-syntax-error")).toEqual([]);
        const { findings } = runRule(rule, { cql, manifest });
        expect(findings).toHaveLength(1);
        const fix = findings[0]!.fix!;
        expect(fix).toBeDefined();
        const fixed = applyFixes(cql, [fix]);

        const start = fix.range.start.offset;
        const end = fix.range.end.offset;
        expect(fixed.slice(0, start)).toBe(cql.slice(0, start));
        expect(fixed.slice(fixed.length - (cql.length - end))).toBe(cql.slice(end));
        // Only the PRIMARY KEY clause (and the blank indent before it) is replaced.
        expect(cql.slice(start, end).trim()).toBe("PRIMARY KEY ((video_id), comment_id)");
        // The inserted text holds no comment and uses the file's own line ends.
        expect(fix.replacement).not.toMatch(/--|\/\/|\/\*/);
        if (cql.includes("\r\n")) expect(fix.replacement.replace(/\r\n/g, "")).not.toContain("\n");

        expect(parseCql(fixed).diagnostics.filter((d) => d.code === "cql-syntax-error")).toEqual([]);
        expect(runRule(rule, { cql: fixed, manifest }).findings).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
