// The figures of the manifest and the config as text: rates, durations and byte sizes.
import { describe, expect, it } from "vitest";
import { parseByteSize, parseDurationSeconds, parseNumberText, parseRatePerSecond, RATE_PATTERN } from "../../src/manifest/units.js";

describe("rates", () => {
  it("reads a count per period as events per second", () => {
    expect(parseRatePerSecond("300/s")).toBe(300);
    expect(parseRatePerSecond("86400/day")).toBe(1);
    expect(parseRatePerSecond("2_000/min")).toBeCloseTo(2000 / 60);
    expect(parseRatePerSecond(" 5 / hour ")).toBeCloseTo(5 / 3600);
    expect(parseRatePerSecond("2.5/s")).toBe(2.5);
  });

  it("refuses what is not a rate, including names of Object's properties as periods", () => {
    for (const text of ["5/constructor", "5/toString", "-5/s", "1e3/s", "5/ms", "5", "/s", "5//s"]) {
      expect(parseRatePerSecond(text), text).toBeNaN();
      expect(RATE_PATTERN.test(text), text).toBe(false);
    }
  });
});

describe("durations, sizes and numbers", () => {
  it("reads durations with fixed calendar lengths", () => {
    expect(parseDurationSeconds("365d")).toBe(365 * 86_400);
    expect(parseDurationSeconds("1y")).toBe(365 * 86_400);
    expect(parseDurationSeconds("6mo")).toBe(180 * 86_400);
    expect(parseDurationSeconds("forever")).toBeNull();
    expect(parseDurationSeconds("1.5d")).toBeNaN();
  });

  it("reads decimal and binary sizes", () => {
    expect(parseByteSize("100MB")).toBe(100_000_000);
    expect(parseByteSize("64MiB")).toBe(64 * 1024 * 1024);
    expect(parseByteSize(512)).toBe(512);
    expect(parseByteSize("12 parsecs")).toBeNaN();
  });

  it("reads `_` separators", () => {
    expect(parseNumberText("2_000_000")).toBe(2_000_000);
    expect(parseNumberText("2__0")).toBeNaN();
  });
});
