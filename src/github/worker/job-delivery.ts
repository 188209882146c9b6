// A Redis job back to the delivery the app's handlers read (create-app.ts), with what the job does
// not carry fetched through the GitHub API: the pull request, the comment's author, the check run
// or suite. One request per job; for a push it is also the head check (a push whose head moved
// on, or whose pull request closed, is skipped, as process-delivery.ts does for in-process work).
import type { DeliveryJob } from "../delivery-job.js";
import { jobCoalescable, jobKey } from "../delivery-job.js";
import type { QueuedDelivery } from "../delivery.js";
import type { GitHubPort } from "../port.js";

export type JobDelivery = { delivery: QueuedDelivery } | { skipped: string };

export async function deliveryOfJob(github: Pick<GitHubPort, "rest">, job: DeliveryJob): Promise<JobDelivery> {
  const owner = job.repository.owner;
  const repo = job.repository.name;
  const repository = {
    id: job.repository.id,
    name: repo,
    full_name: `${owner}/${repo}`,
    owner: { login: owner },
    default_branch: job.repository.defaultBranch,
  };
  const common = { action: job.action, installation: { id: job.installationId }, repository };
  const delivery = (payload: object): JobDelivery => ({
    delivery: {
      id: job.deliveryId,
      name: job.event,
      payload: { ...common, ...payload },
      key: jobKey(job),
      coalescable: jobCoalescable(job),
      ...(job.headSha !== undefined ? { headSha: job.headSha } : {}),
      ...(job.updatedAt !== undefined ? { updatedAt: job.updatedAt } : {}),
    },
  });
  switch (job.event) {
    case "pull_request": {
      if (job.pullNumber === undefined) return { skipped: "the job names no pull request" };
      const { data } = await github.rest.pulls.get({ owner, repo, pull_number: job.pullNumber });
      if (data.state !== "open") return { skipped: `the pull request is ${data.state}` };
      // Two pushes whose order the queue could not tell both get here: only the head is reviewed.
      if (job.headSha !== undefined && data.head.sha !== job.headSha) return { skipped: `its head moved to ${data.head.sha.slice(0, 7)}` };
      return delivery({ number: data.number, pull_request: data });
    }
    case "issue_comment": {
      if (job.comment === undefined || job.pullNumber === undefined) return { skipped: "the job names no comment" };
      // Who wrote it, and so whether they may run commands, is GitHub's answer, not the job's.
      const { data } = await github.rest.issues.getComment({ owner, repo, comment_id: job.comment.id });
      if (!data.user) return { skipped: "the comment has no author" };
      return delivery({
        issue: { number: job.pullNumber, pull_request: { url: `https://api.github.com/repos/${owner}/${repo}/pulls/${job.pullNumber}` } },
        comment: { id: data.id, body: job.comment.command ?? data.body ?? "", author_association: data.author_association, user: data.user },
        sender: data.user,
      });
    }
    case "check_run": {
      if (job.checkRunId === undefined) return { skipped: "the job names no check run" };
      const { data } = await github.rest.checks.get({ owner, repo, check_run_id: job.checkRunId });
      return delivery({ check_run: data, ...(job.requestedAction !== undefined ? { requested_action: { identifier: job.requestedAction } } : {}) });
    }
    case "check_suite": {
      if (job.checkSuiteId === undefined) return { skipped: "the job names no check suite" };
      const { data } = await github.rest.checks.getSuite({ owner, repo, check_suite_id: job.checkSuiteId });
      return delivery({ check_suite: data });
    }
  }
}
