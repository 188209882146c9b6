// Runs one queued delivery through the Probot app, after checking that a push is still the pull
// request's head (shared by the server's queues and the Lambda worker). A Redis job carries no
// payload: processJob fetches what it needs first (job-delivery.ts), then takes the same path.
import type { Probot } from "probot";
import type { Log } from "../port.js";
import { installationIdOf, type QueuedDelivery } from "../delivery.js";
import type { DeliveryJob } from "../delivery-job.js";
import { deliveryIsCurrent } from "./pull-request-state.js";
import { deliveryOfJob } from "./job-delivery.js";

export type Processed = "reviewed" | "skipped";

export async function processDelivery(probot: Pick<Probot, "auth" | "receive">, delivery: QueuedDelivery, log: Log): Promise<Processed> {
  const installationId = installationIdOf(delivery);
  if (delivery.headSha !== undefined && installationId !== undefined) {
    const github = await probot.auth(installationId);
    try {
      const freshness = await deliveryIsCurrent(github, delivery);
      if (!freshness.current) {
        log.info({ delivery: delivery.id, key: delivery.key, headSha: delivery.headSha, reason: freshness.reason }, "Skipped a push that is no longer the head");
        return "skipped";
      }
    } catch (error) {
      // Reviewing a commit that may be stale is better than reviewing nothing.
      log.warn({ err: error, delivery: delivery.id }, "Could not check the pull request's head; reviewing anyway");
    }
  }
  await probot.receive(delivery as Parameters<Probot["receive"]>[0]);
  return "reviewed";
}

/** A Redis job: its delivery rebuilt through the API (which also checks a push's head), then run. */
export async function processJob(probot: Pick<Probot, "auth" | "receive">, job: DeliveryJob, log: Log): Promise<Processed> {
  const github = await probot.auth(job.installationId);
  const rebuilt = await deliveryOfJob(github, job);
  if ("skipped" in rebuilt) {
    log.info({ delivery: job.deliveryId, event: job.event, headSha: job.headSha, reason: rebuilt.skipped }, "Skipped a queued delivery");
    return "skipped";
  }
  await probot.receive(rebuilt.delivery as Parameters<Probot["receive"]>[0]);
  return "reviewed";
}
