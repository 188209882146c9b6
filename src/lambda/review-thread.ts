// The Lambda worker's review isolation: as on the server, a review's computation runs in a worker
// thread with a V8 heap limit and is stopped by terminating the thread at its deadline. The
// deadline is the server's (REVIEW_DEADLINE_MS), cut to what the invocation has left minus the
// time the GitHub writes after it need, so a stopped review still completes its check run
// "not reviewed: …" before Lambda ends the invocation. One thread, kept warm across invocations
// and replaced after it is stopped; the worker handles one message at a time.
import { Worker } from "node:worker_threads";
import type { ExplainRequest, Log, ReviewCore } from "../github/port.js";
import {
  analysisFromThread,
  explainFromThread,
  isOutOfMemory,
  threadSafeRequest,
  type Analysis,
  type AnalysisRequest,
  type ReviewIsolation,
  type StopReason,
  type ThreadOutcome,
} from "../github/worker/analysis.js";
import { DEFAULT_REVIEW_DEADLINE_MS, DEFAULT_REVIEW_THREAD_MEMORY_MB } from "../github/worker/review-threads.js";
import type { ThreadAnswer } from "./review-thread-entry.js";

/** Left of the invocation after a stopped review: the check run and review writes, a second apart. */
export const LAMBDA_MARGIN_MS = 15_000;
/** A deadline is never shorter than this, however little time is left. */
const MIN_DEADLINE_MS = 1_000;

export interface LambdaReviewThreadOptions {
  /** the thread entry: dist/lambda/review-thread.mjs beside the worker bundle */
  filename: string | URL;
  deadlineMs?: number;
  /** milliseconds the current invocation has left (Lambda's `getRemainingTimeInMillis`) */
  remainingMs?: () => number | undefined;
  memoryMb?: number;
  log: Pick<Log, "warn" | "error">;
}

/** The deadline of a review starting now: the configured one, or less when the invocation ends sooner. */
export function reviewDeadlineMs(deadlineMs: number, remainingMs: number | undefined): number {
  if (remainingMs === undefined) return deadlineMs;
  return Math.max(MIN_DEADLINE_MS, Math.min(deadlineMs, remainingMs - LAMBDA_MARGIN_MS));
}

export class LambdaReviewThread implements ReviewIsolation {
  readonly #core: ReviewCore;
  readonly #options: LambdaReviewThreadOptions;
  readonly #memoryMb: number;
  #worker: Worker | undefined;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(core: ReviewCore, options: LambdaReviewThreadOptions) {
    this.#core = core;
    this.#options = options;
    this.#memoryMb = options.memoryMb ?? DEFAULT_REVIEW_THREAD_MEMORY_MB;
  }

  async analyse(request: AnalysisRequest): Promise<Analysis> {
    return analysisFromThread(this.#core, request, await this.#serial({ kind: "review", request: threadSafeRequest(request) }));
  }

  async explain(request: ExplainRequest): Promise<string> {
    return explainFromThread(await this.#serial({ kind: "explain", request }));
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  // One job at a time, so the deadline counts from the moment the thread takes it.
  #serial(job: { kind: string; request: unknown }): Promise<ThreadOutcome> {
    const run = this.#tail.then(() => this.#run(job));
    this.#tail = run.catch(() => {});
    return run;
  }

  #run(job: { kind: string; request: unknown }): Promise<ThreadOutcome> {
    const deadlineMs = reviewDeadlineMs(this.#options.deadlineMs ?? DEFAULT_REVIEW_DEADLINE_MS, this.#options.remainingMs?.());
    const worker = (this.#worker ??= new Worker(this.#options.filename, {
      resourceLimits: { maxOldGenerationSizeMb: this.#memoryMb, maxYoungGenerationSizeMb: 32 },
    }));
    worker.ref();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => stop({ kind: "deadline", deadlineMs }), deadlineMs);
      const settle = () => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
      };
      // A thread that was stopped or failed is thrown away; the next job starts a fresh one.
      const discard = () => {
        if (this.#worker === worker) this.#worker = undefined;
        void worker.terminate();
      };
      const stop = (reason: StopReason) => {
        settle();
        discard();
        this.#options.log.warn({ stopped: reason, job: job.kind }, "Stopped a review thread");
        resolve({ stopped: reason });
      };
      const onMessage = (answer: ThreadAnswer) => {
        settle();
        // Between invocations an idle thread must not keep the process alive.
        worker.unref();
        if ("result" in answer) return resolve({ result: answer.result });
        reject(Object.assign(new Error(answer.error.message), { name: answer.error.name }));
      };
      const onError = (error: unknown) => {
        if (isOutOfMemory(error)) return stop({ kind: "memory", limitMb: this.#memoryMb });
        settle();
        discard();
        reject(error);
      };
      const onExit = (code: number) => {
        settle();
        discard();
        reject(new Error(`The review thread exited (code ${code}) before it answered`));
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage(job);
    });
  }
}
