// Probot's Octokit with our rate-limit policy. Probot 14 retries primary rate limits but only logs
// secondary ones, which GitHub raises for bursts of writes (reviews, check updates): retry both
// at most twice, with the wait GitHub asks for, when that wait is short enough to be worth it.
import { ProbotOctokit } from "probot";

/** Longest wait, in seconds, we accept before giving up on a rate-limited request. */
const MAX_RETRY_AFTER_SECONDS = 60;
const MAX_RETRIES = 2;

type LimitHandler = (
  retryAfter: number,
  options: { method: string; url: string },
  octokit: { log: { warn(message: string): void } },
  retryCount: number,
) => boolean;

export function retryRateLimit(kind: string): LimitHandler {
  return (retryAfter, options, octokit, retryCount) => {
    const retry = retryCount < MAX_RETRIES && retryAfter <= MAX_RETRY_AFTER_SECONDS;
    octokit.log.warn(
      `${kind} hit by ${options.method} ${options.url}; ${retry ? `retrying in ${retryAfter} s` : "giving up"} (retry ${retryCount + 1} of ${MAX_RETRIES})`,
    );
    return retry;
  };
}

export const CqlReviewOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => ({
  ...options,
  throttle: {
    ...(options.throttle as object | undefined),
    onRateLimit: retryRateLimit("Rate limit"),
    onSecondaryRateLimit: retryRateLimit("Secondary rate limit"),
  },
}));
