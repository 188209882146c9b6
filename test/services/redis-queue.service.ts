// The Redis-backed queue several server replicas share, against a real redis-server: one review per
// pull request at a time across replicas, a newer push replacing a queued older one, a replay
// reaching another replica dropped, and a stop that lets running work finish.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queuedDelivery, type QueuedDelivery } from "../../src/github/delivery.js";
import { RedisReviewQueue } from "../../src/github/queue/redis-queue.js";
import { startRedis, type RunningRedis } from "./redis-server.js";

const silent = { info() {}, warn() {}, error() {} };
let redis: RunningRedis;

beforeAll(async () => {
  redis = await startRedis();
}, 20_000);
afterAll(async () => {
  await redis?.stop();
});

function push(id: string, number: number, headSha: string): QueuedDelivery {
  return queuedDelivery({
    id,
    name: "pull_request",
    payload: { action: "synchronize", repository: { full_name: "o/r" }, pull_request: { number, head: { sha: headSha } } },
  })!;
}

/** Two replicas on one Redis, under a prefix of their own; `run` records what ran where and when. */
function replicas(runMs: number) {
  const prefix = `test-${randomUUID()}`;
  const ran: { id: string; replica: number; start: number; end: number }[] = [];
  const make = (replica: number) =>
    new RedisReviewQueue({
      url: redis.url,
      prefix,
      concurrency: 4,
      log: silent,
      run: async (delivery) => {
        const start = performance.now();
        await new Promise((resolve) => setTimeout(resolve, runMs));
        ran.push({ id: delivery.id, replica, start, end: performance.now() });
      },
    });
  return { queues: [make(1), make(2)], ran };
}

describe("Redis-backed review queue", () => {
  it("runs every delivery once across replicas, never two of one pull request at once", async () => {
    const { queues, ran } = replicas(100);
    const [a, b] = queues as [RedisReviewQueue, RedisReviewQueue];
    // PR 1 gets a comment-like, non-coalescable delivery from each replica; PRs 2-5 one push each.
    const comment = (id: string) =>
      queuedDelivery({ id, name: "issue_comment", payload: { action: "created", repository: { full_name: "o/r" }, issue: { number: 1, pull_request: {} } } })!;
    await Promise.all([a.enqueue(comment("c1")), b.enqueue(comment("c2")), a.enqueue(comment("c3"))]);
    await Promise.all([2, 3, 4, 5].map((pr) => (pr % 2 ? a : b).enqueue(push(`p${pr}`, pr, "a".repeat(40)))));
    await a.onIdle();
    await Promise.all(queues.map((queue) => queue.stop(1_000)));

    expect(ran.map((entry) => entry.id).sort()).toEqual(["c1", "c2", "c3", "p2", "p3", "p4", "p5"]);
    const pr1 = ran.filter((entry) => entry.id.startsWith("c")).sort((x, y) => x.start - y.start);
    for (let i = 1; i < pr1.length; i++) expect(pr1[i]!.start).toBeGreaterThanOrEqual(pr1[i - 1]!.end);
  });

  it("a newer push replaces a queued older one, and a replay reaching the other replica runs nothing", async () => {
    const { queues, ran } = replicas(150);
    const [a, b] = queues as [RedisReviewQueue, RedisReviewQueue];
    await a.enqueue(push("first", 1, "a".repeat(40)));
    await new Promise((resolve) => setTimeout(resolve, 60));
    await b.enqueue(push("second", 1, "b".repeat(40)));
    await a.enqueue(push("third", 1, "c".repeat(40)));
    await b.enqueue(push("third", 1, "c".repeat(40)));
    await a.onIdle();
    await Promise.all(queues.map((queue) => queue.stop(1_000)));

    expect(ran.map((entry) => entry.id)).toEqual(["first", "third"]);
  });

  it("on stop, a running review finishes and the queue refuses new deliveries", async () => {
    const { queues, ran } = replicas(200);
    const [a, b] = queues as [RedisReviewQueue, RedisReviewQueue];
    await b.stop(100);
    await a.enqueue(push("running", 7, "a".repeat(40)));
    await new Promise((resolve) => setTimeout(resolve, 80));
    const stopped = a.stop(5_000);
    expect(await a.enqueue(push("late", 8, "b".repeat(40)))).toBe("stopping");
    expect(await stopped).toEqual({ unstarted: [], unfinished: [] });
    expect(ran.map((entry) => entry.id)).toEqual(["running"]);
  });
});
