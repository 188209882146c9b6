// Withdrawing our own change requests once the gate passes. Under branch protection a change
// request blocks the merge until it is dismissed, so leaving a stale one behind would block a
// pull request that cql-review itself now accepts.
import type { ReviewConfig } from "../../config.js";
import type { ChangeRequest } from "./collect.js";
import type { GitHubPort, Log, PullRequestRef } from "../port.js";
import { statusOf } from "./post-once.js";

export interface ChangeRequestState {
  /** our change requests still in force, from the file collection's GraphQL read */
  changeRequests: readonly ChangeRequest[];
  /** the pull request's head as GitHub sees it now */
  currentHeadSha?: string;
}

/**
 * Dismisses every change request of ours still in force, after a review of the pull request's
 * current head passed the gate: one request per dismissed review, nothing on the ordinary path.
 * Never throws: a refusal (403 without the permission or outside a protected branch's dismissal
 * list, 422 when someone dismissed it first) is logged and the review carries on.
 */
export async function dismissFixedChangeRequests(
  github: GitHubPort,
  log: Log,
  pr: PullRequestRef,
  state: ChangeRequestState,
  failOn: ReviewConfig["failOn"],
): Promise<ChangeRequest[]> {
  if (state.changeRequests.length === 0) return [];
  // A re-run on an older commit says nothing about the head a change request may have been made on.
  if (state.currentHeadSha !== pr.headSha) {
    log.info(
      { pullRequest: pr.number, reviewed: pr.headSha, head: state.currentHeadSha ?? "unknown" },
      "Kept earlier change requests: the reviewed commit is not the pull request's head",
    );
    return [];
  }
  const message = dismissalMessage(pr.headSha, failOn);
  const dismissed: ChangeRequest[] = [];
  for (const request of state.changeRequests) {
    try {
      await github.rest.pulls.dismissReview({
        owner: pr.owner,
        repo: pr.repo,
        pull_number: pr.number,
        review_id: request.reviewId,
        message,
        event: "DISMISS",
      });
      dismissed.push(request);
    } catch (error) {
      const status = statusOf(error);
      const refused = status === 403 || status === 404;
      log.warn(
        { err: error, pullRequest: pr.number, review: request.reviewId, status },
        refused
          ? "Could not dismiss an earlier change request: the token needs the Pull requests (write) permission, and where branch protection restricts who may dismiss reviews, the app (or github-actions) must be on that list"
          : "Could not dismiss an earlier change request",
      );
      // Without the permission the others would be refused the same way.
      if (refused) break;
    }
  }
  if (dismissed.length > 0) {
    log.info({ pullRequest: pr.number, dismissed: dismissed.map((request) => request.reviewId) }, "Dismissed earlier change requests");
  }
  return dismissed;
}

/** Shown in the pull request's timeline under the dismissed review. */
export function dismissalMessage(headSha: string, failOn: ReviewConfig["failOn"]): string {
  const commit = headSha.slice(0, 7);
  return failOn === "never"
    ? `cql-review no longer gates this pull request (fail_on: never) as of ${commit}; its request for changes is withdrawn.`
    : `The findings that requested changes are fixed as of ${commit}; cql-review's gate (fail_on: ${failOn}) passes.`;
}
