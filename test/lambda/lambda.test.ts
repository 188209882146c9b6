import { createHmac } from "node:crypto";
import nock from "nock";
import { afterEach, describe, expect, it } from "vitest";
import { createLambdaHandler, type HttpEvent, type WebhookDelivery } from "../../src/github/lambda-handler.js";
import { fakeCore } from "../github/helpers/fake-core.js";
import { fixture, unbucketedTimeSeries } from "../github/helpers/fixtures.js";
import { Capture, nockInstallationToken, nockReviewOf } from "../github/helpers/github-mock.js";
import { pullRequestEvent } from "../github/helpers/payloads.js";
import { testProbot } from "../github/helpers/probot.js";

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

function harness(receive: (delivery: WebhookDelivery) => Promise<void> = async () => {}) {
  const logs: Array<Record<string, unknown>> = [];
  const received: WebhookDelivery[] = [];
  const handler = createLambdaHandler({
    secret: SECRET,
    receive: async (delivery) => {
      received.push(delivery);
      await receive(delivery);
    },
    log: (entry) => logs.push(entry),
  });
  return { handler, logs, received };
}

const body = JSON.stringify({ action: "opened", number: 1, pull_request: { title: "Add readings table 🚀" } });

describe("the Lambda handler", () => {
  it("hands a correctly signed delivery to Probot", async () => {
    const { handler, received } = harness();
    const result = await handler(signedEvent("pull_request", body));
    expect(result).toEqual({ statusCode: 200, headers: { "content-type": "application/json" }, body: '{"message":"ok"}' });
    expect(received).toEqual([{ id: "72d3162e-cc78-11e3-81ab-4c9367dc0958", name: "pull_request", payload: JSON.parse(body) }]);
  });

  it("verifies the signature over the decoded bytes of a base64 body", async () => {
    const { handler, received } = harness();
    expect((await handler(signedEvent("issue_comment", body, { base64: true }))).statusCode).toBe(200);
    expect(received[0]!.payload).toEqual(JSON.parse(body));
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
    expect(received).toEqual([]);
  });

  it("answers 400 to requests that are not GitHub deliveries", async () => {
    const { handler } = harness();
    expect((await handler({ ...signedEvent("pull_request", body), headers: {} })).statusCode).toBe(400);
    expect((await handler(signedEvent("pull_request", "{not json"))).statusCode).toBe(400);
    expect((await handler({ ...signedEvent("pull_request", body), requestContext: { http: { method: "GET" } } })).statusCode).toBe(400);
  });

  it("answers 500 when handling fails, logging the delivery but not the body", async () => {
    const { handler, logs } = harness(async () => {
      throw new Error("installation token request failed");
    });
    expect((await handler(signedEvent("pull_request", body))).statusCode).toBe(500);
    expect(logs.at(-1)).toMatchObject({ level: "error", delivery: "72d3162e-cc78-11e3-81ab-4c9367dc0958", event: "pull_request" });
    expect(JSON.stringify(logs)).not.toContain("Add readings table");
  });

  it("refuses everything with 500 when no secret is configured", async () => {
    const received: WebhookDelivery[] = [];
    const handler = createLambdaHandler({ secret: undefined, receive: async (d) => void received.push(d), log: () => {} });
    expect((await handler(signedEvent("pull_request", body))).statusCode).toBe(500);
    expect(received).toEqual([]);
  });
});

describe("the Lambda handler with Probot", () => {
  afterEach(() => nock.cleanAll());

  it("a bad signature is rejected and nothing is posted", async () => {
    const capture = new Capture();
    nockInstallationToken(capture);
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    const handler = createLambdaHandler({ secret: SECRET, receive: (d) => probot.receive(d as never), log: () => {} });
    const event = pullRequestEvent("opened");

    const result = await handler(signedEvent("pull_request", JSON.stringify(event.payload), { secret: "development" }));

    expect(result.statusCode).toBe(401);
    expect(capture.requests).toEqual([]);
  });

  it("a signed pull request delivery is reviewed", async () => {
    const capture = new Capture();
    nockInstallationToken(capture);
    const base = { "schema/000_keyspace.cql": fixture("keyspace.cql") };
    nockReviewOf(capture, { base, head: { ...base, "schema/020_readings.cql": fixture("readings-unbucketed.cql") } });
    const { probot } = testProbot(fakeCore(unbucketedTimeSeries));
    const handler = createLambdaHandler({ secret: SECRET, receive: (d) => probot.receive(d as never), log: () => {} });

    const result = await handler(signedEvent("pull_request", JSON.stringify(pullRequestEvent("opened").payload), { base64: true }));

    expect(result.statusCode).toBe(200);
    expect(capture.bodiesOf("POST", "/reviews")[0].comments[0].line).toBe(9);
    expect(nock.pendingMocks()).toEqual([]);
    capture.assertAllValid();
  });
});
