// The use case every runtime shares: review one pull request at its head commit and report it
// as a check run and a review. Six GitHub requests for an ordinary pull request: check create,
// listFiles, getTree, one GraphQL read, createReview, check update. The push that makes the gate
// pass adds one request per earlier change request of ours it dismisses.
import { compareFindings, type Finding } from "../findings.js";
import { gateFails, unreviewedOf, type Review } from "../review.js";
import { dismissFixedChangeRequests } from "./change-requests.js";
import { completeCheckRun, failCheckRun, startCheckRun, type CheckRunOptions, type Conclusion } from "./check-run.js";
import { collectPullRequest } from "./collect.js";
import type { GitHubPort, Log, PullRequestRef, ReviewCore } from "./port.js";
import { minimizeResolvedComments, planComments, postReview, statusOf } from "./review-comments.js";

export interface ReviewDeps {
  github: GitHubPort;
  log: Log;
  core: ReviewCore;
  checkRun?: CheckRunOptions;
}

export type ReviewOutcome =
  | {
      status: "reviewed";
      conclusion: Conclusion;
      gateFails: boolean;
      commented: number;
      /** earlier change requests of ours withdrawn because the gate now passes */
      dismissed: number;
      checkRunId: number;
    }
  | { status: "failed"; problem: string; checkRunId?: number };

export async function reviewPullRequest(
  deps: ReviewDeps,
  pr: PullRequestRef,
  correlationId: string,
): Promise<ReviewOutcome> {
  const { github, log, core } = deps;
  const checkRunId = await startCheckRun(github, pr);
  try {
    const collected = await collectPullRequest(github, core, pr, { forReview: true });
    // Application code is read first: its grammars load asynchronously.
    const codeConfig = core.readCode ? core.loadConfig(collected.configFile).config : undefined;
    const code = codeConfig ? await core.readCode!(collected.files, codeConfig) : undefined;
    const baseCode = codeConfig && collected.baseFiles ? await core.readCode!(collected.baseFiles, codeConfig) : undefined;
    const review = withCollectionFindings(
      core.review({
        files: collected.files,
        baseFiles: collected.baseFiles,
        ...(collected.configFile ? { configFile: collected.configFile } : {}),
        ...(code ? { code } : {}),
        ...(baseCode ? { baseCode } : {}),
      }),
      collected.findings,
    );
    const plan = planComments({
      findings: review.findings,
      changedFiles: collected.changedFiles,
      headFiles: collected.files,
      posted: collected.postedComments,
      max: review.config.comments.max,
      render: core.renderFindingComment,
    });
    const posted = await postReview(github, log, pr, review.config, plan, {
      fails: review.gateFails,
      changesRequested: collected.changeRequests.length > 0,
    });
    try {
      const current = new Set(review.findings.map((finding) => finding.fingerprint));
      const minimized = await minimizeResolvedComments(github, collected.postedComments, current);
      if (minimized.length > 0) log.info({ pullRequest: pr.number, minimized: minimized.length }, "Marked resolved comments outdated");
    } catch (error) {
      // Collapsing old comments is cosmetic; the review itself must still complete.
      log.warn({ err: error, pullRequest: pr.number }, "Could not minimize resolved comments");
    }
    const dismissed = review.gateFails
      ? []
      : await dismissFixedChangeRequests(github, log, pr, collected, review.config.failOn);
    const shownInline = new Set([
      ...posted.posted.map((comment) => comment.finding.fingerprint),
      ...plan.alreadyPosted.map((finding) => finding.fingerprint),
    ]);
    const conclusion = await completeCheckRun(github, pr, checkRunId, review, core, deps.checkRun, shownInline);
    log.info(
      {
        pullRequest: pr.number,
        headSha: pr.headSha,
        conclusion,
        findings: review.findings.length,
        commented: posted.posted.length,
        alreadyPosted: plan.alreadyPosted.length,
        event: posted.event ?? "none",
        dismissed: dismissed.length,
      },
      "Reviewed pull request",
    );
    return {
      status: "reviewed",
      conclusion,
      gateFails: review.gateFails,
      commented: posted.posted.length,
      dismissed: dismissed.length,
      checkRunId,
    };
  } catch (error) {
    const problem = describeError(error);
    log.error({ err: error, pullRequest: pr.number, correlationId }, "Review failed");
    try {
      await failCheckRun(github, pr, checkRunId, problem, correlationId, deps.checkRun);
    } catch (reportError) {
      log.error({ err: reportError, correlationId }, "Could not report the failure in the check run");
    }
    return { status: "failed", problem, checkRunId };
  }
}

/**
 * Files the collector could not read are findings like any other: annotated, counted, and
 * gating when `fail_on` reaches their severity.
 */
export function withCollectionFindings(review: Review, extra: readonly Finding[]): Review {
  if (extra.length === 0) return review;
  const findings = [...extra, ...review.findings].sort(compareFindings);
  const summary = { ...review.summary };
  for (const finding of extra) {
    if (finding.severity === "error") summary.errors++;
    else if (finding.severity === "warning") summary.warnings++;
    else summary.infos++;
  }
  // The core's gate over the whole list: a file the collector could not read is left unreviewed too.
  return { ...review, findings, summary, gateFails: gateFails(findings, review.config), unreviewed: unreviewedOf(findings) };
}

/** A readable sentence for the check run; GitHub errors name the request that failed. Never a credential. */
export function describeError(error: unknown): string {
  return redactCredentials(describe(error)).slice(0, 1000);
}

function redactCredentials(text: string): string {
  return text.replace(/\b(token|bearer|basic)(\s+)[\w.~+/=-]+/gi, "$1$2[redacted]").replace(/\bgh[opsur]_[A-Za-z0-9]+/g, "[redacted]");
}

function describe(error: unknown): string {
  const status = statusOf(error);
  if (status !== undefined && error instanceof Error) {
    const request = (error as { request?: { method?: string; url?: string } }).request;
    const where = request?.method && request.url ? ` to ${request.method} ${new URL(request.url).pathname}` : "";
    const hint = status === 403 || status === 404 ? " (check that the app is installed with the permissions in app.yml)" : "";
    return `GitHub answered ${status}${where}: ${error.message}${hint}`;
  }
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
