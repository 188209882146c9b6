// The house has one direction: files → parse → model → plan/estimate → rules → findings → render →
// post. A module may import from its own layer or a lower one, never from a higher one, so the
// pure core never reaches the GitHub layer and the analysis never reads the repository config.
// Every import of src/ and rules/ is checked, type-only imports too.
import { readFileSync } from "node:fs";
import { projectSources } from "../helpers/source-files.js";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Lowest first. A path is matched by its first prefix in this list. */
const LAYERS: { name: string; prefixes: string[] }[] = [
  { name: "shared vocabulary", prefixes: ["src/cql/", "src/findings.ts", "src/globs.ts", "src/source-file.ts", "src/arrays.ts"] },
  { name: "schema model", prefixes: ["src/schema/"] },
  // The JSON Schema export is a build step over both zod schemas (manifest and config), not part
  // of the review's data flow: it sits with the config it also exports.
  { name: "manifest", prefixes: ["src/manifest/", "src/stats/"] },
  { name: "analysis", prefixes: ["src/analysis/"] },
  { name: "config and rules", prefixes: ["src/manifest/json-schema.ts", "src/manifest/write-json-schemas.ts", "src/config.ts", "src/config/", "src/code/", "src/rule-engine/", "rules/"] },
  { name: "review", prefixes: ["src/review.ts"] },
  { name: "renderers", prefixes: ["src/report/", "src/explain.ts"] },
  { name: "entry points", prefixes: ["src/github/", "src/cli.ts", "src/cli/", "src/lambda.ts", "src/lambda/", "src/action.ts"] },
];

/**
 * Upward arrows that exist today, each with its reason. The test fails when one disappears, so
 * the list shrinks as they are fixed.
 */
const KNOWN_UPWARD: { from: string; to: string; reason: string }[] = [
  {
    from: "src/schema/builder.ts",
    to: "src/rule-engine/model.ts",
    reason: "type only: ParsedSchemaFile (path, text, parse result) is declared with the analysed model; it belongs in src/schema",
  },
];

function layerOf(path: string): number {
  // The most specific prefix wins: src/manifest/json-schema.ts before src/manifest/.
  let best = -1;
  let bestLength = -1;
  LAYERS.forEach((layer, index) => {
    for (const prefix of layer.prefixes) {
      if (path.startsWith(prefix) && prefix.length > bestLength) {
        best = index;
        bestLength = prefix.length;
      }
    }
  });
  return best;
}

/** Relative imports and re-exports of a file, resolved to repository paths (`.js` → `.ts`). */
function importsOf(path: string): string[] {
  const text = readFileSync(join(ROOT, path), "utf8");
  const targets: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*"(\.{1,2}\/[^"]+)"/g)) {
    const target = relative(ROOT, resolve(ROOT, dirname(path), match[1]!)).replace(/\.js$/, ".ts");
    targets.push(target);
  }
  for (const match of text.matchAll(/\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g)) {
    targets.push(relative(ROOT, resolve(ROOT, dirname(path), match[1]!)).replace(/\.js$/, ".ts"));
  }
  return targets;
}

const files = projectSources();
const arrows = files.flatMap((from) => importsOf(from).map((to) => ({ from, to })));

describe("layers", () => {
  it("every source file belongs to a layer", () => {
    expect(files.filter((path) => layerOf(path) === -1)).toEqual([]);
    expect(arrows.filter(({ to }) => layerOf(to) === -1)).toEqual([]);
  });

  it("finds the imports it checks", () => {
    // A parser that found nothing would pass everything.
    expect(arrows.length).toBeGreaterThan(files.length);
    expect(arrows).toContainEqual({ from: "src/review.ts", to: "src/analysis/estimator.ts" });
  });

  it("no module imports from a higher layer, apart from the arrows listed with their reasons", () => {
    const upward = arrows
      .filter(({ from, to }) => layerOf(to) > layerOf(from))
      .filter(({ from, to }) => !KNOWN_UPWARD.some((known) => known.from === from && known.to === to))
      .map(({ from, to }) => `${from} (${LAYERS[layerOf(from)]!.name}) → ${to} (${LAYERS[layerOf(to)]!.name})`);
    expect(upward).toEqual([]);
  });

  it("every listed exception still exists (remove it once fixed)", () => {
    for (const known of KNOWN_UPWARD) expect(arrows, `${known.from} → ${known.to}`).toContainEqual({ from: known.from, to: known.to });
  });

  it("inside src/github a delivery flows one way: intake → queue → worker → api", () => {
    // port.ts and delivery.ts are the shared vocabulary of the four folders; the entry files
    // (server.ts, action-runner.ts) wire them together and sit outside the flow.
    const FLOW = ["intake", "queue", "worker", "api"];
    const stageOf = (path: string) => FLOW.indexOf(/^src\/github\/([a-z]+)\//.exec(path)?.[1] ?? "");
    const backwards = arrows
      .filter(({ from, to }) => stageOf(from) >= 0 && to.startsWith("src/github/") && stageOf(to) !== -1 && stageOf(to) < stageOf(from))
      .map(({ from, to }) => `${from} → ${to}`);
    expect(backwards).toEqual([]);
    expect(files.filter((path) => stageOf(path) >= 0).length).toBeGreaterThan(20);
  });

  it("has no import circle between two modules of src/github", () => {
    const github = new Set(arrows.filter(({ from, to }) => from.startsWith("src/github/") && to.startsWith("src/github/")).map(({ from, to }) => `${from} ${to}`));
    const circles = [...github].map((arrow) => arrow.split(" ")).filter(([from, to]) => github.has(`${to} ${from}`));
    expect(circles).toEqual([]);
  });

  it("the analysis does not import the config, the review, the renderers or GitHub", () => {
    const fromAnalysis = arrows.filter(({ from }) => from.startsWith("src/analysis/")).map(({ to }) => to);
    expect(fromAnalysis.filter((to) => /^src\/(config|review|report|github|rule-engine)|^rules\//.test(to))).toEqual([]);
  });
});
