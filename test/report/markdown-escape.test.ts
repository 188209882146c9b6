import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeSpan, escapeMarkdown, fencedBlock, mermaidLabel, messageMarkdown, tableCodeSpan, tableRow } from "../../src/report/markdown-escape.js";
import { showControls } from "../../src/report/controls.js";
import { LINK_BREAK } from "../../src/report/neutralise.js";
import { readCodeSpan, readEscapedText, readFencedBlock, readInline, readMermaidLabel, splitTableRow } from "./gfm-model.js";

// Fixed seed and bounded runs: reproducible, and cheap on a shared two-core machine.
const PROPERTY = { seed: 20_261_121, numRuns: 300 } as const;

/** Text made mostly of the characters that break Markdown, plus arbitrary Unicode. */
const hostileText = fc.oneof(
  // whole lines of backticks and pipes: what closes fences and splits cells
  fc.array(fc.constantFrom("```", "````", "`", "|", "\\", " ", "\n", "\r\n", "a", "~~~"), { maxLength: 12 }).map((parts) => parts.join("")),
  fc.string({ unit: fc.constantFrom(..."`|\\*_[]<>#-+.!&$:\"'()~=^\n\r\t a"), maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
);

/** What a reader sees: the zero-width breaks that stop mentions and links are invisible. */
const shown = (text: string) => text.replaceAll(LINK_BREAK, "");

/** What inline rendering keeps of a text: line breaks become spaces, control characters are shown as `\u{…}`. */
function asOneLine(text: string): string {
  return showControls(lineBreaksAsSpaces(text));
}

function lineBreaksAsSpaces(text: string): string {
  return text.replace(/\r\n|[\r\n\u2028\u2029]/g, " ");
}

describe("escapeMarkdown", () => {
  it("renders any text literally, even at a line start: no markup or block starts, nothing is lost", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const escaped = escapeMarkdown(text);
        const read = readEscapedText(escaped);
        expect(read.active).toBe(false);
        expect(shown(read.text)).toBe(shown(asOneLine(text).trim()));
        expect(escaped).not.toMatch(/[\r\n]/);
        // list items, quotes, headings, thematic breaks and indented code all start a line like this
        expect(escaped).not.toMatch(/^(\s|[-+*>#=_]|\d+[.)])/);
      }),
      PROPERTY,
    );
  });

  it("keeps a table cell a single cell holding the text", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const cells = splitTableRow(tableRow(["before", escapeMarkdown(text), "after"]));
        expect(cells).toHaveLength(3);
        expect(cells[0]).toBe("before");
        expect(cells[2]).toBe("after");
        const read = readEscapedText(cells[1]);
        expect(read.active).toBe(false);
        expect(shown(read.text)).toBe(shown(asOneLine(text).trim()));
      }),
      PROPERTY,
    );
  });

  it("escapes the characters that start markup", () => {
    expect(escapeMarkdown("*bold* _it_ `code` [link](x) <b> # h | a\\b")).toBe(
      "\\*bold\\* \\_it\\_ \\`code\\` \\[link\\](x) \\<b\\> \\# h \\| a\\\\b",
    );
    expect(escapeMarkdown("killrvideo.videos_by_user")).toBe("killrvideo.videos\\_by\\_user");
    expect(escapeMarkdown("- not a list")).toBe("\\- not a list");
    expect(escapeMarkdown("1. not a list either")).toBe("1\\. not a list either");
  });
});

describe("messageMarkdown", () => {
  const withoutBackticks = (text: string) => shown(asOneLine(text).trim()).replace(/`/g, "");

  it("renders quoted fragments as code and keeps every other character literal", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const markdown = messageMarkdown(text);
        const read = readInline(markdown);
        expect(read.active).toBe(false);
        // what a reader sees is the message, less the backticks that delimited code
        expect(shown(read.text).replace(/`/g, "")).toBe(withoutBackticks(text));
        expect(markdown).not.toMatch(/^(\s|[-+*>#=_]|\d+[.)])/);
      }),
      PROPERTY,
    );
  });

  it("stays inside a table cell", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const cells = splitTableRow(tableRow(["before", messageMarkdown(text, "table"), "after"]));
        expect(cells).toHaveLength(3);
        expect(cells[2]).toBe("after");
        const read = readInline(cells[1]);
        expect(read.active).toBe(false);
        expect(shown(read.text).replace(/`/g, "").trim()).toBe(withoutBackticks(text).trim());
      }),
      PROPERTY,
    );
  });

  it("turns the core's quoting into code spans", () => {
    expect(messageMarkdown("expected `)` to close PRIMARY KEY, found `;`")).toBe("expected `)` to close PRIMARY KEY, found `;`");
    expect(messageMarkdown("`a|b` in *bold*", "table")).toBe("`a\\|b` in \\*bold\\*");
    expect(readInline(messageMarkdown("quoted `x` and `y`")).codeSpans).toEqual(["x", "y"]);
    expect(messageMarkdown("`a``b`")).toBe("`a`\\`b\\`");
    expect(messageMarkdown("one ` unpaired")).toBe("one \\` unpaired");
  });
});

describe("codeSpan", () => {
  it("shows any text verbatim in one code span", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const content = readCodeSpan(codeSpan(text));
        expect(content).toBe(asOneLine(text) === "" ? " " : asOneLine(text));
      }),
      PROPERTY,
    );
  });

  it("uses a delimiter longer than any backtick run, padded where needed", () => {
    expect(codeSpan("videos")).toBe("`videos`");
    expect(codeSpan("a`b")).toBe("``a`b``");
    expect(codeSpan("`tick")).toBe("`` `tick ``");
    expect(codeSpan(" both ")).toBe("`  both  `");
  });
});

describe("tableCodeSpan", () => {
  it("stays inside its cell and shows the text, as code or as escaped text", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const cells = splitTableRow(tableRow(["before", tableCodeSpan(text), "after"]));
        expect(cells).toHaveLength(3);
        expect(cells[2]).toBe("after");
        const asCode = readCodeSpan(cells[1]);
        if (asCode !== null) {
          expect(asCode).toBe(asOneLine(text) === "" ? " " : asOneLine(text));
        } else {
          const read = readEscapedText(cells[1]);
          expect(read.active).toBe(false);
          expect(shown(read.text)).toBe(shown(asOneLine(text).trim()));
        }
      }),
      PROPERTY,
    );
  });

  it("escapes pipes inside code, and falls back to text for an odd backslash run before a pipe", () => {
    expect(tableCodeSpan("a|b")).toBe("`a\\|b`");
    expect(tableCodeSpan("a\\\\|b")).toBe("`a\\\\\\|b`");
    expect(tableCodeSpan("a\\|b")).toBe("a\\\\\\|b");
  });
});

describe("fencedBlock", () => {
  it("holds any text: no line of it can close the fence", () => {
    fc.assert(
      fc.property(hostileText, fc.constantFrom("suggestion", "sql", ""), (text, info) => {
        const block = readFencedBlock(fencedBlock(text, info));
        expect(block).not.toBeNull();
        expect(block!.info).toBe(info);
        expect(block!.content).toBe(showControls(text.replace(/\r\n?/g, "\n")).replace(/\n$/, ""));
      }),
      PROPERTY,
    );
  });

  it("grows the fence past the longest backtick run", () => {
    expect(fencedBlock("SELECT 1", "sql")).toBe("```sql\nSELECT 1\n```");
    expect(fencedBlock("a\n````\nb", "suggestion")).toBe("`````suggestion\na\n````\nb\n`````");
  });
});

describe("mermaidLabel", () => {
  it("quotes any text with nothing that can close the label or the fence", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const label = mermaidLabel(text);
        expect(label).toMatch(/^"[A-Za-z0-9 ._\-/:#;]*"$/);
        expect(readMermaidLabel(label)).toBe(lineBreaksAsSpaces(text));
      }),
      PROPERTY,
    );
  });
});
