// AWS Lambda entry of the webhook function (template.yaml: `index.handler`): verifies each delivery
// with the secret (Secrets Manager, SSM or the environment, cached per container and re-read on rotation), drops what the
// app does not act on, and sends the rest to the SQS FIFO review queue, answering 202 at once.
import type { SQSClient } from "@aws-sdk/client-sqs";
import { createLambdaHandler } from "./github/intake/lambda-handler.js";
import { readSecret, rotatingSecret } from "./lambda/secrets.js";
import { sendDelivery } from "./lambda/sqs.js";

// Cached for SECRET_CACHE_MS, read again once on a mismatch (a rotation needs no cold start).
const webhookSecret = rotatingSecret(() => readSecret("WEBHOOK_SECRET", process.env));
let sqs: SQSClient | undefined;

export const handler = createLambdaHandler({
  secret: webhookSecret,
  enqueue: async (delivery) => {
    const queueUrl = process.env.REVIEW_QUEUE_URL;
    if (!queueUrl) throw new Error("REVIEW_QUEUE_URL is not set");
    // Imported on the first delivery to queue, not at the cold start's import.
    sqs ??= new (await import("@aws-sdk/client-sqs")).SQSClient({});
    await sendDelivery(sqs, queueUrl, delivery);
  },
});
