// Probot's Octokit with our rate-limit policy. Probot 14 retries primary rate limits but only logs
// secondary ones, which GitHub raises for bursts of writes (reviews, check updates): retry both
// at most twice, with the wait GitHub asks for, when that wait is short enough to be worth it.
import { ProbotOctokit } from "probot";

/**
 * Longest single wait, and longest total wait of one client (one delivery), in seconds, before we
 * give up on rate-limited requests. A review must end inside the platform's limits (API Gateway
 * cuts a Lambda delivery at 30 s, Lambda at 60 s) with its 20 s compute budget: a secondary rate
 * limit asking for a minute is reported as "rate limited" instead of being waited out.
 */
const MAX_RETRY_AFTER_SECONDS = 10;
const MAX_TOTAL_WAIT_SECONDS = 15;
const MAX_RETRIES = 2;

type LimitHandler = (
  retryAfter: number,
  options: { method: string; url: string },
  octokit: { log: { warn(message: string): void } },
  retryCount: number,
) => boolean;

/** What one client may still wait for rate limits, shared by its primary and secondary handlers. */
export interface WaitBudget {
  remainingSeconds: number;
}

export function retryRateLimit(kind: string, budget: WaitBudget = { remainingSeconds: MAX_TOTAL_WAIT_SECONDS }): LimitHandler {
  return (retryAfter, options, octokit, retryCount) => {
    const retry = retryCount < MAX_RETRIES && retryAfter <= MAX_RETRY_AFTER_SECONDS && retryAfter <= budget.remainingSeconds;
    if (retry) budget.remainingSeconds -= retryAfter;
    octokit.log.warn(
      `${kind} hit by ${options.method} ${options.url}; ${retry ? `retrying in ${retryAfter} s` : `giving up (GitHub asks to wait ${retryAfter} s)`} (retry ${retryCount + 1} of ${MAX_RETRIES})`,
    );
    return retry;
  };
}

/**
 * The throttling queue a client's requests wait in. Probot keys it by installation for `app.auth()`,
 * but the client each webhook event gets (octokit-auth-probot's "event-octokit") is built without
 * that key, so every installation would share one queue: one write a second for the whole server
 * (load test: 200 pull requests of 200 installations took minutes). Keyed by installation here.
 */
function throttleId(options: Record<string, unknown>): string | undefined {
  const current = (options.throttle as { id?: string } | undefined)?.id;
  const installationId = (options.auth as { installationId?: number | string } | undefined)?.installationId;
  return current ?? (installationId !== undefined ? String(installationId) : undefined);
}

export const CqlReviewOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => {
  const id = throttleId(options);
  // One budget per client: Probot builds one client per delivery.
  const budget: WaitBudget = { remainingSeconds: MAX_TOTAL_WAIT_SECONDS };
  return {
    ...options,
    throttle: {
      ...(options.throttle as object | undefined),
      ...(id !== undefined ? { id } : {}),
      onRateLimit: retryRateLimit("Rate limit", budget),
      onSecondaryRateLimit: retryRateLimit("Secondary rate limit", budget),
    },
  };
});
