// AWS Lambda entry of the worker and dead-letter functions (template.yaml: `worker.handler`,
// `worker.deadLetterHandler`): one Probot per container, created on the first message from the
// app id and the private key read once from Secrets Manager or SSM (secrets.ts). Reviews compute in
// a worker thread with the server's deadline and heap limit (review-thread.ts).
import { createProbot, type Probot } from "probot";
import { skipGrammarValidation } from "../cql/parser.js";
import { cqlReviewAppWith } from "../github/worker/app.js";
import { realCore } from "../github/worker/core.js";
import { CqlReviewOctokit } from "../github/api/octokit.js";
import { cachedSecret, readSecret } from "./secrets.js";
import { LambdaReviewThread } from "./review-thread.js";
import { createDeadLetterHandler, createWorkerHandler, type SqsEvent } from "./worker.js";

// The test suite validates the grammar; a cold start need not.
skipGrammarValidation();

const privateKey = cachedSecret(() => readSecret("PRIVATE_KEY", process.env));
let probot: Promise<Probot> | undefined;

function loadProbot(): Promise<Probot> {
  probot ??= (async () => {
    const instance = createProbot({
      defaults: { logFormat: "json" },
      // The worker never verifies signatures (the webhook function did); Probot still wants a secret.
      overrides: { Octokit: CqlReviewOctokit, privateKey: (await privateKey()).replace(/\\n/g, "\n"), secret: "verified-by-the-webhook-function" },
    });
    await instance.load(cqlReviewAppWith(reviewThread));
    return instance;
  })().catch((error: unknown) => {
    probot = undefined;
    throw error;
  });
  return probot;
}

const log = {
  debug: (fields: object, message: string) => write("debug", fields, message),
  info: (fields: object, message: string) => write("info", fields, message),
  warn: (fields: object, message: string) => write("warn", fields, message),
  error: (fields: object, message: string) => write("error", fields, message),
};

function write(level: string, fields: object, message: string): void {
  if (level === "debug" && process.env.LOG_LEVEL !== "debug" && process.env.LOG_LEVEL !== "trace") return;
  const { err, ...rest } = fields as { err?: unknown };
  const error = err instanceof Error ? { error: err.message } : err !== undefined ? { error: String(err) } : {};
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...rest, ...error })}\n`);
}

/** The invocation being handled: its remaining time cuts a review's deadline. */
let invocation: { getRemainingTimeInMillis(): number } | undefined;

const reviewThread = new LambdaReviewThread(realCore, {
  filename: new URL("./review-thread.mjs", import.meta.url),
  ...optionalInteger("deadlineMs", process.env.REVIEW_DEADLINE_MS),
  ...optionalInteger("memoryMb", process.env.REVIEW_THREAD_MEMORY_MB),
  remainingMs: () => invocation?.getRemainingTimeInMillis(),
  log,
});

const reviewQueued = createWorkerHandler({ probot: loadProbot, log });

export const handler = (event: SqsEvent, context?: { getRemainingTimeInMillis(): number }) => {
  invocation = context;
  return reviewQueued(event);
};

function optionalInteger<K extends string>(key: K, value: string | undefined): { [key in K]?: number } {
  const parsed = Number.parseInt(value ?? "", 10);
  return Number.isFinite(parsed) && parsed > 0 ? ({ [key]: parsed } as { [key in K]?: number }) : {};
}

export const deadLetterHandler = createDeadLetterHandler({
  probot: loadProbot,
  log,
  maxAttempts: Number.parseInt(process.env.MAX_RECEIVE_COUNT ?? "", 10) || 3,
});
