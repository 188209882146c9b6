// The Probot server's in-process queue. GitHub waits 10 s for an answer, so the server answers once
// a delivery is verified and queued, and reviews run here: at most `concurrency` at once, deliveries
// of one pull request one at a time and in order, and a queued push replaced by a newer one.
import type { QueuedDelivery } from "../delivery.js";

export interface QueueLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface ReviewQueueOptions {
  /** runs one delivery; its errors are logged, never thrown back */
  run: (delivery: QueuedDelivery) => Promise<void>;
  concurrency: number;
  /** bounded memory: past this many waiting deliveries, new ones are refused (the server answers 503) */
  maxWaiting: number;
  log: QueueLog;
}

/**
 * "duplicate": a queue shared by replicas already received this delivery id or signed body;
 * "invalid": the delivery lacks what a queue shared by replicas must carry (an installation id…).
 */
export type EnqueueResult = "queued" | "replaced" | "full" | "stopping" | "duplicate" | "invalid";

/** What a stopped queue leaves undone: deliveries never started, and ones still running at the deadline. */
export interface StoppedWork {
  unstarted: QueuedDelivery[];
  unfinished: QueuedDelivery[];
}

/** What the server needs of a queue: this in-process one, or the Redis-backed one of redis-queue.ts. */
export interface DeliveryQueue {
  enqueue(delivery: QueuedDelivery): EnqueueResult | Promise<EnqueueResult>;
  /** stops taking deliveries, waits for running ones within `graceMs`; returns what it did not finish here */
  stop(graceMs: number): Promise<StoppedWork>;
  onIdle(): Promise<void>;
  readonly active: number;
}

export class ReviewQueue implements DeliveryQueue {
  readonly #options: ReviewQueueOptions;
  #waiting: QueuedDelivery[] = [];
  readonly #runningKeys = new Set<string>();
  readonly #running = new Map<Promise<void>, QueuedDelivery>();
  #stopping = false;
  #idle: (() => void)[] = [];

  constructor(options: ReviewQueueOptions) {
    this.#options = options;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  get active(): number {
    return this.#running.size;
  }

  enqueue(delivery: QueuedDelivery): EnqueueResult {
    if (this.#stopping) return "stopping";
    let result: EnqueueResult = "queued";
    if (delivery.coalescable) {
      const samePullRequest = this.#waiting.filter((waiting) => waiting.coalescable && waiting.key === delivery.key);
      // Deliveries can arrive out of order: an older push never replaces a newer one.
      if (samePullRequest.some((waiting) => newer(waiting, delivery))) {
        this.#options.log.info({ delivery: delivery.id, key: delivery.key, headSha: delivery.headSha }, "An older push arrived after a newer one; kept the newer");
        return "replaced";
      }
      // A newer push makes the waiting one pointless: review only the newest. When the order is not
      // known, both wait, and the head check before the review skips the one that is not the head.
      const replaced = new Set(samePullRequest.filter((waiting) => newer(delivery, waiting)));
      if (replaced.size > 0) {
        this.#waiting = this.#waiting.filter((waiting) => !replaced.has(waiting));
        result = "replaced";
        this.#options.log.info({ delivery: delivery.id, key: delivery.key, headSha: delivery.headSha }, "A newer push replaced a queued review");
      }
    }
    if (result === "queued" && this.#waiting.length >= this.#options.maxWaiting) return "full";
    this.#waiting.push(delivery);
    // Start work after the current I/O callbacks: a burst of deliveries is answered before the
    // reviews it starts take the CPU (building a client, signing a token, parsing).
    this.#schedulePump();
    return result;
  }

  /**
   * Stops taking deliveries, lets running and waiting ones finish until `graceMs` has passed, and
   * returns the ones that never started or were still running (the caller tells their pull requests).
   */
  async stop(graceMs: number): Promise<StoppedWork> {
    this.#stopping = true;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
      timer.unref();
    });
    const idle = new Promise<void>((resolve) => {
      if (this.#running.size === 0 && this.#waiting.length === 0) resolve();
      else this.#idle.push(resolve);
    });
    await Promise.race([idle, deadline]);
    clearTimeout(timer);
    const unstarted = this.#waiting;
    this.#waiting = [];
    return { unstarted, unfinished: [...this.#running.values()] };
  }

  /** Resolves once nothing runs or waits (tests, load tests). */
  onIdle(): Promise<void> {
    if (this.#running.size === 0 && this.#waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #pumpScheduled = false;

  #schedulePump(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#running.size < this.#options.concurrency) {
      const index = this.#waiting.findIndex((delivery) => !this.#runningKeys.has(delivery.key));
      if (index < 0) break;
      const [delivery] = this.#waiting.splice(index, 1);
      this.#start(delivery!);
    }
    if (this.#running.size === 0 && this.#waiting.length === 0) {
      for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  #start(delivery: QueuedDelivery): void {
    this.#runningKeys.add(delivery.key);
    const task = this.#options
      .run(delivery)
      .catch((error: unknown) => {
        this.#options.log.error({ err: error, delivery: delivery.id, key: delivery.key }, "Handling a queued delivery failed");
      })
      .finally(() => {
        this.#runningKeys.delete(delivery.key);
        this.#running.delete(task);
        this.#pump();
      });
    this.#running.set(task, delivery);
  }
}

/** Whether `a` is known to be a later state of the pull request than `b` (by its `updated_at`). */
function newer(a: QueuedDelivery, b: QueuedDelivery): boolean {
  return a.updatedAt !== undefined && b.updatedAt !== undefined && a.updatedAt > b.updatedAt;
}
