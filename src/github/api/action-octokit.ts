// The Action's GitHub client: @octokit/rest with the retry and throttling plugins, so a 502 or
// a rate limit no longer fails the run. Built here rather than from Probot's Octokit so the
// Action's bundle stays free of Probot. The rate-limit policy matches the App's
// (src/github/api/octokit.ts): retry at most twice, and only when GitHub's wait is short.
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";

/** Longest wait, in seconds, worth taking before giving up on a rate-limited request. */
const MAX_RETRY_AFTER_SECONDS = 60;
const MAX_RATE_LIMIT_RETRIES = 2;

const ActionOctokit = Octokit.plugin(retry, throttling);
export type ActionOctokitClient = InstanceType<typeof ActionOctokit>;

export interface ActionOctokitOptions {
  token: string;
  baseUrl?: string;
  /** where the client's warnings go (the workflow log) */
  warn(message: string): void;
  /** tests shorten the waits: milliseconds per retry step (GitHub's own default: 1000) */
  retryAfterBaseValue?: number;
}

/**
 * Creating a check run, a review, a comment or a reaction is not idempotent: a retry after a 502
 * that GitHub had in fact processed posts it twice. Those are sent once; reads, updates and
 * GraphQL (reads, and mutations that are safe to repeat) are retried.
 */
export function retriesAllowed(method: string, url: string): boolean {
  return method.toUpperCase() !== "POST" || url === "/graphql" || url.endsWith("/graphql");
}

export function actionOctokit(options: ActionOctokitOptions): ActionOctokitClient {
  const onLimit =
    (kind: string) =>
    (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number): boolean => {
      const again = retryCount < MAX_RATE_LIMIT_RETRIES && retryAfter <= MAX_RETRY_AFTER_SECONDS;
      options.warn(`${kind} hit by ${request.method} ${request.url}; ${again ? `retrying in ${retryAfter} s` : "giving up"} (retry ${retryCount + 1} of ${MAX_RATE_LIMIT_RETRIES})`);
      return again;
    };
  const octokit = new ActionOctokit({
    auth: options.token,
    baseUrl: options.baseUrl ?? "https://api.github.com",
    userAgent: "cql-review-action",
    // Failed requests are reported by the runner, with what they mean; only warnings are logged here.
    log: { debug: () => {}, info: () => {}, warn: options.warn, error: () => {} },
    throttle: { onRateLimit: onLimit("Rate limit"), onSecondaryRateLimit: onLimit("Secondary rate limit") },
    retry: options.retryAfterBaseValue !== undefined ? { retryAfterBaseValue: options.retryAfterBaseValue } : {},
  });
  octokit.hook.before("request", (request) => {
    if (!retriesAllowed(request.method, request.url)) request.request = { ...request.request, retries: 0 };
  });
  return octokit;
}
