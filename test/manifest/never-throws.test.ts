import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import type { Finding } from "../../src/findings.js";
import { loadManifest } from "../../src/manifest/load.js";

const manifestText = readFileSync(new URL("../fixtures/manifests/killrvideo.yaml", import.meta.url), "utf8");
const configText = readFileSync(new URL("../fixtures/configs/full.yml", import.meta.url), "utf8");

/** Every finding lies inside the text, starts before it ends, and has a fingerprint. */
function assertWellFormed(findings: Finding[], text: string): void {
  for (const finding of findings) {
    const { start, end } = finding.location.range;
    expect(start.offset).toBeGreaterThanOrEqual(0);
    expect(end.offset).toBeLessThanOrEqual(Math.max(text.length, 1));
    expect(end.offset).toBeGreaterThanOrEqual(start.offset);
    expect(start.line).toBeGreaterThanOrEqual(1);
    expect(start.column).toBeGreaterThanOrEqual(1);
    expect(finding.message.length).toBeGreaterThan(0);
    expect(finding.fingerprint.length).toBeGreaterThan(0);
  }
}

/** Cuts, duplicates or swaps chunks of a valid file: the broken files people actually produce. */
const mutation = (source: string) =>
  fc
    .array(
      fc.record({
        kind: fc.constantFrom("delete", "duplicate", "swap", "insert"),
        at: fc.nat({ max: source.length }),
        length: fc.integer({ min: 1, max: 40 }),
        insert: fc.constantFrom(":", "- ", "\t", "  ", "\n", "&a ", "*a", "{", "]", "'", '"', "#", "<<: ", "__proto__: ", "|", ">", "\u0000", "%YAML 1.1\n"),
      }),
      { minLength: 1, maxLength: 4 },
    )
    .map((edits) => {
      let text = source;
      for (const edit of edits) {
        const at = Math.min(edit.at, text.length);
        const chunk = text.slice(at, at + edit.length);
        if (edit.kind === "delete") text = text.slice(0, at) + text.slice(at + edit.length);
        else if (edit.kind === "duplicate") text = text.slice(0, at) + chunk + text.slice(at);
        else if (edit.kind === "insert") text = text.slice(0, at) + edit.insert + text.slice(at);
        else {
          const other = Math.min((at * 7) % Math.max(text.length, 1), text.length);
          text = text.slice(0, other) + chunk + text.slice(other, at) + text.slice(at + edit.length);
        }
      }
      return text;
    });

const yamlish = fc
  .array(fc.constantFrom("version: 1\n", "queries:\n", "  - id: Q1\n", "    cql: SELECT a FROM t\n", "tables:\n", "  t: ", "{", "}", "[", "]", ": ", "- ", "\n", "  ", "'", '"', "*x", "&x ", "!!binary ", "~", "5/day", "2_000_000"), { maxLength: 30 })
  .map((parts) => parts.join(""));

describe("the loaders never throw and always place findings inside the file (property)", () => {
  it("loadManifest on mutations of a valid manifest", () => {
    fc.assert(
      fc.property(mutation(manifestText), (text) => {
        const result = loadManifest({ path: "m.yaml", content: text });
        assertWellFormed(result.findings, text);
      }),
      { seed: 42, numRuns: 80 },
    );
  });

  it("loadManifest and loadConfig on YAML-like fragments", () => {
    fc.assert(
      fc.property(yamlish, (text) => {
        assertWellFormed(loadManifest({ path: "m.yaml", content: text }).findings, text);
        const config = loadConfig({ path: ".github/cql-review.yml", content: text });
        assertWellFormed(config.findings, text);
        expect(config.config.comments.max).toBeGreaterThanOrEqual(0);
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it("loadConfig on mutations of a valid config always returns a usable config", () => {
    fc.assert(
      fc.property(mutation(configText), (text) => {
        const { config, findings } = loadConfig({ path: ".github/cql-review.yml", content: text });
        assertWellFormed(findings, text);
        expect(config.schema.length).toBeGreaterThan(0);
        expect(config.limits.partitionBytes).toBeGreaterThan(0);
        expect(["error", "warning", "never"]).toContain(config.failOn);
      }),
      { seed: 11, numRuns: 150 },
    );
  });
});
