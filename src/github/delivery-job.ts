// What the Redis queue stores of a delivery: ids and the few fields the review needs, never the
// webhook payload (about 265 KiB for a pull request event, and a whole stranger's text in a
// comment). The worker fetches the rest through the GitHub API (worker/job-delivery.ts). A job is
// validated when it is read back: one written by an older version, or by anyone else who can
// write to that Redis, is refused with a log line rather than run.
import * as z from "zod";
import type { QueuedDelivery } from "./delivery.js";

/** A `/cql` command longer than this (characters, or bytes as JSON) is not carried in the job; the worker reads the comment instead. */
export const MAX_COMMAND_CHARS = 2_000;
const MAX_COMMAND_JSON_BYTES = 2_048;
/** What one job's data may take, serialised: the bound the retention-by-bytes setting counts on. */
export const MAX_JOB_DATA_BYTES = 4_096;

const githubId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const commitSha = z.string().regex(/^[0-9a-f]{40}$|^[0-9a-f]{64}$/, "a commit SHA");
// GitHub's own rules for logins and repository names: nothing that could leave its URL segment.
const login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, "a GitHub login");
const repositoryName = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, "a repository name");
const refName = z.string().min(1).max(255);

export const DeliveryJobSchema = z.strictObject({
  /** the job shape's version: a job of another shape is refused, never guessed at */
  version: z.literal(1),
  deliveryId: z.string().min(1).max(100),
  event: z.enum(["pull_request", "issue_comment", "check_run", "check_suite"]),
  action: z.string().regex(/^[a-z_]{1,40}$/),
  installationId: githubId,
  repository: z.strictObject({ id: githubId, owner: login, name: repositoryName, defaultBranch: refName }),
  pullNumber: githubId.optional(),
  headSha: commitSha.optional(),
  baseSha: commitSha.optional(),
  baseRef: refName.optional(),
  /** the pull request's `updated_at` (ms) for pull_request events: which of two pushes is newer */
  updatedAt: z.number().int().nonnegative().optional(),
  /** issue_comment: the comment, and its command (lines up to the first blank one) when short enough */
  comment: z.strictObject({ id: githubId, command: z.string().max(MAX_COMMAND_CHARS).optional() }).optional(),
  checkRunId: githubId.optional(),
  checkSuiteId: githubId.optional(),
  /** check_run.requested_action: the button's identifier (GitHub allows 20 characters) */
  requestedAction: z.string().max(20).optional(),
});

export type DeliveryJob = z.infer<typeof DeliveryJobSchema>;

/** The queue key of a job, as delivery.ts derives it from a payload: recomputed, never read from Redis. */
export function jobKey(job: DeliveryJob): string {
  const repository = `${job.repository.owner}/${job.repository.name}`;
  if (job.pullNumber !== undefined) return `${repository}#${job.pullNumber}`;
  return `${repository}@${job.headSha ?? "?"}`;
}

/** Whether a newer job for the same pull request makes this one pointless (pushes only). */
export function jobCoalescable(job: DeliveryJob): boolean {
  return job.event === "pull_request";
}

interface JobPayload {
  action?: string;
  installation?: { id?: number };
  repository?: { id?: number; name?: string; owner?: { login?: string }; default_branch?: string };
  pull_request?: { number?: number; head?: { sha?: string }; base?: { sha?: string; ref?: string } };
  issue?: { number?: number };
  comment?: { id?: number; body?: string };
  check_run?: { id?: number; head_sha?: string; pull_requests?: { number?: number }[] };
  check_suite?: { id?: number; head_sha?: string; pull_requests?: { number?: number }[] };
  requested_action?: { identifier?: string };
}

export type JobOf = { job: DeliveryJob } | { refused: string };

/** The job of a verified, queueable delivery, or why it cannot be one (a payload missing what the review needs). */
export function deliveryJobOf(delivery: QueuedDelivery): JobOf {
  const payload = (delivery.payload ?? {}) as JobPayload;
  const repository = payload.repository;
  const check = delivery.name === "check_run" ? payload.check_run : delivery.name === "check_suite" ? payload.check_suite : undefined;
  const candidate = {
    version: 1,
    deliveryId: delivery.id,
    event: delivery.name,
    action: payload.action,
    installationId: payload.installation?.id,
    repository: { id: repository?.id, owner: repository?.owner?.login, name: repository?.name, defaultBranch: repository?.default_branch },
    ...defined({
      pullNumber: payload.pull_request?.number ?? payload.issue?.number ?? check?.pull_requests?.[0]?.number,
      headSha: payload.pull_request?.head?.sha ?? check?.head_sha,
      baseSha: payload.pull_request?.base?.sha,
      baseRef: payload.pull_request?.base?.ref,
      updatedAt: delivery.updatedAt,
      comment: payload.comment?.id !== undefined ? { id: payload.comment.id, ...defined({ command: commandText(payload.comment.body ?? "") }) } : undefined,
      checkRunId: delivery.name === "check_run" ? check?.id : undefined,
      checkSuiteId: delivery.name === "check_suite" ? check?.id : undefined,
      requestedAction: payload.requested_action?.identifier,
    }),
  };
  const parsed = DeliveryJobSchema.safeParse(candidate);
  if (!parsed.success) return { refused: describeIssues(parsed.error) };
  return { job: parsed.data };
}

/** A job read back from Redis, or why it is refused. */
export function readDeliveryJob(data: unknown): JobOf {
  const parsed = DeliveryJobSchema.safeParse(data);
  return parsed.success ? { job: parsed.data } : { refused: describeIssues(parsed.error) };
}

/**
 * The part of a comment a command reads: its lines up to the first blank one (a `SELECT` may
 * continue there), when no longer than MAX_COMMAND_CHARS and 2 KiB as JSON; undefined otherwise.
 */
export function commandText(body: string): string | undefined {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const blank = lines.findIndex((line, index) => index > 0 && line.trim() === "");
  const text = (blank < 0 ? lines : lines.slice(0, blank)).join("\n");
  // Escaped control characters and multi-byte letters weigh more than their count.
  return text.length <= MAX_COMMAND_CHARS && Buffer.byteLength(JSON.stringify(text)) <= MAX_COMMAND_JSON_BYTES ? text : undefined;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "(job)"}: ${issue.message}`)
    .join("; ");
}

function defined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
