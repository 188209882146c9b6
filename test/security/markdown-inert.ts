// Renders Markdown with a real GFM renderer (micromark with its GFM extensions: autolink literals,
// tables, strikethrough, task lists) and says what in the HTML would act on GitHub: links other
// than ours, images, raw HTML, HTML comments other than our markers, and text outside code that
// GitHub's post-render filters would turn into a mention, an issue reference, a commit link or a
// link (GitHub leaves the content of code spans and code blocks alone).
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { REPOSITORY_URL } from "../../src/report/links.js";

export function renderGfm(markdown: string): string {
  // Raw HTML kept, as GitHub keeps much of it: the check is that none gets through.
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });
}

/** The elements micromark writes for Markdown syntax, plus the `<sub>` our templates write. */
const MARKDOWN_ELEMENTS = new Set([
  "p", "code", "pre", "strong", "em", "a", "table", "thead", "tbody", "tr", "th", "td",
  "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "br", "hr", "del", "sub",
]);

const OUR_LINK = `${REPOSITORY_URL}/blob/main/rules/`;

/** The text outside code elements, tags as spaces, entities decoded once. */
export function proseText(html: string): string {
  return decodeEntities(
    html
      .replace(/<pre>[\s\S]*?<\/pre>/g, " ")
      .replace(/<code>[\s\S]*?<\/code>/g, " ")
      .replace(/<!--[\s\S]*?-->/g, " ")
      .replace(/<[^>]*>/g, " "),
  );
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower === "amp") return "&";
    if (lower === "lt") return "<";
    if (lower === "gt") return ">";
    if (lower === "quot") return '"';
    if (lower === "apos") return "'";
    return String.fromCodePoint(lower.startsWith("#x") ? Number.parseInt(lower.slice(2), 16) : Number.parseInt(lower.slice(1), 10));
  });
}

/** Patterns GitHub acts on in rendered text (checked conservatively: any position). */
const ACTIVE_TEXT: Array<[string, RegExp]> = [
  ["mention", /(?:^|[^A-Za-z0-9_`])[@＠][A-Za-z0-9]/],
  ["issue reference", /#[0-9]/],
  ["GH reference", /\bGH-[0-9]/i],
  ["URL", /[A-Za-z][A-Za-z0-9+.-]*:\/\//],
  ["www autolink", /\bwww\./i],
  ["mailto", /\b(?:mailto|xmpp):/i],
  ["commit SHA", /\b(?=[0-9]*[a-f])[0-9a-f]{7,40}\b/i],
];

export interface InertOptions {
  /** exact strings of our own text that may be active (e.g. the commit a reply names) */
  ownText?: readonly string[];
  /** HTML comments the template itself writes (its markers) */
  ownComments?: readonly string[];
}

/** The lines that open and close a collapsed section of a summary or comment, as the renderers write them. */
const OWN_COLLAPSIBLE_LINE = /^(?:<details><summary>[A-Za-z0-9 ,:()]*<\/summary>|<\/details>)$/gm;

/** What in rendered Markdown would act on GitHub; empty when the document is inert. */
export function activeParts(markdown: string, options: InertOptions = {}): string[] {
  const html = renderGfm(markdown);
  const problems: string[] = [];
  if (/<img\b/i.test(html)) problems.push("an image");
  for (const match of html.matchAll(/<a\b[^>]*>/gi)) {
    const href = /href="([^"]*)"/.exec(match[0])?.[1];
    if (href === undefined || !href.startsWith(OUR_LINK)) problems.push(`a link ${match[0]}`);
  }
  // Our collapsible sections: a whole line of our own words (no repository text can form one,
  // since it never reaches the output with a raw `<`).
  const withoutOwnSections = html.replace(OWN_COLLAPSIBLE_LINE, "");
  const withoutComments = withoutOwnSections.replace(/<!--[\s\S]*?-->/g, (comment) => {
    if (!(options.ownComments ?? []).includes(comment)) problems.push(`an HTML comment ${comment}`);
    return "";
  });
  // Tags outside code; inside code micromark escapes `<`, so a `<` there is text.
  for (const match of withoutComments.matchAll(/<\/?([A-Za-z][A-Za-z0-9-]*)/g)) {
    if (!MARKDOWN_ELEMENTS.has(match[1]!.toLowerCase())) problems.push(`raw HTML <${match[1]}>`);
  }
  let text = proseText(html);
  for (const own of options.ownText ?? []) text = text.split(own).join(" ");
  for (const [what, pattern] of ACTIVE_TEXT) {
    const found = pattern.exec(text);
    if (found) problems.push(`a ${what} in text: ${JSON.stringify(text.slice(Math.max(0, found.index - 20), found.index + 30))}`);
  }
  return problems;
}
