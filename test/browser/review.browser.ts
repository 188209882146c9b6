// The documents people read on GitHub, rendered as GitHub renders them, in headless Chromium: the
// check summary of the sample model (examples/iot) and of the deliberately bad model
// (test/fixtures/bad-model), and the bad model's inline comments and explain replies. Whatever
// Markdown and Mermaid the renderers write, the page must show it without errors: every diagram
// parses and draws, every <details> opens onto content, every table is a table, and no Markdown
// syntax shows as text. Screenshots land in test/browser/artifacts/ (ignored by git).
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explain } from "../../src/explain.js";
import { renderCheckSummary, renderExplainMarkdown, renderFindingComment } from "../../src/report/markdown.js";
import { review } from "../../src/review.js";
import { readModel, REPO_ROOT } from "../helpers/read-model.js";
import {
  inspectPage,
  launchChromium,
  markdownCounts,
  measureLayout,
  openGithubPage,
  renderGithubHtml,
  setAllDetailsOpen,
  type GithubPage,
  type PageInspection,
} from "./github-page.js";

const ARTIFACTS = path.join(REPO_ROOT, "test/browser/artifacts");
/** The height of a laptop's first screen of a check run, below GitHub's header. */
const FIRST_SCREEN_PX = 900;

let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** Markdown that shows as text instead of being rendered: fences, table rules, raw tags, bold markers. */
function leakedMarkdown(text: string): string[] {
  const leaks: Array<[string, RegExp]> = [
    ["code fence", /```|~~~/],
    ["table delimiter row", /\|\s*:?-+:?\s*\|/],
    ["raw <details>/<summary>", /<\/?(details|summary)\b/i],
    ["bold markers", /\*\*\S/],
  ];
  return leaks.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

/** The checks every rendered page must pass, once all its <details> are open. */
function expectRenderedCleanly(shown: GithubPage, opened: PageInspection, counts: ReturnType<typeof markdownCounts>): void {
  expect(shown.problems).toEqual({ console: [], exceptions: [], requests: [] });
  expect(shown.mermaid).toHaveLength(counts.mermaid);
  for (const diagram of shown.mermaid) {
    const { parseError, renderError, errorText } = diagram;
    expect({ diagram: diagram.index, parseError, renderError, errorText }).toEqual({ diagram: diagram.index, parseError: null, renderError: null, errorText: null });
    expect(diagram.labelCharacters).toBeGreaterThan(0);
  }
  expect(opened.scripts).toBe(0);
  expect(opened.details).toBe(counts.details);
  expect(opened.openDetails).toBe(counts.details);
  expect(opened.emptyDetails).toBe(0);
  expect(opened.tables).toBe(counts.tables);
  expect(leakedMarkdown(opened.visibleText)).toEqual([]);
  // A backslash escape shown as text means the escaping and the renderer disagree.
  expect(opened.proseText).not.toMatch(/\\[!-/:-@[-`{-~]/);
}

describe.each([
  ["iot", "examples/iot"],
  ["bad-model", "test/fixtures/bad-model"],
])("the %s check summary in Chromium", (name, directory) => {
  it("renders without errors, its diagram drawn, sections opening, no Markdown shown as text", async () => {
    const reviewed = review(readModel(directory));
    const summary = renderCheckSummary(reviewed);
    const counts = markdownCounts(summary);
    expect(counts.mermaid).toBeGreaterThan(0);
    expect(renderGithubHtml(summary).strippedBySanitiser).toEqual([]);

    const shown = await openGithubPage(browser, [summary]);
    try {
      const closed = await inspectPage(shown.page);
      expect(closed.openDetails).toBe(0);
      const closedLayout = await measureLayout(shown.page);
      const closedShot = path.join(ARTIFACTS, `${name}-summary.png`);
      await shown.page.screenshot({ path: closedShot, fullPage: true });

      await setAllDetailsOpen(shown.page, true);
      const opened = await inspectPage(shown.page);
      expectRenderedCleanly(shown, opened, counts);
      const openLayout = await measureLayout(shown.page);
      const openShot = path.join(ARTIFACTS, `${name}-summary-open.png`);
      await shown.page.screenshot({ path: openShot, fullPage: true });

      if (reviewed.gateFails) {
        // The reader sees why the gate fails without scrolling.
        expect(closedLayout.firstErrorY).not.toBeNull();
        expect(closedLayout.firstErrorY).toBeLessThan(FIRST_SCREEN_PX);
      }
      expect(openLayout.height).toBeGreaterThan(closedLayout.height);
      console.log(
        `${name} check summary: ${summary.length} characters; ${closedLayout.height} px tall closed, ${openLayout.height} px open; ` +
          `first error row at ${closedLayout.firstErrorY ?? "—"} px; ${shown.mermaid.map((diagram, index) => `diagram ${diagram.characters} characters, ${diagram.nodes} nodes, ${openLayout.diagramHeights[index]} px tall`).join("; ")}\n` +
          `  screenshots: ${closedShot}\n               ${openShot}`,
      );
    } finally {
      await shown.page.close();
    }
  });
});

describe("the bad model's conversation in Chromium", () => {
  it("renders every inline comment and explain reply without errors", async () => {
    const reviewed = review(readModel("test/fixtures/bad-model"));
    // A fix becomes a suggestion block only where it fits the PR's diff; each fix is shown both ways.
    const comments = reviewed.findings.flatMap((finding) => [
      renderFindingComment(finding),
      ...(finding.fix ? [renderFindingComment(finding, { suggestion: finding.fix.replacement })] : []),
    ]);
    const replies = [
      ...reviewed.queries.map((query) => renderExplainMarkdown(explain(reviewed, { kind: "query", id: query.id }))),
      ...[...reviewed.schema.tables.values()].map((table) => renderExplainMarkdown(explain(reviewed, { kind: "table", name: table.qualifiedName }))),
    ];
    const documents = [...comments, ...replies];
    // The comments must show each kind of fix: a suggestion block and a collapsed CREATE TABLE.
    expect(comments.some((body) => /^`{3,}suggestion$/m.test(body))).toBe(true);
    expect(comments.some((body) => body.includes("<details>") && /CREATE TABLE/.test(body))).toBe(true);
    for (const body of documents) expect(renderGithubHtml(body).strippedBySanitiser).toEqual([]);
    const counts = documents.map(markdownCounts).reduce((sum, next) => ({
      tables: sum.tables + next.tables,
      details: sum.details + next.details,
      mermaid: sum.mermaid + next.mermaid,
    }));

    const shown = await openGithubPage(browser, documents);
    try {
      await setAllDetailsOpen(shown.page, true);
      expectRenderedCleanly(shown, await inspectPage(shown.page), counts);
      // The whole conversation is too tall for one image: keep a comment that proposes a table, and the first reply.
      const commentShot = path.join(ARTIFACTS, "bad-model-comment.png");
      const replyShot = path.join(ARTIFACTS, "bad-model-explain.png");
      const articles = shown.page.locator("article");
      await articles.nth(comments.findIndex((body) => body.includes("<details>"))).screenshot({ path: commentShot });
      await articles.nth(comments.length).screenshot({ path: replyShot });
      console.log(
        `bad-model conversation: ${comments.length} comments (${reviewed.findings.length} findings), ${replies.length} explain replies\n` +
          `  screenshots: ${commentShot}\n               ${replyShot}`,
      );
    } finally {
      await shown.page.close();
    }
  });
});

// The checks above must be able to fail: a broken or oversized diagram, HTML GitHub strips, Markdown shown as text.
describe("the page's checks", () => {
  it("catch a diagram Mermaid cannot parse or draw, HTML GitHub strips and Markdown shown as text", async () => {
    // No blank line after <summary>: the HTML block swallows the table, which shows as text.
    const oversized = `flowchart LR\n${Array.from({ length: 3_000 }, (_, index) => `  n${index}[table ${index}]`).join("\n")}`;
    const broken = [
      "```mermaid\nflowchart LR\n  a[(open --> b\n```",
      `\`\`\`mermaid\n${oversized}\n\`\`\``,
      "<button>go</button>",
      "<details><summary>x</summary>\n| a |\n| --- |\n| b |\n\n</details>",
    ].join("\n\n");
    expect(renderGithubHtml(broken).strippedBySanitiser).toEqual(["button ×1"]);
    expect(markdownCounts(broken)).toEqual({ tables: 1, details: 1, mermaid: 2 });
    const shown = await openGithubPage(browser, [broken]);
    try {
      expect(shown.mermaid).toHaveLength(2);
      expect(shown.mermaid[0].parseError).toMatch(/error/i);
      // Over Mermaid's size limit (GitHub applies one too) the diagram is a placeholder.
      expect(oversized.length).toBeGreaterThan(50_000);
      expect(shown.mermaid[1].errorText).toMatch(/maximum text size/i);
      await setAllDetailsOpen(shown.page, true);
      const opened = await inspectPage(shown.page);
      expect(opened.scripts).toBe(0);
      expect(opened.tables).toBe(0);
      expect(leakedMarkdown(opened.visibleText)).toEqual(["table delimiter row"]);
    } finally {
      await shown.page.close();
    }
  });
});
