// The `cql-review` check run: created `in_progress` at once on the head commit, completed with
// a conclusion by `fail_on`, every finding as an annotation, and the Markdown summary.
import { SEVERITY_ORDER, type Finding, type Severity } from "../../findings.js";
import { codeSpan, escapeMarkdown } from "../../report/markdown-escape.js";
import type { Review } from "../../review.js";
import { NO_AUTOMATIC_RETRY, postOnce } from "./post-once.js";
import { CHECK_NAME, RERUN_ACTION, type GitHubPort, type Log, type PullRequestRef, type ReviewCore } from "../port.js";

/** GitHub accepts at most 50 annotations per create or update request. */
export const ANNOTATIONS_PER_REQUEST = 50;
/**
 * Annotations one review posts at most: 10 requests. Past that, a model with thousands of findings
 * would spend its time (and the installation's rate limit) on check-run updates no one reads.
 */
export const MAX_ANNOTATIONS = 500;
/** GitHub's limit for `output.summary` is 65,535 characters; keep a margin. */
export const SUMMARY_MAX_LENGTH = 65_000;
const TEXT_FIELD_MAX = 64 * 1024 - 1;

const LEVELS: Record<Severity, "failure" | "warning" | "notice"> = {
  error: "failure",
  warning: "warning",
  info: "notice",
};

const RERUN_BUTTON = [
  { label: "Re-run cql-review", description: "Review this pull request again", identifier: RERUN_ACTION },
];

export type Conclusion = "success" | "neutral" | "failure";

/**
 * Creates the run `in_progress`, at most once: after a lost answer, an `in_progress` run of ours
 * on the commit is taken to be the one GitHub made.
 */
export async function startCheckRun(github: GitHubPort, pr: PullRequestRef, log: Log): Promise<number> {
  return postOnce(
    "Creating the check run",
    log,
    async () => {
      const { data } = await github.rest.checks.create({
        owner: pr.owner,
        repo: pr.repo,
        name: CHECK_NAME,
        head_sha: pr.headSha,
        status: "in_progress",
        ...NO_AUTOMATIC_RETRY,
      });
      return data.id;
    },
    async () => (await runsInProgress(github, pr))[0]?.id,
  );
}

export interface RunInProgress {
  id: number;
  startedAt: number;
  /** the app that created it: other apps may name a check `cql-review` too */
  appId?: number;
}

/** Our check runs on the head commit that are still `in_progress`, newest first. */
export async function runsInProgress(github: GitHubPort, pr: PullRequestRef): Promise<RunInProgress[]> {
  const { data } = await github.rest.checks.listForRef({
    owner: pr.owner,
    repo: pr.repo,
    ref: pr.headSha,
    check_name: CHECK_NAME,
    status: "in_progress",
    per_page: 100,
  });
  return data.check_runs
    .map((run) => ({ id: run.id, startedAt: run.started_at ? Date.parse(run.started_at) : 0, ...(run.app?.id !== undefined ? { appId: run.app.id } : {}) }))
    .sort((a, b) => b.id - a.id);
}

/**
 * A run older than this that is still in progress was left by a review that died (a crash, a
 * platform timeout): no review runs this long, so completing it cannot cut a live one short.
 */
export const STALE_RUN_AGE_MS = 10 * 60_000;

/**
 * Completes our runs on the head commit that a dead review left `in_progress`, as `cancelled`, so
 * no stale run stays pending on the pull request. Returns the ids completed.
 */
export async function completeStaleRuns(
  github: GitHubPort,
  pr: PullRequestRef,
  currentId: number,
  ours: (run: RunInProgress) => boolean,
  now = Date.now(),
): Promise<number[]> {
  const stale = (await runsInProgress(github, pr)).filter(
    (run) => run.id !== currentId && ours(run) && now - run.startedAt > STALE_RUN_AGE_MS,
  );
  for (const run of stale) {
    await github.rest.checks.update({
      owner: pr.owner,
      repo: pr.repo,
      check_run_id: run.id,
      status: "completed",
      conclusion: "cancelled",
      output: {
        title: "Superseded",
        summary: `This run stopped before it finished; the latest \`${CHECK_NAME}\` run on this commit has the result.`,
      },
    });
  }
  return stale.map((run) => run.id);
}

/** The gate: only findings new in this change can fail it; other new findings make it neutral. */
export function conclusionOf(review: Pick<Review, "gateFails" | "findings">): Conclusion {
  if (review.gateFails) return "failure";
  return review.findings.some((finding) => !finding.existing) ? "neutral" : "success";
}

/** The findings annotated on the check run (the bound leaves out the least urgent), and a note on the rest. */
function annotationsOf(findings: readonly Finding[]): { chosen: Finding[]; note: string } {
  const annotated = findings.filter((finding) => finding.location.file !== "");
  // New findings first, then by severity: what the bound leaves out is the least urgent.
  const chosen = [...annotated].sort(annotationPriority).slice(0, MAX_ANNOTATIONS);
  const notAnnotated = annotated.length - chosen.length;
  return { chosen, note: notAnnotated > 0 ? notAnnotatedNote(notAnnotated) : "" };
}

/** Room for the rendered summary once the note on findings left unannotated is added. */
export function summaryMaxLength(findings: readonly Finding[]): number {
  return SUMMARY_MAX_LENGTH - annotationsOf(findings).note.length;
}

export async function completeCheckRun<R extends Pick<Review, "findings" | "gateFails" | "config">>(
  github: GitHubPort,
  pr: PullRequestRef,
  checkRunId: number,
  review: R,
  core: Pick<ReviewCore, "ruleDocUrl"> & { renderCheckSummary(review: R, options?: { maxLength?: number; shownInline?: ReadonlySet<string> }): string },
  options: CheckRunOptions = {},
  shownInline?: ReadonlySet<string>,
): Promise<Conclusion> {
  const conclusion = conclusionOf(review);
  const { chosen, note } = annotationsOf(review.findings);
  const output = {
    title: titleOf(review, conclusion),
    // The summary lists what the review's inline comments do not already show.
    summary: core.renderCheckSummary(review, { maxLength: summaryMaxLength(review.findings), ...(shownInline ? { shownInline } : {}) }) + note,
  };
  const annotations = chosen.map((finding) => annotationOf(finding, core.ruleDocUrl));
  const batches: (typeof annotations)[] = [];
  for (let i = 0; i < annotations.length; i += ANNOTATIONS_PER_REQUEST) {
    batches.push(annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
  }
  const last = batches.pop() ?? [];
  // Earlier batches go while the run is still in progress, so no one sees a completed run
  // whose annotations are still arriving.
  for (const batch of batches) {
    await github.rest.checks.update({
      owner: pr.owner,
      repo: pr.repo,
      check_run_id: checkRunId,
      output: { ...output, annotations: batch },
    });
  }
  await github.rest.checks.update({
    owner: pr.owner,
    repo: pr.repo,
    check_run_id: checkRunId,
    status: "completed",
    conclusion,
    output: { ...output, ...(last.length > 0 ? { annotations: last } : {}) },
    ...buttons(options),
  });
  return conclusion;
}

function annotationPriority(a: Finding, b: Finding): number {
  return Number(a.existing ?? false) - Number(b.existing ?? false) || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity];
}

/** Said at the end of the summary when the bound left findings without an annotation. */
export function notAnnotatedNote(count: number): string {
  return `\n\n_${count === 1 ? "1 more finding is" : `${count} more findings are`} not annotated: a review annotates at most ${MAX_ANNOTATIONS}. Run \`cql-review\` locally for the full list._`;
}

/** A failure we could not review through (API error, a crash in the core): said, never dropped. */
export async function failCheckRun(
  github: GitHubPort,
  pr: PullRequestRef,
  checkRunId: number,
  problem: string,
  correlationId: string,
  options: CheckRunOptions = {},
): Promise<void> {
  await github.rest.checks.update({
    owner: pr.owner,
    repo: pr.repo,
    check_run_id: checkRunId,
    status: "completed",
    conclusion: "failure",
    output: {
      title: "cql-review could not finish the review",
      summary: failureSummary(pr.headSha, problem, correlationId, options),
    },
    ...buttons(options),
  });
}

/** The summary of a run that could not finish: the problem as escaped prose (it may quote repository text). */
export function failureSummary(headSha: string, problem: string, correlationId: string, options: CheckRunOptions = {}): string {
  return [
    `cql-review hit a problem and could not review commit \`${headSha.slice(0, 7)}\`:`,
    "",
    `> ${escapeMarkdown(clip(problem, 2000))}`,
    "",
    `${options.rerunButton === false ? "Re-run the workflow" : "Press **Re-run cql-review**"} to try again. If it keeps failing, report correlation id ${codeSpan(clip(correlationId, 200))}.`,
  ].join("\n");
}

export interface CheckRunOptions {
  /** the Re-run button reaches only a GitHub App's webhook; the Action leaves it out */
  rerunButton?: boolean;
}

function buttons(options: CheckRunOptions) {
  return options.rerunButton === false ? {} : { actions: RERUN_BUTTON };
}

function titleOf(review: Pick<Review, "findings" | "config">, conclusion: Conclusion): string {
  const fresh = review.findings.filter((finding) => !finding.existing);
  if (review.findings.length === 0) return "No findings";
  const counts = (["error", "warning", "info"] as const)
    .map((severity) => [severity, fresh.filter((finding) => finding.severity === severity).length] as const)
    .filter(([, n]) => n > 0)
    .map(([severity, n]) => `${n} new ${severity === "info" ? "info" : `${severity}${n === 1 ? "" : "s"}`}`);
  const existing = review.findings.length - fresh.length;
  const parts = [counts.length > 0 ? counts.join(", ") : "Nothing new"];
  if (existing > 0) parts.push(`${existing} existing`);
  if (conclusion === "failure") parts.push(`gate failed (fail_on: ${review.config.failOn})`);
  return parts.join(" · ");
}

export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number;
  end_column?: number;
  annotation_level: "failure" | "warning" | "notice";
  title: string;
  message: string;
  raw_details?: string;
}

export function annotationOf(finding: Finding, ruleDocUrl: (id: string) => string): Annotation {
  const { start, end } = finding.location.range;
  // Ranges end just past their last character; a range ending at column 1 ends on the line before.
  const endLine = end.line > start.line && end.column === 1 ? end.line - 1 : Math.max(end.line, start.line);
  const details = [
    ...Object.entries(finding.data ?? {}).map(([key, value]) => `${key}: ${String(value)}`),
    ...(finding.fix ? [`fix: ${finding.fix.description}`] : []),
    `rule: ${ruleDocUrl(finding.rule)}`,
  ];
  return {
    path: finding.location.file,
    start_line: start.line,
    end_line: endLine,
    // GitHub takes columns only on single-line annotations.
    ...(end.line === start.line ? { start_column: start.column, end_column: Math.max(start.column, end.column - 1) } : {}),
    annotation_level: LEVELS[finding.severity],
    title: clip(`${finding.rule}${finding.existing ? " (existing)" : ""}`, 255),
    message: clip(finding.message, TEXT_FIELD_MAX),
    raw_details: clip(details.join("\n"), TEXT_FIELD_MAX),
  };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
