// `npm start`: the Probot server. After the environment checks of server-environment.ts it answers
// each verified delivery at once and reviews from a queue (queue/review-queue.ts); on SIGTERM it
// stops taking deliveries, lets running reviews finish, and tells the pull requests it did not reach.
import type { Server } from "node:http";
import { pathToFileURL } from "node:url";
import { createProbot, run, type ApplicationFunction, type Logger, type Probot } from "probot";
import { skipGrammarValidation } from "../cql/parser.js";
import cqlReviewApp, { cqlReviewAppWith } from "./worker/app.js";
import { realCore } from "./worker/core.js";
import { ReviewThreads } from "./worker/review-threads.js";
import { CqlReviewOctokit } from "./api/octokit.js";
import { installationIdOf, type QueuedDelivery } from "./delivery.js";
import { processDelivery, processJob } from "./worker/process-delivery.js";
import { RedisReviewQueue, type RedisQueueLimits } from "./queue/redis-queue.js";
import { ReviewQueue, type DeliveryQueue } from "./queue/review-queue.js";
import { reportUnreviewedCommit, unreviewedCommitOf } from "./api/stopped-check-run.js";
import { createWebhookServer } from "./intake/webhook-server.js";
import { checkServerEnvironment, effectiveEnvironment } from "./server-environment.js";

/**
 * Reviews at once per process. A review holds its slot about 3 s, mostly waiting for Octokit to
 * space one installation's writes a second apart, and needs about 0.1 s of a review thread: 16
 * slots left the threads idle most of the time (200 reviews in 43 s), 64 keep two threads busy.
 * The computation itself is bounded by the threads; what a waiting review holds is its files.
 */
const DEFAULT_CONCURRENCY = 64;
const MAX_WAITING = 10_000;
/** Kubernetes waits 30 s after SIGTERM by default; a review's compute budget is 20 s. */
const DEFAULT_SHUTDOWN_GRACE_MS = 25_000;

export interface RunningServer {
  server: Server;
  probot: Probot;
  queue: DeliveryQueue;
  /** stops taking deliveries, drains the queue within the grace period, closes the server */
  stop(): Promise<void>;
}

export interface ServerOptions {
  env?: NodeJS.ProcessEnv;
  /** tests hand the app bound to a fake core, and their own Octokit and logger */
  app?: ApplicationFunction;
  Octokit?: typeof CqlReviewOctokit;
  log?: Logger;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer | undefined> {
  const environment = effectiveEnvironment(process.cwd(), options.env ?? process.env);
  const mode = checkServerEnvironment(environment);
  skipGrammarValidation();
  if (mode === "setup") {
    // No credentials yet (never in production): Probot's pages register a new app and write its credentials to .env.
    await run(cqlReviewApp, { Octokit: CqlReviewOctokit });
    return undefined;
  }
  // With REDIS_URL, Probot keeps Octokit's throttling state in Redis (Bottleneck clustering); its
  // connection reaches us through the client options, and is closed on shutdown.
  const throttleConnections = new Set<{ disconnect(flush?: boolean): Promise<void> }>();
  const Octokit = (options.Octokit ?? CqlReviewOctokit).defaults((clientOptions: { throttle?: { connection?: { disconnect(flush?: boolean): Promise<void> } } }) => {
    if (clientOptions.throttle?.connection) throttleConnections.add(clientOptions.throttle.connection);
    return clientOptions;
  });
  const probot = createProbot({
    env: environment,
    defaults: { logLevel: "info" },
    overrides: { Octokit, ...(options.log ? { log: options.log } : {}) },
  });
  // The thread answering GitHub never runs the core: reviews compute in threads with a deadline
  // and a heap limit (worker/review-threads.ts). Tests that hand their own app run it in process.
  const threads = options.app
    ? undefined
    : new ReviewThreads(realCore, {
        ...optionalInteger("threads", environment.REVIEW_THREADS),
        ...optionalInteger("deadlineMs", environment.REVIEW_DEADLINE_MS),
        ...optionalInteger("memoryMb", environment.REVIEW_THREAD_MEMORY_MB),
        // Probot's logger exists once the app is loaded.
        log: { warn: (fields, message) => probot.log.warn(fields, message), error: (fields, message) => probot.log.error(fields, message) },
      });
  await probot.load(options.app ?? cqlReviewAppWith(threads));
  const log = probot.log.child({ name: "queue" });
  const runDelivery = async (delivery: QueuedDelivery) => void (await processDelivery(probot, delivery, log));
  const concurrency = positiveInteger(environment.REVIEW_CONCURRENCY, DEFAULT_CONCURRENCY);
  // With REDIS_URL, replicas share the queue (and Probot shares Octokit's throttling state there).
  const queue: DeliveryQueue = environment.REDIS_URL
    ? new RedisReviewQueue({
        url: environment.REDIS_URL,
        run: async (job) => void (await processJob(probot, job, log)),
        concurrency,
        log,
        limits: redisQueueLimits(environment),
      })
    : new ReviewQueue({ run: runDelivery, concurrency, maxWaiting: MAX_WAITING, log });
  const webhookPath = environment.WEBHOOK_PATH || "/api/github/webhooks";
  const server = createWebhookServer({
    secret: environment.WEBHOOK_SECRET ?? "development",
    path: webhookPath,
    sink: queue,
    log: probot.log.child({ name: "webhooks" }),
  });
  // Listening only once every review thread has loaded the core: a burst at start-up is then
  // answered while the threads are idle, not while they compete for the CPU loading it.
  await threads?.warm();
  const port = environment.PORT === "0" ? 0 : positiveInteger(environment.PORT, 3000);
  const host = environment.HOST || undefined;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  log.info({ address }, "Listening for GitHub webhooks");
  if (environment.WEBHOOK_PROXY_URL && address && typeof address === "object") {
    await startWebhookProxy(environment.WEBHOOK_PROXY_URL, `http://127.0.0.1:${address.port}${webhookPath}`, log);
  }

  const graceMs = positiveInteger(environment.SHUTDOWN_GRACE_MS, DEFAULT_SHUTDOWN_GRACE_MS);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const { unstarted, unfinished } = await queue.stop(graceMs);
      log.info({ unstarted: unstarted.length, unfinished: unfinished.length }, "Stopping: queue drained");
      await Promise.all([
        ...unstarted.map((delivery) => reportStopped(probot, delivery, "the server was shutting down before the review started.", log)),
        // The process exits next: a completed run on the same commit replaces the one left in progress.
        ...unfinished.map((delivery) => reportStopped(probot, delivery, "the server was shutting down and could not finish the review in time.", log)),
      ]);
      server.closeAllConnections();
      await threads?.close();
      await Promise.all([...throttleConnections].map((connection) => connection.disconnect(false).catch(() => {})));
      await closed;
    })());
  return { server, probot, queue, stop };
}

/** A push the server stopped before reviewing it, or while, gets a failed check run with a Re-run button. */
async function reportStopped(probot: Probot, delivery: QueuedDelivery, reason: string, log: Probot["log"]): Promise<void> {
  const commit = unreviewedCommitOf(delivery.payload);
  const installationId = installationIdOf(delivery);
  if (!commit || installationId === undefined || delivery.name === "issue_comment") return;
  try {
    await reportUnreviewedCommit(await probot.auth(installationId), {
      ...commit,
      reason,
      deliveryId: delivery.id,
    });
  } catch (error) {
    log.error({ err: error, delivery: delivery.id }, "Could not report a review the shutdown prevented");
  }
}

/** A smee.io channel forwarded to this server on a development machine, as Probot's server does. */
async function startWebhookProxy(source: string, target: string, log: Probot["log"]): Promise<void> {
  const moduleName = "smee-client";
  try {
    const { SmeeClient } = (await import(moduleName)) as { SmeeClient: new (options: object) => { start(): Promise<unknown> } };
    await new SmeeClient({ source, target, logger: log }).start();
  } catch {
    log.warn({ source }, "WEBHOOK_PROXY_URL is set: run `npm install --save-dev smee-client` to proxy webhooks to this server");
  }
}

/** The Redis queue's caps from the environment; a missing or malformed setting keeps its default. */
function redisQueueLimits(environment: NodeJS.ProcessEnv): Partial<RedisQueueLimits> {
  const megabytes = (value: string | undefined) => positiveInteger(value, 0) * 1024 * 1024;
  const limits: Partial<RedisQueueLimits> = {
    maxWaiting: positiveInteger(environment.REDIS_QUEUE_MAX_WAITING, 0),
    maxMemoryBytes: megabytes(environment.REDIS_QUEUE_MAX_MEMORY_MB),
    keepJobs: positiveInteger(environment.REDIS_QUEUE_KEEP_JOBS, 0),
    keepBytes: megabytes(environment.REDIS_QUEUE_KEEP_MB),
  };
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value > 0));
}

function optionalInteger<K extends string>(key: K, value: string | undefined): { [key in K]?: number } {
  const parsed = positiveInteger(value, 0);
  return parsed > 0 ? ({ [key]: parsed } as { [key in K]?: number }) : {};
}

function positiveInteger(value: string | undefined, fallback: number): number {
  const parsed = Number.parseInt(value ?? "", 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  startServer()
    .then((running) => {
      if (!running) return;
      const onSignal = (signal: string) => {
        running.probot.log.info({ signal }, "Shutting down");
        running.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once("SIGTERM", onSignal);
      process.once("SIGINT", onSignal);
    })
    .catch((error: unknown) => {
      process.stderr.write(`cql-review: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
