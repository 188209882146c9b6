// The worker function: consumes the SQS FIFO review queue one message at a time, skips a push that
// is no longer the pull request's head, and runs the Probot app on the rest. A failure is reported
// back as a partial batch failure, so SQS retries the message; after the queue's maxReceiveCount it
// moves to the dead-letter queue, whose consumer (`createDeadLetterHandler`) marks the commit's
// check run failed with the reason.
import type { Probot } from "probot";
import { installationIdOf, queuedDelivery, type WebhookDelivery } from "../github/delivery.js";
import { processDelivery } from "../github/worker/process-delivery.js";
import { reportUnreviewedCommit, unreviewedCommitOf } from "../github/api/stopped-check-run.js";
import type { Log } from "../github/port.js";

/** The parts of an SQS event record the worker reads. */
export interface SqsRecord {
  messageId: string;
  body: string;
  attributes?: { ApproximateReceiveCount?: string };
}

export interface SqsEvent {
  Records: SqsRecord[];
}

export interface SqsBatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

export interface WorkerOptions {
  probot: () => Promise<Pick<Probot, "auth" | "receive">>;
  log: Log;
}

export function createWorkerHandler(options: WorkerOptions): (event: SqsEvent) => Promise<SqsBatchResponse> {
  const { log } = options;
  return async (event) => {
    const batchItemFailures: SqsBatchResponse["batchItemFailures"] = [];
    for (const [index, record] of event.Records.entries()) {
      const delivery = parseRecord(record, log);
      if (!delivery) continue;
      try {
        const outcome = await processDelivery(await options.probot(), delivery, log);
        log.info({ delivery: delivery.id, key: delivery.key, outcome, attempt: attemptOf(record) }, "Processed queued delivery");
      } catch (error) {
        log.error({ err: error, delivery: delivery.id, key: delivery.key, attempt: attemptOf(record) }, "Processing a queued delivery failed; SQS will retry it");
        // FIFO order: once one message of a batch fails, the later ones must be retried too.
        for (const later of event.Records.slice(index)) batchItemFailures.push({ itemIdentifier: later.messageId });
        break;
      }
    }
    return { batchItemFailures };
  };
}

export interface DeadLetterOptions extends WorkerOptions {
  /** the review queue's maxReceiveCount, to say how often it was tried */
  maxAttempts: number;
}

/** Messages the worker gave up on: the commit gets a failed check run that says so. */
export function createDeadLetterHandler(options: DeadLetterOptions): (event: SqsEvent) => Promise<SqsBatchResponse> {
  const { log } = options;
  return async (event) => {
    const batchItemFailures: SqsBatchResponse["batchItemFailures"] = [];
    for (const record of event.Records) {
      const delivery = parseRecord(record, log);
      if (!delivery) continue;
      const commit = unreviewedCommitOf(delivery.payload);
      const installationId = installationIdOf(delivery);
      if (!commit || installationId === undefined) {
        log.warn({ delivery: delivery.id, event: delivery.name }, "Dropped a dead-lettered delivery that names no commit");
        continue;
      }
      try {
        const github = await (await options.probot()).auth(installationId);
        await reportUnreviewedCommit(github, {
          ...commit,
          reason: `the review failed ${options.maxAttempts} times in a row, so cql-review stopped retrying it (the worker's logs name the error under this delivery id).`,
          deliveryId: delivery.id,
        });
        log.warn({ delivery: delivery.id, key: delivery.key, headSha: commit.headSha }, "Marked the check run of a dead-lettered delivery failed");
      } catch (error) {
        log.error({ err: error, delivery: delivery.id }, "Could not mark the check run of a dead-lettered delivery failed");
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}

function parseRecord(record: SqsRecord, log: Log) {
  try {
    const delivery = JSON.parse(record.body) as WebhookDelivery;
    const queued = queuedDelivery(delivery);
    if (!queued) log.warn({ messageId: record.messageId }, "Dropped a queued message that is not a delivery the app acts on");
    return queued;
  } catch {
    // Retrying cannot fix a body that is not JSON; say so and let it go.
    log.error({ messageId: record.messageId }, "Dropped a queued message whose body is not JSON");
    return undefined;
  }
}

function attemptOf(record: SqsRecord): number {
  return Number(record.attributes?.ApproximateReceiveCount ?? 1);
}
