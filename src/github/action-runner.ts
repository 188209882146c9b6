// The GitHub Action runtime: the same review use case, driven by the workflow's event file and
// token instead of a webhook. src/action.ts binds it to the real core and the process.
import { Octokit } from "@octokit/rest";
import type { GitHubPort, Log, ReviewCore } from "./port.js";
import { pullRequestRef } from "./pull-request.js";
import { reviewPullRequest } from "./review-pull-request.js";

export interface ActionDeps {
  core: ReviewCore;
  env: Record<string, string | undefined>;
  readFile(path: string): string;
  /** one line of workflow output (stdout) */
  write(line: string): void;
  github?: GitHubPort;
}

const REVIEWED_ACTIONS = new Set(["opened", "synchronize", "reopened", "ready_for_review"]);

/** Runs the review for the workflow's pull request; the exit code is 1 when the gate fails or the review could not run. */
export async function runAction(deps: ActionDeps): Promise<number> {
  const { env } = deps;
  const log = workflowLog(deps.write);
  const token = env["INPUT_GITHUB-TOKEN"] || env.GITHUB_TOKEN;
  const eventName = env.GITHUB_EVENT_NAME;
  const eventPath = env.GITHUB_EVENT_PATH;
  if (!token) {
    log.error({}, "No token: pass `github-token` (default: the workflow's GITHUB_TOKEN).");
    return 1;
  }
  if (!eventName || !eventPath) {
    log.error({}, "GITHUB_EVENT_NAME and GITHUB_EVENT_PATH are not set; is this running inside GitHub Actions?");
    return 1;
  }
  if (eventName !== "pull_request" && eventName !== "pull_request_target") {
    log.info({ event: eventName }, "cql-review reviews pull requests; nothing to do for this event.");
    return 0;
  }
  const payload = JSON.parse(deps.readFile(eventPath)) as {
    action: string;
    pull_request: Parameters<typeof pullRequestRef>[1] & { draft?: boolean; state: string };
    repository: Parameters<typeof pullRequestRef>[0];
  };
  if (!REVIEWED_ACTIONS.has(payload.action) || payload.pull_request.state !== "open" || payload.pull_request.draft) {
    log.info({ action: payload.action, draft: payload.pull_request.draft ?? false }, "Nothing to review for this pull request event.");
    return 0;
  }
  const github =
    deps.github ??
    new Octokit({ auth: token, baseUrl: env.GITHUB_API_URL ?? "https://api.github.com", userAgent: "cql-review-action" });
  const pr = pullRequestRef(payload.repository, payload.pull_request);
  const outcome = await reviewPullRequest(
    { github, log, core: deps.core, checkRun: { rerunButton: false } },
    pr,
    env.GITHUB_RUN_ID ? `run ${env.GITHUB_RUN_ID}` : `pull request ${pr.number}`,
  );
  if (outcome.status === "failed") {
    log.error({}, `cql-review could not review the pull request: ${outcome.problem}`);
    return 1;
  }
  const withdrawn = outcome.dismissed > 0 ? ` ${outcome.dismissed} earlier change request(s) dismissed.` : "";
  deps.write(`cql-review: ${outcome.conclusion}, ${outcome.commented} new inline comment(s).${withdrawn}`);
  return outcome.gateFails ? 1 : 0;
}

/** Workflow commands turn warnings and errors into annotations of the run. */
function workflowLog(write: (line: string) => void): Log {
  const line = (prefix: string) => (fields: object, message: string) => {
    const facts = Object.entries(fields)
      .filter(([key]) => key !== "err")
      .map(([key, value]) => `${key}=${String(value)}`);
    const err = (fields as { err?: unknown }).err;
    const text = [message, ...facts, ...(err instanceof Error ? [err.message] : [])].join(" ");
    write(`${prefix}${text.replace(/\r?\n/g, " ")}`);
  };
  return { debug: line("::debug::"), info: line(""), warn: line("::warning::"), error: line("::error::") };
}
