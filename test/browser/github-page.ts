// Shows Markdown the way a reader on GitHub sees it: rendered by a CommonMark + GFM renderer
// (micromark with its GFM extensions, keeping raw HTML as cmark-gfm does), sanitised with the
// allow-list GitHub applies afterwards (hast-util-sanitize's default schema follows it), styled
// with GitHub's Markdown stylesheet (the github-markdown-css package) and with every ```mermaid
// block drawn by the mermaid package, in Debian's headless Chromium driven by playwright-core.
// Used by the browser test and by scripts/screenshot.ts.
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fromHtml } from "hast-util-from-html";
import { defaultSchema, sanitize } from "hast-util-sanitize";
import { toHtml } from "hast-util-to-html";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { chromium, type Browser, type Page } from "playwright-core";
import { REPO_ROOT } from "../helpers/read-model.js";

const require = createRequire(import.meta.url);
const PAGE_ASSETS = path.join(REPO_ROOT, "test/browser/page");

/** GitHub's width for Markdown in a check run or a conversation on a wide screen. */
export const GITHUB_CONTENT_WIDTH = 1012;

export const CHROMIUM_MISSING =
  "Chromium was not found. The browser test drives Debian's chromium: install it with " +
  "`sudo apt-get install -y chromium` (or point CHROMIUM_PATH at a Chromium or Chrome binary), " +
  "then run `npm run test:browser` again.";

/** The Chromium binary: CHROMIUM_PATH when set, else the first of the usual names on PATH; throws with how to install it. */
export function findChromium(): string {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : (process.env.PATH ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .flatMap((directory) => ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome"].map((name) => path.join(directory, name)));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error(CHROMIUM_MISSING);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium() });
}

export interface GithubHtml {
  html: string;
  /** elements the renderer wrote that GitHub's sanitiser would remove, as `tag ×count` */
  strippedBySanitiser: string[];
}

/** Markdown to the HTML GitHub would show: GFM with raw HTML kept, then GitHub's allow-list. */
export function renderGithubHtml(markdown: string): GithubHtml {
  const rendered = micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });
  const tree = fromHtml(rendered, { fragment: true });
  const before = countElements(tree);
  const clean = sanitize(tree, defaultSchema);
  const after = countElements(clean);
  const strippedBySanitiser = [...before].filter(([tag, count]) => (after.get(tag) ?? 0) < count).map(([tag, count]) => `${tag} ×${count - (after.get(tag) ?? 0)}`);
  return { html: toHtml(clean), strippedBySanitiser };
}

interface TreeNode {
  type: string;
  tagName?: string;
  children?: TreeNode[];
}

function countElements(node: TreeNode, counts = new Map<string, number>()): Map<string, number> {
  if (node.type === "element" && node.tagName) counts.set(node.tagName, (counts.get(node.tagName) ?? 0) + 1);
  for (const child of node.children ?? []) countElements(child, counts);
  return counts;
}

/** What a page saw go wrong while it rendered: console errors, uncaught exceptions, requests (none are expected). */
export interface PageProblems {
  console: string[];
  exceptions: string[];
  requests: string[];
}

export interface MermaidResult {
  index: number;
  characters: number;
  parseError: string | null;
  renderError: string | null;
  /** text of Mermaid's own error diagram when it drew one instead of the graph */
  errorText: string | null;
  /** flowchart nodes drawn (0 for other kinds of diagram) */
  nodes: number;
  /** characters of text the diagram shows */
  labelCharacters: number;
}

export interface GithubPage {
  page: Page;
  problems: PageProblems;
  mermaid: MermaidResult[];
}

/**
 * Opens a page with one GitHub-styled article per Markdown document (a check summary, or the
 * comments of a conversation) and draws its Mermaid blocks. The page loads nothing from the
 * network: styles and scripts come from node_modules, and any request is recorded as a problem.
 */
export async function openGithubPage(browser: Browser, documents: readonly string[], options: { width?: number } = {}): Promise<GithubPage> {
  const width = options.width ?? GITHUB_CONTENT_WIDTH;
  const page = await browser.newPage({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
  // A full-page screenshot of a tall summary takes seconds, more on a busy two-core CI machine.
  page.setDefaultTimeout(120_000);
  const problems: PageProblems = { console: [], exceptions: [], requests: [] };
  page.on("console", (message) => {
    if (message.type() === "error") problems.console.push(message.text());
  });
  page.on("pageerror", (error) => problems.exceptions.push(error.message));
  await page.route("**/*", (route) => {
    problems.requests.push(route.request().url());
    return route.abort();
  });
  const articles = documents.map((markdown) => `<article class="markdown-body">${renderGithubHtml(markdown).html}</article>`).join("\n");
  await page.setContent(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>review</title></head><body>${articles}</body></html>`);
  await page.addStyleTag({ path: require.resolve("github-markdown-css/github-markdown-light.css") });
  await page.addStyleTag({ path: path.join(PAGE_ASSETS, "github-page.css") });
  await page.addScriptTag({ path: require.resolve("mermaid/dist/mermaid.min.js") });
  await page.addScriptTag({ path: path.join(PAGE_ASSETS, "github-page.js") });
  const mermaid = (await page.evaluate("window.reviewPage.renderMermaidBlocks()")) as MermaidResult[];
  return { page, problems, mermaid };
}

/** What the rendered page shows, read from the DOM. */
export interface PageInspection {
  details: number;
  openDetails: number;
  /** <details> whose content takes no height once open */
  emptyDetails: number;
  tables: number;
  tableRows: number;
  scripts: number;
  visibleText: string;
  /** visible text outside code spans and blocks */
  proseText: string;
}

export function inspectPage(page: Page): Promise<PageInspection> {
  return page.evaluate("window.reviewPage.inspect()") as Promise<PageInspection>;
}

export async function setAllDetailsOpen(page: Page, open: boolean): Promise<void> {
  await page.evaluate(`window.reviewPage.setAllDetailsOpen(${open ? "true" : "false"})`);
}

export interface Layout {
  /** height of the first article in CSS px */
  height: number;
  /** distance in px from the top of the first article to the first visible error row, or null */
  firstErrorY: number | null;
  /** height in px of each drawn diagram, 0 while its section is closed */
  diagramHeights: number[];
}

export function measureLayout(page: Page): Promise<Layout> {
  return page.evaluate("window.reviewPage.measure()") as Promise<Layout>;
}

/** Counts of what the Markdown asks GitHub to draw, outside fenced code: tables, <details>, Mermaid blocks. */
export function markdownCounts(markdown: string): { tables: number; details: number; mermaid: number } {
  let tables = 0;
  let details = 0;
  let mermaid = 0;
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const opening = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence === null && opening) {
      fence = opening[1];
      if (opening[2].trim() === "mermaid") mermaid++;
      continue;
    }
    if (fence !== null) {
      if (new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(line)) fence = null;
      continue;
    }
    if (/^\|(?:\s*:?-+:?\s*\|)+\s*$/.test(line)) tables++;
    details += line.match(/<details>/g)?.length ?? 0;
  }
  return { tables, details, mermaid };
}
