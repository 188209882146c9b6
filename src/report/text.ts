// Terminal output of `cql-review check`, after ESLint's "stylish" formatter: findings grouped by
// file as `line:column  severity  message  rule-id`. The order follows the check summary's
// priorities: what was not reviewed, the new findings, those already at the base, the query
// table, and last (where a terminal leaves the eye) the verdict and why.
import { terminalSafe } from "./controls.js";
import type { QueryAnalysis } from "../analysis/types.js";
import { compareFindings, type Finding, type Severity } from "../findings.js";
import type { Review } from "../review.js";
import { formatPartitions } from "./figures.js";
import { findingsByModel, gateReason, modelsNote } from "./gate.js";
import { append } from "../arrays.js";

export { terminalSafe };

export interface TextOptions {
  color: boolean;
  /**
   * How findings are laid out. Absent: message columns padded to align the rule ids. A number (a
   * terminal's width): also wrapped to it, continuation lines under the message. `"plain"` (pipes,
   * CI logs): one line per finding, nothing padded, so lines stay short and greppable.
   */
  layout?: number | "plain";
  /** `--quiet`: errors and warnings only, without the infos and the queries table (as ESLint's --quiet) */
  quiet?: boolean;
}

/** Narrowest message column worth wrapping to: on a narrower terminal, lines run past its edge. */
const MIN_MESSAGE_WIDTH = 30;

/** Words of `text` in lines of at most `width` characters (a longer word stays whole). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(" ").filter(Boolean)) {
    if (current === "") current = word;
    else if (current.length + 1 + word.length <= width) current += ` ${word}`;
    else {
      lines.push(current);
      current = word;
    }
  }
  return [...lines, current];
}

const ANSI = {
  bold: [1, 22],
  dim: [2, 22],
  underline: [4, 24],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
} as const;

export type Style = keyof typeof ANSI;

/** Applies ANSI styles when colour is on; the identity otherwise. */
export function painter(color: boolean): (text: string, ...styles: Style[]) => string {
  return (text, ...styles) => {
    if (!color || text === "") return text;
    return styles.reduce((styled, style) => `\u001b[${ANSI[style][0]}m${styled}\u001b[${ANSI[style][1]}m`, text);
  };
}


const SEVERITY_STYLE: Record<Severity, Style> = { error: "red", warning: "yellow", info: "cyan" };

/** Pads every cell to its column's widest cell; the last column is left as it is. */
export function padColumns(rows: readonly (readonly string[])[]): string[][] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index]))));
}

/** Rows laid out in aligned columns. */
export function columns(rows: readonly (readonly string[])[], indent = "  ", gap = "  "): string[] {
  return padColumns(rows).map((row) => (indent + row.join(gap)).trimEnd());
}

function findingsByFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const byFile = new Map<string, Finding[]>();
  for (const finding of [...findings].sort(compareFindings)) {
    const list = byFile.get(finding.location.file) ?? [];
    list.push(finding);
    byFile.set(finding.location.file, list);
  }
  return byFile;
}

function renderFindings(all: readonly Finding[], paint: ReturnType<typeof painter>, layout: TextOptions["layout"]): string[] {
  const lines: string[] = [];
  for (const [file, findings] of findingsByFile(all)) {
    lines.push(paint(terminalSafe(file), "underline"));
    const cells = findings.map((finding) => [
      `${finding.location.range.start.line}:${finding.location.range.start.column}`,
      finding.severity,
      terminalSafe(finding.message),
      `${finding.rule}${finding.existing ? " (existing)" : ""}`,
    ]);
    if (layout === "plain") {
      cells.forEach(([position, severity, message, rule], index) => {
        const finding = findings[index];
        lines.push(`  ${paint(position, "dim")}  ${paint(severity, SEVERITY_STYLE[finding.severity])}  ${message}  ${paint(rule, "dim")}`);
      });
      lines.push("");
      continue;
    }
    // Pad the plain cells first, then colour them, so escape codes never upset the alignment.
    const prefixRows = padColumns(cells.map(([position, severity]) => [position, severity, ""]));
    const prefixWidth = 2 + prefixRows[0][0].length + 2 + prefixRows[0][1].length + 2;
    const ruleWidth = cells.reduce((widest, row) => Math.max(widest, row[3].length), -Infinity);
    const widestMessage = cells.reduce((widest, row) => Math.max(widest, row[2].length), -Infinity);
    const available = typeof layout === "number" ? layout - prefixWidth - 2 - ruleWidth : Number.POSITIVE_INFINITY;
    const messageWidth = Math.min(widestMessage, Math.max(MIN_MESSAGE_WIDTH, available));
    findings.forEach((finding, index) => {
      const [position, severity] = prefixRows[index];
      const [message, rule] = [cells[index][2], cells[index][3]];
      const wrapped = Number.isFinite(available) && message.length > messageWidth ? wrapWords(message, messageWidth) : [message];
      const head = `  ${paint(position, "dim")}  ${paint(severity, SEVERITY_STYLE[finding.severity])}  `;
      lines.push(`${head}${wrapped[0].padEnd(messageWidth)}  ${paint(rule, "dim")}`);
      for (const continuation of wrapped.slice(1)) lines.push(`${" ".repeat(prefixWidth)}${continuation}`);
    });
    lines.push("");
  }
  return lines;
}

function renderQueries(queries: readonly QueryAnalysis[], paint: ReturnType<typeof painter>): string[] {
  if (queries.length === 0) return [];
  const rows = [
    ["id", "table", "verdict", "partitions"],
    ...queries.map((query) => [
      terminalSafe(query.id),
      terminalSafe(query.table ?? "—"),
      query.plan.verdict,
      formatPartitions(query.plan.partitions),
    ]),
  ];
  const [header, ...body] = columns(rows);
  return [paint("Queries", "bold"), paint(header, "dim"), ...body, ""];
}

/** Parts of the change the review could not read, first: each could hide a finding. */
function renderUnreviewed(review: Review, paint: ReturnType<typeof painter>): string[] {
  if (review.unreviewed.length === 0) return [];
  const rows = review.unreviewed.map((part) => [part.file === "" ? "(the review as a whole)" : terminalSafe(part.file), terminalSafe(part.reason)]);
  return [paint("Not reviewed (each could hide a finding)", "bold"), ...columns(rows), ""];
}

/** Findings already at the base commit, after the new ones: they do not fail the gate. */
function renderExisting(review: Review, paint: ReturnType<typeof painter>, layout: TextOptions["layout"]): string[] {
  const existing = review.findings.filter((finding) => finding.existing);
  if (existing.length === 0) return [];
  return [paint("Already at the base commit (these do not fail the gate)", "bold"), "", ...renderFindings(existing, paint, layout)];
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function renderSummary(review: Review, paint: ReturnType<typeof painter>): string {
  const { errors, warnings, infos } = review.summary;
  const total = errors + warnings + infos;
  const existing = review.findings.filter((finding) => finding.existing).length;
  const models = modelsNote(review, terminalSafe);
  if (total === 0) return paint(`✔ No problems found${models ? ` (${models})` : ""}`, "green", "bold");
  const counts = `${plural(errors, "error", "errors")}, ${plural(warnings, "warning", "warnings")}, ${plural(infos, "info", "infos")}`;
  const existingNote = existing > 0 ? `, ${existing} already at the base` : "";
  const gate = `${review.gateFails ? "the gate fails" : "the gate passes"}: ${gateReason(review)}${models ? `; ${models}` : ""}`;
  const style: Style = errors > 0 ? "red" : warnings > 0 ? "yellow" : "cyan";
  return paint(`${errors > 0 ? "✖" : "⚠"} ${plural(total, "problem", "problems")} (${counts}${existingNote}); ${gate}`, style, "bold");
}

/** A review of several models: each model's findings and queries under its name, then the one verdict. */
function renderModels(review: Review, options: TextOptions, paint: ReturnType<typeof painter>): string {
  const shown = options.quiet ? review.findings.filter((finding) => finding.severity !== "info") : review.findings;
  const lines = [...renderUnreviewed(review, paint)];
  for (const { model, findings } of findingsByModel(review, shown)) {
    if (!model && findings.length === 0) continue;
    if (model) lines.push(paint(`Model ${terminalSafe(model.name)}${model.review ? "" : ` (not reviewed: ${model.skipped ?? "skipped"})`}`, "bold"), "");
    append(lines, renderFindings(findings.filter((finding) => !finding.existing), paint, options.layout));
    append(lines, renderExisting({ ...review, findings }, paint, options.layout));
    if (model?.review && !options.quiet) append(lines, renderQueries(model.review.queries, paint));
  }
  return `${[...lines, renderSummary(review, paint)].join("\n")}\n`;
}

export function renderText(review: Review, options: TextOptions): string {
  const paint = painter(options.color);
  if (review.models) return renderModels(review, options, paint);
  // Quiet leaves out the infos from the lists only: the summary still counts them.
  const shown = options.quiet ? { ...review, findings: review.findings.filter((finding) => finding.severity !== "info") } : review;
  const lines = [
    ...renderUnreviewed(review, paint),
    ...renderFindings(
      shown.findings.filter((finding) => !finding.existing),
      paint,
      options.layout,
    ),
    ...renderExisting(shown, paint, options.layout),
    ...(options.quiet ? [] : renderQueries(review.queries, paint)),
    renderSummary(review, paint),
  ];
  return `${lines.join("\n")}\n`;
}
