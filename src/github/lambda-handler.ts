// The webhook handler behind src/lambda.ts, for API Gateway HTTP APIs (payload 2.0) and Lambda
// function URLs. Our own small one: the npm adapters pull in Probot 13. It verifies the signature
// on the raw body, then hands the event to `receive` (Probot's).
import { createHmac, timingSafeEqual } from "node:crypto";

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

export interface WebhookDelivery {
  id: string;
  name: string;
  payload: unknown;
}

/** One JSON line per entry; callers pass facts about the delivery, never bodies, headers or secrets. */
export type JsonLog = (entry: { level: "info" | "warn" | "error"; msg: string } & Record<string, unknown>) => void;

const jsonLog: JsonLog = (entry) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);

/** Events the app subscribes to (app.yml); anything else is acknowledged and dropped. */
const HANDLED_EVENTS = new Set(["pull_request", "check_run", "check_suite", "issue_comment"]);

export interface LambdaOptions {
  /** the webhook secret; undefined is a configuration error answered with 500 */
  secret: string | undefined;
  receive: (delivery: WebhookDelivery) => Promise<void>;
  log?: JsonLog;
}

export function createLambdaHandler(options: LambdaOptions): (event: HttpEvent) => Promise<HttpResult> {
  const log = options.log ?? jsonLog;
  return async (event) => {
    const headers = lowerCaseKeys(event.headers ?? {});
    const delivery = headers["x-github-delivery"];
    const name = headers["x-github-event"];
    const context = { delivery, event: name };
    if (!options.secret) {
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
    if (!signatureMatches(options.secret, body, signature)) {
      log({ level: "warn", msg: "Rejected a delivery with a bad signature", ...context });
      return respond(401, "signature does not match");
    }
    if (name === "ping") return respond(200, "pong");
    if (!HANDLED_EVENTS.has(name)) {
      log({ level: "info", msg: "Ignored an event the app does not handle", ...context });
      return respond(200, "ignored");
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      return respond(400, "body is not JSON");
    }
    try {
      await options.receive({ id: delivery, name, payload });
    } catch (error) {
      log({ level: "error", msg: "Handling the delivery failed", ...context, error: error instanceof Error ? error.message : String(error) });
      return respond(500, "handling failed");
    }
    log({ level: "info", msg: "Handled delivery", ...context });
    return respond(200, "ok");
  };
}

/** GitHub signs the raw body with HMAC-SHA256; compare in constant time. */
export function signatureMatches(secret: string, body: Buffer, signature: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function lowerCaseKeys(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}

function respond(statusCode: number, message: string): HttpResult {
  return { statusCode, headers: { "content-type": "application/json" }, body: JSON.stringify({ message }) };
}
