// Runs inside the browser page that test/browser/github-page.ts opens (mermaid.min.js is loaded
// first). Plain JavaScript, since the project's TypeScript has no DOM types.
"use strict";

/** The text a diagram shows: its labels, without the CSS Mermaid puts inside the SVG. */
function shownText(element) {
  const copy = element.cloneNode(true);
  for (const style of copy.querySelectorAll("style")) style.remove();
  return copy.textContent.replace(/\s+/g, " ").trim();
}

window.reviewPage = {
  /** Draws each ```mermaid block as GitHub does (the block becomes the diagram) and says how each went. */
  async renderMermaidBlocks() {
    // GitHub draws diagrams with Mermaid's default theme and limits; "strict" keeps labels as text.
    mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
    const results = [];
    const blocks = [...document.querySelectorAll("pre > code.language-mermaid")];
    for (const [index, code] of blocks.entries()) {
      const source = code.textContent;
      const result = { index, characters: source.length, parseError: null, renderError: null, errorText: null, nodes: 0, labelCharacters: 0 };
      try {
        await mermaid.parse(source);
      } catch (error) {
        result.parseError = String(error && error.message ? error.message : error);
      }
      try {
        const { svg } = await mermaid.render(`review-diagram-${index}`, source);
        const diagram = document.createElement("div");
        diagram.className = "review-diagram";
        diagram.innerHTML = svg;
        code.parentElement.replaceWith(diagram);
        const drawn = diagram.querySelector("svg");
        // Mermaid draws its own error diagram, or a placeholder for a source over its size limit.
        const text = shownText(diagram);
        if (!drawn || drawn.getAttribute("aria-roledescription") === "error" || /syntax error|error in text|maximum text size/i.test(text)) {
          result.errorText = text.slice(0, 500) || "no SVG drawn";
        }
        result.nodes = diagram.querySelectorAll("g.node").length;
        result.labelCharacters = text.length;
      } catch (error) {
        result.renderError = String(error && error.message ? error.message : error);
      }
      results.push(result);
    }
    // Mermaid leaves a scratch element per failed render; none may show on the page.
    for (const scratch of document.querySelectorAll("body > div[id^='dreview-diagram-']")) scratch.remove();
    return results;
  },

  setAllDetailsOpen(open) {
    for (const element of document.querySelectorAll("details")) element.open = open;
  },

  inspect() {
    const details = [...document.querySelectorAll("article details")];
    const emptyDetails = details.filter((element) => {
      if (!element.open) return false;
      const summary = element.querySelector(":scope > summary");
      return element.getBoundingClientRect().height <= (summary ? summary.getBoundingClientRect().height : 0) + 1;
    }).length;
    const prose = document.body.cloneNode(true);
    for (const code of prose.querySelectorAll("pre, code, .review-diagram")) code.remove();
    return {
      details: details.length,
      openDetails: details.filter((element) => element.open).length,
      emptyDetails,
      tables: document.querySelectorAll("article table").length,
      tableRows: document.querySelectorAll("article table tbody tr").length,
      scripts: document.querySelectorAll("article script").length,
      visibleText: document.body.innerText,
      proseText: prose.textContent,
    };
  },

  /** The first article's height, where its first visible error row starts and how tall its diagrams are (0 when hidden), in CSS px. */
  measure() {
    const article = document.querySelector("article");
    const box = article.getBoundingClientRect();
    const firstError = [...article.querySelectorAll("tr")].find((row) => row.offsetParent !== null && /🔴\s*error/.test(row.textContent));
    return {
      height: Math.round(box.height),
      firstErrorY: firstError ? Math.round(firstError.getBoundingClientRect().top - box.top) : null,
      diagramHeights: [...article.querySelectorAll(".review-diagram")].map((diagram) => Math.round(diagram.getBoundingClientRect().height)),
    };
  },
};
