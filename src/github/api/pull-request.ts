// Resolving the pull request(s) an event is about. Pull-request events carry everything; check
// events list their pull requests except for forks, where only the head SHA is known.
import type { GitHubPort, PullRequestRef } from "../port.js";

interface RepositoryPayload {
  name: string;
  owner: { login: string };
  default_branch: string;
}

interface PullRequestPayload {
  number: number;
  head: { sha: string };
  base: { sha: string };
}

export function pullRequestRef(repository: RepositoryPayload, pullRequest: PullRequestPayload): PullRequestRef {
  return {
    owner: repository.owner.login,
    repo: repository.name,
    number: pullRequest.number,
    headSha: pullRequest.head.sha,
    baseSha: pullRequest.base.sha,
    defaultBranch: repository.default_branch,
  };
}

export async function fetchPullRequest(
  github: GitHubPort,
  repository: RepositoryPayload,
  number: number,
): Promise<PullRequestRef & { state: string }> {
  const { data } = await github.rest.pulls.get({
    owner: repository.owner.login,
    repo: repository.name,
    pull_number: number,
  });
  return { ...pullRequestRef(repository, data), state: data.state };
}

/**
 * The open pull requests whose head is `headSha`. Check events list them, except for pull requests
 * from forks, whose suites belong to the fork: then the open pull requests of the repository are
 * matched by head SHA (one request per 100 open pull requests).
 */
export async function pullRequestsForCommit(
  github: GitHubPort,
  repository: RepositoryPayload,
  headSha: string,
  listed: readonly PullRequestPayload[],
): Promise<PullRequestRef[]> {
  if (listed.length > 0) {
    // The listed head may lag behind when the suite is re-run on an older commit: review what was asked.
    return listed.map((pr) => ({ ...pullRequestRef(repository, pr), headSha }));
  }
  const open = await github.paginate(github.rest.pulls.list, {
    owner: repository.owner.login,
    repo: repository.name,
    state: "open",
    per_page: 100,
  });
  return open.filter((pr) => pr.head.sha === headSha).map((pr) => pullRequestRef(repository, pr));
}
