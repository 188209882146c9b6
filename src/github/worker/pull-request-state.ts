// Before a queued push is reviewed: is its head commit still the pull request's head? A newer push
// has its own delivery, so reviewing the older one would only post comments about to go stale.
import type { GitHubPort } from "../port.js";
import type { QueuedDelivery } from "../delivery.js";

export type Freshness = { current: true } | { current: false; reason: string };

interface PullRequestPayload {
  repository: { name: string; owner: { login: string } };
  pull_request: { number: number };
}

export async function deliveryIsCurrent(github: Pick<GitHubPort, "rest">, delivery: QueuedDelivery): Promise<Freshness> {
  if (delivery.name !== "pull_request" || delivery.headSha === undefined) return { current: true };
  const { repository, pull_request: pullRequest } = delivery.payload as PullRequestPayload;
  const { data } = await github.rest.pulls.get({ owner: repository.owner.login, repo: repository.name, pull_number: pullRequest.number });
  if (data.state !== "open") return { current: false, reason: `the pull request is ${data.state}` };
  if (data.head.sha !== delivery.headSha) return { current: false, reason: `its head moved to ${data.head.sha.slice(0, 7)}` };
  return { current: true };
}
