// A push the server could not start reviewing before it stopped (or, in Lambda, one that reached the
// dead-letter queue) still gets a completed check run that says so, never a silent gap.
import { CHECK_NAME, RERUN_ACTION, type GitHubPort } from "../port.js";

export interface StoppedReview {
  owner: string;
  repo: string;
  headSha: string;
  /** one sentence, shown as the reason */
  reason: string;
  /** a correlation id to quote when reporting it */
  deliveryId: string;
}

export async function reportUnreviewedCommit(github: Pick<GitHubPort, "rest">, stopped: StoppedReview): Promise<void> {
  await github.rest.checks.create({
    owner: stopped.owner,
    repo: stopped.repo,
    name: CHECK_NAME,
    head_sha: stopped.headSha,
    status: "completed",
    conclusion: "failure",
    output: {
      title: "cql-review did not review this commit",
      summary: [
        `cql-review could not review commit \`${stopped.headSha.slice(0, 7)}\`: ${stopped.reason}`,
        "",
        `Press **Re-run cql-review** to review it. If it keeps happening, report delivery id \`${stopped.deliveryId}\`.`,
      ].join("\n"),
    },
    actions: [{ label: "Re-run cql-review", description: "Review this pull request again", identifier: RERUN_ACTION }],
  });
}

interface PullRequestPayload {
  repository?: { name?: string; owner?: { login?: string } };
  pull_request?: { head?: { sha?: string } };
  check_run?: { head_sha?: string };
  check_suite?: { head_sha?: string };
}

/** The repository and commit a queued delivery would have reviewed, when it names one. */
export function unreviewedCommitOf(payload: unknown): { owner: string; repo: string; headSha: string } | undefined {
  const shape = (payload ?? {}) as PullRequestPayload;
  const owner = shape.repository?.owner?.login;
  const repo = shape.repository?.name;
  const headSha = shape.pull_request?.head?.sha ?? shape.check_run?.head_sha ?? shape.check_suite?.head_sha;
  return owner && repo && headSha ? { owner, repo, headSha } : undefined;
}
