// The builder never throws and never fails internally, whatever order or shape the statements take.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCql } from "../../src/cql/index.js";
import { buildSchema } from "../../src/schema/builder.js";

const directory = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "killrvideo");
const corpus = readdirSync(directory)
  .filter((f) => f.endsWith(".cql"))
  .map((f) => readFileSync(join(directory, f), "utf8"))
  .join("\n");
// Statements of the corpus, each ending with its `;`.
const statements = corpus.split(/(?<=;)\s*\n/).filter((s) => s.trim() !== "");

function buildText(text: string) {
  return buildSchema([{ path: "mutated.cql", text, parse: parseCql(text) }]);
}

function expectSound(text: string) {
  const { findings } = buildText(text);
  expect(findings.filter((f) => f.rule === "internal-error")).toEqual([]);
  for (const finding of findings) {
    const { start, end } = finding.location.range;
    expect(start.offset).toBeGreaterThanOrEqual(0);
    expect(end.offset).toBeLessThanOrEqual(text.length);
    expect(start.offset).toBeLessThanOrEqual(end.offset);
    expect(finding.fingerprint).toMatch(/^schema-invalid:/);
  }
}

describe("robustness", () => {
  it("statements in any order and any repetition build without internal errors", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...statements), { maxLength: 40 }), (picked) => {
        expectSound(picked.join("\n"));
      }),
      { seed: 20240611, numRuns: 150 },
    );
  });

  it("text with chunks deleted or duplicated builds without internal errors", () => {
    const edit = fc.record({
      at: fc.nat({ max: corpus.length }),
      length: fc.integer({ min: 1, max: 80 }),
      duplicate: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), (edits) => {
        let text = corpus;
        for (const { at, length, duplicate } of edits) {
          const start = Math.min(at, text.length);
          const chunk = text.slice(start, start + length);
          text = duplicate ? text.slice(0, start) + chunk + text.slice(start) : text.slice(0, start) + text.slice(start + length);
        }
        expectSound(text);
      }),
      { seed: 7, numRuns: 80 },
    );
  });
});
