// The shared queue of several server replicas (REDIS_URL), on BullMQ. What the in-process queue
// does in memory is done in Redis here: a delivery id is a job id (a replay reaching any replica
// is dropped while the job is kept), one lock per pull request (deliveries of one pull request
// never run at once across replicas: a locked one waits, delayed), and a "latest push" marker
// per pull request (a queued push is skipped when a newer one was queued after it).
import { randomUUID } from "node:crypto";
import { DelayedError, Queue, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import type { QueuedDelivery } from "../delivery.js";
import type { DeliveryQueue, EnqueueResult, QueueLog, StoppedWork } from "./review-queue.js";

const QUEUE_NAME = "cql-review-deliveries";
/** Longer than any review; a replica that dies holding a lock frees it after this. */
const LOCK_TTL_MS = 10 * 60_000;
/** How long a delivery waits before trying again when its pull request is being reviewed elsewhere. */
const LOCKED_RETRY_MS = 250;
/** Job ids (delivery ids) kept after completion, for replay detection across replicas. */
const KEEP_COMPLETED = { age: 24 * 3600, count: 50_000 };
const MARKER_TTL_MS = 24 * 3600_000;

// Deletes the lock only if this worker still holds it.
const RELEASE_LOCK = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

export interface RedisQueueOptions {
  url: string;
  run: (delivery: QueuedDelivery) => Promise<void>;
  concurrency: number;
  log: QueueLog;
  /** key prefix, so tests (or two apps on one Redis) do not meet */
  prefix?: string;
}

export class RedisReviewQueue implements DeliveryQueue {
  readonly #options: RedisQueueOptions;
  readonly #prefix: string;
  readonly #redis: Redis;
  readonly #workerRedis: Redis;
  readonly #queue: Queue;
  readonly #worker: Worker;
  #stopping = false;

  constructor(options: RedisQueueOptions) {
    this.#options = options;
    this.#prefix = options.prefix ?? "cql-review";
    // BullMQ's blocking worker connection needs maxRetriesPerRequest: null.
    this.#redis = new Redis(options.url, { maxRetriesPerRequest: null });
    this.#workerRedis = new Redis(options.url, { maxRetriesPerRequest: null });
    this.#queue = new Queue(QUEUE_NAME, { connection: this.#redis, prefix: this.#prefix });
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
    if (delivery.coalescable) await this.#redis.set(this.#key("latest", delivery.key), delivery.id, "PX", MARKER_TTL_MS);
    const jobId = delivery.id.replaceAll(":", "_");
    // A job id already present (a replay that reached another replica) is not added again.
    await this.#queue.add(delivery.name, delivery, { jobId, removeOnComplete: KEEP_COMPLETED, removeOnFail: KEEP_COMPLETED });
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

  async #process(job: Job<QueuedDelivery>, token: string | undefined): Promise<string> {
    const delivery = job.data;
    if (delivery.coalescable) {
      const latest = await this.#redis.get(this.#key("latest", delivery.key));
      if (latest !== null && latest !== delivery.id) {
        this.#options.log.info({ delivery: delivery.id, key: delivery.key, newer: latest }, "A newer push replaced a queued review");
        return "replaced";
      }
    }
    const lock = this.#key("lock", delivery.key);
    const holder = randomUUID();
    if ((await this.#redis.set(lock, holder, "PX", LOCK_TTL_MS, "NX")) === null) {
      await job.moveToDelayed(Date.now() + LOCKED_RETRY_MS, token);
      throw new DelayedError();
    }
    this.#active++;
    try {
      await this.#options.run(delivery);
    } catch (error) {
      this.#options.log.error({ err: error, delivery: delivery.id, key: delivery.key }, "Handling a queued delivery failed");
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
