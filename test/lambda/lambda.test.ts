// The Lambda webhook function: verifies, drops what the app does not act on, queues the rest and
// answers 202 at once.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createLambdaHandler, type HttpEvent } from "../../src/github/intake/lambda-handler.js";
import type { QueuedDelivery } from "../../src/github/delivery.js";
import { rotatingSecret } from "../../src/lambda/secrets.js";

const SECRET = "It's a Secret to Everybody";

function signedEvent(name: string, body: string, options: { secret?: string; base64?: boolean; signature?: string | null } = {}): HttpEvent {
  const signature =
    options.signature === null
      ? undefined
      : (options.signature ?? `sha256=${createHmac("sha256", options.secret ?? SECRET).update(body).digest("hex")}`);
  return {
    // API Gateway and function URLs lower-case header names; GitHub sends them capitalised.
    headers: {
      "content-type": "application/json",
      "X-GitHub-Event": name,
      "X-GitHub-Delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
      ...(signature ? { "x-hub-signature-256": signature } : {}),
    },
    body: options.base64 ? Buffer.from(body).toString("base64") : body,
    isBase64Encoded: options.base64 ?? false,
    requestContext: { http: { method: "POST" } },
  };
}

function harness(enqueue: (delivery: QueuedDelivery) => Promise<void> = async () => {}, secret: LambdaSecret = SECRET) {
  const logs: Array<Record<string, unknown>> = [];
  const received: QueuedDelivery[] = [];
  const handler = createLambdaHandler({
    secret,
    enqueue: async (delivery) => {
      received.push(delivery);
      await enqueue(delivery);
    },
    log: (entry) => logs.push(entry),
  });
  return { handler, logs, received };
}

type LambdaSecret = Parameters<typeof createLambdaHandler>[0]["secret"];

const body = JSON.stringify({
  action: "opened",
  number: 1,
  repository: { full_name: "o/r" },
  pull_request: { number: 1, title: "Add readings table 🚀", head: { sha: "a".repeat(40) } },
});
const comment = JSON.stringify({ action: "created", repository: { full_name: "o/r" }, issue: { number: 1, pull_request: {} } });

describe("the Lambda handler", () => {
  it("queues a correctly signed delivery, keyed by its pull request, and answers 202", async () => {
    const { handler, received } = harness();
    const result = await handler(signedEvent("pull_request", body));
    expect(result).toEqual({ statusCode: 202, headers: { "content-type": "application/json" }, body: '{"message":"queued"}' });
    expect(received).toEqual([
      {
        id: "72d3162e-cc78-11e3-81ab-4c9367dc0958",
        name: "pull_request",
        payload: JSON.parse(body),
        key: "o/r#1",
        headSha: "a".repeat(40),
        coalescable: true,
      },
    ]);
  });

  it("verifies the signature over the decoded bytes of a base64 body", async () => {
    const { handler, received } = harness();
    expect((await handler(signedEvent("issue_comment", comment, { base64: true }))).statusCode).toBe(202);
    expect(received[0]!.payload).toEqual(JSON.parse(comment));
  });

  it.each([
    ["a signature made with another secret", { secret: "guess" }],
    ["a truncated signature", { signature: "sha256=abc" }],
    ["a SHA-1 signature", { signature: `sha1=${createHmac("sha1", SECRET).update(body).digest("hex")}` }],
    ["no signature", { signature: null }],
  ] as const)("rejects %s with 401", async (_case, options) => {
    const { handler, received, logs } = harness();
    expect((await handler(signedEvent("pull_request", body, options))).statusCode).toBe(401);
    expect(received).toEqual([]);
    expect(JSON.stringify(logs)).not.toContain(SECRET);
  });

  it("acknowledges events it does not handle without running anything", async () => {
    const { handler, received } = harness();
    expect(await handler(signedEvent("star", body))).toMatchObject({ statusCode: 200, body: '{"message":"ignored"}' });
    expect(await handler(signedEvent("ping", "{}"))).toMatchObject({ statusCode: 200, body: '{"message":"pong"}' });
    // A handled event with an action the app ignores takes no queue slot either.
    expect(await handler(signedEvent("pull_request", body.replace('"opened"', '"labeled"')))).toMatchObject({ statusCode: 200, body: '{"message":"ignored"}' });
    expect(received).toEqual([]);
  });

  it("answers 400 to requests that are not GitHub deliveries", async () => {
    const { handler } = harness();
    expect((await handler({ ...signedEvent("pull_request", body), headers: {} })).statusCode).toBe(400);
    expect((await handler(signedEvent("pull_request", "{not json"))).statusCode).toBe(400);
    expect((await handler({ ...signedEvent("pull_request", body), requestContext: { http: { method: "GET" } } })).statusCode).toBe(400);
  });

  it("answers 500 when queueing fails, logging the delivery but not the body", async () => {
    const { handler, logs } = harness(async () => {
      throw new Error("SQS is unreachable");
    });
    expect((await handler(signedEvent("pull_request", body))).statusCode).toBe(500);
    expect(logs.at(-1)).toMatchObject({ level: "error", delivery: "72d3162e-cc78-11e3-81ab-4c9367dc0958", event: "pull_request" });
    expect(JSON.stringify(logs)).not.toContain("Add readings table");
  });

  it("refuses everything with 500 when no secret is configured or it cannot be read", async () => {
    for (const secret of ["", async () => undefined, async () => Promise.reject(new Error("AccessDenied"))]) {
      const { handler, received } = harness(undefined, secret);
      expect((await handler(signedEvent("pull_request", body))).statusCode).toBe(500);
      expect(received).toEqual([]);
    }
  });

  it("reads a secret given as a function (Secrets Manager, SSM) before verifying", async () => {
    const { handler, received } = harness(undefined, async () => SECRET);
    expect((await handler(signedEvent("pull_request", body))).statusCode).toBe(202);
    expect((await handler(signedEvent("pull_request", body, { secret: "development" }))).statusCode).toBe(401);
    expect(received).toHaveLength(1);
  });

  it("picks up a rotated secret in a warm container; the old one stops working within the cache time", async () => {
    let stored = SECRET;
    let reads = 0;
    let clock = 0;
    const secret = rotatingSecret(async () => (reads++, stored), { cacheMs: 300_000, refreshIntervalMs: 30_000, now: () => clock });
    const { handler, received } = harness(undefined, secret);
    expect((await handler(signedEvent("pull_request", body))).statusCode).toBe(202);
    expect(reads).toBe(1);

    clock = 60_000;
    stored = "the rotated secret";
    // GitHub now signs with the new secret: the mismatch reads the store again, once.
    expect((await handler(signedEvent("pull_request", body, { secret: stored }))).statusCode).toBe(202);
    expect(reads).toBe(2);
    expect(received).toHaveLength(2);

    // Forged deliveries cannot make it read the store on every request.
    for (let i = 0; i < 5; i++) expect((await handler(signedEvent("pull_request", body, { secret: "guess" }))).statusCode).toBe(401);
    expect(reads).toBe(2);

    // The old secret is refused: the cache now holds the new one.
    expect((await handler(signedEvent("pull_request", body))).statusCode).toBe(401);
    // Past the cache time the store is read again even without a mismatch.
    clock = 60_000 + 300_001;
    expect((await handler(signedEvent("pull_request", body, { secret: stored }))).statusCode).toBe(202);
    expect(reads).toBe(3);
  });

  it("an old secret read before a rotation stops working once the cache time has passed", async () => {
    let stored = SECRET;
    let clock = 0;
    const secret = rotatingSecret(async () => stored, { cacheMs: 300_000, refreshIntervalMs: 30_000, now: () => clock });
    const { handler } = harness(undefined, secret);
    expect((await handler(signedEvent("pull_request", body))).statusCode).toBe(202);
    stored = "the rotated secret";
    clock = 300_001;
    expect((await handler(signedEvent("pull_request", body))).statusCode).toBe(401);
  });
});
