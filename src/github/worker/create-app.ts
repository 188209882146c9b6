// The Probot app function: it only wires events to the use cases and says in a debug log why it
// ignores an event. Collaborators come in as `deps`, so tests hand it fakes; app.ts binds the real ones.
import type { ApplicationFunction, Context, Probot } from "probot";
import { answerCommand, mayRunCommands } from "./commands.js";
import { CHECK_NAME, RERUN_ACTION, type PullRequestRef, type ReviewCore } from "../port.js";
import { pullRequestRef, pullRequestsForCommit } from "../api/pull-request.js";
import type { ReviewIsolation } from "./analysis.js";
import { reviewPullRequest } from "./review-pull-request.js";

export interface AppDeps {
  core: ReviewCore;
  /** the server's review threads (review-threads.ts); without it the core runs on the event loop */
  isolation?: ReviewIsolation;
  /** our GitHub App's id, to recognise our own check runs; from `APP_ID` when not given */
  appId?: number;
}

export function createApp(deps: AppDeps): ApplicationFunction {
  return (app: Probot) => {
    const ours = (check: { name: string; app: { id: number } | null }) =>
      check.name === CHECK_NAME && (deps.appId === undefined || check.app?.id === deps.appId);

    // Our bot login, from GET /app once per process (app-level auth); a failure is retried next time.
    let login: Promise<string | undefined> | undefined;
    const ownLogin = () =>
      (login ??= app
        .auth()
        .then((octokit) => octokit.rest.apps.getAuthenticated())
        .then(({ data }) => (data?.slug ? `${data.slug}[bot]` : undefined))
        .catch((error: unknown) => {
          login = undefined;
          app.log.warn({ err: error }, "Could not read this app's identity (GET /app)");
          return undefined;
        }));

    // A commit reviewed before (a re-run, a reopened or readied pull request) may carry a run a
    // dead review left in progress: those events look for it. A new push is a new commit.
    const review = async (context: Context, pr: PullRequestRef, sameCommitAgain = true) => {
      const staleRuns = sameCommitAgain && deps.appId !== undefined ? { appId: deps.appId } : {};
      const isolation = deps.isolation ? { isolation: deps.isolation } : {};
      await reviewPullRequest({ github: context.octokit, log: context.log, core: deps.core, ownLogin, ...isolation, ...staleRuns }, pr, context.id);
    };

    app.on(
      ["pull_request.opened", "pull_request.synchronize", "pull_request.reopened", "pull_request.ready_for_review"],
      async (context) => {
        const { pull_request: pullRequest, repository } = context.payload;
        if (pullRequest.state !== "open") {
          context.log.debug({ pullRequest: pullRequest.number }, "Ignored: the pull request is closed");
          return;
        }
        // Drafts are still being shaped; inline comments would be noise. `ready_for_review` reviews them.
        if (pullRequest.draft) {
          context.log.debug({ pullRequest: pullRequest.number }, "Ignored: draft pull request (reviewed when marked ready)");
          return;
        }
        const newCommit = context.payload.action === "opened" || context.payload.action === "synchronize";
        await review(context, pullRequestRef(repository, pullRequest), !newCommit);
      },
    );

    app.on(["check_run.rerequested", "check_run.requested_action"], async (context) => {
      const { check_run: checkRun, repository } = context.payload;
      if (!ours(checkRun)) {
        context.log.debug({ checkRun: checkRun.name }, "Ignored: not our check run");
        return;
      }
      if (context.payload.action === "requested_action" && context.payload.requested_action?.identifier !== RERUN_ACTION) {
        context.log.debug({ action: context.payload.requested_action?.identifier }, "Ignored: unknown check run action");
        return;
      }
      await reviewEach(context, await pullRequestsForCommit(context.octokit, repository, checkRun.head_sha, checkRun.pull_requests));
    });

    app.on("check_suite.rerequested", async (context) => {
      const { check_suite: suite, repository } = context.payload;
      if (deps.appId !== undefined && suite.app.id !== deps.appId) {
        context.log.debug({ app: suite.app.id }, "Ignored: another app's check suite");
        return;
      }
      await reviewEach(context, await pullRequestsForCommit(context.octokit, repository, suite.head_sha, suite.pull_requests));
    });

    const reviewEach = async (context: Context, prs: PullRequestRef[]) => {
      if (prs.length === 0) {
        context.log.debug({}, "Ignored: no open pull request has this commit as its head");
        return;
      }
      for (const pr of prs) await review(context, pr);
    };

    app.on("issue_comment.created", async (context) => {
      const { issue, comment, sender, repository } = context.payload;
      if (!issue.pull_request) {
        context.log.debug({ issue: issue.number }, "Ignored: a comment on an issue, not a pull request");
        return;
      }
      if (sender.type === "Bot" || sender.login.endsWith("[bot]")) {
        context.log.debug({ sender: sender.login }, "Ignored: comment by a bot");
        return;
      }
      if (!mayRunCommands(comment.author_association)) {
        context.log.debug(
          { sender: sender.login, authorAssociation: comment.author_association },
          "Ignored: commands are answered only for people who can write to the repository",
        );
        return;
      }
      const handled = await answerCommand(
        { github: context.octokit, log: context.log, core: deps.core, ...(deps.isolation ? { isolation: deps.isolation } : {}) },
        { repository, pullRequestNumber: issue.number, commentId: comment.id, body: comment.body, correlationId: context.id },
      );
      if (!handled) context.log.debug({ comment: comment.id }, "Ignored: the comment holds no /cql command");
    });
  };
}
