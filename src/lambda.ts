// AWS Lambda entry of the webhook function (template.yaml: `index.handler`): verifies each delivery
// with the secret read once per container (Secrets Manager, SSM or the environment), drops what the
// app does not act on, and sends the rest to the SQS FIFO review queue, answering 202 at once.
import type { SQSClient } from "@aws-sdk/client-sqs";
import { createLambdaHandler } from "./github/intake/lambda-handler.js";
import { cachedSecret, readSecret } from "./lambda/secrets.js";
import { sendDelivery } from "./lambda/sqs.js";

const webhookSecret = cachedSecret(() => readSecret("WEBHOOK_SECRET", process.env));
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
