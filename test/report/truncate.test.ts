import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clipText, fitBlocks, leadSentence, notShown, takeWithin, type Block } from "../../src/report/truncate.js";

const PROPERTY = { seed: 4_242, numRuns: 200 } as const;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("notShown", () => {
  it("says how many were left out, in the right number", () => {
    expect(notShown(1, { one: "finding", many: "findings" })).toBe("1 more finding not shown");
    expect(notShown(12_345, { one: "finding", many: "findings" })).toBe("12,345 more findings not shown");
  });
});

describe("takeWithin", () => {
  it("keeps the first items and counts the rest", () => {
    expect(takeWithin([1, 2, 3, 4], 3)).toEqual({ kept: [1, 2, 3], omitted: 1 });
    expect(takeWithin([1, 2], 5)).toEqual({ kept: [1, 2], omitted: 0 });
  });
});

describe("clipText", () => {
  it("leaves short text alone and says how much it cut from long text", () => {
    expect(clipText("short", 10)).toBe("short");
    const clipped = clipText("x".repeat(100), 50);
    expect(clipped.length).toBeLessThanOrEqual(50);
    expect(clipped).toMatch(/^x+… \(\d+ more characters not shown\)$/);
    const kept = clipped.indexOf("…");
    expect(clipped).toContain(`(${100 - kept} more characters`);
  });

  it("never exceeds the budget nor splits a surrogate pair", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), fc.integer({ min: 0, max: 120 }), (text, max) => {
        const clipped = clipText(text, max);
        expect(clipped.length).toBeLessThanOrEqual(Math.max(max, 0));
        expect(clipped).not.toMatch(LONE_SURROGATE);
      }),
      PROPERTY,
    );
  });
});

describe("fitBlocks", () => {
  const rows = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);

  it("shows everything when it fits", () => {
    const blocks: Block[] = [{ head: "# A", rows: rows("a", 3) }, { head: "# B", rows: ["b"], tail: "end" }];
    expect(fitBlocks(blocks, 1_000)).toBe("# A\na0\na1\na2\n\n# B\nb\nend");
  });

  it("drops rows round-robin and says how many, keeping heads and tails", () => {
    const blocks: Block[] = [
      { head: "# A", rows: rows("a", 50), more: (n) => `${n} more a` },
      { head: "# B", rows: rows("b", 50), tail: "end", more: (n) => `${n} more b` },
    ];
    const text = fitBlocks(blocks, 80);
    expect(text.length).toBeLessThanOrEqual(80);
    expect(text).toContain("# A");
    expect(text).toContain("end");
    const shownA = text.split("\n").filter((line) => /^a\d+$/.test(line)).length;
    const shownB = text.split("\n").filter((line) => /^b\d+$/.test(line)).length;
    expect(Math.abs(shownA - shownB)).toBeLessThanOrEqual(1);
    expect(text).toContain(`${50 - shownA} more a`);
    expect(text).toContain(`${50 - shownB} more b`);
  });

  it("is always within budget, and every row is either shown or counted", () => {
    const block = fc.record({
      head: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
      rows: fc.array(fc.string({ minLength: 1, maxLength: 30 }), { maxLength: 40 }),
      tail: fc.option(fc.string({ maxLength: 5 }), { nil: undefined }),
      close: fc.option(fc.constant("</details>"), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 1_500 }), fc.constantFrom("round-robin" as const, "in-order" as const), (specs, max, fill) => {
        const blocks: Block[] = specs.map((spec, index) => ({
          ...spec,
          rows: spec.rows.map((row) => `r${index}:${row.replace(/\n/g, " ")}`),
          more: (n: number) => `[${index}] ${n} more rows not shown`,
        }));
        const text = fitBlocks(blocks, max, { fill });
        expect(text.length).toBeLessThanOrEqual(max);
        const headsFit = fitBlocks(blocks.map((entry) => ({ head: entry.head, tail: entry.tail, close: entry.close })), Number.POSITIVE_INFINITY).length;
        if (headsFit + 200 > max) return; // tiny budgets clip the skeleton itself; covered above
        blocks.forEach((entry, index) => {
          const shown = text.split("\n").filter((line) => line.startsWith(`r${index}:`)).length;
          const total = entry.rows!.length;
          if (shown < total) expect(text).toContain(`[${index}] ${total - shown} more rows not shown`);
        });
      }),
      PROPERTY,
    );
  });

  it("in order, fills earlier blocks first and keeps each notice inside its section", () => {
    const section = (name: string): Block => ({
      head: `<details><summary>${name}</summary>`,
      rows: Array.from({ length: 50 }, (_, i) => `${name}${i}`),
      more: (n) => `${n} more ${name} not shown`,
      close: "</details>",
    });
    const text = fitBlocks([section("a"), section("b")], 400, { fill: "in-order" });
    expect(text.length).toBeLessThanOrEqual(400);
    expect(text).not.toContain("more a not shown");
    expect(text.split("\n").filter((line) => /^b\d+$/.test(line)).length).toBeLessThan(50);
    // a cut is final: nothing after it, even a row short enough to fit
    const cut = fitBlocks([{ rows: ["x".repeat(100), "y".repeat(100)] }, { rows: ["z"] }], 120, { fill: "in-order" });
    expect(cut).not.toContain("z\n");
    expect(cut.split("\n")).not.toContain("z");
    expect(text.endsWith("more b not shown\n\n</details>")).toBe(true);
  });
});

describe("leadSentence", () => {
  const reasoning = "Every write of the bucket lands on one replica set while the rest idles.";

  it("keeps the claim and drops the reasoning after it", () => {
    expect(leadSentence(`trending_by_hour has a hot partition. ${reasoning}`)).toBe("trending_by_hour has a hot partition.");
  });

  it("keeps a text that is one sentence, or whose rest is too short to be worth a cut", () => {
    expect(leadSentence("playlists_by_name is a materialized view of playlists.")).toBe("playlists_by_name is a materialized view of playlists.");
    expect(leadSentence("A claim. Short rest.")).toBe("A claim. Short rest.");
  });

  it("does not end a sentence inside code spans, quotes or parentheses, at abbreviations or decimals", () => {
    const code = "Use `CREATE TABLE t (a int). Then` here.";
    expect(leadSentence(`${code} ${reasoning}`)).toBe(code);
    const quoted = 'Cassandra says "Cannot execute. It might filter" for Q6.';
    expect(leadSentence(`${quoted} ${reasoning}`)).toBe(quoted);
    const parenthesised = "Q9 is rejected (Cassandra 5.0 asks for it. See the docs) as written.";
    expect(leadSentence(`${parenthesised} ${reasoning}`)).toBe(parenthesised);
    const abbreviated = "Bound a partition by time, e.g. by day, or by a shard.";
    expect(leadSentence(`${abbreviated} ${reasoning}`)).toBe(abbreviated);
  });

  it("returns a prefix of its input ending at a dot, or the input itself", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", " ", ".", "`", '"', "(", ")", "\n", "é") }), (text) => {
        const lead = leadSentence(text);
        expect(text.startsWith(lead)).toBe(true);
        if (lead !== text) expect(lead.endsWith(".")).toBe(true);
      }),
    );
  });
});
