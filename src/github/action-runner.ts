// The GitHub Action runtime: the same review use case, driven by the workflow's event file and
// token instead of a webhook. src/action.ts binds it to the real core and the process.
import { Octokit } from "@octokit/rest";
import { answerCommand, mayRunCommands } from "./commands.js";
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
  const github = (): GitHubPort =>
    deps.github ??
    new Octokit({ auth: token, baseUrl: env.GITHUB_API_URL ?? "https://api.github.com", userAgent: "cql-review-action" });
  if (eventName === "issue_comment") return answerCommandComment(deps, log, github, JSON.parse(deps.readFile(eventPath)) as CommentEvent);
  if (eventName !== "pull_request" && eventName !== "pull_request_target") {
    log.info({ event: eventName }, "cql-review reviews pull requests and answers /cql comments; nothing to do for this event.");
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
  const pr = pullRequestRef(payload.repository, payload.pull_request);
  const outcome = await reviewPullRequest(
    { github: github(), log, core: deps.core, checkRun: { rerunButton: false } },
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

interface CommentEvent {
  action: string;
  issue: { number: number; pull_request?: unknown };
  comment: { id: number; body: string; author_association?: string };
  sender: { login: string; type: string };
  repository: { name: string; owner: { login: string }; default_branch: string };
}

/**
 * A `/cql …` comment on a pull request (`on: issue_comment`), answered as the app answers it. A
 * command never fails the step: the answer, or the apology for an error, is the comment.
 */
async function answerCommandComment(deps: ActionDeps, log: Log, github: () => GitHubPort, event: CommentEvent): Promise<number> {
  if (event.action !== "created" || !event.issue.pull_request) {
    log.info({ action: event.action }, "Nothing to answer: not a new comment on a pull request.");
    return 0;
  }
  // Our own answers (and other bots') are comments too; answering them could loop.
  if (event.sender.type === "Bot" || event.sender.login.endsWith("[bot]")) {
    log.info({ sender: event.sender.login }, "Nothing to answer: a comment by a bot.");
    return 0;
  }
  if (!mayRunCommands(event.comment.author_association)) {
    log.info({ sender: event.sender.login }, "Nothing to answer: commands are answered only for people who can write to the repository.");
    return 0;
  }
  const correlationId = deps.env.GITHUB_RUN_ID ? `run ${deps.env.GITHUB_RUN_ID}` : `comment ${event.comment.id}`;
  const command = await answerCommand(
    { github: github(), log, core: deps.core },
    { repository: event.repository, pullRequestNumber: event.issue.number, commentId: event.comment.id, body: event.comment.body, correlationId },
  );
  deps.write(command ? `cql-review: answered /cql ${command.kind}.` : "cql-review: the comment holds no /cql command.");
  return 0;
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
