// What GitHub shows: the check-run summary, one inline review comment per finding, and the
// answer to `/cql explain`. Every string from the repository is escaped (markdown-escape.ts) and
// every size budget goes through truncate.ts.
import type { PartitionEstimate, QueryAnalysis, QueryPlan, Verdict } from "../analysis/types.js";
import type { CodePlace, ExplainAnswer, QueryExplanation, SelectExplanation, TableExplanation } from "../explain.js";
import { compareFindings, type Finding, type Severity } from "../findings.js";
import type { Review } from "../review.js";
import { cellSizeText, formatBytes, formatCount, formatPartitions, largestCell } from "./figures.js";
import { withoutRuleCodes } from "../analysis/planner.js";
import { formatMeasuredValue } from "../analysis/measured.js";
import { modelDiagram } from "./diagram.js";
import { failsGate, findingsByModel, gateReason, modelsNote, plural } from "./gate.js";
import { append } from "../arrays.js";
import { tablesInFileOrder } from "./json.js";
import { hasControls } from "./controls.js";
import { ruleDocUrl, wellFormed } from "./links.js";
import {
  codeSpan,
  escapeMarkdown,
  fencedBlock,
  messageMarkdown,
  tableCodeSpan,
  tableHeader,
  tableRow,
} from "./markdown-escape.js";
import { clipText, fitBlocks, leadSentence, notShown, type Block } from "./truncate.js";

/** GitHub's limit for a check run's summary is 65,535 characters; keep a margin. */
export const CHECK_SUMMARY_MAX_LENGTH = 65_000;
/** GitHub's limit for a comment body is 65,536 characters. */
export const COMMENT_MAX_LENGTH = 65_000;

const BADGE: Record<Severity, string> = { error: "🔴", warning: "🟡", info: "🔵" };

/** Verdicts that read about one (or a few enumerated) partitions are fine; the rest need a look. */
const VERDICT_ICON: Record<Verdict, string> = {
  "single-partition": "✅",
  "multi-partition": "☑️",
  index: "🔎",
  "needs-allow-filtering": "⚠️",
  scan: "⚠️",
  invalid: "❌",
  unserved: "❌",
};

function verdictCell(verdict: Verdict): string {
  return `${VERDICT_ICON[verdict]} ${verdict}`;
}

function location(finding: Finding): string {
  return `${finding.location.file}:${finding.location.range.start.line}:${finding.location.range.start.column}`;
}

// ---------------------------------------------------------------------------------------------
// Fingerprint marker

const MARKER_PREFIX = "<!-- cql-review:fingerprint=";
const MARKER_SUFFIX = " -->";

/**
 * Percent-encodes what could end or corrupt an HTML comment: anything outside a plain set, and a
 * `-` that another `-` or the comment's end would turn into `--`.
 */
function encodeMarkerValue(value: string): string {
  let encoded = "";
  const chars = [...wellFormed(value)];
  chars.forEach((char, index) => {
    const next = chars[index + 1];
    const plain = /[A-Za-z0-9._:/#=@+,]/.test(char) || (char === "-" && next !== undefined && next !== "-" && next !== ">");
    encoded += plain ? char : encodeURIComponent(char).replace(/-/g, "%2D");
  });
  return encoded;
}

/** The hidden marker that lets a re-run recognise a comment it already posted. */
export function fingerprintMarker(fingerprint: string): string {
  return `${MARKER_PREFIX}${encodeMarkerValue(fingerprint)}${MARKER_SUFFIX}`;
}

/** What encodeMarkerValue writes: its plain characters, those encodeURIComponent keeps, and percent escapes. */
const MARKER_VALUE = /^(?:[A-Za-z0-9._:/#=@+,!~*'()-]|%[0-9A-F]{2})*$/;

/**
 * The fingerprint in a comment body written by renderFindingComment: read only from the body's
 * last line, which must be a well-formed marker and nothing else. Repository text shown earlier
 * in the body (a table name holding a marker, in a code span or a code block) is never read.
 */
export function readFingerprintMarker(body: string): string | undefined {
  const line = lastLine(body);
  if (!line.startsWith(MARKER_PREFIX) || !line.endsWith(MARKER_SUFFIX)) return undefined;
  const value = line.slice(MARKER_PREFIX.length, line.length - MARKER_SUFFIX.length);
  if (!MARKER_VALUE.test(value)) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** The last line of a body, without the line breaks GitHub may keep or add after it. */
export function lastLine(body: string): string {
  const end = body.trimEnd();
  return end.slice(end.lastIndexOf("\n") + 1).replace(/\r$/, "");
}

// ---------------------------------------------------------------------------------------------
// Inline review comment

/** Longest message and fix description shown in a comment; the rest is cut with a notice. */
const MESSAGE_MAX = 8_000;
const FIX_DESCRIPTION_MAX = 500;
/** A suggestion or a suggested table longer than this is not shown inline (it would crowd out the comment). */
const SUGGESTION_MAX = 40_000;

/**
 * The CREATE TABLE a finding proposes (`query-unserved` carries it in `data.table`), if any: the
 * statement, possibly after the line comments that explain it (a bucket, a row per element).
 */
function suggestedTable(finding: Finding): string | undefined {
  const table = finding.data?.table;
  return typeof table === "string" && /^\s*(?:--[^\n]*\n\s*)*CREATE\s+TABLE\b/i.test(table) ? table : undefined;
}

/** How to fix it: a suggestion block to accept, the table to add (collapsed), or the fix in words. */
function fixBlocks(finding: Finding, suggestion: string | undefined): Block[] {
  const description = finding.fix ? messageMarkdown(clipText(finding.fix.description, FIX_DESCRIPTION_MAX)) : undefined;
  if (suggestion !== undefined) {
    return [
      {
        head:
          suggestion.length > SUGGESTION_MAX
            ? `_The suggested fix is ${formatCount(suggestion.length)} characters long, too long to show here._`
            : hasControls(suggestion)
              ? // Shown escaped, accepting it would write other text than the fix: it is not offered.
                `${description ? `Fix: ${description}\n\n` : ""}_The suggested text holds control characters, so it is not offered as a suggestion to accept._`
              : `${description ? `Suggested fix: ${description}\n\n` : ""}${fencedBlock(suggestion, "suggestion")}`,
      },
    ];
  }
  const blocks: Block[] = description ? [{ head: `Fix: ${description}` }] : [];
  const table = suggestedTable(finding);
  if (table !== undefined) {
    blocks.push(
      table.length <= SUGGESTION_MAX
        ? details("The CREATE TABLE that would serve it", { head: fencedBlock(table, "sql") })
        : { head: `_The suggested table is ${formatCount(table.length)} characters long, too long to show here._` },
    );
  }
  return blocks;
}

/**
 * An inline review comment: what is wrong, how to fix it, and where the rule explains itself. The
 * finding's machine data stays in the JSON report and SARIF; a person reads sentences.
 */
export function renderFindingComment(finding: Finding, options: { suggestion?: string } = {}): string {
  const header = `${BADGE[finding.severity]} **${finding.severity}** · ${codeSpan(finding.rule)}`;
  const blocks: Block[] = [{ head: `${header}\n\n${messageMarkdown(clipText(finding.message, MESSAGE_MAX))}` }, ...fixBlocks(finding, options.suggestion)];
  if (finding.existing) blocks.push({ head: "_Already present at the base commit: this does not fail the check._" });
  blocks.push({ head: `[Why this matters and how to fix it: ${codeSpan(finding.rule)}](${ruleDocUrl(finding.rule)})` });
  // The marker goes after the fitted blocks, so no cut can drop it or move it off the last line.
  const marker = fingerprintMarker(finding.fingerprint);
  return `${fitBlocks(blocks, COMMENT_MAX_LENGTH - marker.length - 2)}\n\n${marker}`;
}

// ---------------------------------------------------------------------------------------------
// Check-run summary

/** The first line: the verdict and why, then what was reviewed. */
function verdictBlock(review: Review, shownInline: ReadonlySet<string> | undefined): Block {
  const failOn = `(\`fail_on: ${review.config.failOn}\`)`;
  const models = modelsNote(review, codeSpan);
  const reason = `${gateReason(review)}${models ? `; ${models}` : ""}`;
  const verdict = review.gateFails ? `❌ **The gate fails** ${failOn}: ${reason}.` : `✅ **The gate passes** ${failOn}: ${reason}.`;
  const reviewed = review.models ? review.models.flatMap((model) => (model.review ? [model.review] : [])) : [review];
  const tables = reviewed.reduce((sum, each) => sum + each.schema.tables.size, 0);
  const queries = reviewed.reduce((sum, each) => sum + each.queries.length, 0);
  const scope = `**cql-review** · Cassandra ${review.version} semantics · ${review.models ? `${plural(reviewed.length, "model", "models")} · ` : ""}${plural(tables, "table", "tables")} · ${plural(queries, "query", "queries")}`;
  const inline = shownInline ? review.findings.filter((finding) => shownInline.has(finding.fingerprint)).length : 0;
  const inlineNote = inline > 0 ? `\n\n${inline === 1 ? "1 finding is posted as an inline comment" : `${formatCount(inline)} findings are posted as inline comments`} on the changed lines and not repeated here.` : "";
  return { head: `${verdict}\n\n${scope}${inlineNote}` };
}

/** What the review could not read: right after the verdict, since each part could hide a finding. */
function unreviewedBlock(review: Review): Block | undefined {
  if (review.unreviewed.length === 0) return undefined;
  return {
    head: `**Not reviewed** (each could hide a finding):`,
    rows: review.unreviewed.map(
      (part) => `- ${part.file === "" ? "the review as a whole" : codeSpan(part.file)}: ${messageMarkdown(clipText(part.reason, 1_000))}`,
    ),
    more: (omitted) => `_${notShown(omitted, { one: "part", many: "parts" })}._`,
  };
}

/**
 * A collapsed section: GitHub shows its summary line until the reader opens it. The summary is
 * raw HTML, so it holds our own words and figures only, never repository text; anything else is
 * dropped rather than trusted.
 */
function details(summary: string, block: Block): Block {
  const ownWords = summary.replace(/[^A-Za-z0-9 ,:()]/g, "");
  return { ...block, head: `<details><summary>${ownWords}</summary>\n\n${block.head ?? ""}`, close: "</details>" };
}

function queryRow(query: QueryAnalysis): string {
  return tableRow([
    tableCodeSpan(query.id),
    query.table ? tableCodeSpan(query.table) : "—",
    verdictCell(query.plan.verdict),
    escapeMarkdown(formatPartitions(query.plan.partitions)),
  ]);
}

/** Verdicts that read one partition, or a few enumerated ones, need no second look. */
const FINE_VERDICTS: ReadonlySet<Verdict> = new Set(["single-partition", "multi-partition"]);

/** The tables new findings propose (query-unserved), collapsed, so the summary shows what to add. */
function suggestedTablesBlock(review: Review): Block | undefined {
  const proposals = review.findings
    .filter((finding) => !finding.existing)
    .map((finding) => ({ finding, table: suggestedTable(finding) }))
    .filter((proposal): proposal is { finding: Finding; table: string } => proposal.table !== undefined && proposal.table.length <= SUGGESTION_MAX);
  if (proposals.length === 0) return undefined;
  return details(`Suggested tables: ${plural(proposals.length, "table", "tables")} that would serve unserved queries`, {
    head: "Each serves one unserved query; the application's writes must fill it too.\n",
    rows: proposals.map(({ finding, table }) => `For ${codeSpan(location(finding))}:\n\n${fencedBlock(table, "sql")}\n`),
    more: (omitted) => `_${notShown(omitted, { one: "suggested table", many: "suggested tables" })}._`,
  });
}

function queriesBlock(review: Review): Block {
  if (review.queries.length === 0) return { head: "The access-patterns manifest lists no queries." };
  const needLook = review.queries.filter((query) => !FINE_VERDICTS.has(query.plan.verdict)).length;
  return details(`Queries: ${plural(review.queries.length, "query", "queries")}${needLook > 0 ? `, ${formatCount(needLook)} not reading one or a few partitions` : ""}`, {
    head: tableHeader(["Query", "Table", "Verdict", "Partitions"], ["left", "left", "left", "right"]),
    rows: review.queries.map(queryRow),
    more: (omitted) => `_${notShown(omitted, { one: "query", many: "queries" })}._`,
  });
}

function estimateCells(table: string, estimate: PartitionEstimate): string[] {
  const worst = estimate.worst;
  return [
    tableCodeSpan(table),
    formatCount(worst.rows),
    formatCount(worst.values),
    formatBytes(worst.bytes),
    worst.engineBytes === null ? "—" : formatBytes(worst.engineBytes),
    estimate.basis,
    estimate.unbounded ? "**yes**" : "no",
  ];
}

/** Production's largest partition beside the estimate: the figure, and the file it came from. */
function measuredCell(review: Review, table: string): string {
  const largest = review.model.measured?.get(table)?.figures.partitionBytesMax;
  return largest ? `${formatBytes(largest.value)} (${tableCodeSpan(largest.file)})` : "—";
}

function estimatesBlock(review: Review): Block | undefined {
  // The measured column appears only when saved nodetool output was given (docs/production-stats.md).
  const measured = (review.model.measured?.size ?? 0) > 0;
  const rows = tablesInFileOrder(review).flatMap((table) => {
    const estimate = review.estimates.get(table.qualifiedName);
    if (!estimate) return [];
    const cells = estimateCells(table.qualifiedName, estimate);
    return [tableRow(measured ? [...cells.slice(0, 5), measuredCell(review, table.qualifiedName), ...cells.slice(5)] : cells)];
  });
  if (rows.length === 0) return undefined;
  const unbounded = [...review.estimates.values()].filter((estimate) => estimate.unbounded).length;
  return details(`Partition estimates: worst partition of ${plural(rows.length, "table", "tables")}${unbounded > 0 ? `, ${formatCount(unbounded)} unbounded` : ""}`, {
    head: measured
      ? tableHeader(
          ["Table", "Rows/partition", "Values", "Bytes", "Engine bytes", "Measured largest", "Basis", "Unbounded"],
          ["left", "right", "right", "right", "right", "right", "left", "left"],
        )
      : tableHeader(
          ["Table", "Rows/partition", "Values", "Bytes", "Engine bytes", "Basis", "Unbounded"],
          ["left", "right", "right", "right", "right", "left", "left"],
        ),
    rows,
    more: (omitted) => `_${notShown(omitted, { one: "table", many: "tables" })}._`,
  });
}

/** The model diagram (diagram.ts), collapsed. */
function diagramBlock(review: Review): Block | undefined {
  const diagram = modelDiagram(review);
  return diagram && details(diagram.summary, diagram.block);
}

/** Whether a findings table shows each message whole or only its claim (leadSentence). */
type MessageLength = "whole" | "claim";

function findingRow(finding: Finding, length: MessageLength): string {
  const message = length === "whole" ? finding.message : leadSentence(finding.message);
  return tableRow([
    `${BADGE[finding.severity]} ${finding.severity}${finding.existing ? " (existing)" : ""}`,
    `[${tableCodeSpan(finding.rule)}](${ruleDocUrl(finding.rule)})`,
    tableCodeSpan(location(finding)),
    messageMarkdown(clipText(message, 1_000), "table"),
  ]);
}

/**
 * A table of findings under `title`, or nothing when there are none. Findings that fail the gate
 * keep their whole message; the others show their claim, because a summary of dozens of warnings
 * is read by scanning, and the reasoning is in each one's annotation and inline comment.
 */
function findingsTable(title: string, findings: readonly Finding[], length: MessageLength, standalone = false): Block | undefined {
  if (findings.length === 0) return undefined;
  // Printed on its own (the CLI) there is no check run holding the whole findings: every message is whole.
  if (standalone) length = "whole";
  const note = length === "claim" && findings.some((finding) => leadSentence(finding.message) !== finding.message)
    ? "\n\n_Each message's first sentence; the whole finding is in its annotation on this check run._"
    : "";
  return {
    head: `${title}${note}\n\n${tableHeader(["Severity", "Rule", "Location", "Message"])}`,
    rows: [...findings].sort(compareFindings).map((finding) => findingRow(finding, length)),
    more: (omitted) =>
      `_${notShown(omitted, { one: "finding", many: "findings" })}${standalone ? "" : "; every finding is also an annotation of this check run"}._`,
  };
}

/** The findings by what they mean for the change: failing the gate, new, already at the base (collapsed). */
function findingsBlocks(review: Review, shownInline: ReadonlySet<string> | undefined, standalone = false, heading = "###"): Block[] {
  const listed = review.findings.filter((finding) => !shownInline?.has(finding.fingerprint));
  if (review.findings.length === 0) return [{ head: "No findings." }];
  const gating = listed.filter((finding) => failsGate(finding, review));
  const fresh = listed.filter((finding) => !finding.existing && !gating.includes(finding));
  const existing = listed.filter((finding) => finding.existing && !gating.includes(finding));
  const existingTable = findingsTable("", existing, "claim", standalone);
  return [
    findingsTable(`${heading} Fails the gate (${formatCount(gating.length)})`, gating, "whole", standalone),
    findingsTable(`${heading} ${gating.length > 0 ? "Other new findings" : "New findings"} (${formatCount(fresh.length)})`, fresh, "claim", standalone),
    existingTable && details(`${plural(existing.length, "finding", "findings")} already at the base commit (they do not fail the gate)`, { ...existingTable, head: existingTable.head!.trimStart() }),
  ].filter((block): block is Block => block !== undefined);
}

export interface CheckSummaryOptions {
  /** default 65,000 (GitHub's limit is 65,535) */
  maxLength?: number;
  /** fingerprints of findings posted as inline review comments; they are left out of the list */
  shownInline?: ReadonlySet<string>;
  /** printed on its own (`cql-review check --format markdown`), not as a check run's summary: whole messages, no word of annotations */
  standalone?: boolean;
}

/**
 * The check run's summary, in the order a reader needs it: the verdict and why; what was not
 * reviewed; the findings that fail the gate, the other new ones, those already at the base
 * (collapsed); then queries, partition estimates and the model diagram, each collapsed. When it
 * must be cut, it is cut from the end, each section saying how much it left out.
 */
export function renderCheckSummary(review: Review, options: CheckSummaryOptions = {}): string {
  if (review.models) return renderModelsSummary(review, options);
  const blocks = [
    verdictBlock(review, options.shownInline),
    unreviewedBlock(review),
    ...findingsBlocks(review, options.shownInline, options.standalone),
    suggestedTablesBlock(review),
    queriesBlock(review),
    estimatesBlock(review),
    diagramBlock(review),
  ].filter((block): block is Block => block !== undefined);
  return fitBlocks(blocks, options.maxLength ?? CHECK_SUMMARY_MAX_LENGTH, { fill: "in-order" });
}

/** The summary of a review with several models: one verdict, then each model's findings, queries and estimates under its name. */
function renderModelsSummary(review: Review, options: CheckSummaryOptions): string {
  const blocks: (Block | undefined)[] = [verdictBlock(review, options.shownInline), unreviewedBlock(review)];
  for (const { model, findings } of findingsByModel(review)) {
    if (!model && findings.length === 0) continue;
    const part = { ...(model?.review ?? review), findings };
    if (model) blocks.push({ head: `### Model ${codeSpan(model.name)}${model.review ? "" : ` (not reviewed: ${escapeMarkdown(model.skipped ?? "skipped")})`}` });
    if (model && !model.review) continue;
    append(blocks, findingsBlocks(part, options.shownInline, options.standalone, "####"));
    if (!model?.review) continue;
    blocks.push(suggestedTablesBlock(model.review), queriesBlock(model.review), estimatesBlock(model.review), diagramBlock(model.review));
  }
  return fitBlocks(blocks.filter((block): block is Block => block !== undefined), options.maxLength ?? CHECK_SUMMARY_MAX_LENGTH, { fill: "in-order" });
}

// ---------------------------------------------------------------------------------------------
// Explain

/** The answer in one paragraph: the verdict, why, and the figures that follow from it. */
function answerBlock(plan: QueryPlan, servedBy: string): Block {
  const figures = [`**partitions read:** ${escapeMarkdown(formatPartitions(plan.partitions))}`];
  if (plan.rowsRead !== null) figures.push(`**rows read:** ${formatCount(plan.rowsRead)}`);
  if (plan.rowsEstimate) figures.push(`**rows per call:** ${formatCount(Math.round(plan.rowsEstimate.perCall))} (worst ${formatCount(Math.round(plan.rowsEstimate.worstPerCall))})`);
  if (plan.tombstonesEstimate) figures.push(`**tombstones a read:** ${formatCount(plan.tombstonesEstimate.perRead)} (worst ${formatCount(plan.tombstonesEstimate.worstPerRead)})`);
  if (plan.direction) figures.push(`**direction:** ${plan.direction}`);
  if (plan.index) figures.push(`**index:** ${codeSpan(plan.index)}`);
  const reason = messageMarkdown(withoutRuleCodes(plan.reason));
  const gist = plan.errorGist ? `\n\nCassandra says: ${messageMarkdown(plan.errorGist)}` : "";
  return { head: `${verdictCell(plan.verdict)}: ${reason}${gist}\n\n${servedBy}${figures.join(" · ")}` };
}

/** How the verdict was reached: the statement, the planner's steps and its notes. */
function planBlocks(plan: QueryPlan, cql: string | undefined): Block[] {
  const blocks: Block[] = [];
  if (cql !== undefined || plan.steps.length > 0) {
    blocks.push({
      // A blank line after the statement's fence, so the steps read as their own list.
      head: `**Plan**${cql !== undefined ? `\n\n${fencedBlock(cql, "sql")}${plan.steps.length > 0 ? "\n" : ""}` : ""}`,
      rows: plan.steps.map((step, index) => `${index + 1}. **${escapeMarkdown(step.topic)}**: ${messageMarkdown(withoutRuleCodes(step.text))}`),
      more: (omitted) => `_${notShown(omitted, { one: "step", many: "steps" })}._`,
    });
  }
  if (plan.notes.length > 0) {
    blocks.push({
      head: "**Notes**",
      rows: plan.notes.map((note) => `- ${messageMarkdown(withoutRuleCodes(note))}`),
      more: (omitted) => `_${notShown(omitted, { one: "note", many: "notes" })}._`,
    });
  }
  return blocks;
}

function estimateBlock(table: string, estimate: PartitionEstimate | undefined): Block[] {
  if (!estimate) return [];
  const lines = [
    `**Partition estimate** for ${codeSpan(table)}: ${messageMarkdown(estimate.basisText)}`,
    "",
    tableHeader(["", "Rows", "Values", "Bytes", "Engine bytes"], ["left", "right", "right", "right", "right"]),
    ...(["average", "worst"] as const).map((which) => {
      const figures = estimate[which];
      return tableRow([which, formatCount(figures.rows), formatCount(figures.values), formatBytes(figures.bytes), figures.engineBytes === null ? "—" : formatBytes(figures.engineBytes)]);
    }),
  ];
  if (estimate.unbounded) {
    const crossings = Object.entries(estimate.crossesLimitsAfter ?? {}).map(([limit, after]) => `${escapeMarkdown(limit)} ${messageMarkdown(after)}`);
    lines.push("", `**Unbounded:** partitions grow without a bucket or TTL${crossings.length ? `; limits crossed: ${crossings.join(", ")}` : ""}.`);
  }
  if (estimate.bucket) lines.push("", `**Bucket suggestion:** ${messageMarkdown(estimate.bucket.explanation)}`);
  const cell = largestCell(estimate);
  if (cell) lines.push("", `**Largest cell:** ${codeSpan(cell.column)}, ${cellSizeText(cell)}${cell.kind === "frozen" ? " (frozen: rewritten whole by every change)" : ""}`);
  return [{ head: lines.join("\n") }];
}

function findingsList(findings: readonly Finding[]): Block[] {
  if (findings.length === 0) return [{ head: "**Findings:** none." }];
  return [
    {
      head: "**Findings**",
      rows: [...findings].sort(compareFindings).map(
        (finding) =>
          `- ${BADGE[finding.severity]} [${codeSpan(finding.rule)}](${ruleDocUrl(finding.rule)}) ${codeSpan(location(finding))}: ${messageMarkdown(clipText(finding.message, 1_000))}${finding.existing ? " _(existing)_" : ""}`,
      ),
      more: (omitted) => `_${notShown(omitted, { one: "finding", many: "findings" })}._`,
    },
  ];
}

/** Where a statement of the code is written, and where the driver runs it when elsewhere. */
function codePlaceMarkdown(code: CodePlace): string {
  const call = code.call ? `, run at ${codeSpan(`${code.call.file}:${code.call.line}`)}` : "";
  return `${codeSpan(`${code.file}:${code.line}`)} (${codeSpan(code.api)}${call})`;
}

/** Answer first (verdict, why, what is wrong, the table to add), then the plan, then the candidates. */
function queryAnswer(answer: QueryExplanation): Block[] {
  const title = `### ${codeSpan(answer.id)}${answer.description ? ` · ${messageMarkdown(answer.description)}` : ""}`;
  const served = answer.table
    ? `Served by ${codeSpan(answer.table)} (Cassandra ${answer.version}) · `
    : `No table serves this query (Cassandra ${answer.version}) · `;
  const answered = answerBlock(answer.plan, served);
  const inCode = answer.code ? `\n\nIn the code: ${codePlaceMarkdown(answer.code)}${answer.code.id === answer.id ? "" : ` · ${codeSpan(answer.code.id)}`}` : "";
  const blocks: Block[] = [{ ...answered, head: `${title}${inCode}\n\n${answered.head}` }, ...findingsList(answer.findings)];
  if (answer.suggestedTable) {
    // Why its key holds a bucket: the worst partition against the limits, and the width chosen.
    const sizing = answer.suggestedTableSizing ? `\n\n${messageMarkdown(withoutRuleCodes(answer.suggestedTableSizing))}` : "";
    blocks.push({ head: `**A table that would serve it:**\n\n${fencedBlock(answer.suggestedTable, "sql")}${sizing}` });
  }
  blocks.push(...planBlocks(answer.plan, answer.cql));
  if (answer.candidates.length > 0) {
    blocks.push({
      head: `**Candidates**\n\n${tableHeader(["Table", "Verdict", "Partitions", "Why"])}`,
      rows: answer.candidates.map((candidate) =>
        tableRow([
          tableCodeSpan(candidate.table),
          verdictCell(candidate.verdict),
          escapeMarkdown(formatPartitions(candidate.partitions)),
          messageMarkdown(withoutRuleCodes(candidate.because), "table"),
        ]),
      ),
      more: (omitted) => `_${notShown(omitted, { one: "candidate", many: "candidates" })}._`,
    });
  }
  if (answer.table) blocks.push(...estimateBlock(answer.table, answer.estimate));
  return blocks;
}

function selectAnswer(answer: SelectExplanation): Block[] {
  const answered = answerBlock(answer.plan, `On ${codeSpan(answer.table)} (Cassandra ${answer.version}) · `);
  return [
    { ...answered, head: `### ${codeSpan(answer.table)}\n\n${answered.head}` },
    ...planBlocks(answer.plan, answer.cql),
    ...estimateBlock(answer.table, answer.estimate),
  ];
}

function tableAnswer(answer: TableExplanation): Block[] {
  const kind = answer.tableKind === "view" ? `materialized view of ${codeSpan(answer.baseTable ?? "?")}` : "table";
  const facts = [
    `${codeSpan(answer.location.file)} line ${answer.location.range.start.line}`,
    answer.defaultTtlSeconds > 0 ? `default TTL ${formatCount(answer.defaultTtlSeconds)} s` : "no default TTL",
    ...(answer.compaction ? [`compaction ${codeSpan(answer.compaction)}`] : []),
  ];
  const blocks: Block[] = [
    { head: `### ${codeSpan(answer.table)} (${kind})\n\n${facts.join(" · ")}` },
    {
      head: tableHeader(["Column", "Type", "Key", "Order"]),
      rows: answer.columns.map((column) =>
        tableRow([tableCodeSpan(column.name), tableCodeSpan(column.type), column.kind === "partition" ? "partition key" : column.kind, column.order ?? ""]),
      ),
      more: (omitted) => `_${notShown(omitted, { one: "column", many: "columns" })}._`,
    },
  ];
  if (answer.indexes.length > 0) {
    blocks.push({
      head: "**Indexes**",
      rows: answer.indexes.map((index) => `- ${codeSpan(index.name)} on ${codeSpan(index.column)} (${index.implementation}, ${index.target})`),
      more: (omitted) => `_${notShown(omitted, { one: "index", many: "indexes" })}._`,
    });
  }
  if (answer.views.length > 0) blocks.push({ head: `**Views:** ${answer.views.map((view) => codeSpan(view)).join(", ")}` });
  blocks.push(...estimateBlock(answer.table, answer.estimate));
  if (answer.measured && answer.measured.length > 0) {
    blocks.push({
      head: `**Measured in production** (saved nodetool output) beside the estimate\n\n${tableHeader(["", "Estimated", "Measured", "Source"], ["left", "right", "right", "left"])}`,
      rows: answer.measured.map((row) =>
        tableRow([
          escapeMarkdown(row.label),
          row.estimated === null ? "—" : escapeMarkdown(formatMeasuredValue(row.estimated, row.unit)),
          escapeMarkdown(formatMeasuredValue(row.measured.value, row.unit)),
          `${tableCodeSpan(`${row.measured.file}:${row.measured.line}`)}${row.measured.from === "one node" ? "" : ` (${row.measured.from} of ${row.measured.nodes})`}`,
        ]),
      ),
      more: (omitted) => `_${notShown(omitted, { one: "figure", many: "figures" })}._`,
    });
  }
  blocks.push(
    answer.queries.length === 0
      ? { head: "**Queries:** none of the manifest's queries use this table." }
      : {
          head: `**Queries**\n\n${tableHeader(["Query", "Role", "Verdict", "Partitions"])}`,
          rows: answer.queries.map((query) =>
            tableRow([tableCodeSpan(query.id), query.role === "serves" ? "served here" : "candidate", verdictCell(query.verdict), escapeMarkdown(formatPartitions(query.partitions))]),
          ),
          more: (omitted) => `_${notShown(omitted, { one: "query", many: "queries" })}._`,
        },
  );
  blocks.push(...findingsList(answer.findings));
  return blocks;
}

/** The reply to `/cql explain …`. */
export function renderExplainMarkdown(answer: ExplainAnswer, options: { maxLength?: number } = {}): string {
  let blocks: Block[];
  switch (answer.kind) {
    case "query":
      blocks = queryAnswer(answer);
      break;
    case "select":
      blocks = selectAnswer(answer);
      break;
    case "table":
      blocks = tableAnswer(answer);
      break;
    case "not-found":
      blocks = [
        { head: messageMarkdown(answer.message) },
        answer.known.length === 0
          ? { head: answer.target === "query" ? "There are no queries to explain." : "There are no tables to explain." }
          : {
              head: `Known ${answer.target === "query" ? "queries" : "tables"}, nearest first:`,
              rows: answer.known.map((name) => `- ${codeSpan(name)}`),
              more: (omitted) => `_${notShown(omitted, { one: "name", many: "names" })}._`,
            },
      ];
      break;
    case "code-dynamic":
      blocks = [
        {
          head: `### ${codeSpan(answer.code.id)}\n\nBuilt at run time, not analysed: ${messageMarkdown(answer.reason)}, at ${codePlaceMarkdown(answer.code)}, starting ${codeSpan(answer.start)}.`,
        },
      ];
      break;
    case "invalid-select":
      blocks = [
        { head: `This statement cannot be explained:\n\n${fencedBlock(answer.cql, "sql")}` },
        {
          rows: answer.errors.map((error) => `- line ${error.line}, column ${error.column}: ${messageMarkdown(error.message)}`),
          more: (omitted) => `_${notShown(omitted, { one: "error", many: "errors" })}._`,
        },
      ];
      break;
  }
  return fitBlocks(blocks, options.maxLength ?? COMMENT_MAX_LENGTH);
}
