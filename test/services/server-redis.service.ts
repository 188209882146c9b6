// The Probot server with REDIS_URL against a real redis-server: deliveries queue in Redis and
// Octokit's throttling state is shared there, as several replicas need.
import nock from "nock";
import { ProbotOctokit } from "probot";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/github/worker/create-app.js";
import { RedisReviewQueue } from "../../src/github/queue/redis-queue.js";
import { startServer, type RunningServer } from "../../src/github/server.js";
import { fakeCore } from "../github/helpers/fake-core.js";
import { addsUnbucketedReadings, unbucketedTimeSeries } from "../github/helpers/fixtures.js";
import { captureEachTest, nockGetPull, nockReviewOf } from "../github/helpers/github-mock.js";
import { APP_ID, pullRequestEvent } from "../github/helpers/payloads.js";
import { capturingLogger, PRIVATE_KEY } from "../github/helpers/probot.js";
import { deliver, portOf, SECRET } from "../github/helpers/webhook-http.js";
import { startRedis } from "./redis-server.js";

/** Throttling on (it is what keeps its state in Redis), retries off as in the other tests. */
const ThrottledTestOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => ({ ...options, retry: { enabled: false } }));

describe("Probot server with a shared Redis queue", () => {
  const capture = captureEachTest();
  let running: RunningServer | undefined;

  beforeEach(() => nock.enableNetConnect("127.0.0.1"));
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    nock.disableNetConnect();
  });

  it("with REDIS_URL, queues in Redis and keeps Octokit's throttling state there", async () => {
    const redis = await startRedis();
    try {
      nockGetPull(capture());
      nockReviewOf(capture(), addsUnbucketedReadings);
      const server = (await startServer({
        env: { APP_ID: String(APP_ID), PRIVATE_KEY, WEBHOOK_SECRET: SECRET, PORT: "0", HOST: "127.0.0.1", REDIS_URL: redis.url },
        app: createApp({ core: fakeCore(unbucketedTimeSeries), appId: APP_ID }),
        Octokit: ThrottledTestOctokit,
        log: capturingLogger(),
      }))!;
      running = server;
      expect(server.queue).toBeInstanceOf(RedisReviewQueue);

      expect((await deliver(portOf(server), pullRequestEvent("synchronize"))).status).toBe(202);
      await server.queue.onIdle();
      await server.stop();
      running = undefined;

      expect(capture().bodiesOf("POST", "/reviews")).toHaveLength(1);
      const client = new Redis(redis.url);
      const keys = await client.keys("*");
      await client.quit();
      expect(keys.some((key) => key.startsWith("cql-review:cql-review-deliveries:"))).toBe(true);
      // Probot's Bottleneck clustering keeps its limiter state under "b_…" keys.
      expect(keys.some((key) => key.startsWith("b_"))).toBe(true);
    } finally {
      await redis.stop();
    }
  });
});
