// Octokit's throttling spaces writes a second apart per queue. Each installation must have its own
// queue: with one shared queue, a server handling many installations at once posts one write a
// second for all of them (the load test saw 20 pull requests take 95 s instead of 3 s).
import { generateKeyPairSync } from "node:crypto";
// @ts-expect-error -- the Bottleneck build plugin-throttling loads ships no type declarations
import BottleneckLight from "bottleneck/light.js";
import nock from "nock";
import { createProbot } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { CqlReviewOctokit } from "../../src/github/api/octokit.js";

const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

afterEach(() => nock.cleanAll());

describe("throttling queues", () => {
  it("the client of each webhook event waits in its installation's queue", async () => {
    // Every queue is a Bottleneck group keyed by the client's throttling id.
    const group = (BottleneckLight as { Group: { prototype: { key(id?: string): unknown } } }).Group.prototype;
    const keys = new Set<string>();
    const key = group.key;
    group.key = function (this: unknown, id?: string) {
      keys.add(id ?? "");
      return key.call(this, id);
    };
    try {
      nock("https://api.github.com")
        .persist()
        .post(/\/app\/installations\/\d+\/access_tokens/)
        .reply(201, { token: "ghs_test", expires_at: "2099-01-01T00:00:00Z" })
        .post("/repos/o/r/check-runs")
        .reply(201, { id: 1 });
      const probot = createProbot({ env: { APP_ID: "1", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: "s", LOG_LEVEL: "fatal" }, overrides: { Octokit: CqlReviewOctokit } });
      await probot.load((app) => {
        app.on("pull_request.opened", async (context) => {
          await context.octokit.request("POST /repos/o/r/check-runs", { name: "cql-review", head_sha: "a".repeat(40) });
        });
      });
      const event = (installation: number) => ({
        id: `d${installation}`,
        name: "pull_request" as const,
        payload: { action: "opened", installation: { id: installation }, repository: { name: "r", owner: { login: "o" } }, pull_request: {} } as never,
      });
      await Promise.all([probot.receive(event(11)), probot.receive(event(12))]);
    } finally {
      group.key = key;
    }
    expect(keys).toContain("11");
    expect(keys).toContain("12");
    expect(keys).not.toContain("no-id");
  });
});
