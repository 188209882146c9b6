// The Probot server's HTTP front: verifies each delivery and queues it, answering GitHub at once
// (GitHub waits 10 s and never redelivers on its own). Bodies are limited before they are buffered,
// and a delivery id seen before is acknowledged and dropped.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { signatureMatches } from "./lambda-handler.js";
import { HANDLED_EVENTS, queuedDelivery, type QueuedDelivery } from "../delivery.js";
import { RecentIds } from "./recent-ids.js";
import type { EnqueueResult, QueueLog } from "../queue/review-queue.js";

/** GitHub caps webhook payloads at 25 MB; anything larger is not from GitHub. */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;
/** Delivery ids remembered for replay detection (about 50 bytes each). */
export const RECENT_DELIVERY_IDS = 50_000;
/** Bytes of bodies not yet verified, over all requests in flight: past it, 503 (two GitHub-sized payloads and change). */
export const MAX_UNVERIFIED_BYTES = 64 * 1024 * 1024;
/** GitHub sends its headers and body at once; a client slower than this is cut off. */
export const HEADERS_TIMEOUT_MS = 5_000;
export const REQUEST_TIMEOUT_MS = 10_000;

export interface DeliverySink {
  /** queues the delivery; "full" and "stopping" are answered 503 so GitHub shows the failure */
  enqueue(delivery: QueuedDelivery): Promise<EnqueueResult> | EnqueueResult;
}

export interface WebhookServerOptions {
  secret: string;
  path: string;
  sink: DeliverySink;
  log: QueueLog & { debug(fields: object, message: string): void };
  maxBodyBytes?: number;
  recentIds?: number;
  maxUnverifiedBytes?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

export function createWebhookServer(options: WebhookServerOptions): Server {
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const seen = new RecentIds(options.recentIds ?? RECENT_DELIVERY_IDS);
  // The same signed body under a new delivery id is the same delivery replayed.
  const seenBodies = new RecentIds(options.recentIds ?? RECENT_DELIVERY_IDS);
  const maxUnverifiedBytes = options.maxUnverifiedBytes ?? MAX_UNVERIFIED_BYTES;
  const budget = { inFlight: 0 };
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
    const context = { delivery: id, event: name };
    if (declared > maxBodyBytes) return hangUp(request, response, 413, `body larger than ${maxBodyBytes} bytes`);
    if (budget.inFlight + declared > maxUnverifiedBytes) {
      log.warn({ ...context, inFlight: budget.inFlight, declared }, "Refused a delivery: too many unverified bytes in flight");
      return hangUp(request, response, 503, "too many deliveries being received; redeliver later");
    }
    const body = await readBody(request, maxBodyBytes, budget, maxUnverifiedBytes);
    if (body === "too large") return hangUp(request, response, 413, `body larger than ${maxBodyBytes} bytes`);
    if (body === "busy") {
      log.warn({ ...context, inFlight: budget.inFlight }, "Refused a delivery: too many unverified bytes in flight");
      return hangUp(request, response, 503, "too many deliveries being received; redeliver later");
    }
    if (!signatureMatches(options.secret, body, signature)) {
      log.warn(context, "Rejected a delivery with a bad signature");
      return respond(response, 401, "signature does not match");
    }
    const digest = createHash("sha256").update(body).digest("base64");
    if (name === "ping") return respond(response, 200, "pong");
    if (!HANDLED_EVENTS.has(name)) {
      log.debug(context, "Ignored an event the app does not handle");
      return respond(response, 200, "ignored");
    }
    if (!seen.add(id)) {
      log.info(context, "Dropped a delivery already received (replay or redelivery)");
      return respond(response, 200, "already received");
    }
    if (!seenBodies.add(digest)) {
      seen.delete(id);
      log.info(context, "Dropped a delivery whose signed body was already received under another id (replay)");
      return respond(response, 200, "already received");
    }
    const forget = () => {
      seen.delete(id);
      seenBodies.delete(digest);
    };
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      forget();
      return respond(response, 400, "body is not JSON");
    }
    const queued = queuedDelivery({ id, name, payload });
    if (!queued) {
      log.debug({ ...context, action: (payload as { action?: string }).action }, "Ignored: nothing to review for this delivery");
      return respond(response, 200, "ignored");
    }
    const result = await options.sink.enqueue({ ...queued, bodyDigest: digest });
    if (result === "duplicate") {
      // A queue shared by replicas saw this delivery id or body at another replica.
      log.info(context, "Dropped a delivery the shared queue already received (replay or redelivery)");
      return respond(response, 200, "already received");
    }
    if (result === "invalid") {
      forget();
      return respond(response, 422, "the delivery lacks what a review needs");
    }
    if (result === "full" || result === "stopping") {
      forget();
      log.warn({ ...context, result }, "Could not queue the delivery");
      return respond(response, 503, result === "full" ? "too many reviews waiting; redeliver later" : "shutting down; redeliver later");
    }
    log.info({ ...context, key: queued.key, result }, "Queued delivery");
    return respond(response, 202, result);
  };

  const server = createServer(
    {
      // Slow clients are closed within seconds, not Node's default 300 s; checked every second.
      headersTimeout: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
      requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: 1_000,
    },
    (request, response) => {
      handle(request, response).catch((error: unknown) => {
        log.error({ err: error }, "Could not handle a webhook request");
        if (!response.headersSent) respond(response, 500, "internal error");
      });
    },
  );
  return server;
}

/** Answers and hangs up: the rest of the body is never read. */
function hangUp(request: IncomingMessage, response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json", connection: "close" });
  response.end(JSON.stringify({ message }), () => request.destroy());
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The body, or why it was given up as soon as it passed `limit` bytes or the bytes of all bodies
 * being read passed `maxInFlight` (nothing more is buffered). Its bytes count until it is read.
 */
function readBody(request: IncomingMessage, limit: number, budget: { inFlight: number }, maxInFlight: number): Promise<Buffer | "too large" | "busy"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const settle = (outcome: Buffer | "too large" | "busy") => {
      if (settled) return;
      settled = true;
      budget.inFlight -= length;
      request.off("data", onData);
      if (typeof outcome === "string") request.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      budget.inFlight += chunk.length;
      if (length > limit) return settle("too large");
      if (budget.inFlight > maxInFlight) return settle("busy");
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.once("end", () => settle(Buffer.concat(chunks, length)));
    request.once("close", () => {
      // A client that hangs up mid-body: its bytes no longer count.
      if (!request.complete) settle("too large");
    });
    request.once("error", (error) => {
      if (settled) return;
      settled = true;
      budget.inFlight -= length;
      reject(error);
    });
  });
}

function respond(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ message }));
}
