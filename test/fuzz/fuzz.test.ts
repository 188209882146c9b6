// The fuzz targets of properties.ts with a fixed seed and bounded runs, so the suite stays
// reproducible and quick on a shared two-core machine; `npm run fuzz` runs the same properties
// with a million inputs.
import fc from "fast-check";
import { describe, it } from "vitest";
import { FUZZ_TARGETS } from "./properties.js";

const SEED = 20_261_121;

describe("fuzz targets (bounded)", () => {
  for (const target of FUZZ_TARGETS) {
    it(`${target.name}: ${target.checks}`, () => {
      fc.assert(target.property(), { seed: SEED, numRuns: target.testRuns });
    });
  }
});
