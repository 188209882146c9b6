// The shared queue of several server replicas (REDIS_URL), on BullMQ. What the in-process queue
// does in memory is done in Redis here:
// - a job is ids and the few fields the review needs (delivery-job.ts), never the payload; it is
//   validated when read back, and the worker fetches the rest through the API;
// - a delivery id or signed body seen before, at any replica, is dropped (markers kept a day);
// - one "latest push" marker per pull request holds the newest `updated_at` queued: a newer push
//   removes the waiting older one, an older push arriving after a newer one is dropped, and two of
//   the same age both wait for the worker's head check (the API says which one is the head);
// - one lock per pull request: deliveries of one pull request never run at once across replicas;
// - bounded: past `maxWaiting` waiting jobs, or past `maxMemoryBytes` used by Redis, a delivery is
//   refused ("full", answered 503); finished jobs are kept by count and by bytes.
import { randomUUID } from "node:crypto";
import { DelayedError, Queue, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { deliveryJobOf, jobCoalescable, jobKey, MAX_JOB_DATA_BYTES, readDeliveryJob, type DeliveryJob } from "../delivery-job.js";
import type { QueuedDelivery } from "../delivery.js";
import type { DeliveryQueue, EnqueueResult, QueueLog, StoppedWork } from "./review-queue.js";

const QUEUE_NAME = "cql-review-deliveries";
/** Longer than any review; a replica that dies holding a lock frees it after this. */
const LOCK_TTL_MS = 10 * 60_000;
/** How long a delivery waits before trying again when its pull request is being reviewed elsewhere. */
const LOCKED_RETRY_MS = 250;
/** How long a delivery id or body digest is remembered, and a pull request's latest push. */
const MARKER_TTL_MS = 24 * 3600_000;
/** Finished jobs are not kept longer than this, whatever the caps allow. */
const KEEP_AGE_S = 24 * 3600;
/**
 * What one finished job takes in Redis at most (MEMORY USAGE): its data (at most
 * MAX_JOB_DATA_BYTES, in an allocation of up to 5 KiB) and BullMQ's fields (options, timestamps,
 * return value). Measured: 0.9 KiB for a push or a short command, 3.5 KiB with a 2,000-character
 * command (test/services/redis-queue.service.ts checks the bound).
 */
export const FINISHED_JOB_BYTES = 6 * 1_024;
/** BullMQ's event stream, trimmed to about this many entries (its default is 10,000). */
const EVENTS_KEPT = 1_000;

export interface RedisQueueLimits {
  /** waiting (and delayed) jobs past which a delivery is refused */
  maxWaiting: number;
  /** Redis's used memory (INFO memory) past which a delivery is refused */
  maxMemoryBytes: number;
  /** finished jobs kept, completed and failed together */
  keepJobs: number;
  /** bytes of finished jobs kept, completed and failed together (counted at FINISHED_JOB_BYTES a job) */
  keepBytes: number;
}

export const DEFAULT_REDIS_QUEUE_LIMITS: RedisQueueLimits = {
  maxWaiting: 10_000,
  maxMemoryBytes: 256 * 1024 * 1024,
  keepJobs: 10_000,
  keepBytes: 64 * 1024 * 1024,
};

// Deletes the lock only if this worker still holds it.
const RELEASE_LOCK = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

// Admits a delivery, atomically across replicas. KEYS: delivery-id marker, body marker, the pull
// request's latest-push marker. ARGV: marker TTL (ms), job id, updated_at ("" unknown), has a body
// digest ("1"), coalescable ("1"). Answers {"duplicate"}, {"older"} or {"queued", replaced job id?}.
const ADMIT = `
if redis.call("exists", KEYS[1]) == 1 then return {"duplicate"} end
if ARGV[4] == "1" and redis.call("exists", KEYS[2]) == 1 then return {"duplicate"} end
redis.call("set", KEYS[1], "1", "PX", ARGV[1])
if ARGV[4] == "1" then redis.call("set", KEYS[2], "1", "PX", ARGV[1]) end
if ARGV[5] ~= "1" or ARGV[3] == "" then return {"queued"} end
local updated = tonumber(ARGV[3])
local latest = tonumber(redis.call("hget", KEYS[3], "updatedAt"))
if latest and updated < latest then return {"older"} end
if latest and updated == latest then return {"queued"} end
local previous = redis.call("hget", KEYS[3], "jobId")
redis.call("hset", KEYS[3], "updatedAt", ARGV[3], "jobId", ARGV[2])
redis.call("pexpire", KEYS[3], ARGV[1])
if previous then return {"queued", previous} end
return {"queued"}
`;

export interface RedisQueueOptions {
  url: string;
  run: (job: DeliveryJob) => Promise<void>;
  concurrency: number;
  log: QueueLog;
  /** key prefix, so tests (or two apps on one Redis) do not meet */
  prefix?: string;
  limits?: Partial<RedisQueueLimits>;
}

export class RedisReviewQueue implements DeliveryQueue {
  readonly #options: RedisQueueOptions;
  readonly #limits: RedisQueueLimits;
  readonly #keep: { age: number; count: number };
  readonly #prefix: string;
  readonly #redis: Redis;
  readonly #workerRedis: Redis;
  readonly #queue: Queue;
  readonly #worker: Worker;
  #stopping = false;

  constructor(options: RedisQueueOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_REDIS_QUEUE_LIMITS, ...options.limits };
    this.#keep = { age: KEEP_AGE_S, count: keptFinishedJobs(this.#limits) };
    this.#prefix = options.prefix ?? "cql-review";
    // BullMQ's blocking worker connection needs maxRetriesPerRequest: null.
    this.#redis = new Redis(options.url, { maxRetriesPerRequest: null });
    this.#workerRedis = new Redis(options.url, { maxRetriesPerRequest: null });
    this.#queue = new Queue(QUEUE_NAME, { connection: this.#redis, prefix: this.#prefix, streams: { events: { maxLen: EVENTS_KEPT } } });
    this.#worker = new Worker(QUEUE_NAME, (job, token) => this.#process(job, token), {
      connection: this.#workerRedis,
      prefix: this.#prefix,
      concurrency: options.concurrency,
    });
    this.#worker.on("error", (error) => options.log.error({ err: error }, "Redis queue worker error"));
  }

  get active(): number {
    return this.#active;
  }
  #active = 0;

  async enqueue(delivery: QueuedDelivery): Promise<EnqueueResult> {
    if (this.#stopping) return "stopping";
    const made = deliveryJobOf(delivery);
    if ("refused" in made) {
      this.#options.log.warn({ delivery: delivery.id, event: delivery.name, reason: made.refused }, "Refused a delivery that lacks what a review needs");
      return "invalid";
    }
    const job = made.job;
    const bytes = Buffer.byteLength(JSON.stringify(job));
    if (bytes > MAX_JOB_DATA_BYTES) {
      this.#options.log.warn({ delivery: delivery.id, bytes, maxBytes: MAX_JOB_DATA_BYTES }, "Refused a delivery whose job would be too large");
      return "invalid";
    }
    const full = await this.#full();
    if (full) {
      this.#options.log.warn({ delivery: delivery.id, ...full }, "Refused a delivery: the Redis queue is full");
      return "full";
    }
    const key = jobKey(job);
    const jobId = `delivery-${job.deliveryId.replaceAll(":", "_")}`;
    const markers = [this.#key("seen", job.deliveryId), this.#key("body", delivery.bodyDigest ?? "-"), this.#key("latest", key)];
    const [admitted, previous] = (await this.#redis.eval(
      ADMIT,
      markers.length,
      ...markers,
      String(MARKER_TTL_MS),
      jobId,
      job.updatedAt === undefined ? "" : String(job.updatedAt),
      delivery.bodyDigest === undefined ? "0" : "1",
      jobCoalescable(job) ? "1" : "0",
    )) as [string, string | undefined];
    if (admitted === "duplicate") return "duplicate";
    if (admitted === "older") {
      this.#options.log.info({ delivery: job.deliveryId, key, headSha: job.headSha }, "An older push arrived after a newer one; kept the newer");
      return "replaced";
    }
    try {
      await this.#queue.add(job.event, job, { jobId, removeOnComplete: this.#keep, removeOnFail: this.#keep });
    } catch (error) {
      // Not queued: a redelivery of it must not be taken for a replay.
      await this.#redis.del(markers[0]!, ...(delivery.bodyDigest === undefined ? [] : [markers[1]!])).catch(() => 0);
      throw error;
    }
    if (previous !== undefined && (await this.#removeWaiting(previous))) {
      this.#options.log.info({ delivery: job.deliveryId, key, headSha: job.headSha, replacedJob: previous }, "A newer push replaced a queued review");
      return "replaced";
    }
    return "queued";
  }

  /** Resolves once no job waits, runs or is delayed (tests, load tests). */
  async onIdle(): Promise<void> {
    for (;;) {
      const counts = await this.#queue.getJobCounts("waiting", "active", "delayed", "prioritized");
      if (Object.values(counts).every((count) => count === 0)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Stops taking jobs and lets running ones finish within the grace period. Waiting ones stay for
   * the other replicas, and a job cut off at the deadline is retried by one of them once BullMQ
   * sees it stalled: nothing is left for this replica to report.
   */
  async stop(graceMs: number): Promise<StoppedWork> {
    this.#stopping = true;
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), graceMs)));
    const closed = await Promise.race([this.#worker.close().then(() => "closed" as const), graceOver]);
    clearTimeout(timer);
    if (closed === "timeout") await this.#worker.close(true);
    await this.#queue.close();
    // Connections we created are ours to close; BullMQ leaves them open.
    await Promise.all([this.#redis.quit(), this.#workerRedis.quit()]);
    return { unstarted: [], unfinished: [] };
  }

  /** Why the queue takes no more deliveries now, or undefined. */
  async #full(): Promise<object | undefined> {
    const [counts, memory] = await Promise.all([this.#queue.getJobCounts("waiting", "delayed", "prioritized"), this.#redis.info("memory")]);
    const waiting = Object.values(counts).reduce((sum, count) => sum + count, 0);
    if (waiting >= this.#limits.maxWaiting) return { cause: "waiting jobs", waiting, maxWaiting: this.#limits.maxWaiting };
    const usedBytes = Number(/^used_memory:(\d+)/m.exec(memory)?.[1] ?? 0);
    if (usedBytes >= this.#limits.maxMemoryBytes) return { cause: "Redis memory", usedBytes, maxMemoryBytes: this.#limits.maxMemoryBytes };
    return undefined;
  }

  /** Removes a job that has not started (a running or finished one stays); true when it did. */
  async #removeWaiting(jobId: string): Promise<boolean> {
    try {
      const state = await this.#queue.getJobState(jobId);
      if (state !== "waiting" && state !== "delayed" && state !== "prioritized") return false;
      return (await this.#queue.remove(jobId)) === 1;
    } catch {
      // Taken by a worker meanwhile: its run checks the latest-push marker and skips it.
      return false;
    }
  }

  async #process(raw: Job, token: string | undefined): Promise<string> {
    const read = readDeliveryJob(raw.data);
    if ("refused" in read) {
      this.#options.log.warn({ job: raw.id, reason: read.refused }, "Refused a queued job that is not a delivery job of this version");
      return "refused";
    }
    const job = read.job;
    const key = jobKey(job);
    if (jobCoalescable(job) && job.updatedAt !== undefined) {
      const latest = Number((await this.#redis.hget(this.#key("latest", key), "updatedAt")) ?? Number.NaN);
      if (latest > job.updatedAt) {
        this.#options.log.info({ delivery: job.deliveryId, key, headSha: job.headSha }, "A newer push replaced a queued review");
        return "replaced";
      }
    }
    const lock = this.#key("lock", key);
    const holder = randomUUID();
    if ((await this.#redis.set(lock, holder, "PX", LOCK_TTL_MS, "NX")) === null) {
      await raw.moveToDelayed(Date.now() + LOCKED_RETRY_MS, token);
      throw new DelayedError();
    }
    this.#active++;
    try {
      await this.#options.run(job);
    } catch (error) {
      this.#options.log.error({ err: error, delivery: job.deliveryId, key }, "Handling a queued delivery failed");
    } finally {
      this.#active--;
      await this.#redis.eval(RELEASE_LOCK, 1, lock, holder);
    }
    return "done";
  }

  #key(kind: string, key: string): string {
    return `${this.#prefix}:${kind}:${key}`;
  }
}

/**
 * Finished jobs BullMQ keeps in each of its completed and failed sets, so that both together stay
 * within the count cap and, at FINISHED_JOB_BYTES a job at most, within the bytes cap.
 */
export function keptFinishedJobs(limits: Pick<RedisQueueLimits, "keepJobs" | "keepBytes">): number {
  return Math.max(1, Math.min(Math.floor(limits.keepJobs / 2), Math.floor(limits.keepBytes / (2 * FINISHED_JOB_BYTES))));
}
