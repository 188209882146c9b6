// A reading of Markdown the way GitHub's cmark-gfm reads it, for the few constructs the renderers
// emit: table rows, code spans, fenced blocks and backslash escapes. Written from the CommonMark
// spec (code spans §6.1, backslash escapes §2.4, fenced code blocks §4.5) and cmark-gfm's table
// extension (a cell is a run of `\` + ASCII punctuation pairs or non-pipe characters; then
// `\|` is unescaped), so the escaping tests check behaviour, not the escaper's own code.

const ASCII_PUNCTUATION = new Set([..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"]);

/** Splits one table row into its cells' raw text (pipes unescaped, trimmed), as cmark-gfm does. */
export function splitTableRow(line: string): string[] {
  let rest = line.trim();
  if (rest.startsWith("|")) rest = rest.slice(1);
  const cells: string[] = [];
  let current = "";
  let i = 0;
  while (i < rest.length) {
    const char = rest[i];
    if (char === "\\" && i + 1 < rest.length && ASCII_PUNCTUATION.has(rest[i + 1])) {
      current += char + rest[i + 1];
      i += 2;
    } else if (char === "|") {
      cells.push(current);
      current = "";
      i++;
    } else {
      current += char;
      i++;
    }
  }
  if (current.trim() !== "") cells.push(current);
  return cells.map((cell) => cell.replace(/\\\|/g, "|").trim());
}

/**
 * Reads inline text made only of literal characters and backslash escapes. `active` is true when
 * a character that could start markup (emphasis, code, links, HTML, entities, math) appears
 * unescaped.
 */
export function readEscapedText(text: string): { text: string; active: boolean } {
  let out = "";
  let active = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "\\" && i + 1 < text.length && ASCII_PUNCTUATION.has(text[i + 1])) {
      out += text[i + 1];
      i++;
      continue;
    }
    if ("`*_[]<>!&$~\\".includes(char)) active = true;
    out += char;
  }
  return { text: out, active };
}

/** The content of `text` when it is exactly one code span, else null. */
export function readCodeSpan(text: string): string | null {
  const opening = /^`+/.exec(text)?.[0];
  if (!opening) return null;
  const n = opening.length;
  let i = n;
  while (i < text.length) {
    if (text[i] !== "`") {
      i++;
      continue;
    }
    let j = i;
    while (j < text.length && text[j] === "`") j++;
    if (j - i === n) {
      if (j !== text.length) return null; // the span closed before the end: the rest escaped it
      let content = text.slice(n, i).replace(/\r\n|\r|\n/g, " ");
      if (content.length >= 2 && content.startsWith(" ") && content.endsWith(" ") && content.trim() !== "") content = content.slice(1, -1);
      return content;
    }
    i = j;
  }
  return null;
}

/** The content of a fenced code block that is exactly `block`, or null when it closes early or never. */
export function readFencedBlock(block: string): { info: string; content: string } | null {
  const lines = block.split("\n");
  const opening = /^(`{3,})([^`]*)$/.exec(lines[0]);
  if (!opening) return null;
  const n = opening[1].length;
  const closing = new RegExp(`^ {0,3}\`{${n},}[ \\t]*$`);
  for (let index = 1; index < lines.length; index++) {
    if (closing.test(lines[index])) {
      if (index !== lines.length - 1) return null;
      return { info: opening[2].trim(), content: lines.slice(1, index).join("\n") };
    }
  }
  return null;
}

/** Decodes Mermaid entity codes (`#35;`). */
export function readMermaidLabel(label: string): string | null {
  if (!/^"[^"]*"$/.test(label)) return null;
  return label.slice(1, -1).replace(/#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)));
}

/**
 * Reads inline Markdown made of backslash escapes, code spans and literal text: the text a reader
 * sees, and whether anything else (emphasis, links, HTML, an unmatched backtick) could start.
 */
export function readInline(markdown: string): { text: string; codeSpans: string[]; active: boolean } {
  let text = "";
  const codeSpans: string[] = [];
  let active = false;
  let i = 0;
  while (i < markdown.length) {
    const char = markdown[i];
    if (char === "\\" && i + 1 < markdown.length && ASCII_PUNCTUATION.has(markdown[i + 1])) {
      text += markdown[i + 1];
      i += 2;
      continue;
    }
    if (char === "`") {
      let end = i;
      while (markdown[end] === "`") end++;
      const run = end - i;
      let close = end;
      let found = -1;
      while (close < markdown.length) {
        if (markdown[close] !== "`") {
          close++;
          continue;
        }
        let closeEnd = close;
        while (markdown[closeEnd] === "`") closeEnd++;
        if (closeEnd - close === run) {
          found = close;
          break;
        }
        close = closeEnd;
      }
      if (found < 0) {
        active = true; // an unmatched backtick run: our renderers never leave one
        text += markdown.slice(i, end);
        i = end;
        continue;
      }
      const content = readCodeSpan(markdown.slice(i, found + run))!;
      codeSpans.push(content);
      text += content;
      i = found + run;
      continue;
    }
    if ("*_[]<>!&$~\\".includes(char)) active = true;
    text += char;
    i++;
  }
  return { text, codeSpans, active };
}
