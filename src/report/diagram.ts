// The model diagram of the check summary: a Mermaid flowchart of the tables and the queries that
// read them, each read drawn by what it costs. Names come from the repository, so they appear only
// in labels (entity-encoded by mermaidLabel); ids, classes and styles are our own.
import type { QueryAnalysis, QueryPlan } from "../analysis/types.js";
import type { Finding } from "../findings.js";
import type { Review } from "../review.js";
import type { TableModel } from "../schema/model.js";
import { formatCount } from "./figures.js";
import { plural } from "./gate.js";
import { tablesInFileOrder } from "./json.js";
import { mermaidLabel } from "./markdown-escape.js";
import { notShown, type Block } from "./truncate.js";

/**
 * Above this many tables the diagram draws only the tables a change touches. An LR flowchart
 * stacks every query of every table in one column, about 130 px a table with its queries: twelve
 * tables already unfold to some 1,600 px, two screens, and a chart of every table of a larger
 * model buries the few the change is about.
 */
export const SCOPE_ABOVE_TABLES = 12;

/**
 * Limits of the drawing itself: what is past them is counted, not drawn. Well below Mermaid's
 * defaults (a chart over `maxTextSize`, 50,000 characters, or `maxEdges`, 500, is not drawn at
 * all), and about as much as a reader can follow: 150 arrows are some 9,000 px of chart.
 */
export const DIAGRAM_LIMITS = { characters: 40_000, edges: 150, tables: 40 } as const;

/** How a read is drawn: the problems each in their own colour and dash, so neither alone carries the meaning. */
export type ReadKind = "read" | "scan" | "filtering" | "index" | "invalid";

interface ReadStyle {
  /** the Mermaid link: dashed for the costly reads, a crossed end for a read Cassandra rejects */
  arrow: "-->" | "-.->" | "--x";
  /** the `linkStyle` properties; none for a plain read, which keeps the theme's colour */
  style?: string;
  /** the stroke colour, for the contrast test; mid-tones that stay 3:1 against GitHub's light and dark backgrounds */
  colour?: string;
  /** the legend's words, with an emoji of the colour */
  legend: string;
}

export const READ_STYLES: Record<ReadKind, ReadStyle> = {
  read: { arrow: "-->", legend: "a plain arrow reads one partition, or the few an IN list names" },
  scan: {
    arrow: "-.->",
    colour: "#db6d28",
    style: "stroke:#db6d28,stroke-width:2px,stroke-dasharray:8 4",
    legend: "🟠 **scan**, dashed: reads every partition (or a token range)",
  },
  filtering: {
    arrow: "-.->",
    colour: "#b08800",
    style: "stroke:#b08800,stroke-width:2px,stroke-dasharray:2 4",
    legend: "🟡 **filtering**, dotted: Cassandra refuses it without ALLOW FILTERING",
  },
  index: {
    arrow: "-.->",
    colour: "#986ee2",
    style: "stroke:#986ee2,stroke-width:2px,stroke-dasharray:8 4 2 4",
    legend: "🟣 **index**, dash-dot: goes through a secondary index or SAI",
  },
  invalid: {
    arrow: "--x",
    colour: "#e5534b",
    style: "stroke:#e5534b,stroke-width:3px",
    legend: "🔴 **invalid**, crossed end: Cassandra rejects it",
  },
};

/** The class of a query no table serves: drawn alone, with a dashed red border. */
const PROBLEM_CLASS = `classDef problem stroke:${READ_STYLES.invalid.colour},stroke-width:2px,stroke-dasharray:4 3`;

/** What kind of read a plan is, and its label: words a reader knows, never the planner's codes. */
export function readOf(plan: QueryPlan): { kind: ReadKind; label: string } {
  switch (plan.verdict) {
    case "single-partition":
      return { kind: "read", label: "1 partition" };
    case "multi-partition":
      return { kind: "read", label: typeof plan.partitions === "number" ? plural(plan.partitions, "partition", "partitions") : "several partitions" };
    case "scan":
      return { kind: "scan", label: "scan" };
    case "needs-allow-filtering":
      return { kind: "filtering", label: "filtering" };
    case "index":
      return { kind: "index", label: plan.partitions === 1 ? "index, 1 partition" : "index" };
    case "invalid":
    case "unserved":
      return { kind: "invalid", label: "invalid" };
  }
}

// ---------------------------------------------------------------------------------------------
// What a finding is about

/** Characters that end a segment of a finding's entity (`table:ks.t`, `column:ks.t.c`, `query:Q1#2`). */
const ENTITY_BOUNDARY = /[:#.]/g;
/** The part of an entity read, and the segments started in it, so a hostile fingerprint costs little. */
const ENTITY_MAX = { length: 1_000, starts: 8 } as const;

/**
 * The tables and queries a finding is about, read from its entity, the text after `rule:` in its
 * fingerprint. By convention it names a query as `query:<id>` and a table as `ks.t` in one of its
 * segments (`table:ks.t`, `column:ks.t.c`, `write:W1:…:ks.t`), so every segment that is a known
 * name counts.
 */
function aboutOf(finding: Finding, known: { tables: ReadonlySet<string>; longestTable: number; queryIds: ReadonlySet<string> }): { tables: string[]; queries: string[] } {
  const prefix = `${finding.rule}:`;
  const entity = (finding.fingerprint.startsWith(prefix) ? finding.fingerprint.slice(prefix.length) : finding.fingerprint).slice(0, ENTITY_MAX.length);
  const ends = [...entity.matchAll(ENTITY_BOUNDARY)].map((match) => match.index).concat(entity.length);
  const starts = [0, ...ends.filter((at) => entity[at] === ":").map((at) => at + 1)].slice(0, ENTITY_MAX.starts);
  const tables = new Set<string>();
  for (const start of starts) {
    for (const end of ends) {
      if (end - start > known.longestTable) break;
      if (end > start && known.tables.has(entity.slice(start, end))) tables.add(entity.slice(start, end));
    }
  }
  const queries = entity.startsWith("query:") ? ends.map((end) => entity.slice("query:".length, end)).filter((id) => known.queryIds.has(id)) : [];
  return { tables: [...tables], queries };
}

// ---------------------------------------------------------------------------------------------
// Which tables to draw

/** Why some tables are left out: what the drawn ones have that the others lack. */
type Scope = "all" | "changed" | "new-findings" | "findings" | "problems";

interface Selection {
  scope: Scope;
  tables: TableModel[];
  /** indexes into review.queries of the queries no drawn table serves that are drawn alone */
  alone: number[];
}

function isProblem(query: QueryAnalysis): boolean {
  return readOf(query.plan).kind !== "read";
}

/** Queries with no table to draw them against: unserved, or naming a table the schema lacks. */
function isAlone(query: QueryAnalysis, tables: ReadonlySet<string>): boolean {
  return query.plan.verdict === "unserved" || query.table === null || !tables.has(query.table);
}

/**
 * Small models are drawn whole. Large ones draw the tables the change touches. With a base commit
 * the review knows what the change altered (`review.changed`): the tables it adds or redefines,
 * the tables read by the queries it adds or rewrites, and those new findings are about. Without
 * one (the CLI) only the findings tell, and every finding counts as new: the tables a finding is
 * about, or that serve a query a finding is about. When nothing touches a table, the tables with
 * any finding or a problem read are drawn instead, and failing that, everything.
 */
function selectTables(review: Review, tables: TableModel[]): Selection {
  const names = new Set(tables.map((table) => table.qualifiedName));
  const everything: Selection = {
    scope: "all",
    tables,
    alone: review.queries.flatMap((query, index) => (isAlone(query, names) ? [index] : [])),
  };
  if (tables.length <= SCOPE_ABOVE_TABLES) return everything;

  const known = {
    tables: names,
    longestTable: tables.reduce((longest, table) => Math.max(longest, table.qualifiedName.length), 0),
    queryIds: new Set(review.queries.map((query) => query.id)),
  };
  const touchedBy = (findings: readonly Finding[]) => {
    const touched = { tables: new Set<string>(), queries: new Set<string>() };
    for (const finding of findings) {
      const about = aboutOf(finding, known);
      for (const table of about.tables) touched.tables.add(table);
      for (const id of about.queries) touched.queries.add(id);
    }
    for (const query of review.queries) {
      if (touched.queries.has(query.id) && !isAlone(query, names)) touched.tables.add(query.table!);
    }
    return touched;
  };
  const selection = (scope: Scope, touched: { tables: Set<string>; queries: Set<string> }): Selection => {
    const selected = tables.filter((table) => touched.tables.has(table.qualifiedName));
    const alone = everything.alone.filter((index) => touched.queries.has(review.queries[index]!.id));
    // Every table and lone query touched: nothing is left out, so the drawing is simply whole.
    return selected.length === tables.length && alone.length === everything.alone.length ? everything : { scope, tables: selected, alone };
  };

  const touched = touchedBy(review.findings.filter((finding) => finding.existing !== true));
  if (review.changed) {
    for (const name of review.changed.tables) if (names.has(name)) touched.tables.add(name);
    for (const query of review.queries) {
      if (!review.changed.queries.has(query.id)) continue;
      touched.queries.add(query.id);
      if (!isAlone(query, names)) touched.tables.add(query.table!);
    }
  }
  const comparedWithBase = review.changed !== undefined || review.findings.some((finding) => finding.existing !== undefined);
  const fresh = selection(review.changed ? "changed" : comparedWithBase ? "new-findings" : "findings", touched);
  if (fresh.tables.length + fresh.alone.length > 0) return fresh;
  const problems = touchedBy(review.findings);
  for (const query of review.queries) {
    if (isAlone(query, names)) problems.queries.add(query.id);
    else if (isProblem(query)) problems.tables.add(query.table!);
  }
  const withProblems = selection("problems", problems);
  return withProblems.tables.length + withProblems.alone.length > 0 ? withProblems : everything;
}

// ---------------------------------------------------------------------------------------------
// The chart

/** A line of the chart, and what it draws. */
interface ChartRow {
  text: string;
  draws: "table" | "query";
  /** edges drawn up to and including this row */
  edgesThrough: number;
}

/**
 * The chart's rows: each drawn table's node, then one row per query reading it (its node and edge,
 * and for a problem edge its `linkStyle`), then the queries drawn alone. `linkStyle` counts every
 * edge of the chart from 0, so a row refers only to its own edge or earlier ones: rows are cut
 * from the end only, and no cut can leave a `linkStyle` without its edge (Mermaid would not draw
 * the chart at all).
 */
function chartRows(review: Review, selection: Selection, tableIds: ReadonlyMap<string, string>): { rows: ChartRow[]; kinds: Set<ReadKind> } {
  const queryNode = (query: QueryAnalysis, index: number) => `q${index}([${mermaidLabel(query.id)}])`;
  const drawn = new Set(selection.tables.map((table) => table.qualifiedName));
  const byTable = new Map<string, number[]>();
  review.queries.forEach((query, index) => {
    if (query.table === null || query.plan.verdict === "unserved" || !drawn.has(query.table)) return;
    const onTable = byTable.get(query.table);
    if (onTable) onTable.push(index);
    else byTable.set(query.table, [index]);
  });
  const rows: ChartRow[] = [];
  const kinds = new Set<ReadKind>();
  let edges = 0;
  for (const table of selection.tables) {
    const id = tableIds.get(table.qualifiedName)!;
    rows.push({ text: `  ${id}[(${mermaidLabel(table.qualifiedName)})]`, draws: "table", edgesThrough: edges });
    for (const index of byTable.get(table.qualifiedName) ?? []) {
      const query = review.queries[index]!;
      const { kind, label } = readOf(query.plan);
      const style = READ_STYLES[kind];
      const edge = `  ${queryNode(query, index)} ${style.arrow}|${label}| ${id}`;
      rows.push({ text: style.style ? `${edge}\n  linkStyle ${edges} ${style.style}` : edge, draws: "query", edgesThrough: ++edges });
      kinds.add(kind);
    }
  }
  for (const index of selection.alone) rows.push({ text: `  ${queryNode(review.queries[index]!, index)}:::problem`, draws: "query", edgesThrough: edges });
  return { rows, kinds };
}

/** The rows within DIAGRAM_LIMITS: a prefix, so the cut keeps every `linkStyle` with its edge. */
function withinLimits(rows: readonly ChartRow[]): ChartRow[] {
  let characters = 0;
  let tables = 0;
  let kept = 0;
  for (const row of rows) {
    characters += row.text.length + 1;
    if (row.draws === "table") tables++;
    if (characters > DIAGRAM_LIMITS.characters || row.edgesThrough > DIAGRAM_LIMITS.edges || tables > DIAGRAM_LIMITS.tables) break;
    kept++;
  }
  return rows.slice(0, kept);
}

function legend(kinds: ReadonlySet<ReadKind>, alone: boolean): string {
  const problems = (["scan", "filtering", "index", "invalid"] as const).filter((kind) => kinds.has(kind)).map((kind) => READ_STYLES[kind].legend);
  const reads = kinds.has("read") || problems.length === 0 ? [READ_STYLES.read.legend] : [];
  const lines = [`Queries (rounded) read tables (cylinders): ${[...reads, ...problems].join("; ")}.`];
  if (alone) lines.push("A query with a red dashed border has no table that serves it.");
  return lines.join(" ");
}

/** "18 other tables and 9 queries are not drawn: no new finding is about them or their queries." */
function leftOutLine(tables: number, queries: number, why: string): string | undefined {
  if (tables + queries === 0) return undefined;
  const what = [tables > 0 ? plural(tables, "other table", "other tables") : "", queries > 0 ? plural(queries, "query", "queries") : ""]
    .filter((part) => part !== "")
    .join(" and ");
  return `_${what} ${tables + queries === 1 ? "is" : "are"} not drawn: ${why}._`;
}

/** For each scope: which tables the summary line says are drawn, and why the others are not. */
const SCOPES: Record<Scope, { drawn: string; leftOut: string }> = {
  all: { drawn: "", leftOut: `the diagram stops at ${DIAGRAM_LIMITS.tables} tables, ${DIAGRAM_LIMITS.edges} arrows or ${formatCount(DIAGRAM_LIMITS.characters)} characters` },
  changed: { drawn: " (those this change or its new findings touch)", leftOut: "unchanged in this change and no new finding is about them" },
  "new-findings": { drawn: " (those new findings are about)", leftOut: "no new finding in this change is about them or their queries" },
  findings: { drawn: " (those with findings)", leftOut: "no finding is about them or their queries" },
  problems: { drawn: " (those with findings or problem reads)", leftOut: "no finding or problem read is about them" },
};

export interface ModelDiagram {
  /** the collapsed section's summary line, in our own words */
  summary: string;
  block: Block;
}

/**
 * The diagram of the review's model, as a block of the check summary: a legend, then the chart
 * (one row per table), then a line on what it leaves out. Undefined when there is nothing to draw.
 */
export function modelDiagram(review: Review): ModelDiagram | undefined {
  const tables = tablesInFileOrder(review);
  if (tables.length === 0 && review.queries.length === 0) return undefined;
  const tableIds = new Map(tables.map((table, index) => [table.qualifiedName, `t${index}`]));
  const selection = selectTables(review, tables);
  const { rows: allRows, kinds } = chartRows(review, selection, tableIds);
  const rows = withinLimits(allRows);

  const drawnTables = rows.filter((row) => row.draws === "table").length;
  const drawnQueries = rows.length - drawnTables;
  const selected = countQueries(review, selection);
  const notes = [
    selection.scope === "all" ? undefined : leftOutLine(tables.length - selection.tables.length, review.queries.length - selected, SCOPES[selection.scope].leftOut),
    leftOutLine(selection.tables.length - drawnTables, selected - drawnQueries, SCOPES.all.leftOut),
  ].filter((line): line is string => line !== undefined);

  const counted = drawnTables === tables.length ? plural(tables.length, "table", "tables") : `${formatCount(drawnTables)} of ${plural(tables.length, "table", "tables")}`;
  return {
    summary: `Model diagram: ${counted}${SCOPES[selection.scope].drawn} and the queries that read them`,
    block: {
      head: `${legend(kinds, selection.alone.length > 0)}\n\n\`\`\`mermaid\nflowchart LR\n  ${PROBLEM_CLASS}`,
      rows: rows.map((row) => row.text),
      tail: ["```", ...notes].join("\n\n"),
      more: (omitted) => `_${notShown(omitted, { one: "diagram entry", many: "diagram entries" })}._`,
    },
  };
}

/** The queries a selection draws: those on its tables, and those drawn alone. */
function countQueries(review: Review, selection: Selection): number {
  const drawn = new Set(selection.tables.map((table) => table.qualifiedName));
  const onTables = review.queries.filter((query) => query.table !== null && query.plan.verdict !== "unserved" && drawn.has(query.table)).length;
  return onTables + selection.alone.length;
}
