// What the queues need to know about a webhook delivery: which pull request it is about (deliveries
// of one pull request run one at a time, in order) and, for pushes, the head commit it asks to
// review (a newer one replaces a queued older one; a stale one is skipped before reviewing).

export interface WebhookDelivery {
  id: string;
  name: string;
  payload: unknown;
}

export interface QueuedDelivery extends WebhookDelivery {
  /** deliveries with the same key never run at once: `owner/repo#number`, or the repository alone */
  key: string;
  /** for pull_request events: the head commit under review, to skip it once a newer push exists */
  headSha?: string;
  /** a pull_request event a newer one for the same pull request makes pointless */
  coalescable: boolean;
  /** for pull_request events: the pull request's `updated_at` (ms), to tell which of two pushes is newer */
  updatedAt?: number;
  /** the SHA-256 of the signed body (intake), so a queue shared by replicas drops a replayed body */
  bodyDigest?: string;
}

/** Events the app subscribes to (app.yml); anything else is acknowledged and dropped. */
export const HANDLED_EVENTS: ReadonlySet<string> = new Set(["pull_request", "check_run", "check_suite", "issue_comment"]);

/** The pull_request actions the app reviews; other actions (labeled, edited, closed…) need no queue slot. */
const REVIEWED_ACTIONS = new Set(["opened", "synchronize", "reopened", "ready_for_review"]);

interface PayloadShape {
  action?: string;
  installation?: { id?: number };
  repository?: { full_name?: string; name?: string; owner?: { login?: string } };
  pull_request?: { number?: number; head?: { sha?: string }; updated_at?: string };
  issue?: { number?: number; pull_request?: unknown };
  check_run?: { head_sha?: string; pull_requests?: { number?: number }[] };
  check_suite?: { head_sha?: string; pull_requests?: { number?: number }[] };
}

/** Where a delivery queues; undefined when the app would do nothing with it (dropped before queueing). */
export function queuedDelivery(delivery: WebhookDelivery): QueuedDelivery | undefined {
  if (!HANDLED_EVENTS.has(delivery.name)) return undefined;
  const payload = (delivery.payload ?? {}) as PayloadShape;
  const repository = repositoryName(payload);
  if (repository === undefined) return undefined;
  switch (delivery.name) {
    case "pull_request": {
      const number = payload.pull_request?.number;
      if (!REVIEWED_ACTIONS.has(payload.action ?? "") || number === undefined) return undefined;
      const headSha = payload.pull_request?.head?.sha;
      const updatedAt = Date.parse(payload.pull_request?.updated_at ?? "");
      return {
        ...delivery,
        key: `${repository}#${number}`,
        ...(headSha ? { headSha } : {}),
        coalescable: true,
        ...(Number.isFinite(updatedAt) ? { updatedAt } : {}),
      };
    }
    case "issue_comment": {
      if (payload.action !== "created" || !payload.issue?.pull_request || payload.issue.number === undefined) return undefined;
      return { ...delivery, key: `${repository}#${payload.issue.number}`, coalescable: false };
    }
    default: {
      const check = delivery.name === "check_run" ? payload.check_run : payload.check_suite;
      const number = check?.pull_requests?.[0]?.number;
      // Fork pull requests are not listed on their checks; the head commit stands in for them.
      return { ...delivery, key: number !== undefined ? `${repository}#${number}` : `${repository}@${check?.head_sha ?? "?"}`, coalescable: false };
    }
  }
}

function repositoryName(payload: PayloadShape): string | undefined {
  const repository = payload.repository;
  if (!repository) return undefined;
  return repository.full_name ?? (repository.owner?.login && repository.name ? `${repository.owner.login}/${repository.name}` : undefined);
}

export function installationIdOf(delivery: WebhookDelivery): number | undefined {
  return (delivery.payload as PayloadShape | undefined)?.installation?.id;
}
