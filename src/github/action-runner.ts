// The GitHub Action runtime: the same review use case, driven by the workflow's event file and
// token instead of a webhook. src/action.ts binds it to the real core, @actions/core and the
// process; tests hand a recording toolkit.
import { answerCommand, mayRunCommands } from "./worker/commands.js";
import { actionOctokit } from "./api/action-octokit.js";
import { renderSarif } from "../report/sarif.js";
import type { Review } from "../review.js";
import type { GitHubPort, Log, ReviewCore } from "./port.js";
import { pullRequestRef } from "./api/pull-request.js";
import { reviewPullRequest, describeError } from "./worker/review-pull-request.js";
import { statusOf } from "./api/post-once.js";

/** What the Action needs from @actions/core: inputs, outputs, log commands, the job summary. */
export interface ActionToolkit {
  getInput(name: string): string;
  setOutput(name: string, value: string): void;
  debug(message: string): void;
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
  /** appends Markdown to the job summary (a no-op where the runner offers none) */
  appendSummary(markdown: string): Promise<void>;
}

export interface ActionDeps {
  core: ReviewCore;
  toolkit: ActionToolkit;
  env: Record<string, string | undefined>;
  readFile(path: string): string;
  /** writes the `sarif-file` input's file (creating its directory) */
  writeFile?(path: string, text: string): void;
  /** the package version, for SARIF's tool.driver.version */
  toolVersion?: string;
  github?: GitHubPort;
}

const REVIEWED_ACTIONS = new Set(["opened", "synchronize", "reopened", "ready_for_review"]);

/** The outputs every run sets, so later steps can read them even when nothing was reviewed. */
const OUTPUT_NAMES = ["gate", "conclusion", "errors", "warnings", "infos", "new-findings", "check-run-id", "sarif-file"] as const;

interface PullRequestEvent {
  action: string;
  pull_request: Parameters<typeof pullRequestRef>[1] & { draft?: boolean; state: string; head: { repo?: { full_name?: string } | null } };
  repository: Parameters<typeof pullRequestRef>[0] & { full_name?: string };
}

/**
 * The step's failure when the token may not write: on `pull_request` from a fork GitHub hands a
 * read-only token whatever the workflow asks for.
 */
export function permissionProblem(eventName: string, fromFork: boolean): string {
  const grant = "The workflow's token needs `checks: write`, `pull-requests: write` and `contents: read` (the job's `permissions:`).";
  if (eventName === "pull_request" && fromFork) {
    return `GitHub refused the token: on pull requests from forks, \`on: pull_request\` gets a read-only token. Run the workflow \`on: pull_request_target\` instead (safe with cql-review: it reads the files through the API and never runs the pull request's code). ${grant}`;
  }
  return `GitHub refused the token. ${grant}`;
}

/** Runs the review for the workflow's pull request; the exit code is 1 when the gate fails or the review could not run. */
export async function runAction(deps: ActionDeps): Promise<number> {
  const { env, toolkit } = deps;
  const log = workflowLog(toolkit);
  const token = toolkit.getInput("github-token") || env.GITHUB_TOKEN;
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
    deps.github ?? actionOctokit({ token, baseUrl: env.GITHUB_API_URL, warn: (message) => toolkit.warning(message) });
  if (eventName === "issue_comment") return answerCommandComment(deps, log, github, JSON.parse(deps.readFile(eventPath)) as CommentEvent);
  if (eventName !== "pull_request" && eventName !== "pull_request_target") {
    log.info({ event: eventName }, "cql-review reviews pull requests and answers /cql comments; nothing to do for this event.");
    return 0;
  }
  const payload = JSON.parse(deps.readFile(eventPath)) as PullRequestEvent;
  if (!REVIEWED_ACTIONS.has(payload.action) || payload.pull_request.state !== "open" || payload.pull_request.draft) {
    log.info({ action: payload.action, draft: payload.pull_request.draft ?? false }, "Nothing to review for this pull request event.");
    return 0;
  }
  const pr = pullRequestRef(payload.repository, payload.pull_request);
  const headRepository = payload.pull_request.head.repo?.full_name;
  const fromFork = headRepository === undefined || headRepository !== payload.repository.full_name;

  // The same renderer as the check summary, and the review it rendered (with what the collector
  // could not read), are kept for the job summary, the outputs and SARIF.
  let reviewed: { review: Review; summary: string } | undefined;
  const core: ReviewCore = {
    ...deps.core,
    renderCheckSummary: (review, options) => {
      const summary = deps.core.renderCheckSummary(review, options);
      reviewed = { review, summary };
      return summary;
    },
  };
  let outcome;
  try {
    outcome = await reviewPullRequest(
      { github: github(), log, core, checkRun: { rerunButton: false } },
      pr,
      env.GITHUB_RUN_ID ? `run ${env.GITHUB_RUN_ID}` : `pull request ${pr.number}`,
    );
  } catch (error) {
    // Creating the check run is the first write: a read-only token fails here.
    const status = statusOf(error);
    log.error({}, status === 403 || status === 404 ? permissionProblem(eventName, fromFork) : `cql-review could not review the pull request: ${describeError(error)}`);
    return 1;
  }
  if (outcome.status === "failed") {
    const refused = /^GitHub answered 40[34]\b/.test(outcome.problem) && /not accessible by integration/i.test(outcome.problem);
    log.error({}, refused ? permissionProblem(eventName, fromFork) : `cql-review could not review the pull request: ${outcome.problem}`);
    if (outcome.checkRunId !== undefined) toolkit.setOutput("check-run-id", String(outcome.checkRunId));
    return 1;
  }

  const outputs: Partial<Record<(typeof OUTPUT_NAMES)[number], string>> = {
    gate: outcome.gateFails ? "fail" : "pass",
    conclusion: outcome.conclusion,
    "check-run-id": String(outcome.checkRunId),
  };
  if (reviewed) {
    const { review, summary } = reviewed;
    outputs.errors = String(review.summary.errors);
    outputs.warnings = String(review.summary.warnings);
    outputs.infos = String(review.summary.infos);
    outputs["new-findings"] = String(review.findings.filter((finding) => !finding.existing).length);
    await toolkit.appendSummary(summary).catch((error: unknown) => log.warn({ err: error }, "Could not write the job summary"));
    const sarifFile = toolkit.getInput("sarif-file");
    if (sarifFile && deps.writeFile) {
      const target = sarifFile.startsWith("/") || !env.GITHUB_WORKSPACE ? sarifFile : `${env.GITHUB_WORKSPACE}/${sarifFile}`;
      deps.writeFile(target, renderSarif(review, { toolVersion: deps.toolVersion ?? "unknown" }));
      outputs["sarif-file"] = sarifFile;
    }
  }
  for (const name of OUTPUT_NAMES) if (outputs[name] !== undefined) toolkit.setOutput(name, outputs[name]);
  const withdrawn = outcome.dismissed > 0 ? ` ${outcome.dismissed} earlier change request(s) dismissed.` : "";
  toolkit.info(`cql-review: ${outcome.conclusion}, ${outcome.commented} new inline comment(s).${withdrawn}`);
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
  deps.toolkit.info(command ? `cql-review: answered /cql ${command.kind}.` : "cql-review: the comment holds no /cql command.");
  return 0;
}

/** The use cases' structured log as workflow log commands: warnings and errors become annotations of the run. */
function workflowLog(toolkit: ActionToolkit): Log {
  const line = (emit: (message: string) => void) => (fields: object, message: string) => {
    const facts = Object.entries(fields)
      .filter(([key]) => key !== "err")
      .map(([key, value]) => `${key}=${String(value)}`);
    const err = (fields as { err?: unknown }).err;
    emit([message, ...facts, ...(err instanceof Error ? [err.message] : [])].join(" "));
  };
  return {
    debug: line((message) => toolkit.debug(message)),
    info: line((message) => toolkit.info(message)),
    warn: line((message) => toolkit.warning(message)),
    error: line((message) => toolkit.error(message)),
  };
}
