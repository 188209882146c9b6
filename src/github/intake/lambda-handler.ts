// The webhook handler behind src/lambda.ts, for API Gateway HTTP APIs (payload 2.0) and Lambda
// function URLs. Our own small one: the npm adapters pull in Probot 13. It verifies the signature
// on the raw body, drops what the app would not act on, and queues the rest (SQS FIFO), answering
// 202 at once: the review runs in the worker function.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { RotatingSecret } from "../../lambda/secrets.js";
import { queuedDelivery, type QueuedDelivery } from "../delivery.js";

/** The parts of an HTTP API v2 / function URL event the handler reads. */
export interface HttpEvent {
  headers?: Record<string, string | undefined>;
  body?: string | null;
  isBase64Encoded?: boolean;
  requestContext?: { http?: { method?: string } };
}

export interface HttpResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type { WebhookDelivery } from "../delivery.js";

/** One JSON line per entry; callers pass facts about the delivery, never bodies, headers or secrets. */
export type JsonLog = (entry: { level: "info" | "warn" | "error"; msg: string } & Record<string, unknown>) => void;

const jsonLog: JsonLog = (entry) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);

export interface LambdaOptions {
  /**
   * the webhook secret; undefined or a failed read is answered with 500. A rotating one
   * (src/lambda/secrets.ts) is read again once on a signature mismatch, so a rotation needs no cold start.
   */
  secret: string | undefined | (() => Promise<string | undefined>) | RotatingSecret;
  /** queues the delivery for the worker */
  enqueue: (delivery: QueuedDelivery) => Promise<void>;
  log?: JsonLog;
}

export function createLambdaHandler(options: LambdaOptions): (event: HttpEvent) => Promise<HttpResult> {
  const log = options.log ?? jsonLog;
  return async (event) => {
    const headers = lowerCaseKeys(event.headers ?? {});
    const delivery = headers["x-github-delivery"];
    const name = headers["x-github-event"];
    const context = { delivery, event: name };
    let secret: string | undefined;
    try {
      secret =
        typeof options.secret === "function" ? await options.secret() : typeof options.secret === "object" ? await options.secret.current() : options.secret;
    } catch (error) {
      log({ level: "error", msg: "Could not read the webhook secret; refusing the delivery", ...context, error: messageOf(error) });
      return respond(500, "cql-review is not configured");
    }
    if (!secret) {
      log({ level: "error", msg: "WEBHOOK_SECRET is not set; refusing every delivery", ...context });
      return respond(500, "cql-review is not configured");
    }
    const method = event.requestContext?.http?.method;
    if (method !== undefined && method !== "POST") return respond(400, "expected a POST from GitHub");
    if (!delivery || !name) return respond(400, "missing X-GitHub-Delivery or X-GitHub-Event header");
    const body = Buffer.from(event.body ?? "", event.isBase64Encoded ? "base64" : "utf8");
    const signature = headers["x-hub-signature-256"];
    if (!signature) {
      log({ level: "warn", msg: "Rejected a delivery without a signature", ...context });
      return respond(401, "missing X-Hub-Signature-256");
    }
    if (!signatureMatches(secret, body, signature) && !(await matchesRotatedSecret(options.secret, body, signature, log, context))) {
      log({ level: "warn", msg: "Rejected a delivery with a bad signature", ...context });
      return respond(401, "signature does not match");
    }
    if (name === "ping") return respond(200, "pong");
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      return respond(400, "body is not JSON");
    }
    const queued = queuedDelivery({ id: delivery, name, payload });
    if (!queued) {
      log({ level: "info", msg: "Ignored a delivery the app does not act on", ...context });
      return respond(200, "ignored");
    }
    try {
      await options.enqueue(queued);
    } catch (error) {
      log({ level: "error", msg: "Queueing the delivery failed", ...context, error: messageOf(error) });
      return respond(500, "queueing failed");
    }
    log({ level: "info", msg: "Queued delivery", ...context, key: queued.key });
    return respond(202, "queued");
  };
}

/** After a mismatch, a rotating secret is read again (rate-limited there): a newly rotated secret verifies. */
async function matchesRotatedSecret(
  secret: LambdaOptions["secret"],
  body: Buffer,
  signature: string,
  log: JsonLog,
  context: Record<string, unknown>,
): Promise<boolean> {
  if (typeof secret !== "object") return false;
  try {
    const rotated = await secret.refreshed();
    if (rotated === undefined || !signatureMatches(rotated, body, signature)) return false;
    log({ level: "info", msg: "The webhook secret was rotated; verified with the new one", ...context });
    return true;
  } catch (error) {
    log({ level: "error", msg: "Could not read the webhook secret again after a signature mismatch", ...context, error: messageOf(error) });
    return false;
  }
}

/** GitHub signs the raw body with HMAC-SHA256; compare in constant time. */
export function signatureMatches(secret: string, body: Buffer, signature: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function lowerCaseKeys(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}

function respond(statusCode: number, message: string): HttpResult {
  return { statusCode, headers: { "content-type": "application/json" }, body: JSON.stringify({ message }) };
}
