// The one place that decides what to leave out when output must fit a budget (GitHub's 65,535
// characters for a check-run summary, 65,536 for a comment, 25,000 SARIF results per run), and
// the one wording of the honest line that says so.

/** "3 more findings not shown" */
export function notShown(count: number, noun: { one: string; many: string }): string {
  return `${count.toLocaleString("en-US")} more ${count === 1 ? noun.one : noun.many} not shown`;
}

/** The first `limit` items and how many were left out. */
export function takeWithin<T>(items: readonly T[], limit: number): { kept: T[]; omitted: number } {
  const kept = items.slice(0, Math.max(0, limit));
  return { kept, omitted: items.length - kept.length };
}

/**
 * `text` cut to at most `maxChars` characters, ending with how much was cut. Never splits a
 * surrogate pair, so the result is always valid UTF-16.
 */
export function clipText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const notice = (omitted: number) => `… (${notShown(omitted, { one: "character", many: "characters" })})`;
  // The notice is longest when the most is cut, so measuring it for the whole text is an upper bound.
  const room = maxChars - notice(text.length).length;
  if (room < 0) return text.slice(0, safeCut(text, maxChars));
  const cut = safeCut(text, room);
  return text.slice(0, cut) + notice(text.length - cut);
}

/** The largest cut position ≤ `at` that does not fall inside a surrogate pair. */
function safeCut(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff && at > 0 ? at - 1 : at;
}

/**
 * A part of a bounded document: a head and a tail that are always shown, and rows shown while the
 * budget lasts. Rows that do not fit are replaced by `more(omitted)`, after a blank line (so a
 * Markdown table ends before it).
 */
export interface Block {
  head?: string;
  rows?: readonly string[];
  tail?: string;
  more?: (omitted: number) => string;
  /** shown last, after the "N more" line: the end of a `<details>` section, so the notice stays inside it */
  close?: string;
}

export interface FitOptions {
  separator?: string;
  /**
   * How the budget is shared among the blocks' rows. `"round-robin"` (default): one row per block
   * in turn, so a long first table cannot starve the sections after it. `"in-order"`: rows in
   * document order until the first that does not fit, for documents whose order is their
   * priority (gate-failing findings before a diagram).
   */
  fill?: "round-robin" | "in-order";
}

/**
 * Joins the blocks with `separator`, dropping rows (never heads, tails or closes) until the result
 * is at most `maxLength` characters, in the order `options.fill` says. When even the heads and
 * tails do not fit, the row-less document is clipped with `clipText`.
 */
export function fitBlocks(blocks: readonly Block[], maxLength: number, options: FitOptions = {}): string {
  const { separator = "\n\n", fill = "round-robin" } = options;
  const everything = blocks.map((block) => renderBlock(block, block.rows?.length ?? 0));
  const full = everything.join(separator);
  if (full.length <= maxLength) return full;

  const shown = blocks.map(() => 0);
  let used = separator.length * Math.max(0, blocks.length - 1);
  for (const block of blocks) used += renderBlock(block, 0).length + reserveForMore(block);
  if (used > maxLength) {
    return clipText(blocks.map((block) => renderBlock(block, 0)).join(separator), maxLength);
  }

  const stopped = blocks.map((block) => (block.rows?.length ?? 0) === 0);
  if (fill === "in-order") {
    // Strictly in order: once a row does not fit, later blocks show none, so a short query row
    // never appears while a finding above it was left out.
    let full = false;
    blocks.forEach((block, index) => {
      for (const row of block.rows ?? []) {
        if (full || used + row.length + 1 > maxLength) {
          full = true;
          break;
        }
        used += row.length + 1;
        shown[index]++;
      }
    });
    return blocks.map((block, index) => renderBlock(block, shown[index])).join(separator);
  }
  while (stopped.includes(false)) {
    blocks.forEach((block, index) => {
      if (stopped[index]) return;
      const rows = block.rows ?? [];
      const cost = rows[shown[index]].length + 1;
      if (used + cost > maxLength) {
        stopped[index] = true;
        return;
      }
      used += cost;
      shown[index]++;
      if (shown[index] === rows.length) stopped[index] = true;
    });
  }
  return blocks.map((block, index) => renderBlock(block, shown[index])).join(separator);
}

function renderBlock(block: Block, shownRows: number): string {
  const rows = block.rows ?? [];
  const lines = [block.head, ...rows.slice(0, shownRows), block.tail].filter((line) => line !== undefined);
  let text = lines.join("\n");
  const omitted = rows.length - shownRows;
  if (omitted > 0) text += `\n\n${moreLine(block, omitted)}`;
  if (block.close !== undefined) text += `\n\n${block.close}`;
  return text;
}

function moreLine(block: Block, omitted: number): string {
  return block.more ? block.more(omitted) : notShown(omitted, { one: "row", many: "rows" });
}

/** Room for the "N more" line: the longest it can be, whatever the number left out. */
function reserveForMore(block: Block): number {
  const rows = block.rows?.length ?? 0;
  if (rows === 0) return 0;
  // The line has at most as many digits as the row count, and only "1" may change the noun.
  return 2 + Math.max(moreLine(block, 1).length, moreLine(block, rows).length);
}

/** Words whose trailing dot ends an abbreviation, not a sentence. */
const ABBREVIATIONS = new Set(["e.g", "i.e", "etc", "vs", "cf", "approx"]);

/**
 * The first sentence of `text` when more follows it, else `text`: the claim of a finding without
 * its reasoning, for lists a reader scans. A sentence ends at `.` followed by a space, outside code
 * spans, quotes and parentheses, and not after an abbreviation. A single linear scan.
 */
export function leadSentence(text: string, minRest = 40): string {
  let inCode = false;
  let inQuote = false;
  let depth = 0;
  let wordStart = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === "`") inCode = !inCode;
    else if (inCode) continue;
    else if (char === '"') inQuote = !inQuote;
    else if (inQuote) continue;
    else if (char === "(") depth++;
    else if (char === ")") depth = Math.max(0, depth - 1);
    else if (char === " " || char === "\n") wordStart = index + 1;
    else if (char === "." && depth === 0 && (text[index + 1] === " " || text[index + 1] === "\n")) {
      if (ABBREVIATIONS.has(text.slice(wordStart, index).toLowerCase())) continue;
      return text.length - index - 1 >= minRest ? text.slice(0, index + 1) : text;
    }
  }
  return text;
}
