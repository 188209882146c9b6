// `cql-review explain` in a terminal: the same answer renderExplainMarkdown gives on GitHub, laid
// out in aligned columns.
import { formatMeasuredValue } from "../analysis/measured.js";
import { withoutRuleCodes } from "../analysis/planner.js";
import type { IndexScanEstimate, PartitionEstimate, QueryPlan } from "../analysis/types.js";
import type { CodePlace, ExplainAnswer } from "../explain.js";
import { compareFindings, type Finding } from "../findings.js";
import { cellSizeText, formatBytes, formatCount, formatPartitions, largestCell } from "./figures.js";
import { columns, painter, terminalSafe, type TextOptions } from "./text.js";

type Paint = ReturnType<typeof painter>;

function facts(rows: [string, string | undefined][]): string[] {
  return columns(rows.filter((row): row is [string, string] => row[1] !== undefined));
}

function tombstonesText(estimate: NonNullable<QueryPlan["tombstonesEstimate"]>): string {
  const where = estimate.region === "queue" ? "from the start, past deleted rows" : estimate.region === "rows" ? "nulls in the rows read" : "whole partition";
  return `${formatCount(estimate.perRead)} (worst ${formatCount(estimate.worstPerRead)}; ${where}; gc_grace_seconds ${formatCount(estimate.gcGraceSeconds)})`;
}

function indexEntriesText(scan: IndexScanEstimate): string {
  const where = scan.fanOut ? "across every node" : "in the bound partition";
  const worst = scan.worstEntries > scan.entries ? ` (most common value ${formatCount(Math.round(scan.worstEntries))})` : "";
  const filtered = scan.postFiltered.length > 0 ? `; then filters ${scan.postFiltered.map(terminalSafe).join(", ")}` : "";
  return `${formatCount(Math.round(scan.entries))} for one ${terminalSafe(scan.column)} value${worst}, ${where}${filtered}`;
}

/** The answer: the verdict and why, then the figures that follow from it. */
function answerLines(plan: QueryPlan): string[] {
  return facts([
    ["verdict", `${plan.verdict}: ${terminalSafe(withoutRuleCodes(plan.reason))}`],
    ["Cassandra says", plan.errorGist === undefined ? undefined : terminalSafe(plan.errorGist)],
    ["partitions", formatPartitions(plan.partitions)],
    ["rows read", plan.rowsRead === null ? undefined : formatCount(plan.rowsRead)],
    // The estimate from the manifest's figures (estimator-rows.ts), when they allow one.
    ["rows per call", plan.rowsEstimate && `${plan.rowsEstimate.slice ? "up to " : ""}${formatCount(Math.round(plan.rowsEstimate.perCall))} (worst ${formatCount(Math.round(plan.rowsEstimate.worstPerCall))})${plan.rowsEstimate.returned === undefined ? "" : `, returns at most ${formatCount(plan.rowsEstimate.returned)}`}`],
    ["rows a second", plan.rowsEstimate?.perSecond === undefined ? undefined : formatCount(Math.round(plan.rowsEstimate.perSecond))],
    // Tombstones walked per partition read (estimator-tombstones.ts), when the write paths allow.
    ["tombstones a read", plan.tombstonesEstimate && tombstonesText(plan.tombstonesEstimate)],
    ["direction", plan.direction ?? undefined],
    ["index", plan.index === undefined ? undefined : terminalSafe(plan.index)],
    // What one value's index lookup scans (estimator-index.ts), when the manifest states its distinct values.
    ["index entries", plan.rowsEstimate?.index && indexEntriesText(plan.rowsEstimate.index)],
  ]);
}

/** How the verdict was reached: the statement, the planner's steps and its notes. */
function planLines(plan: QueryPlan, cql: string | undefined, paint: Paint): string[] {
  const lines: string[] = [];
  if (cql !== undefined || plan.steps.length > 0) {
    lines.push("", paint("Plan", "bold"));
    if (cql !== undefined) lines.push(...cql.split(/\r\n|\r|\n/).map((line) => `  ${terminalSafe(line)}`));
    lines.push(...columns(plan.steps.map((step, index) => [`${index + 1}.`, terminalSafe(step.topic), terminalSafe(withoutRuleCodes(step.text))])));
  }
  if (plan.notes.length > 0) lines.push("", paint("Notes", "bold"), ...plan.notes.map((note) => `  - ${terminalSafe(withoutRuleCodes(note))}`));
  return lines;
}

function estimateLines(table: string, estimate: PartitionEstimate | undefined, paint: Paint): string[] {
  if (!estimate) return [];
  const lines = [
    "",
    `${paint("Partition estimate", "bold")} of ${terminalSafe(table)}: ${terminalSafe(estimate.basisText)}`,
    ...columns([
      ["", "rows", "values", "bytes", "engine bytes"],
      ...(["average", "worst"] as const).map((which) => {
        const figures = estimate[which];
        return [which, formatCount(figures.rows), formatCount(figures.values), formatBytes(figures.bytes), figures.engineBytes === null ? "—" : formatBytes(figures.engineBytes)];
      }),
    ]),
  ];
  if (estimate.unbounded) {
    const crossings = Object.entries(estimate.crossesLimitsAfter ?? {}).map(([limit, after]) => `${limit} ${terminalSafe(after)}`);
    lines.push(`  ${paint("unbounded", "red")}: partitions grow without a bucket or TTL${crossings.length ? `; limits crossed: ${crossings.join(", ")}` : ""}`);
  }
  if (estimate.bucket) lines.push(`  bucket suggestion: ${terminalSafe(estimate.bucket.explanation)}`);
  const cell = largestCell(estimate);
  if (cell) lines.push(`  largest cell: ${terminalSafe(cell.column)}, ${cellSizeText(cell)}${cell.kind === "frozen" ? " (frozen: rewritten whole by every change)" : ""}`);
  return lines;
}

function findingLines(findings: readonly Finding[], paint: Paint): string[] {
  if (findings.length === 0) return ["", `${paint("Findings", "bold")}: none`];
  return [
    "",
    paint("Findings", "bold"),
    ...columns(
      [...findings].sort(compareFindings).map((finding) => [
        `${terminalSafe(finding.location.file)}:${finding.location.range.start.line}:${finding.location.range.start.column}`,
        finding.severity,
        terminalSafe(finding.message),
        `${finding.rule}${finding.existing ? " (existing)" : ""}`,
      ]),
    ),
  ];
}

/** Where a statement of the code is written, and where the driver runs it when elsewhere. */
function codePlaceText(code: CodePlace): string {
  const call = code.call ? `, run at ${terminalSafe(code.call.file)}:${code.call.line}` : "";
  return `${terminalSafe(code.file)}:${code.line} (${terminalSafe(code.api)}${call})`;
}

function explanationLines(answer: ExplainAnswer, paint: Paint): string[] {
  switch (answer.kind) {
    case "query": {
      // Answer first (verdict and why, what is wrong, the table to add), then the plan, then the candidates.
      const lines = [
        paint(`${terminalSafe(answer.id)}${answer.description ? ` · ${terminalSafe(answer.description)}` : ""}`, "bold"),
        `  ${answer.table ? `served by ${terminalSafe(answer.table)}` : "no table serves it"} (Cassandra ${answer.version}; ${terminalSafe(answer.location.file)}:${answer.location.range.start.line})`,
        ...(answer.code ? [`  in the code: ${codePlaceText(answer.code)}${answer.code.id === answer.id ? "" : `, ${terminalSafe(answer.code.id)}`}`] : []),
        ...answerLines(answer.plan),
        ...findingLines(answer.findings, paint),
      ];
      if (answer.suggestedTable) {
        lines.push("", paint("A table that would serve it", "bold"), ...answer.suggestedTable.split("\n").map((line) => `  ${terminalSafe(line)}`));
        // Why its key holds a bucket: the worst partition against the limits, and the width chosen.
        if (answer.suggestedTableSizing) lines.push(`  ${terminalSafe(withoutRuleCodes(answer.suggestedTableSizing))}`);
      }
      lines.push(...planLines(answer.plan, answer.cql, paint));
      if (answer.candidates.length > 0) {
        lines.push(
          "",
          paint("Candidates", "bold"),
          ...columns([
            ["table", "verdict", "partitions", "why"],
            ...answer.candidates.map((candidate) => [terminalSafe(candidate.table), candidate.verdict, formatPartitions(candidate.partitions), terminalSafe(withoutRuleCodes(candidate.because))]),
          ]),
        );
      }
      if (answer.table) lines.push(...estimateLines(answer.table, answer.estimate, paint));
      return lines;
    }
    case "select":
      return [
        paint(terminalSafe(answer.cql), "bold"),
        `  on ${terminalSafe(answer.table)} (Cassandra ${answer.version})`,
        ...answerLines(answer.plan),
        ...planLines(answer.plan, undefined, paint),
        ...estimateLines(answer.table, answer.estimate, paint),
      ];
    case "table": {
      const lines = [
        paint(`${terminalSafe(answer.table)} (${answer.tableKind === "view" ? `materialized view of ${terminalSafe(answer.baseTable ?? "?")}` : "table"})`, "bold"),
        `  ${terminalSafe(answer.location.file)}:${answer.location.range.start.line} · ${answer.defaultTtlSeconds > 0 ? `default TTL ${formatCount(answer.defaultTtlSeconds)} s` : "no default TTL"}${answer.compaction ? ` · ${terminalSafe(answer.compaction)}` : ""}`,
        "",
        ...columns([
          ["column", "type", "key", "order"],
          ...answer.columns.map((column) => [terminalSafe(column.name), terminalSafe(column.type), column.kind === "partition" ? "partition key" : column.kind, column.order ?? ""]),
        ]),
      ];
      if (answer.indexes.length > 0) {
        lines.push("", paint("Indexes", "bold"), ...answer.indexes.map((index) => `  ${terminalSafe(index.name)} on ${terminalSafe(index.column)} (${index.implementation}, ${index.target})`));
      }
      if (answer.views.length > 0) lines.push("", `${paint("Views", "bold")}: ${answer.views.map(terminalSafe).join(", ")}`);
      lines.push(...estimateLines(answer.table, answer.estimate, paint));
      if (answer.measured && answer.measured.length > 0) {
        lines.push(
          "",
          `${paint("Measured in production", "bold")} (saved nodetool output) beside the estimate:`,
          ...columns([
            ["", "estimated", "measured", "source"],
            ...answer.measured.map((row) => [
              row.label,
              row.estimated === null ? "—" : formatMeasuredValue(row.estimated, row.unit),
              formatMeasuredValue(row.measured.value, row.unit),
              `${terminalSafe(row.measured.file)}:${row.measured.line}${row.measured.from === "one node" ? "" : ` (${row.measured.from} of ${row.measured.nodes})`}`,
            ]),
          ]),
        );
      }
      lines.push(
        "",
        ...(answer.queries.length === 0
          ? [`${paint("Queries", "bold")}: none of the manifest's queries use this table`]
          : [
              paint("Queries", "bold"),
              ...columns([
                ["query", "role", "verdict", "partitions"],
                ...answer.queries.map((query) => [terminalSafe(query.id), query.role === "serves" ? "served here" : "candidate", query.verdict, formatPartitions(query.partitions)]),
              ]),
            ]),
      );
      lines.push(...findingLines(answer.findings, paint));
      return lines;
    }
    case "not-found":
      return [
        terminalSafe(answer.message),
        answer.known.length === 0
          ? `There are no ${answer.target === "query" ? "queries" : "tables"} to explain.`
          : `Known ${answer.target === "query" ? "queries" : "tables"}, nearest first: ${answer.known.map(terminalSafe).join(", ")}`,
      ];
    case "code-dynamic":
      return [
        paint(terminalSafe(answer.code.id), "bold"),
        `  built at run time, not analysed: ${terminalSafe(answer.reason)}`,
        `  at ${codePlaceText(answer.code)}, starting ${terminalSafe(answer.start)}`,
      ];
    case "invalid-select":
      return [
        "This statement cannot be explained:",
        ...answer.cql.split(/\r\n|\r|\n/).map((line) => `  ${terminalSafe(line)}`),
        ...answer.errors.map((error) => `  ${paint(`${error.line}:${error.column}`, "dim")}  ${paint("error", "red")}  ${terminalSafe(error.message)}`),
      ];
  }
}

export function renderExplainText(answer: ExplainAnswer, options: TextOptions): string {
  return `${explanationLines(answer, painter(options.color)).join("\n")}\n`;
}
