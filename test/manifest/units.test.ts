// Rates read without the regex must read exactly as RATE_PATTERN does.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isRateText, parseRatePerSecond, RATE_PATTERN, RATE_PERIODS } from "../../src/manifest/units.js";

/** The rate as the pattern alone reads it. */
function rateByPattern(text: string): number {
  const match = RATE_PATTERN.exec(text.trim());
  return match ? Number(match[1]!.replaceAll("_", "")) / RATE_PERIODS[match[2]!]! : Number.NaN;
}

const periods = [...Object.keys(RATE_PERIODS), "ms", "constructor", "toString", "S", "", "s ", "days"];
const rateLike = fc
  .tuple(
    fc.constantFrom(" ", "", "", "", "+", "-"),
    fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 20n }).map(String), fc.constantFrom("0", "007", "1_000", "2.5", ".5", "1e3", "999999999999999", "9999999999999999", "")),
    fc.constantFrom("/", "/", " / ", "/ ", " /", "//", ""),
    fc.constantFrom(...periods),
    fc.constantFrom("", "", "", " ", "\n", "x"),
  )
  .map((parts) => parts.join(""));

describe("rates", () => {
  it("the usual form reads as the pattern reads it (property)", () => {
    fc.assert(
      fc.property(rateLike, (text) => {
        expect(parseRatePerSecond(text)).toBe(rateByPattern(text));
        expect(isRateText(text)).toBe(RATE_PATTERN.test(text));
      }),
      { seed: 20_240_611, numRuns: 2000 },
    );
  });

  it("examples", () => {
    expect(parseRatePerSecond("300/s")).toBe(300);
    expect(parseRatePerSecond("86400/day")).toBe(1);
    expect(parseRatePerSecond("2_000/min")).toBeCloseTo(2000 / 60);
    expect(parseRatePerSecond(" 5 / hour ")).toBeCloseTo(5 / 3600);
    expect(parseRatePerSecond("5/constructor")).toBeNaN();
    expect(isRateText("5/constructor")).toBe(false);
    expect(isRateText("10/s")).toBe(true);
  });
});
