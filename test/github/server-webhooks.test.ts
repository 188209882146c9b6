// The Probot server's webhook front end over real loopback HTTP: answers at once (202) and reviews
// from the queue, skips pushes that are no longer the head, drops replays, limits bodies before
// buffering them, and on shutdown gives the pull requests it did not reach a clear check run.
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/github/worker/create-app.js";
import { createWebhookServer } from "../../src/github/intake/webhook-server.js";
import { startServer, type RunningServer } from "../../src/github/server.js";
import { fakeCore } from "./helpers/fake-core.js";
import { addsUnbucketedReadings, unbucketedTimeSeries } from "./helpers/fixtures.js";
import { captureEachTest, nockGetPull, nockReviewOf } from "./helpers/github-mock.js";
import { APP_ID, HEAD_SHA, OWNER, REPO, pullRequestEvent } from "./helpers/payloads.js";
import { capturingLogger, PRIVATE_KEY, TestOctokit } from "./helpers/probot.js";
import { deliver, portOf, post, SECRET } from "./helpers/webhook-http.js";


describe("Probot server: answer at once, review from the queue", () => {
  const capture = captureEachTest();
  let running: RunningServer | undefined;

  beforeEach(() => nock.enableNetConnect("127.0.0.1"));
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    nock.disableNetConnect();
  });

  async function start(env: Record<string, string> = {}, Octokit = TestOctokit, log = capturingLogger()) {
    running = await startServer({
      env: { APP_ID: String(APP_ID), PRIVATE_KEY, WEBHOOK_SECRET: SECRET, PORT: "0", HOST: "127.0.0.1", ...env },
      app: createApp({ core: fakeCore(unbucketedTimeSeries), appId: APP_ID }),
      Octokit,
      log,
    });
    return running!;
  }

  it("answers 202 before reviewing, checks the head, then reviews; a replayed delivery is dropped", async () => {
    nockGetPull(capture());
    nockReviewOf(capture(), addsUnbucketedReadings);
    const server = await start();
    const delivery = pullRequestEvent("synchronize");

    const answer = await deliver(portOf(server), delivery);
    expect(answer.status).toBe(202);
    const replay = await deliver(portOf(server), delivery);
    expect(replay).toEqual({ status: 200, body: JSON.stringify({ message: "already received" }) });
    await server.queue.onIdle();

    expect(capture().api.map((r) => `${r.method} ${r.path.split("?")[0]}`).slice(0, 2)).toEqual([
      `GET /repos/${OWNER}/${REPO}/pulls/17`,
      `POST /repos/${OWNER}/${REPO}/check-runs`,
    ]);
    expect(capture().bodiesOf("POST", "/check-runs")).toHaveLength(1);
  });

  it("says how to proxy webhooks when WEBHOOK_PROXY_URL is set without smee-client, and still serves", async () => {
    const log = capturingLogger();
    const server = await start({ WEBHOOK_PROXY_URL: "https://smee.io/channel" }, TestOctokit, log);
    expect(log.lines.some((line) => line.level === "warn" && /smee-client/.test(line.message))).toBe(true);
    expect((await deliver(portOf(server), { id: "p1", name: "push", payload: {} })).status).toBe(200);
    nock.cleanAll();
  });

  it("skips a push whose head commit is no longer the pull request's head", async () => {
    nockGetPull(capture(), { headSha: "f".repeat(40) });
    const server = await start();

    expect((await deliver(portOf(server), pullRequestEvent("synchronize"))).status).toBe(202);
    await server.queue.onIdle();

    expect(capture().api.map((r) => r.method)).toEqual(["GET"]);
  });

  it("refuses bad signatures and ignores events the app does not review", async () => {
    const server = await start();
    expect((await deliver(portOf(server), pullRequestEvent("synchronize"), "development")).status).toBe(401);
    const closed = await deliver(portOf(server), pullRequestEvent("closed"));
    expect(closed).toEqual({ status: 200, body: JSON.stringify({ message: "ignored" }) });
    expect((await deliver(portOf(server), { id: "p1", name: "push", payload: {} })).status).toBe(200);
    nock.cleanAll();
  });

  it("on shutdown, pushes it did not start or finish get a failed check run saying why", async () => {
    // The first push's head check hangs past the grace period, so the second never starts.
    capture()
      .scope()
      .get(`/repos/${OWNER}/${REPO}/pulls/17`)
      .delay(400)
      .reply(200, () => ({ state: "open", head: { sha: "e".repeat(40) } }));
    capture()
      .scope()
      .post(`/repos/${OWNER}/${REPO}/check-runs`)
      .times(2)
      .reply(201, function (uri, body) {
        capture().record("POST", uri, body);
        return { id: 1 };
      });
    const server = await start({ REVIEW_CONCURRENCY: "1", SHUTDOWN_GRACE_MS: "50" });
    const second = pullRequestEvent("synchronize", { headSha: "b".repeat(40) });
    expect((await deliver(portOf(server), pullRequestEvent("synchronize"))).status).toBe(202);
    expect((await deliver(portOf(server), { ...second, id: "second" })).status).toBe(202);

    await server.stop();
    running = undefined;

    const created = capture().bodiesOf("POST", "/check-runs");
    const summaryFor = (sha: string) => created.find((body) => body.head_sha === sha)?.output.summary;
    for (const body of created) expect(body).toMatchObject({ name: "cql-review", status: "completed", conclusion: "failure" });
    expect(summaryFor("b".repeat(40))).toContain("before the review started");
    expect(summaryFor(HEAD_SHA)).toContain("could not finish the review in time");
    await server.queue.onIdle();
  });
});

describe("webhook bodies are limited before they are buffered", () => {
  const log = { info() {}, warn() {}, error() {}, debug() {} };
  let server: ReturnType<typeof createWebhookServer> | undefined;
  let received = 0;

  beforeEach(async () => {
    nock.enableNetConnect("127.0.0.1");
    received = 0;
    server = createWebhookServer({
      secret: SECRET,
      path: "/api/github/webhooks",
      sink: { enqueue: () => (received++, "queued") },
      log,
      maxBodyBytes: 1024,
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  });
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    nock.disableNetConnect();
  });

  const headers = { "x-github-delivery": "big", "x-github-event": "pull_request", "x-hub-signature-256": "sha256=00" };

  it("answers 413 to a declared length over the limit without reading it", async () => {
    const port = (server!.address() as AddressInfo).port;
    const answer = await post(port, headers, Buffer.alloc(4096, 32));
    expect(answer.status).toBe(413);
    expect(received).toBe(0);
  });

  it("answers 413 to a chunked body as soon as it passes the limit", async () => {
    const port = (server!.address() as AddressInfo).port;
    const answer = await new Promise<number>((resolve, reject) => {
      const request = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/api/github/webhooks", headers }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on("error", () => resolve(-1));
      // Chunked (no content-length): keep writing well past the limit; the server must stop early.
      let written = 0;
      const writeMore = () => {
        while (written < 1024 * 1024) {
          written += 512;
          if (!request.write(Buffer.alloc(512, 32))) return void request.once("drain", writeMore);
        }
        request.end();
      };
      writeMore();
      setTimeout(() => reject(new Error("no answer")), 5_000).unref();
    });
    expect([413, -1]).toContain(answer);
    expect(received).toBe(0);
  });

  it("accepts a signed delivery under the limit and hands it to the queue", async () => {
    const port = (server!.address() as AddressInfo).port;
    const payload = { action: "opened", repository: { full_name: "o/r" }, pull_request: { number: 1, head: { sha: "a" } } };
    expect((await deliver(port, { id: "small", name: "pull_request", payload })).status).toBe(202);
    expect(received).toBe(1);
  });
});
