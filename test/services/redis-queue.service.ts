// The Redis-backed queue several server replicas share, against a real redis-server: one review per
// pull request at a time across replicas, a newer push replacing a queued older one and an older
// one never replacing a newer one, replays dropped at any replica, jobs that hold ids rather than
// payloads, retention and admission within their caps, and a stop that lets running work finish.
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import nock from "nock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queuedDelivery, type QueuedDelivery } from "../../src/github/delivery.js";
import type { DeliveryJob } from "../../src/github/delivery-job.js";
import { createWebhookServer } from "../../src/github/intake/webhook-server.js";
import type { QueueLog } from "../../src/github/queue/review-queue.js";
import { FINISHED_JOB_BYTES, keptFinishedJobs, RedisReviewQueue, type RedisQueueLimits } from "../../src/github/queue/redis-queue.js";
import { issueCommentEvent, pullRequestEvent } from "../github/helpers/payloads.js";
import { deliver, SECRET } from "../github/helpers/webhook-http.js";
import { startRedis, type RunningRedis } from "./redis-server.js";

const QUEUE_KEYS = "cql-review-deliveries";
const silent = { debug() {}, info() {}, warn() {}, error() {} };
let redis: RunningRedis;
let client: Redis;

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
}, 20_000);
afterAll(async () => {
  await client?.quit();
  await redis?.stop();
});

/** A realistic push (GitHub's example payload) to pull request `number`, made `updatedAt` ms after the epoch. */
function push(id: string, number: number, headSha: string, updatedAt = 1_700_000_000_000): QueuedDelivery {
  const event = pullRequestEvent("synchronize", { headSha });
  event.payload.number = number;
  event.payload.pull_request.number = number;
  event.payload.pull_request.updated_at = new Date(updatedAt).toISOString();
  return queuedDelivery({ ...event, id })!;
}

function comment(id: string, number: number, body = "/cql help"): QueuedDelivery {
  const event = issueCommentEvent(body);
  event.payload.issue.number = number;
  return queuedDelivery({ ...event, id })!;
}

interface Ran {
  id: string;
  replica: number;
  start: number;
  end: number;
}

/** Replicas on one Redis, under a prefix of their own; `run` records what ran where and when. */
function replicas(runMs: number, options: { count?: number; limits?: Partial<RedisQueueLimits>; log?: QueueLog; gate?: Promise<void> } = {}) {
  const prefix = `test-${randomUUID()}`;
  const ran: Ran[] = [];
  const make = (replica: number) =>
    new RedisReviewQueue({
      url: redis.url,
      prefix,
      concurrency: 4,
      log: options.log ?? silent,
      ...(options.limits ? { limits: options.limits } : {}),
      run: async (job: DeliveryJob) => {
        const start = performance.now();
        await options.gate;
        await new Promise((resolve) => setTimeout(resolve, runMs));
        ran.push({ id: job.deliveryId, replica, start, end: performance.now() });
      },
    });
  const queues = Array.from({ length: options.count ?? 2 }, (_, index) => make(index + 1));
  return { queues, ran, prefix };
}

function recordingLog() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at = (level: string) => (fields: object, message: string) => void lines.push({ level, fields: fields as Record<string, unknown>, message });
  return { lines, log: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } };
}

/** Redis's own count of the bytes each of the queue's job hashes takes (every field counted, not sampled). */
async function jobBytes(prefix: string): Promise<number[]> {
  const keys = (await client.keys(`${prefix}:${QUEUE_KEYS}:delivery-*`)).filter((key) => !key.endsWith(":lock"));
  return Promise.all(keys.map(async (key) => (await client.memory("USAGE", key, "SAMPLES", 0)) ?? 0));
}

describe("Redis-backed review queue", () => {
  it("runs every delivery once across replicas, never two of one pull request at once", async () => {
    const { queues, ran } = replicas(100);
    const [a, b] = queues as [RedisReviewQueue, RedisReviewQueue];
    // PR 1 gets a comment from each replica; PRs 2-5 one push each.
    await Promise.all([a.enqueue(comment("c1", 1)), b.enqueue(comment("c2", 1)), a.enqueue(comment("c3", 1))]);
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
    await a.enqueue(push("first", 1, "a".repeat(40), 1_000));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await b.enqueue(push("second", 1, "b".repeat(40), 2_000))).toBe("queued");
    // "second" waits (delayed behind the lock) and is removed; caught between two tries, it is
    // skipped when tried again instead.
    expect(["replaced", "queued"]).toContain(await a.enqueue(push("third", 1, "c".repeat(40), 3_000)));
    expect(await b.enqueue(push("third", 1, "c".repeat(40), 3_000))).toBe("duplicate");
    await a.onIdle();
    await Promise.all(queues.map((queue) => queue.stop(1_000)));

    expect(ran.map((entry) => entry.id)).toEqual(["first", "third"]);
  });

  it("an older push arriving after a newer one is dropped, at either replica; the newer one is reviewed", async () => {
    const { lines, log } = recordingLog();
    const { queues, ran } = replicas(50, { log });
    const [a, b] = queues as [RedisReviewQueue, RedisReviewQueue];
    expect(await a.enqueue(push("newer", 9, "b".repeat(40), 2_000))).toBe("queued");
    expect(await b.enqueue(push("older", 9, "a".repeat(40), 1_000))).toBe("replaced");
    await a.onIdle();
    await Promise.all(queues.map((queue) => queue.stop(1_000)));

    expect(ran.map((entry) => entry.id)).toEqual(["newer"]);
    expect(lines).toContainEqual(expect.objectContaining({ message: "An older push arrived after a newer one; kept the newer", fields: expect.objectContaining({ delivery: "older" }) }));
  });

  it("two pushes of the same age both reach the worker, whose head check picks one", async () => {
    const { queues, ran } = replicas(20);
    const [a, b] = queues as [RedisReviewQueue, RedisReviewQueue];
    await a.enqueue(push("one", 4, "a".repeat(40), 5_000));
    await b.enqueue(push("other", 4, "b".repeat(40), 5_000));
    await a.onIdle();
    await Promise.all(queues.map((queue) => queue.stop(1_000)));
    expect(ran.map((entry) => entry.id).sort()).toEqual(["one", "other"]);
  });

  it("drops a signed body replayed under a new delivery id at another replica", async () => {
    const { queues, ran } = replicas(10);
    const [a, b] = queues as [RedisReviewQueue, RedisReviewQueue];
    expect(await a.enqueue({ ...comment("original", 3), bodyDigest: "digest-1" })).toBe("queued");
    expect(await b.enqueue({ ...comment("replayed", 3), bodyDigest: "digest-1" })).toBe("duplicate");
    expect(await b.enqueue({ ...comment("original", 3), bodyDigest: "digest-2" })).toBe("duplicate");
    await a.onIdle();
    await Promise.all(queues.map((queue) => queue.stop(1_000)));
    expect(ran.map((entry) => entry.id)).toEqual(["original"]);
  });

  it("a job holds ids, not the payload: a few hundred bytes for a 265 KiB delivery", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { queues, prefix } = replicas(0, { count: 1, gate });
    const [a] = queues as [RedisReviewQueue];
    const delivery = push("large", 12, "d".repeat(40));
    (delivery.payload as { pull_request: { body: string } }).pull_request.body = "A long description. ".repeat(Math.ceil((265 * 1024) / 20));
    expect(JSON.stringify(delivery.payload).length).toBeGreaterThan(265 * 1024);
    await a.enqueue(delivery);

    const data = await client.hget(`${prefix}:${QUEUE_KEYS}:delivery-large`, "data");
    expect(data).not.toBeNull();
    expect(Buffer.byteLength(data!)).toBeLessThan(1024);
    expect(data).not.toContain("A long description");
    const [bytes] = await jobBytes(prefix);
    expect(bytes).toBeLessThan(4 * 1024);
    release();
    await a.onIdle();
    await a.stop(1_000);
  });

  it("keeps finished jobs within the count cap and the bytes cap", async () => {
    for (const limits of [
      { keepJobs: 10, keepBytes: 64 * 1024 * 1024 },
      { keepJobs: 10_000, keepBytes: 6 * FINISHED_JOB_BYTES },
    ]) {
      const { queues, prefix } = replicas(0, { count: 1, limits });
      const [a] = queues as [RedisReviewQueue];
      // Commands near the longest a job carries: the largest jobs there are.
      const longCommand = `/cql explain SELECT ${"column_name, ".repeat(140)}x FROM t`;
      for (let pr = 1; pr <= 40; pr++) await a.enqueue(comment(`c${pr}`, pr, longCommand));
      await a.onIdle();
      await a.stop(1_000);

      const bytes = await jobBytes(prefix);
      expect(bytes.length).toBe(keptFinishedJobs(limits));
      expect(bytes.length).toBeLessThanOrEqual(limits.keepJobs);
      expect(bytes.reduce((sum, each) => sum + each, 0)).toBeLessThanOrEqual(limits.keepBytes);
      // The bound the bytes cap counts on holds for every job.
      for (const each of bytes) expect(each).toBeLessThanOrEqual(FINISHED_JOB_BYTES);
    }
  });

  it("a job of an older version or from another writer is refused with a log line, not run", async () => {
    const { lines, log } = recordingLog();
    const { queues, ran, prefix } = replicas(0, { count: 1, log });
    const [a] = queues as [RedisReviewQueue];
    const writer = new Queue(QUEUE_KEYS, { connection: { url: redis.url }, prefix });
    // What the queue stored before: the whole delivery, payload and all.
    await writer.add("pull_request", push("old-shape", 5, "e".repeat(40)), { jobId: "old-shape" });
    await writer.add("pull_request", { version: 1, deliveryId: "x", event: "pull_request", action: "opened", installationId: -1 }, { jobId: "hostile" });
    await a.onIdle();
    await writer.close();
    await a.stop(1_000);

    expect(ran).toEqual([]);
    const refused = lines.filter((line) => line.message === "Refused a queued job that is not a delivery job of this version");
    expect(refused.map((line) => line.fields.job).sort()).toEqual(["hostile", "old-shape"]);
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

describe("a full Redis queue at the webhook", () => {
  async function serve(queue: RedisReviewQueue, log: ReturnType<typeof recordingLog>["log"]) {
    const server: Server = createWebhookServer({ secret: SECRET, path: "/api/github/webhooks", sink: queue, log });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { server, port: (server.address() as AddressInfo).port };
  }

  async function close(server: Server) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  it("answers 503 past the cap on waiting jobs, and says why in the log", async () => {
    nock.enableNetConnect("127.0.0.1");
    const { lines, log } = recordingLog();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { queues } = replicas(0, { count: 1, limits: { maxWaiting: 3 }, log, gate });
    const [a] = queues as [RedisReviewQueue];
    const { server, port } = await serve(a, log);
    try {
      const statuses: number[] = [];
      for (let pr = 1; pr <= 10; pr++) {
        const event = pullRequestEvent("synchronize");
        event.payload.pull_request.number = pr;
        statuses.push((await deliver(port, { ...event, id: `wait-${pr}` })).status);
      }
      // Three wait, up to four more run (blocked): the rest are refused.
      expect(statuses.filter((status) => status === 202).length).toBeLessThanOrEqual(3 + 4);
      expect(statuses.slice(-3)).toEqual([503, 503, 503]);
      expect(lines).toContainEqual(
        expect.objectContaining({ level: "warn", message: "Refused a delivery: the Redis queue is full", fields: expect.objectContaining({ cause: "waiting jobs", maxWaiting: 3 }) }),
      );
    } finally {
      release();
      await a.onIdle();
      await close(server);
      await a.stop(1_000);
      nock.disableNetConnect();
    }
  });

  it("answers 503 once Redis holds more bytes than its cap, and says why in the log", async () => {
    nock.enableNetConnect("127.0.0.1");
    const { lines, log } = recordingLog();
    const { queues, ran, prefix } = replicas(0, { count: 1, limits: { maxMemoryBytes: 64 * 1024 }, log });
    const [a] = queues as [RedisReviewQueue];
    const { server, port } = await serve(a, log);
    try {
      const answer = await deliver(port, { ...pullRequestEvent("synchronize"), id: "memory-full" });
      expect(answer.status).toBe(503);
      expect(lines).toContainEqual(expect.objectContaining({ message: "Refused a delivery: the Redis queue is full", fields: expect.objectContaining({ cause: "Redis memory" }) }));
      // Refused, not remembered: GitHub's redelivery is taken once there is room.
      expect(await client.exists(`${prefix}:seen:memory-full`)).toBe(0);
      expect(ran).toEqual([]);
    } finally {
      await close(server);
      await a.stop(1_000);
      nock.disableNetConnect();
    }
  });
});
