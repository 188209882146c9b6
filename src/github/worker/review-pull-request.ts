// The use case every runtime shares: review one pull request at its head commit and report it
// as a check run and a review. Six GitHub requests for an ordinary pull request: check create,
// listFiles, getTree, one GraphQL read, createReview, check update. The push that makes the gate
// pass adds one request per earlier change request of ours it dismisses.
import { dismissFixedChangeRequests } from "../api/change-requests.js";
import { completeCheckRun, completeStaleRuns, failCheckRun, startCheckRun, type CheckRunOptions, type Conclusion } from "../api/check-run.js";
import { collectPullRequest, type CollectedPullRequest } from "../api/collect.js";
import { codeSpan, escapeMarkdown } from "../../report/markdown-escape.js";
import { isRateLimited, withRetries } from "../api/post-once.js";
import type { GitHubPort, Log, PullRequestRef, ReviewCore } from "../port.js";
import { statusOf } from "../api/post-once.js";
import { minimizeResolvedComments, postReview } from "../api/review-comments.js";
import { analyseInProcess, type AnalysisRequest, type ReviewIsolation } from "./analysis.js";

export { withCollectionFindings } from "./collection-findings.js";

export interface ReviewDeps {
  github: GitHubPort;
  log: Log;
  core: ReviewCore;
  /** the server's review threads; without it the core runs on this thread */
  isolation?: ReviewIsolation;
  checkRun?: CheckRunOptions;
  /**
   * This app's bot login (`name[bot]`), or undefined when it cannot be learned. Only comments and
   * change requests by this account are read back, minimized or dismissed. A runtime that does not
   * give it keeps the collector's filter (any bot account).
   */
  ownLogin?: () => Promise<string | undefined>;
  /**
   * this GitHub App's id: when given, our runs on the commit that a dead review left in progress
   * are completed; without it they are left alone
   */
  appId?: number;
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
  let checkRunId: number;
  try {
    checkRunId = await startCheckRun(github, pr, log);
  } catch (error) {
    // Without a check run the review has nowhere to show: say so on the pull request instead.
    const problem = describeError(error);
    log.error({ err: error, pullRequest: pr.number, correlationId }, "Could not create the check run");
    await reportWithoutCheckRun(github, log, pr, problem, correlationId);
    return { status: "failed", problem };
  }
  try {
    const collected = await ownContentOnly(deps, pr, await collectPullRequest(github, core, pr, { forReview: true }));
    const request: AnalysisRequest = {
      files: collected.files,
      baseFiles: collected.baseFiles,
      ...(collected.configFile ? { configFile: collected.configFile } : {}),
      collectionFindings: collected.findings,
      changedFiles: collected.changedFiles,
      postedComments: collected.postedComments,
    };
    // The server reviews in a thread with a deadline and a memory limit (review-threads.ts).
    const { review, plan, renderCheckSummary, complete = true } = deps.isolation ? await deps.isolation.analyse(request) : await analyseInProcess(core, request);
    const posted = await postReview(github, log, pr, review.config, plan, {
      fails: review.gateFails,
      changesRequested: collected.changeRequests.length > 0,
    });
    // A stopped review found nothing either way: earlier comments and change requests stand.
    if (complete) {
      try {
        const current = new Set(review.findings.map((finding) => finding.fingerprint));
        const minimized = await minimizeResolvedComments(github, collected.postedComments, current);
        if (minimized.length > 0) log.info({ pullRequest: pr.number, minimized: minimized.length }, "Marked resolved comments outdated");
      } catch (error) {
        // Collapsing old comments is cosmetic; the review itself must still complete.
        log.warn({ err: error, pullRequest: pr.number }, "Could not minimize resolved comments");
      }
    }
    const dismissed = review.gateFails || !complete ? [] : await dismissFixedChangeRequests(github, log, pr, collected, review.config.failOn);
    const shownInline = new Set([
      ...posted.posted.map((comment) => comment.finding.fingerprint),
      ...plan.alreadyPosted.map((finding) => finding.fingerprint),
    ]);
    const conclusion = await completeCheckRun(
      github,
      pr,
      checkRunId,
      review,
      { ruleDocUrl: core.ruleDocUrl, renderCheckSummary: (_review, options) => renderCheckSummary(options ?? {}) },
      deps.checkRun,
      shownInline,
    );
    await completeStaleRunsQuietly(deps, pr, checkRunId);
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
      // A run left in_progress would block the merge forever: complete it, trying a few times.
      await withRetries(3, 1_000, () => failCheckRun(github, pr, checkRunId, problem, correlationId, deps.checkRun));
    } catch (reportError) {
      log.error({ err: reportError, correlationId }, "Could not report the failure in the check run");
    }
    await completeStaleRunsQuietly(deps, pr, checkRunId);
    return { status: "failed", problem, checkRunId };
  }
}

/** Runs a dead review left in progress on this commit are completed; a failure here only logs. */
async function completeStaleRunsQuietly(deps: ReviewDeps, pr: PullRequestRef, currentId: number): Promise<void> {
  // Only runs our own app created: without knowing which app we are, none is touched.
  const appId = deps.appId;
  if (appId === undefined) return;
  try {
    const completed = await completeStaleRuns(deps.github, pr, currentId, (run) => run.appId === appId);
    if (completed.length > 0) deps.log.info({ pullRequest: pr.number, completed }, "Completed check runs left in progress");
  } catch (error) {
    deps.log.warn({ err: error, pullRequest: pr.number }, "Could not look for check runs left in progress");
  }
}

/** Last resort when no check run could be created: a comment on the pull request. Never throws. */
async function reportWithoutCheckRun(github: GitHubPort, log: Log, pr: PullRequestRef, problem: string, correlationId: string): Promise<void> {
  try {
    await github.rest.issues.createComment({
      owner: pr.owner,
      repo: pr.repo,
      issue_number: pr.number,
      body: noCheckRunComment(pr.headSha, problem, correlationId),
    });
  } catch (error) {
    log.error({ err: error, pullRequest: pr.number, correlationId }, "Could not report the failure on the pull request either");
  }
}

export function noCheckRunComment(headSha: string, problem: string, correlationId: string): string {
  return [
    `**cql-review** could not create its check run for commit \`${headSha.slice(0, 7)}\`, so this commit is not reviewed:`,
    "",
    `> ${escapeMarkdown(problem)}`,
    "",
    `Push again or re-run the checks to retry. If it keeps failing, report correlation id ${codeSpan(correlationId.slice(0, 200))}.`,
  ].join("\n");
}

/**
 * The collection with only this app's own earlier comments and change requests: another bot's
 * comment carrying our marker must neither silence a finding nor be minimized, and its change
 * request is never dismissed. When our login cannot be learned, nothing is taken as ours.
 */
async function ownContentOnly<T extends Pick<CollectedPullRequest, "postedComments" | "changeRequests">>(
  deps: ReviewDeps,
  pr: PullRequestRef,
  collected: T,
): Promise<T> {
  if (!deps.ownLogin || (collected.postedComments.length === 0 && collected.changeRequests.length === 0)) return collected;
  const login = await deps.ownLogin();
  if (login === undefined) {
    deps.log.warn({ pullRequest: pr.number }, "Could not learn this app's bot login; earlier comments and change requests are left alone");
  }
  const ours = (author: string) => login !== undefined && sameAccount(author, login);
  const postedComments = collected.postedComments.filter((comment) => ours(comment.author));
  const changeRequests = collected.changeRequests.filter((request) => ours(request.author));
  const ignored = collected.postedComments.length - postedComments.length + collected.changeRequests.length - changeRequests.length;
  if (ignored > 0) deps.log.info({ pullRequest: pr.number, ignored }, "Ignored markers in comments or reviews by other accounts");
  return { ...collected, postedComments, changeRequests };
}

/** GraphQL names a bot `name`, REST `name[bot]`; logins are case-insensitive. */
export function sameAccount(a: string, b: string): boolean {
  const plain = (login: string) => login.toLowerCase().replace(/\[bot\]$/, "");
  return plain(a) === plain(b);
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
    if (isRateLimited(error)) {
      return `GitHub rate-limited the app${where} (${status}): the review stopped rather than wait past its time budget. It runs again on the next push, or re-run it later. ${error.message}`;
    }
    const hint = status === 403 || status === 404 ? " (check that the app is installed with the permissions in app.yml)" : "";
    return `GitHub answered ${status}${where}: ${error.message}${hint}`;
  }
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
