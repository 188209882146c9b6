// Posting what must not be posted twice (a review, a check run) through an API that may answer
// 502 after doing the work. The client's own retry is turned off for these requests; after an
// answer that leaves it unknown whether GitHub acted, we look before sending again.
import type { Log } from "../port.js";

/** Octokit request options that turn @octokit/plugin-retry off for one request. */
export const NO_AUTOMATIC_RETRY = { request: { retries: 0 } } as const;

export function statusOf(error: unknown): number | undefined {
  if (typeof error === "object" && error !== null && "status" in error && typeof error.status === "number") {
    return error.status;
  }
  return undefined;
}

/** A server error or no answer at all: GitHub may or may not have done it. */
export function outcomeUnknown(error: unknown): boolean {
  const status = statusOf(error);
  return status === undefined || status >= 500;
}

/**
 * `post`, and after an unknown outcome, `lookUp` what it would have made; only when nothing is
 * found is it sent a second (and last) time.
 */
export async function postOnce<T>(what: string, log: Log, post: () => Promise<T>, lookUp: () => Promise<T | undefined>): Promise<T> {
  try {
    return await post();
  } catch (error) {
    if (!outcomeUnknown(error)) throw error;
    log.warn({ err: error, status: statusOf(error) }, `${what}: GitHub's answer was lost or a server error; looking whether it was made before sending it again`);
    const found = await lookUp();
    if (found !== undefined) {
      log.info({}, `${what}: GitHub had made it; not sent again`);
      return found;
    }
    return await post();
  }
}

/** Whether an error is GitHub refusing for rate limits (primary or secondary), not for permissions. */
export function isRateLimited(error: unknown): boolean {
  const status = statusOf(error);
  if (status === 429) return true;
  if (status !== 403) return false;
  const response = (error as { response?: { headers?: Record<string, string | undefined> } }).response;
  const headers = response?.headers ?? {};
  if (headers["retry-after"] !== undefined || headers["x-ratelimit-remaining"] === "0") return true;
  return error instanceof Error && /rate limit/i.test(error.message);
}

/** `attempt` up to `times` times, waiting `delayMs` between tries; the last error is thrown. */
export async function withRetries<T>(times: number, delayMs: number, attempt: () => Promise<T>): Promise<T> {
  let lastError: unknown;
  for (let i = 0; i < times; i++) {
    try {
      return await attempt();
    } catch (error) {
      lastError = error;
      if (i + 1 < times) await new Promise((resolve) => setTimeout(resolve, delayMs * (i + 1)));
    }
  }
  throw lastError;
}
