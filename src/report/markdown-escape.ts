// Escaping for the Markdown GitHub renders (CommonMark + GFM tables, cmark-gfm). Every string that
// comes from a repository (table and column names, query ids, messages that quote them, CQL text)
// goes through one of these before it reaches a comment, a review body or a check-run summary.
// Prose is escaped and neutralised (no mentions, references or autolinks); code keeps its text.
import { showControls } from "./controls.js";
import { neutraliseLinks } from "./neutralise.js";

// Characters that open or close something inline (emphasis, code, links, HTML, entities, tables,
// strikethrough; `$` is GitHub's math delimiter, `#` its issue references). CommonMark lets a
// backslash escape any ASCII punctuation.
const INLINE_ACTIVE = /[\\`*_{}[\]<>|~&$!#]/g;

/** Line endings and other characters that would end a table row or a paragraph, as one space. */
function lineBreaksAsSpaces(text: string): string {
  return text.replace(/\r\n|[\r\n\u2028\u2029]/g, " ");
}

/** One line of text, its control characters shown (`\u{1b}`): nothing raw reaches a terminal showing the Markdown. */
function oneLine(text: string): string {
  return showControls(lineBreaksAsSpaces(text));
}

/** Repository text as prose: no markup, and nothing GitHub would turn into a mention or a link. */
function escapeActive(text: string): string {
  return neutraliseLinks(text).replace(INLINE_ACTIVE, (char) => `\\${char}`);
}

/** Escapes what would open a list item at the start of a line (`-`, `+`, `=` underlines, `1.`, `1)`). */
function guardLineStart(markdown: string): string {
  return markdown.replace(/^([-+=])|^(\d+)([.)])/, (_, bullet: string | undefined, digits: string, delimiter: string) =>
    bullet ? `\\${bullet}` : `${digits}\\${delimiter}`,
  );
}

/**
 * Text for an inline position (prose, a list item, a table cell): every active character
 * escaped, line breaks folded to spaces and surrounding whitespace dropped, so it renders
 * literally, stays on its line, and cannot open a list, a quote or a code block where it starts
 * one.
 */
export function escapeMarkdown(text: string): string {
  return guardLineStart(escapeActive(oneLine(text).trim()));
}

/**
 * A sentence of the core (a finding's message, a plan step): what it quotes between single
 * backticks becomes a code span, the rest is escaped as escapeMarkdown does. Quoted fragments
 * may hold repository text, so each goes through codeSpan (or tableCodeSpan in a table cell);
 * an unpaired backtick is shown as it is.
 */
export function messageMarkdown(text: string, context: "inline" | "table" = "inline"): string {
  const message = oneLine(text).trim();
  let markdown = "";
  let last = 0;
  let previousWasCode = false;
  for (const match of message.matchAll(/`([^`]+)`/g)) {
    const at = match.index;
    // two quoted fragments back to back would fuse into one span: show the second as text
    if (previousWasCode && at === last) continue;
    markdown += escapeActive(message.slice(last, at));
    markdown += context === "table" ? tableCodeSpan(match[1]) : codeSpan(match[1]);
    last = at + match[0].length;
    previousWasCode = true;
  }
  markdown += escapeActive(message.slice(last));
  return guardLineStart(markdown);
}

/** The longest run of consecutive backticks in `text`. */
export function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/**
 * A code span showing `text` verbatim (line breaks as spaces). The delimiter is one backtick longer
 * than any run inside, and padded with a space where CommonMark would otherwise eat a character.
 */
export function codeSpan(text: string): string {
  const content = oneLine(text);
  if (content === "") return "` `";
  const fence = "`".repeat(longestBacktickRun(content) + 1);
  const needsPadding =
    content.startsWith("`") || content.endsWith("`") || (content.startsWith(" ") && content.endsWith(" ") && content.trim() !== "");
  const padding = needsPadding ? " " : "";
  return `${fence}${padding}${content}${padding}${fence}`;
}

/**
 * A code span for a GFM table cell. cmark-gfm splits cells before parsing inlines, so a pipe must
 * be written `\|` even inside code; the table scanner then pairs backslashes from the left, which
 * leaves no way to write an odd run of backslashes right before a pipe. Such text (rare: it takes
 * a quoted identifier like `"a\|b"`) is shown as escaped plain text instead.
 */
export function tableCodeSpan(text: string): string {
  const content = oneLine(text);
  if (/(^|[^\\])(\\\\)*\\\|/.test(content)) return escapeMarkdown(content);
  return codeSpan(content).replace(/\|/g, "\\|");
}

/** A GFM table row from cells that are already escaped. */
export function tableRow(cells: readonly string[]): string {
  return `| ${cells.map((cell) => (cell === "" ? " " : cell)).join(" | ")} |`;
}

/** A GFM table: a header row, the delimiter row, then the rows (already rendered with tableRow). */
export function tableHeader(headers: readonly string[], align?: readonly ("left" | "right")[]): string {
  const delimiter = headers.map((_, index) => (align?.[index] === "right" ? "---:" : "---"));
  return `${tableRow(headers)}\n${tableRow(delimiter)}`;
}

/**
 * A fenced code block holding `text` verbatim. The fence is longer than any backtick run inside,
 * so no line of the text can close it.
 */
export function fencedBlock(text: string, info = ""): string {
  const body = showControls(text.replace(/\r\n?/g, "\n"));
  const fence = "`".repeat(Math.max(3, longestBacktickRun(body) + 1));
  // The info string of a backtick fence may not contain a backtick.
  return `${fence}${info.replace(/[`\r\n]/g, "")}\n${body}${body.endsWith("\n") || body === "" ? "" : "\n"}${fence}`;
}

/**
 * A Mermaid label: everything but letters, digits and a few safe characters becomes a Mermaid
 * entity code (`#35;`), so a name can neither close the label's quotes nor the surrounding fence.
 */
export function mermaidLabel(text: string): string {
  let label = "";
  // Every character but a few safe ones becomes an entity, control characters included.
  for (const char of lineBreaksAsSpaces(text)) {
    label += /[A-Za-z0-9 ._\-/:]/.test(char) ? char : `#${char.codePointAt(0)};`;
  }
  return `"${label}"`;
}
