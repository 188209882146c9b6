// The server's review threads: the thread that answers GitHub never runs the core. A review's
// computation (code reading, the core's review, the comment plan, the check run's summary) runs in
// a worker thread with a V8 heap limit (`resourceLimits`) and a hard deadline: past either, the
// thread is terminated (piscina replaces it) and the review completes with an
// `input-limit-exceeded` finding, "not reviewed: …", which fails the gate unless `unreviewed: warn`.
//
// What crosses the boundary: the files collected from GitHub go in, plain findings, the comment
// plan and the rendered summaries come out. GitHub I/O stays on the main thread: Probot's
// installation tokens, Octokit's retry and throttling state (shared in Redis with REDIS_URL) and
// the logger live there, and what a review does there besides the core (JSON of GitHub's answers,
// a token signature) is small: about 22 ms of the main thread a review against 23 ms in a thread
// (docs/performance.md). Moving the whole job would copy that state into every thread and make
// a terminated thread lose its half-written GitHub state instead of reporting it.
//
// Threads load the built JavaScript (dist/src/github/worker/review-thread.js; `npm ci` builds it):
// vitest runs TypeScript sources, and a worker thread cannot load those.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import type { ExplainRequest, Log, ReviewCore } from "../port.js";
import {
  analysisFromThread,
  explainFromThread,
  isOutOfMemory,
  stoppedReviewFinding,
  threadSafeRequest,
  type Analysis,
  type AnalysisRequest,
  type ReviewIsolation,
  type StopReason,
  type ThreadOutcome,
} from "./analysis.js";

/** The core's own budget is 20 s (core.ts); past this the thread is stopped whatever it does. */
export const DEFAULT_REVIEW_DEADLINE_MS = 30_000;
/**
 * V8 heap of one review thread. The server's memory target is 512 MB of RSS with a hostile review
 * running: the main thread takes about 150 MB, one thread at its limit about this much more.
 */
export const DEFAULT_REVIEW_THREAD_MEMORY_MB = 256;

export interface ReviewThreadOptions {
  /** threads at once; reviews past this wait for a free thread (their deadline starts then) */
  threads?: number;
  deadlineMs?: number;
  /** the V8 old-generation limit of each thread, in MB */
  memoryMb?: number;
  /** the thread's entry (tests hand a hostile one); by default the built review-thread.js */
  filename?: string;
  log: Pick<Log, "warn" | "error">;
}

export class ReviewThreads implements ReviewIsolation {
  readonly #core: ReviewCore;
  readonly #pool: Piscina;
  readonly #deadlineMs: number;
  readonly #memoryMb: number;
  readonly #log: ReviewThreadOptions["log"];
  readonly #threads: number;
  #free: number;
  #warmed: Promise<number[]> | undefined;
  readonly #waiting: (() => void)[] = [];

  /** `core` renders a stopped review's result on this thread (an empty review: cheap). */
  constructor(core: ReviewCore, options: ReviewThreadOptions) {
    this.#core = core;
    const threads = options.threads ?? Math.min(availableParallelism(), 4);
    this.#deadlineMs = options.deadlineMs ?? DEFAULT_REVIEW_DEADLINE_MS;
    this.#memoryMb = options.memoryMb ?? DEFAULT_REVIEW_THREAD_MEMORY_MB;
    this.#log = options.log;
    this.#threads = threads;
    this.#free = threads;
    this.#pool = new Piscina({
      filename: options.filename ?? reviewThreadFile(),
      // Every thread starts with the server: a thread's first review would otherwise pay for loading the core.
      minThreads: threads,
      maxThreads: threads,
      concurrentTasksPerWorker: 1,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: this.#memoryMb, maxYoungGenerationSizeMb: 32 },
    });
    // A thread that dies with no task (memory exhausted while starting) is replaced; say so.
    this.#pool.on("error", (error: unknown) => this.#log.error({ err: error }, "A review thread failed outside a review"));
  }

  async analyse(request: AnalysisRequest): Promise<Analysis> {
    return analysisFromThread(this.#core, request, await this.#run({ kind: "review", request: threadSafeRequest(request) }));
  }

  async explain(request: ExplainRequest): Promise<string> {
    return explainFromThread(await this.#run({ kind: "explain", request }));
  }

  /**
   * Loads the core in every thread and reviews a one-table model there; resolves with the ids of
   * the threads once all are ready, rejects when one cannot load the core. The server listens only
   * after this, so a burst of deliveries at start-up is answered while the threads are idle, not
   * while they compete for the CPU loading the core.
   */
  warm(): Promise<number[]> {
    this.#warmed ??= Promise.all(
      Array.from({ length: this.#threads }, async () => {
        // Each job takes a slot, and piscina gives a job to an idle thread: one job per thread.
        const outcome = await this.#run({ kind: "warm" });
        if ("stopped" in outcome) throw new Error(`A review thread could not load the core: ${stoppedReviewFinding(outcome.stopped).message}`);
        return outcome.result as number;
      }),
    );
    return this.#warmed;
  }

  /** Stops every thread; running reviews end as stopped ones. */
  async close(): Promise<void> {
    await this.#pool.destroy();
  }

  get threads(): number {
    return this.#pool.threads.length;
  }

  async #run(job: { kind: string; request?: unknown }): Promise<ThreadOutcome> {
    await this.#acquire();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.#deadlineMs);
    try {
      return { result: await this.#pool.run(job, { signal: deadline.signal }) };
    } catch (error) {
      const stopped: StopReason | undefined = deadline.signal.aborted
        ? { kind: "deadline", deadlineMs: this.#deadlineMs }
        : isOutOfMemory(error)
          ? { kind: "memory", limitMb: this.#memoryMb }
          : undefined;
      if (!stopped) throw error;
      this.#log.warn({ stopped, job: job.kind }, "Stopped a review thread");
      return { stopped };
    } finally {
      clearTimeout(timer);
      this.#release();
    }
  }

  // At most one review per thread, so the deadline counts from the moment a thread takes it.
  #acquire(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}

/** The built thread entry: beside this file in dist/, or dist/ of the checkout when run from sources. */
export function reviewThreadFile(): string {
  const beside = fileURLToPath(new URL("./review-thread.js", import.meta.url));
  if (existsSync(beside)) return beside;
  const built = fileURLToPath(new URL("../../../dist/src/github/worker/review-thread.js", import.meta.url));
  if (existsSync(built)) return built;
  throw new Error(`The review thread's entry is not built (looked for ${beside} and ${built}): run \`npm run build\`.`);
}
