// What a review computes between reading the pull request from GitHub and writing back to it:
// application code read, the core's review, the collector's own findings added, the inline
// comments planned, and the check run's summary. Run in process (tests, the Action) or in a
// review thread (review-threads.ts), which hands back a plain copy of the result.
import { FILE_START, type Finding } from "../../findings.js";
import type { Review, SourceFile } from "../../review.js";
import { summaryMaxLength } from "../api/check-run.js";
import type { ChangedFile, PostedComment } from "../api/collect.js";
import { planComments, type CommentPlan } from "../api/review-comments.js";
import type { ExplainRequest, ReviewCore } from "../port.js";
import { withCollectionFindings } from "./collection-findings.js";

export interface AnalysisRequest {
  files: SourceFile[];
  baseFiles: SourceFile[];
  configFile?: SourceFile;
  /** what the collector could not read, as findings */
  collectionFindings: Finding[];
  changedFiles: ChangedFile[];
  postedComments: PostedComment[];
}

/** The part of a review the GitHub calls read. */
export type ReviewOutcomeData = Pick<Review, "findings" | "config" | "gateFails">;

export interface Analysis {
  review: ReviewOutcomeData;
  plan: CommentPlan;
  /** the check run's summary: findings shown inline (by fingerprint) are left out of it */
  renderCheckSummary(options: { maxLength?: number; shownInline?: ReadonlySet<string> }): string;
  /** false when the review was stopped (deadline, memory): its findings say nothing about earlier ones */
  complete?: boolean;
}

/**
 * Where the review's computation runs when not on the caller's thread: the server's review threads
 * (review-threads.ts), with a deadline and a memory limit. Without it, the use cases run the core
 * in process.
 */
export interface ReviewIsolation {
  analyse(request: AnalysisRequest): Promise<Analysis>;
  /** `/cql explain`: review the files and answer the question */
  explain(request: ExplainRequest): Promise<string>;
}

export async function analyseInProcess(core: ReviewCore, request: AnalysisRequest): Promise<Analysis> {
  // Application code is read first: its grammars load asynchronously.
  const codeConfig = core.readCode ? core.loadConfig(request.configFile).config : undefined;
  const code = codeConfig ? await core.readCode!(request.files, codeConfig) : undefined;
  const baseCode = codeConfig ? await core.readCode!(request.baseFiles, codeConfig) : undefined;
  const changedPaths = touchedPaths(request.changedFiles);
  const review = withCollectionFindings(
    core.review({
      ...(changedPaths ? { changedPaths } : {}),
      files: request.files,
      baseFiles: request.baseFiles,
      ...(request.configFile ? { configFile: request.configFile } : {}),
      ...(code ? { code } : {}),
      ...(baseCode ? { baseCode } : {}),
    }),
    request.collectionFindings,
  );
  const plan = planComments({
    findings: review.findings,
    changedFiles: request.changedFiles,
    headFiles: request.files,
    posted: request.postedComments,
    max: review.config.comments.max,
    render: core.renderFindingComment,
  });
  return { review, plan, renderCheckSummary: (options) => core.renderCheckSummary(review, options) };
}

/** GitHub lists at most 3,000 files of a pull request (pulls.listFiles). */
const LISTED_FILES_CAP = 3_000;

/**
 * The paths a pull request touches, both sides of a rename: with several models, only the models
 * holding one are reviewed. Undefined (every model reviewed) when the list is empty or may be cut.
 */
export function touchedPaths(changedFiles: readonly ChangedFile[]): string[] | undefined {
  if (changedFiles.length === 0 || changedFiles.length >= LISTED_FILES_CAP) return undefined;
  return changedFiles.flatMap((file) => (file.previousPath ? [file.path, file.previousPath] : [file.path]));
}

/**
 * An analysis as plain data, to cross a thread boundary: structured cloning drops the getters of
 * the model's source spans, so findings travel as JSON, and the summary, which needs the whole
 * model, is rendered before leaving, for the two ways the review can go (GitHub takes the planned
 * inline comments, or refuses them all).
 */
export interface PortableAnalysis {
  review: ReviewOutcomeData;
  plan: CommentPlan;
  summaries: { shownInline: string[]; text: string }[];
}

export function toPortable(analysis: Analysis): PortableAnalysis {
  const alreadyPosted = analysis.plan.alreadyPosted.map((finding) => finding.fingerprint);
  const allPosted = [...analysis.plan.comments.map((comment) => comment.finding.fingerprint), ...alreadyPosted];
  const maxLength = summaryMaxLength(analysis.review.findings);
  const summaries = [allPosted, alreadyPosted].map((shown) => ({
    shownInline: shown,
    text: analysis.renderCheckSummary({ maxLength, shownInline: new Set(shown) }),
  }));
  // Only what the main thread reads: the review's model (schema, manifest, estimates) stays here.
  const plain = JSON.parse(JSON.stringify({ findings: analysis.review.findings, plan: analysis.plan })) as Pick<ReviewOutcomeData, "findings"> & Pick<PortableAnalysis, "plan">;
  return {
    review: { findings: plain.findings, config: analysis.review.config, gateFails: analysis.review.gateFails },
    plan: plain.plan,
    summaries,
  };
}

export function fromPortable(portable: PortableAnalysis): Analysis {
  return {
    review: portable.review,
    plan: portable.plan,
    renderCheckSummary({ shownInline }) {
      const shown = shownInline ?? new Set<string>();
      const same = portable.summaries.find((summary) => summary.shownInline.length === shown.size && summary.shownInline.every((fingerprint) => shown.has(fingerprint)));
      // Otherwise the summary that leaves nothing out: a finding listed twice beats one lost.
      return (same ?? portable.summaries.at(-1)!).text;
    },
  };
}

/** Why a review thread stopped before it finished: its deadline or its memory limit. */
export type StopReason = { kind: "deadline"; deadlineMs: number } | { kind: "memory"; limitMb: number };

/** The finding that takes a stopped review's place: the review as a whole was not reviewed. */
export function stoppedReviewFinding(reason: StopReason): Finding {
  const message =
    reason.kind === "deadline"
      ? `not reviewed: the review ran past its ${Math.round(reason.deadlineMs / 1000)} s deadline and was stopped. Split the change, or list large generated files under \`ignore\`.`
      : `not reviewed: the review needed more than its ${reason.limitMb} MB of memory and was stopped. Split the change, or list large generated files under \`ignore\`.`;
  return {
    rule: "input-limit-exceeded",
    severity: "warning",
    location: { file: "", range: FILE_START },
    message,
    fingerprint: `input-limit-exceeded:review-${reason.kind}`,
  };
}

/**
 * The analysis of a review stopped at its deadline or memory limit: nothing of it is known, so an
 * empty review carries the reason and the config's gate (`unreviewed` decides whether it fails),
 * and earlier comments and change requests are left as they are. Rendered on the calling thread
 * (an empty review: cheap).
 */
export async function stoppedAnalysis(core: ReviewCore, request: AnalysisRequest, reason: StopReason): Promise<Analysis> {
  const stopped = await analyseInProcess(core, {
    ...request,
    files: [],
    baseFiles: [],
    collectionFindings: [...request.collectionFindings, stoppedReviewFinding(reason)],
  });
  return { ...stopped, complete: false };
}

/** `/cql explain`'s answer when its review was stopped. */
export function stoppedExplainAnswer(reason: StopReason): string {
  return stoppedReviewFinding(reason).message.replace(/^not reviewed: the review/, "I could not answer: the review");
}

/** What a review thread answered or why it was stopped (server threads and Lambda's alike). */
export type ThreadOutcome = { result: unknown } | { stopped: StopReason };

/** A review thread's outcome as the analysis the worker posts: the thread's result, or "not reviewed". */
export function analysisFromThread(core: ReviewCore, request: AnalysisRequest, outcome: ThreadOutcome): Promise<Analysis> {
  if ("stopped" in outcome) return stoppedAnalysis(core, request, outcome.stopped);
  return Promise.resolve(fromPortable(outcome.result as PortableAnalysis));
}

/** An explain thread's outcome as the answer to post. */
export function explainFromThread(outcome: ThreadOutcome): string {
  return "stopped" in outcome ? stoppedExplainAnswer(outcome.stopped) : (outcome.result as string);
}

/** Whether a thread's error is V8 running out of the heap its `resourceLimits` allow. */
export function isOutOfMemory(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return code === "ERR_WORKER_OUT_OF_MEMORY" || /memory limit/i.test(message ?? "");
}

/** Collector findings may hold source spans, whose getters structured cloning drops: plain JSON crosses. */
export function threadSafeRequest(request: AnalysisRequest): AnalysisRequest {
  return { ...request, collectionFindings: JSON.parse(JSON.stringify(request.collectionFindings)) as AnalysisRequest["collectionFindings"] };
}
