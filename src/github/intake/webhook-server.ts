// The Probot server's HTTP front: verifies each delivery and queues it, answering GitHub at once
// (GitHub waits 10 s and never redelivers on its own). Bodies are limited before they are buffered,
// and a delivery id seen before is acknowledged and dropped.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { signatureMatches } from "./lambda-handler.js";
import { HANDLED_EVENTS, queuedDelivery, type QueuedDelivery } from "../delivery.js";
import { RecentIds } from "./recent-ids.js";
import type { QueueLog } from "../queue/review-queue.js";

/** GitHub caps webhook payloads at 25 MB; anything larger is not from GitHub. */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;
/** Delivery ids remembered for replay detection (about 50 bytes each). */
export const RECENT_DELIVERY_IDS = 50_000;

export interface DeliverySink {
  /** queues the delivery; "full" and "stopping" are answered 503 so GitHub shows the failure */
  enqueue(delivery: QueuedDelivery): Promise<"queued" | "replaced" | "full" | "stopping"> | "queued" | "replaced" | "full" | "stopping";
}

export interface WebhookServerOptions {
  secret: string;
  path: string;
  sink: DeliverySink;
  log: QueueLog & { debug(fields: object, message: string): void };
  maxBodyBytes?: number;
  recentIds?: number;
}

export function createWebhookServer(options: WebhookServerOptions): Server {
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const seen = new RecentIds(options.recentIds ?? RECENT_DELIVERY_IDS);
  const { log } = options;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname === "/ping" || url.pathname === "/health") return respond(response, 200, "ok");
    if (url.pathname !== options.path) return respond(response, 404, "not found");
    if (request.method !== "POST") return respond(response, 405, "expected a POST from GitHub");
    const id = header(request, "x-github-delivery");
    const name = header(request, "x-github-event");
    const signature = header(request, "x-hub-signature-256");
    if (!id || !name) return respond(response, 400, "missing X-GitHub-Delivery or X-GitHub-Event header");
    if (!signature) return respond(response, 401, "missing X-Hub-Signature-256");
    const declared = Number(request.headers["content-length"] ?? 0);
    const body = declared > maxBodyBytes ? undefined : await readBody(request, maxBodyBytes);
    if (body === undefined) {
      // Answer and hang up: the rest of the body is never read.
      response.writeHead(413, { "content-type": "application/json", connection: "close" });
      response.end(JSON.stringify({ message: `body larger than ${maxBodyBytes} bytes` }), () => request.destroy());
      return;
    }
    const context = { delivery: id, event: name };
    if (!signatureMatches(options.secret, body, signature)) {
      log.warn(context, "Rejected a delivery with a bad signature");
      return respond(response, 401, "signature does not match");
    }
    if (name === "ping") return respond(response, 200, "pong");
    if (!HANDLED_EVENTS.has(name)) {
      log.debug(context, "Ignored an event the app does not handle");
      return respond(response, 200, "ignored");
    }
    if (!seen.add(id)) {
      log.info(context, "Dropped a delivery already received (replay or redelivery)");
      return respond(response, 200, "already received");
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      seen.delete(id);
      return respond(response, 400, "body is not JSON");
    }
    const queued = queuedDelivery({ id, name, payload });
    if (!queued) {
      log.debug({ ...context, action: (payload as { action?: string }).action }, "Ignored: nothing to review for this delivery");
      return respond(response, 200, "ignored");
    }
    const result = await options.sink.enqueue(queued);
    if (result === "full" || result === "stopping") {
      seen.delete(id);
      log.warn({ ...context, result }, "Could not queue the delivery");
      return respond(response, 503, result === "full" ? "too many reviews waiting; redeliver later" : "shutting down; redeliver later");
    }
    log.info({ ...context, key: queued.key, result }, "Queued delivery");
    return respond(response, 202, result);
  };

  return createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log.error({ err: error }, "Could not handle a webhook request");
      if (!response.headersSent) respond(response, 500, "internal error");
    });
  });
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The body, or undefined as soon as it passes `limit` bytes (nothing more is buffered). */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) {
        request.off("data", onData);
        request.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.once("end", () => resolve(length > limit ? undefined : Buffer.concat(chunks, length)));
    request.once("error", reject);
  });
}

function respond(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ message }));
}
