// Renders a check summary as GitHub shows it (test/browser/github-page.ts: GFM, GitHub's
// stylesheet, Mermaid, headless Chromium), prints its size and layout, and saves a screenshot of
// its top. `npm run screenshot` regenerates the image the README shows.
//
//   npm run screenshot                                   the README's image, from the sample model
//   npm run screenshot -- --model DIR --out FILE.png     another model, another file
//   npm run screenshot -- --markdown SUMMARY.md          measure a summary written elsewhere
//                                                        (e.g. by an older version), no image
//   --height PX                                          how much of the top to keep (default 1500)
import { mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { renderCheckSummary } from "../src/report/markdown.js";
import { review } from "../src/review.js";
import { GITHUB_CONTENT_WIDTH, launchChromium, measureLayout, openGithubPage, setAllDetailsOpen } from "../test/browser/github-page.js";
import { readModel, REPO_ROOT } from "../test/helpers/read-model.js";

const DEFAULT_MODEL = "examples/iot";
const DEFAULT_IMAGE = "docs/images/check-summary.png";

const { values } = parseArgs({
  options: {
    model: { type: "string" },
    markdown: { type: "string" },
    out: { type: "string" },
    height: { type: "string", default: "1500" },
  },
});

const markdown = values.markdown ? readFileSync(values.markdown, "utf8") : renderCheckSummary(review(readModel(values.model ?? DEFAULT_MODEL)));
const out = values.out ?? (values.markdown ? undefined : DEFAULT_IMAGE);
const maxHeight = Number.parseInt(values.height ?? "", 10);
if (!Number.isInteger(maxHeight) || maxHeight <= 0) throw new Error(`--height must be a positive number of pixels, got ${values.height}`);

const browser = await launchChromium();
try {
  const shown = await openGithubPage(browser, [markdown]);
  const failedDiagrams = shown.mermaid.filter((diagram) => diagram.parseError ?? diagram.renderError ?? diagram.errorText);
  const problems = [...shown.problems.console, ...shown.problems.exceptions, ...shown.problems.requests, ...failedDiagrams.map((diagram) => JSON.stringify(diagram))];
  if (problems.length > 0) throw new Error(`the page did not render cleanly:\n${problems.join("\n")}`);

  const closed = await measureLayout(shown.page);
  if (out) {
    const file = path.resolve(REPO_ROOT, out);
    mkdirSync(path.dirname(file), { recursive: true });
    await shown.page.setViewportSize({ width: GITHUB_CONTENT_WIDTH, height: Math.min(closed.height, maxHeight) });
    await shown.page.screenshot({ path: file, clip: { x: 0, y: 0, width: GITHUB_CONTENT_WIDTH, height: Math.min(closed.height, maxHeight) } });
    console.log(`screenshot: ${file}`);
  }
  await setAllDetailsOpen(shown.page, true);
  const open = await measureLayout(shown.page);
  console.log(
    [
      `characters:                ${markdown.length}`,
      `height, sections closed:   ${closed.height} px`,
      `height, sections open:     ${open.height} px`,
      `first error row (closed):  ${closed.firstErrorY === null ? "none" : `${closed.firstErrorY} px from the top`}`,
      `diagrams:                  ${shown.mermaid.map((diagram, index) => `${diagram.characters} characters, ${diagram.nodes} nodes, ${open.diagramHeights[index]} px tall`).join("; ") || "none"}`,
    ].join("\n"),
  );
} finally {
  await browser.close();
}
