// The model diagram: how each read is drawn, which tables a large model draws, and that whatever the
// model and wherever the summary is cut, Mermaid can draw what is left.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { QueryAnalysis, Verdict } from "../../src/analysis/types.js";
import type { Finding } from "../../src/findings.js";
import { DIAGRAM_LIMITS, modelDiagram, READ_STYLES, readOf, SCOPE_ABOVE_TABLES, type ReadKind } from "../../src/report/diagram.js";
import { tablesInFileOrder } from "../../src/report/json.js";
import { renderCheckSummary } from "../../src/report/markdown.js";
import { review, type Review } from "../../src/review.js";
import { estimate, finding, plan, range, reviewOf, tableModel, videoReview } from "../fixtures/report/hand-built-review.js";
import { assertMermaidChart } from "../fuzz/properties.js";
import { readModel } from "../helpers/read-model.js";

const VERDICTS: readonly Verdict[] = ["single-partition", "multi-partition", "index", "needs-allow-filtering", "scan", "invalid", "unserved"];
const PROBLEMS: readonly ReadKind[] = ["scan", "filtering", "index", "invalid"];

/** The diagram section of a summary: the lines between the fence's `flowchart LR` and its close, and what follows up to `</details>`. */
function diagramOf(summary: string): { chart: string[]; before: string; after: string } {
  const lines = summary.split("\n");
  const start = lines.indexOf("```mermaid");
  const end = lines.indexOf("```", start + 1);
  expect(start).toBeGreaterThan(0);
  expect(lines[start + 1]).toBe("flowchart LR");
  const open = lines.findLastIndex((line, at) => at < start && line.startsWith("<details><summary>Model diagram"));
  const close = lines.indexOf("</details>", end);
  return { chart: lines.slice(start + 2, end), before: lines.slice(open, start).join("\n"), after: lines.slice(end + 1, close).join("\n").trim() };
}

function table(index: number) {
  return tableModel("shop", `table_${index}`, `schema/${String(index).padStart(2, "0")}.cql`, 1, [{ name: "id", type: "uuid", kind: "partition" }]);
}

function queryOn(id: string, line: number, on: string | null, verdict: Verdict): QueryAnalysis {
  return {
    id,
    location: { file: "access-patterns.yaml", range: range(line, 5) },
    form: "cql",
    table: on,
    candidates: [],
    plan: plan(verdict, verdict === "single-partition" ? 1 : verdict === "multi-partition" ? 4 : "all", "B1: made up"),
  };
}

/** A model of `count` tables, each read by one served query; `extra` queries and `findings` on top. */
function largeModel(count: number, extra: QueryAnalysis[], findings: Finding[]): Review {
  const tables = Array.from({ length: count }, (_, index) => table(index));
  const queries = [...tables.map((entry, index) => queryOn(`R${index}`, index + 1, entry.qualifiedName, "single-partition")), ...extra];
  return reviewOf({ tables, queries, estimates: tables.map((entry) => estimate(entry.qualifiedName)), findings });
}

describe("how a read is drawn", () => {
  it("labels every verdict in a reader's words, never the planner's codes", () => {
    for (const verdict of VERDICTS) {
      const { label } = readOf(plan(verdict, verdict === "multi-partition" ? 3 : 1, "B2: made up"));
      expect(label).toMatch(/^[a-z0-9, ]+$/);
      expect(label).not.toMatch(/single-partition|multi-partition|needs-allow-filtering|unserved|\b[A-Z]\d+\b/);
    }
    expect(readOf(plan("multi-partition", 3, "")).label).toBe("3 partitions");
    expect(readOf(plan("multi-partition", null, "")).label).toBe("several partitions");
    expect(readOf(plan("needs-allow-filtering", "all", "")).kind).toBe("filtering");
  });

  it("draws each problem in its own colour, dash and words, and a plain read in the theme's", () => {
    expect(READ_STYLES.read.style).toBeUndefined();
    const styles = PROBLEMS.map((kind) => READ_STYLES[kind]);
    expect(new Set(styles.map((style) => style.colour)).size).toBe(PROBLEMS.length);
    expect(new Set(styles.map((style) => `${style.arrow} ${/dasharray:[^,]*/.exec(style.style!)?.[0] ?? "solid"}`)).size).toBe(PROBLEMS.length);
    for (const kind of PROBLEMS) expect(READ_STYLES[kind].legend).toContain(`**${kind}**`);
  });

  it("keeps every colour at 3:1 or more against GitHub's light and dark backgrounds", () => {
    // WCAG 2.1 relative luminance and contrast ratio (non-text contrast asks for 3:1).
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255).map((c) => (c <= 0.039_28 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const contrast = (a: string, b: string) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (light! + 0.05) / (dark! + 0.05);
    };
    for (const kind of PROBLEMS) {
      for (const background of ["#ffffff", "#0d1117", "#22272e"]) expect(contrast(READ_STYLES[kind].colour!, background)).toBeGreaterThanOrEqual(3);
    }
  });
});

describe("docs/cli.md", () => {
  it("describes the threshold, the limits and every problem style the code draws", () => {
    const doc = readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8").replace(/\s+/g, " ");
    expect(doc).toContain(`A model of more than ${SCOPE_ABOVE_TABLES} tables is not drawn whole`);
    expect(doc).toContain(`at most ${DIAGRAM_LIMITS.tables} tables and ${DIAGRAM_LIMITS.edges} arrows in ${DIAGRAM_LIMITS.characters.toLocaleString("en-US")} characters`);
    for (const kind of PROBLEMS) expect(doc).toContain(`**${kind}**`);
    expect(doc).toContain("crossed end");
  });
});

describe("the diagram of a small model", () => {
  it("draws every table and query, each problem edge styled right after it, and a legend of what it shows", () => {
    const { chart, before } = diagramOf(renderCheckSummary(videoReview()));
    expect(chart).toEqual([
      "  classDef problem stroke:#e5534b,stroke-width:2px,stroke-dasharray:4 3",
      '  t0[("killrvideo.videos")]',
      '  q1(["Q2"]) -.->|filtering| t0',
      "  linkStyle 0 stroke:#b08800,stroke-width:2px,stroke-dasharray:2 4",
      '  t1[("killrvideo.videos_by_user")]',
      '  q0(["Q1"]) -->|1 partition| t1',
      '  q2(["Q3"]):::problem',
    ]);
    expect(before).toContain("<summary>Model diagram: 2 tables and the queries that read them</summary>");
    expect(before).toContain("🟡 **filtering**");
    expect(before).not.toContain("**scan**");
    expect(before).toContain("red dashed border has no table that serves it");
  });

  it(`draws all ${SCOPE_ABOVE_TABLES} tables of a model at the threshold, findings or not`, () => {
    const model = largeModel(SCOPE_ABOVE_TABLES, [], [finding("table-unread", "warning", "schema/00.cql", range(1, 1), "unread", { fingerprint: "table-unread:table:shop.table_0" })]);
    const { chart, after } = diagramOf(renderCheckSummary(model));
    expect(chart.filter((line) => /^ {2}t\d+\[/.test(line))).toHaveLength(SCOPE_ABOVE_TABLES);
    expect(after).not.toContain("not drawn");
  });
});

describe("the diagram of a large model", () => {
  const count = 20;
  const extra = [queryOn("S1", 100, "shop.table_3", "scan"), queryOn("S2", 101, null, "unserved"), queryOn("S3", 102, "shop.table_9", "index")];

  it("draws only the tables new findings are about, with all their queries, and counts the rest", () => {
    const model = largeModel(count, extra, [
      finding("table-unbounded-partition", "warning", "schema/05.cql", range(1, 1), "grows", { fingerprint: "table-unbounded-partition:table:shop.table_5", existing: false }),
      finding("table-timestamp-collision", "warning", "schema/07.cql", range(2, 3), "collides", { fingerprint: "table-timestamp-collision:column:shop.table_7.id", existing: false }),
      finding("query-full-scan", "warning", "access-patterns.yaml", range(100, 5), "scans", { fingerprint: "query-full-scan:query:S1", existing: false }),
      finding("query-unserved", "error", "access-patterns.yaml", range(101, 5), "unserved", { fingerprint: "query-unserved:query:S2", existing: false }),
      // at the base already: the index read on table_9 is not this change's
      finding("query-index-without-partition-key", "warning", "access-patterns.yaml", range(102, 5), "index", { fingerprint: "query-index-without-partition-key:query:S3", existing: true }),
    ]);
    expect(count).toBeGreaterThan(SCOPE_ABOVE_TABLES);
    const { chart, before, after } = diagramOf(renderCheckSummary(model));
    const tables = chart.flatMap((line) => /^ {2}t\d+\[\("([^"]*)"\)\]$/.exec(line)?.[1] ?? []);
    expect(tables).toEqual(["shop.table_3", "shop.table_5", "shop.table_7"]);
    expect(chart).toContain('  q20(["S1"]) -.->|scan| t3');
    expect(chart).toContain('  q3(["R3"]) -->|1 partition| t3');
    expect(chart).toContain('  q21(["S2"]):::problem');
    expect(chart.some((line) => line.includes('"S3"'))).toBe(false);
    expect(before).toContain(`<summary>Model diagram: 3 of ${count} tables (those new findings are about) and the queries that read them</summary>`);
    // 23 queries: S1, R3, R5, R7 and S2 are drawn
    expect(after).toBe(`_${count - 3} other tables and 18 queries are not drawn: no new finding in this change is about them or their queries._`);
    assertMermaidChart(chart, "scoped diagram");
  });

  it("reads what a finding is about from its entity: a table in any segment, a query by its id", () => {
    const ids = [queryOn("a:b.c", 103, "shop.table_11", "single-partition")];
    const about = (fingerprint: string) => finding(fingerprint.split(":")[0]!, "warning", "x", range(1, 1), "m", { fingerprint, existing: false });
    const model = largeModel(count, ids, [
      about("write-hot-counter:write:W13:hot-counter:shop.table_4"),
      about("table-large-collection:column:shop.table_6.items:queue"),
      about("query-rows-read:query:a:b.c#2"),
      about("r:index:shop.table_8_idx"),
      about("r:table:shop.table_1x"),
    ]);
    const { chart } = diagramOf(renderCheckSummary(model));
    expect(chart.flatMap((line) => /^ {2}t\d+\[\("([^"]*)"\)\]$/.exec(line)?.[1] ?? [])).toEqual(["shop.table_4", "shop.table_6", "shop.table_11"]);
  });

  it("without a base (the CLI), draws the tables any finding is about", () => {
    const model = largeModel(count, extra, [finding("query-full-scan", "warning", "access-patterns.yaml", range(100, 5), "scans", { fingerprint: "query-full-scan:query:S1" })]);
    const { chart, before, after } = diagramOf(renderCheckSummary(model));
    expect(chart.filter((line) => /^ {2}t\d+\[/.test(line))).toEqual(['  t3[("shop.table_3")]']);
    expect(before).toContain("(those with findings)");
    expect(after).toContain("no finding is about them or their queries");
  });

  it("when no new finding touches a table, draws the tables with findings or problem reads", () => {
    const model = largeModel(count, extra, [
      finding("keyspace-replication", "warning", "schema/00.cql", range(1, 1), "rf 1", { fingerprint: "keyspace-replication:keyspace:shop", existing: false }),
      finding("table-unread", "warning", "schema/12.cql", range(1, 1), "unread", { fingerprint: "table-unread:table:shop.table_12", existing: true }),
    ]);
    const { chart, before, after } = diagramOf(renderCheckSummary(model));
    const tables = chart.flatMap((line) => /^ {2}(t\d+)\[/.exec(line)?.[1] ?? []);
    expect(tables).toEqual(["t3", "t9", "t12"]);
    expect(chart).toContain('  q21(["S2"]):::problem');
    expect(before).toContain("(those with findings or problem reads)");
    expect(after).toContain("no finding or problem read is about them");
  });

  it("with a base, draws the tables the change alters or reads anew even when no finding is about them", () => {
    const changed = { tables: new Set(["shop.table_4", "shop.gone"]), droppedTables: new Set(["shop.gone"]), queries: new Set(["R11", "S2", "W1"]) };
    const model: Review = {
      ...largeModel(count, extra, [finding("table-unbounded-partition", "warning", "schema/05.cql", range(1, 1), "grows", { fingerprint: "table-unbounded-partition:table:shop.table_5", existing: false })]),
      changed,
    };
    const { chart, before, after } = diagramOf(renderCheckSummary(model));
    expect(chart.flatMap((line) => /^ {2}t\d+\[\("([^"]*)"\)\]$/.exec(line)?.[1] ?? [])).toEqual(["shop.table_4", "shop.table_5", "shop.table_11"]);
    expect(chart).toContain('  q21(["S2"]):::problem');
    expect(before).toContain(`<summary>Model diagram: 3 of ${count} tables (those this change or its new findings touch) and the queries that read them</summary>`);
    expect(after).toBe(`_${count - 3} other tables and 19 queries are not drawn: unchanged in this change and no new finding is about them._`);
    assertMermaidChart(chart, "changed tables");
  });

  it("with a base and nothing changed or newly found, falls back to the tables with findings or problem reads", () => {
    const model: Review = { ...largeModel(count, extra, []), changed: { tables: new Set(), droppedTables: new Set(), queries: new Set() } };
    const { chart, before } = diagramOf(renderCheckSummary(model));
    expect(chart.flatMap((line) => /^ {2}(t\d+)\[/.exec(line)?.[1] ?? [])).toEqual(["t3", "t9"]);
    expect(before).toContain("(those with findings or problem reads)");
  });

  it("with nothing to point at, draws everything up to the drawing's limits and says what it left out", () => {
    const model = largeModel(DIAGRAM_LIMITS.tables + 10, [], []);
    const { chart, before, after } = diagramOf(renderCheckSummary(model));
    expect(chart.filter((line) => /^ {2}t\d+\[/.test(line))).toHaveLength(DIAGRAM_LIMITS.tables);
    expect(before).toContain(`Model diagram: ${DIAGRAM_LIMITS.tables} of ${DIAGRAM_LIMITS.tables + 10} tables and the queries`);
    expect(after).toContain("_10 other tables and 10 queries are not drawn: the diagram stops at 40 tables, 150 arrows or 40,000 characters._");
  });

  it("stays within Mermaid's limits on a model of long names and many problem reads", () => {
    const name = "n".repeat(200);
    const tables = Array.from({ length: 40 }, (_, index) => tableModel("ks", `${name}_${index}`, "schema/big.cql", index * 10 + 1, [{ name: "id", type: "uuid", kind: "partition" }]));
    const queries = Array.from({ length: 800 }, (_, index) => queryOn(`${name}${index}`, index + 1, tables[index % 40]!.qualifiedName, VERDICTS[index % 6]!));
    const findings = tables.map((entry, index) => finding("table-unread", "warning", "schema/big.cql", range(index * 10 + 1, 1), "unread", { fingerprint: `table-unread:table:${entry.qualifiedName}` }));
    const summary = renderCheckSummary(reviewOf({ tables, queries, estimates: [], findings }), { maxLength: Number.POSITIVE_INFINITY });
    const { chart, after } = diagramOf(summary);
    const { edges } = assertMermaidChart(chart, "large diagram");
    expect(edges).toBeLessThanOrEqual(DIAGRAM_LIMITS.edges);
    expect(chart.join("\n").length).toBeLessThanOrEqual(DIAGRAM_LIMITS.characters);
    expect(after).toMatch(/queries are not drawn: the diagram stops at 40 tables, 150 arrows or 40,000 characters\._$/);
  });

  it("draws a table read by more queries than the limit with as many of them as fit", () => {
    const queries = Array.from({ length: 400 }, (_, index) => queryOn(`Q${index}`, index + 1, "shop.table_0", index % 2 === 0 ? "scan" : "single-partition"));
    const { chart, after } = diagramOf(renderCheckSummary(reviewOf({ tables: [table(0)], queries, estimates: [], findings: [] })));
    expect(assertMermaidChart(chart, "one busy table")).toEqual({ edges: DIAGRAM_LIMITS.edges, linkStyles: DIAGRAM_LIMITS.edges / 2 });
    expect(after).toBe(`_${400 - DIAGRAM_LIMITS.edges} queries are not drawn: the diagram stops at 40 tables, 150 arrows or 40,000 characters._`);
  });
});

describe("the diagram of a change to the bad model", () => {
  // The change adds the migrations file: its findings are new, the rest of the model was already there.
  const head = readModel("test/fixtures/bad-model");
  const reviewed = review({ ...head, baseFiles: head.files.filter((file) => file.path !== "schema/050_migrations.cql") });

  it("draws the tables the migrations touch and summarises the rest", async () => {
    const summary = renderCheckSummary(reviewed);
    const { chart, before, after } = diagramOf(summary);
    assertMermaidChart(chart, "bad model change");
    expect(reviewed.schema.tables.size).toBeGreaterThan(SCOPE_ABOVE_TABLES);
    expect(before).toContain("(those this change or its new findings touch)");
    expect(after).toContain("not drawn: unchanged in this change and no new finding is about them");
    await expect(`${before}\n\`\`\`mermaid\nflowchart LR\n${chart.join("\n")}\n\`\`\`\n${after}\n`).toMatchFileSnapshot("__snapshots__/bad-model-change.diagram.md");
  });
});

describe("the diagram of a change that edits one table of the bad model", () => {
  // The base is the bad model; the change adds a column to one table and nothing else.
  const base = readModel("test/fixtures/bad-model");
  const head = { ...base, files: [...base.files, { path: "schema/060_playlists.cql", content: "ALTER TABLE streamly.playlists ADD cover_url text;\n" }] };
  const reviewed = review({ ...head, baseFiles: base.files });

  it("draws the edited table, though no new finding is about it", () => {
    expect(reviewed.schema.tables.size).toBeGreaterThan(SCOPE_ABOVE_TABLES);
    expect([...reviewed.changed!.tables]).toEqual(["streamly.playlists"]);
    expect(reviewed.findings.filter((entry) => !entry.existing && entry.fingerprint.includes("playlists"))).toEqual([]);
    const { chart, before } = diagramOf(renderCheckSummary(reviewed));
    assertMermaidChart(chart, "one edited table");
    expect(chart).toContain(`  t${tablesInFileOrder(reviewed).findIndex((entry) => entry.qualifiedName === "streamly.playlists")}[("streamly.playlists")]`);
    expect(before).toContain("(those this change or its new findings touch)");
  });
});

describe("whatever the model and the cut", () => {
  const randomModel = fc
    .record({
      tables: fc.integer({ min: 0, max: 30 }),
      queries: fc.array(fc.record({ table: fc.integer({ min: -1, max: 35 }), verdict: fc.constantFrom(...VERDICTS) }), { maxLength: 60 }),
      findings: fc.array(
        fc.record({ about: fc.constantFrom("table", "column", "query", "keyspace"), index: fc.nat({ max: 40 }), existing: fc.option(fc.boolean(), { nil: undefined }) }),
        { maxLength: 12 },
      ),
      maxLength: fc.integer({ min: 1_500, max: 30_000 }),
      // what the change altered, when there is a base: tables (some not in the model) and queries by index
      changed: fc.option(fc.record({ tables: fc.array(fc.nat({ max: 35 }), { maxLength: 6 }), queries: fc.array(fc.nat({ max: 65 }), { maxLength: 6 }) }), { nil: undefined }),
    })
    .map(({ tables: count, queries: specs, findings: findingSpecs, maxLength, changed }) => {
      const tables = Array.from({ length: count }, (_, index) => table(index));
      const queries = specs.map((spec, index) => queryOn(`Q${index}`, index + 1, spec.table < 0 ? null : `shop.table_${spec.table}`, spec.verdict));
      const findings = findingSpecs.map((spec, index) => {
        const entity = { table: `table:shop.table_${spec.index}`, column: `column:shop.table_${spec.index}.id`, query: `query:Q${spec.index}`, keyspace: "keyspace:shop" }[spec.about];
        return finding("some-rule", "warning", "schema/x.cql", range(index + 1, 1), "m", { fingerprint: `some-rule:${entity}`, ...(spec.existing === undefined ? {} : { existing: spec.existing }) });
      });
      const built = reviewOf({ tables, queries, estimates: [], findings });
      if (changed) {
        built.changed = {
          tables: new Set(changed.tables.map((index) => `shop.table_${index}`)),
          droppedTables: new Set(),
          queries: new Set(changed.queries.map((index) => `Q${index}`)),
        };
      }
      return { review: built, maxLength };
    });

  it("every linkStyle names an edge drawn before it, every edge ends at a declared table, and the left-out counts add up", () => {
    fc.assert(
      fc.property(randomModel, ({ review: model, maxLength }) => {
        for (const summary of [renderCheckSummary(model), renderCheckSummary(model, { maxLength })]) {
          if (!summary.includes("```mermaid")) continue;
          const { chart } = diagramOf(summary);
          const { edges, linkStyles } = assertMermaidChart(chart, "random model");
          const problemEdges = chart.filter((line) => / (?:-\.->|--x)\|/.test(line)).length;
          expect(linkStyles).toBe(problemEdges);
          expect(edges).toBeLessThanOrEqual(model.queries.length);
        }
        const diagram = modelDiagram(model);
        if (diagram) {
          const drawn = (diagram.block.rows ?? []).join("\n");
          const tables = (drawn.match(/^ {2}t\d+\[/gm) ?? []).length;
          const queries = (drawn.match(/^ {2}q\d+\(/gm) ?? []).length;
          const leftOut = [...(diagram.block.tail ?? "").matchAll(/_(?:(\d+) other tables?)?(?: and )?(?:(\d+) quer(?:y|ies))? (?:is|are) not drawn/g)];
          const sum = (group: 1 | 2) => leftOut.reduce((total, match) => total + Number(match[group] ?? 0), 0);
          expect(tables + sum(1)).toBe(model.schema.tables.size);
          expect(queries + sum(2)).toBe(model.queries.length);
        }
      }),
      { seed: 2_126, numRuns: 150 },
    );
  });

  it("the chart check rejects a linkStyle past the edges drawn, and an edge to an undeclared table", () => {
    expect(() => assertMermaidChart(['  t0[("a")]', '  q0(["b"]) -->|1 partition| t0', "  linkStyle 1 stroke:#e5534b"], "broken")).toThrow(/names a missing edge/);
    expect(() => assertMermaidChart(['  q0(["b"]) -->|1 partition| t0', '  t0[("a")]'], "broken")).toThrow(/undeclared table/);
  });
});
