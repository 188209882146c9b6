// Runtime configuration: the production secret check, rate-limit retries, GitHub Enterprise Server.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nock from "nock";
import { createProbot } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/github/worker/create-app.js";
import { retryRateLimit } from "../../src/github/api/octokit.js";
import { checkServerEnvironment, effectiveEnvironment } from "../../src/github/server-environment.js";
import { fakeCore } from "./helpers/fake-core.js";
import { fixture, unbucketedTimeSeries } from "./helpers/fixtures.js";
import { Capture, nockInstallationToken, nockReviewOf } from "./helpers/github-mock.js";
import { APP_ID, pullRequestEvent } from "./helpers/payloads.js";
import { capturingLogger, PRIVATE_KEY, TestOctokit } from "./helpers/probot.js";

afterEach(() => nock.cleanAll());

describe("server environment", () => {
  const credentials = { APP_ID: "12", PRIVATE_KEY: "pem" };

  it("refuses to start without a real WEBHOOK_SECRET outside development mode", () => {
    expect(() => checkServerEnvironment({ ...credentials, NODE_ENV: "production" })).toThrow(/WEBHOOK_SECRET is not set/);
    // NODE_ENV unset is not development: a delivery signed with the public default must not be accepted.
    expect(() => checkServerEnvironment({ ...credentials })).toThrow(/WEBHOOK_SECRET is not set/);
    expect(() => checkServerEnvironment({ ...credentials, WEBHOOK_SECRET: "development" })).toThrow(/public default "development"/);
    expect(checkServerEnvironment({ ...credentials, WEBHOOK_SECRET: "s3cret" })).toBe("serve");
    expect(checkServerEnvironment({ ...credentials, NODE_ENV: "development" })).toBe("serve");
  });

  it("offers Probot's setup pages without credentials, as `npm start` on a fresh clone, but never in production", () => {
    expect(checkServerEnvironment({ NODE_ENV: "development" })).toBe("setup");
    expect(checkServerEnvironment({})).toBe("setup");
    expect(() => checkServerEnvironment({ NODE_ENV: "production", WEBHOOK_SECRET: "s3cret" })).toThrow(/APP_ID and PRIVATE_KEY/);
  });

  it("sees the secret in .env the way Probot does", () => {
    const dir = mkdtempSync(join(tmpdir(), "cql-review-env-"));
    expect(effectiveEnvironment(dir, { NODE_ENV: "production" })).toEqual({ NODE_ENV: "production" });
    writeFileSync(join(dir, ".env"), "WEBHOOK_SECRET=from-dotenv\nAPP_ID=12\n");
    const env = effectiveEnvironment(dir, { NODE_ENV: "production", PRIVATE_KEY: "pem" });
    expect(env.WEBHOOK_SECRET).toBe("from-dotenv");
    expect(checkServerEnvironment(env)).toBe("serve");
  });
});

describe("rate limits", () => {
  const warnings: string[] = [];
  const octokit = { log: { warn: (message: string) => void warnings.push(message) } };
  const request = { method: "POST", url: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews" };

  it("retries a secondary rate limit twice with GitHub's short waits, then gives up", () => {
    const handler = retryRateLimit("Secondary rate limit", { remainingSeconds: 100 });
    expect([0, 1, 2].map((retryCount) => handler(5, request, octokit, retryCount))).toEqual([true, true, false]);
    expect(warnings[0]).toBe(
      "Secondary rate limit hit by POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews; retrying in 5 s (retry 1 of 2)",
    );
  });

  it("never waits longer than the delivery can afford: a long retry-after is not waited out", () => {
    expect(retryRateLimit("Secondary rate limit")(60, request, octokit, 0)).toBe(false);
    expect(warnings.at(-1)).toMatch(/giving up \(GitHub asks to wait 60 s\)/);
    // the total wait of one client is bounded too, across requests and both kinds of limit
    const budget = { remainingSeconds: 15 };
    const primary = retryRateLimit("Rate limit", budget);
    const secondary = retryRateLimit("Secondary rate limit", budget);
    expect([primary(8, request, octokit, 0), secondary(6, request, octokit, 0), secondary(6, request, octokit, 0)]).toEqual([true, true, false]);
  });
});

describe("GitHub Enterprise Server", () => {
  it("a delivery is reviewed through GHE_HOST's REST and GraphQL endpoints", async () => {
    const capture = new Capture("https://ghe.example.com", "/api/v3", "/api/graphql");
    nockInstallationToken(capture);
    const base = { "schema/000_keyspace.cql": fixture("keyspace.cql") };
    nockReviewOf(capture, { base, head: { ...base, "schema/020_readings.cql": fixture("readings-unbucketed.cql") } });
    const probot = createProbot({
      env: { APP_ID: String(APP_ID), PRIVATE_KEY, WEBHOOK_SECRET: "s3cret", GHE_HOST: "ghe.example.com", GHE_PROTOCOL: "https" },
      overrides: { Octokit: TestOctokit, log: capturingLogger() },
    });
    await probot.load(createApp({ core: fakeCore(unbucketedTimeSeries), appId: APP_ID }));

    await probot.receive(pullRequestEvent("opened"));

    expect(nock.pendingMocks()).toEqual([]);
    expect(capture.api.map((r) => r.method + " " + r.path.split("?")[0]!.replace(/[0-9a-f]{40}/, "<sha>"))).toEqual([
      "POST /repos/acme-data/iot-models/check-runs",
      "GET /repos/acme-data/iot-models/pulls/17/files",
      "GET /repos/acme-data/iot-models/git/trees/<sha>",
      "POST /api/graphql",
      "POST /repos/acme-data/iot-models/pulls/17/reviews",
      "PATCH /repos/acme-data/iot-models/check-runs/9001",
    ]);
    capture.assertAllValid();
  });
});
