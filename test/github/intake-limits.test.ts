// The webhook server's intake under the attacks of a stranger: many large unsigned bodies sent
// slowly (a cap on unverified bytes in flight, answered 503), connections that never finish their
// headers or body (closed within seconds), and a signed body replayed under a new delivery id.
import { createHash } from "node:crypto";
import { connect } from "node:net";
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { QueuedDelivery } from "../../src/github/delivery.js";
import { createWebhookServer } from "../../src/github/intake/webhook-server.js";
import { pullRequestEvent } from "./helpers/payloads.js";
import { deliver, SECRET } from "./helpers/webhook-http.js";

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
let server: Server | undefined;

beforeEach(() => nock.enableNetConnect("127.0.0.1"));
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
  nock.disableNetConnect();
});

async function start(options: Partial<Parameters<typeof createWebhookServer>[0]> = {}) {
  const queued: QueuedDelivery[] = [];
  server = createWebhookServer({
    secret: SECRET,
    path: "/api/github/webhooks",
    sink: { enqueue: (delivery) => (queued.push(delivery), "queued") },
    log: quiet,
    ...options,
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, queued };
}

/**
 * Starts a POST that declares `length` bytes and sends only the first `sent`; `answered` resolves
 * with the status once answered, and `status` holds it from then on.
 */
function slowPost(port: number, length: number, sent: number): { answered: Promise<number>; status: () => number | undefined } {
  let status: number | undefined;
  const request = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/api/github/webhooks",
    headers: { "content-length": String(length), "x-github-delivery": `slow-${Math.random()}`, "x-github-event": "pull_request", "x-hub-signature-256": "sha256=00" },
  });
  const answered = new Promise<number>((resolve) => {
    request.on("response", (response) => {
      response.resume();
      resolve((status = response.statusCode ?? 0));
    });
    request.on("error", () => resolve((status = -1)));
  });
  request.write(Buffer.alloc(sent, 0x20));
  return { answered, status: () => status };
}

describe("webhook intake", () => {
  it("refuses bodies past the cap of unverified bytes in flight with 503, and takes deliveries again once they are gone", async () => {
    const { port, queued } = await start({ maxUnverifiedBytes: 4 * 1024 * 1024, requestTimeoutMs: 60_000 });
    // Three slow senders of 1.3 MiB bodies send 1.2 MiB each and wait: 3.6 MiB unverified. Each is
    // let in whatever the others have sent when its headers are read (2.4 + 1.3 MiB fits in 4): on
    // a loaded host the bodies of the first two may all be in before the third's headers are read.
    const slow = [0, 1, 2].map(() => slowPost(port, Math.round(1.3 * 1024 * 1024), Math.round(1.2 * 1024 * 1024)));
    // The server counts bytes as they arrive. Until they are all in, a 1 MiB body still fits and is
    // answered 401 (unsigned); once they are, its declared length passes the cap and it is refused.
    let answer = 0;
    for (const startedAt = Date.now(); Date.now() - startedAt < 20_000; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      answer = await slowPost(port, 1024 * 1024, 1024 * 1024).answered;
      if (answer !== 401) break;
    }
    expect(answer).toBe(503);
    // the three are still being read, unanswered
    expect(slow.map((request) => request.status())).toEqual([undefined, undefined, undefined]);
    server!.closeAllConnections();
    await Promise.all(slow.map((request) => request.answered));
    // A delivery of ordinary size still gets through.
    expect((await deliver(port, pullRequestEvent("synchronize"))).status).toBe(202);
    expect(queued).toHaveLength(1);
  });

  it("closes a connection whose headers never end, within seconds", async () => {
    const { port } = await start({ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
    const started = performance.now();
    const closedAfter = await new Promise<number>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => socket.write("POST /api/github/webhooks HTTP/1.1\r\nHost: x\r\n"));
      socket.on("data", () => {});
      socket.on("close", () => resolve(performance.now() - started));
      socket.on("error", () => {});
    });
    expect(closedAfter).toBeLessThan(4_000);
  });

  it("answers a body that never finishes within seconds, not Node's default of 300 s", async () => {
    const { port } = await start({ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
    const started = performance.now();
    const status = await slowPost(port, 10_000, 100).answered;
    expect(status).toBe(408);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("drops the same signed body sent again under a new delivery id", async () => {
    const { port, queued } = await start();
    const event = pullRequestEvent("synchronize");
    expect((await deliver(port, event)).status).toBe(202);
    const replay = await deliver(port, { ...event, id: "another-delivery-id" });
    expect(replay).toEqual({ status: 200, body: JSON.stringify({ message: "already received" }) });
    expect(queued).toHaveLength(1);
    // A different body (a new push) is a new delivery.
    const newer = pullRequestEvent("synchronize", { headSha: "f".repeat(40) });
    expect((await deliver(port, { ...newer, id: "third" })).status).toBe(202);
    expect(queued).toHaveLength(2);
  });

  it("hands the queue the body's digest, and answers what a shared queue found already received 200", async () => {
    const { port, queued } = await start();
    const event = pullRequestEvent("synchronize");
    expect((await deliver(port, event)).status).toBe(202);
    expect(queued[0]!.bodyDigest).toBe(createHash("sha256").update(JSON.stringify(event.payload)).digest("base64"));

    // Another replica saw it: this replica's memory does not know, the shared queue does.
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const shared = await start({ sink: { enqueue: () => "duplicate" } });
    expect(await deliver(shared.port, event)).toEqual({ status: 200, body: JSON.stringify({ message: "already received" }) });
  });

  it("answers 422 for a delivery the queue cannot carry, and takes its redelivery", async () => {
    const results = ["invalid", "queued"] as const;
    let calls = 0;
    const { port } = await start({ sink: { enqueue: () => results[calls++]! } });
    const event = pullRequestEvent("synchronize");
    expect((await deliver(port, event)).status).toBe(422);
    expect((await deliver(port, event)).status).toBe(202);
  });
});
