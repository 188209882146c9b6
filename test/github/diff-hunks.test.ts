import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hunkContaining, parsePatch } from "../../src/github/api/diff-hunks.js";
import { unifiedPatch } from "./helpers/unified-diff.js";

const PATCH = [
  "@@ -3,7 +3,9 @@ CREATE TABLE IF NOT EXISTS devices (",
  "   device_id uuid,",
  "   account_id uuid,",
  "-  model text,",
  "+  model_name text,",
  "+  model_year int,",
  "   firmware text,",
  "+  location text,",
  "   registered_at timestamp,",
  "   PRIMARY KEY ((device_id))",
  " );",
  "@@ -20,2 +22,3 @@ CREATE TABLE alerts (",
  "   id uuid PRIMARY KEY,",
  "+  level text,",
  "   raised_at timestamp",
  "\\ No newline at end of file",
].join("\n");

describe("parsePatch", () => {
  it("reads the RIGHT-side lines and the added lines of each hunk", () => {
    expect(parsePatch(PATCH)).toEqual([
      { oldStart: 3, newStart: 3, rightLines: [3, 4, 5, 6, 7, 8, 9, 10, 11], addedLines: [5, 6, 8] },
      { oldStart: 20, newStart: 22, rightLines: [22, 23, 24], addedLines: [23] },
    ]);
  });

  it("a deleted file has hunks without RIGHT-side lines", () => {
    expect(parsePatch("@@ -1,2 +0,0 @@\n-USE telemetry;\n-DROP TABLE t;")).toEqual([
      { oldStart: 1, newStart: 0, rightLines: [], addedLines: [] },
    ]);
  });

  it("reads CRLF patches and empty context lines", () => {
    expect(parsePatch("@@ -1,3 +1,3 @@\r\n a\r\n\r\n+b\r\n-c")[0]!.rightLines).toEqual([1, 2, 3]);
  });

  it("never throws and never invents lines outside the hunk headers' starts", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        for (const hunk of parsePatch(text)) {
          hunk.rightLines.forEach((line, i) => expect(line).toBe(hunk.newStart + i));
        }
      }),
      { seed: 20261121, numRuns: 300 },
    );
  });

  it("recovers exactly the lines of generated hunks", () => {
    const hunkArbitrary = fc.record({
      gap: fc.integer({ min: 0, max: 20 }),
      lines: fc.array(fc.constantFrom(" ", "+", "-"), { minLength: 1, maxLength: 12 }),
    });
    fc.assert(
      fc.property(fc.array(hunkArbitrary, { minLength: 1, maxLength: 6 }), (hunks) => {
        let oldLine = 1;
        let newLine = 1;
        const text: string[] = [];
        const expected: Array<{ rightLines: number[]; addedLines: number[] }> = [];
        for (const { gap, lines } of hunks) {
          oldLine += gap;
          newLine += gap;
          const oldCount = lines.filter((l) => l !== "+").length;
          const newCount = lines.filter((l) => l !== "-").length;
          text.push(`@@ -${oldLine},${oldCount} +${newLine},${newCount} @@`);
          const rightLines: number[] = [];
          const addedLines: number[] = [];
          for (const [i, kind] of lines.entries()) {
            text.push(`${kind}line ${i}`);
            if (kind === "-") continue;
            rightLines.push(newLine);
            if (kind === "+") addedLines.push(newLine);
            newLine++;
          }
          oldLine += oldCount;
          expected.push({ rightLines, addedLines });
        }
        expect(parsePatch(text.join("\n")).map(({ rightLines, addedLines }) => ({ rightLines, addedLines }))).toEqual(expected);
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it("every RIGHT-side line of a real diff shows the head text of that line", () => {
    const fileArbitrary = fc.array(fc.constantFrom("a", "b", "c", "d", "e", ""), { maxLength: 30 });
    fc.assert(
      fc.property(fileArbitrary, fileArbitrary, (before, after) => {
        const text = (lines: string[]) => lines.map((line) => `${line}\n`).join("");
        const patch = unifiedPatch(text(before), text(after));
        const bodies = patch === "" ? [] : patch.split("\n").filter((line) => !line.startsWith("@@") && !line.startsWith("-"));
        const right = parsePatch(patch).flatMap((hunk) => hunk.rightLines);
        expect(right.map((line) => after[line - 1])).toEqual(bodies.map((line) => line.slice(1)));
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});

describe("hunkContaining", () => {
  const hunks = parsePatch(PATCH);

  it("finds the hunk holding a whole range", () => {
    expect(hunkContaining(hunks, 5, 8)).toBe(hunks[0]);
    expect(hunkContaining(hunks, 24, 24)).toBe(hunks[1]);
  });

  it("refuses ranges that leave a hunk or straddle two", () => {
    expect(hunkContaining(hunks, 2, 4)).toBeUndefined();
    expect(hunkContaining(hunks, 11, 22)).toBeUndefined();
    expect(hunkContaining(hunks, 12, 12)).toBeUndefined();
    expect(hunkContaining(hunks, 8, 5)).toBeUndefined();
  });
});
