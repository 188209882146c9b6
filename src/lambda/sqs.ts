// The review queue of the Lambda deployment: an SQS FIFO queue. One message group per pull request
// (its reviews run in order, never at once); the delivery id deduplicates replays and redeliveries
// within SQS's five-minute window.
import { createHash } from "node:crypto";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { QueuedDelivery, WebhookDelivery } from "../github/delivery.js";

/** SQS caps MessageGroupId and MessageDeduplicationId at 128 characters. */
const SQS_ID_MAX = 128;
/** SQS's message size limit (1 MiB). */
export const SQS_MESSAGE_MAX_BYTES = 1024 * 1024;

export class MessageTooLargeError extends Error {}

export async function sendDelivery(client: Pick<SQSClient, "send">, queueUrl: string, delivery: QueuedDelivery): Promise<void> {
  const body = JSON.stringify({ id: delivery.id, name: delivery.name, payload: delivery.payload } satisfies WebhookDelivery);
  if (Buffer.byteLength(body) > SQS_MESSAGE_MAX_BYTES) {
    throw new MessageTooLargeError(`the delivery is ${Buffer.byteLength(body)} bytes, over SQS's ${SQS_MESSAGE_MAX_BYTES}`);
  }
  const { SendMessageCommand } = await import("@aws-sdk/client-sqs");
  await client.send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: body,
      MessageGroupId: sqsId(delivery.key),
      MessageDeduplicationId: sqsId(delivery.id),
    }),
  );
}

/** SQS ids take 128 characters of printable ASCII; longer or other ones become a digest. */
export function sqsId(value: string): string {
  return value.length <= SQS_ID_MAX && /^[\x21-\x7e]+$/.test(value) ? value : createHash("sha256").update(value).digest("hex");
}
