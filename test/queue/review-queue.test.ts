// The server's in-process queue: bounded concurrency, one pull request at a time, newer pushes
// replacing queued older ones, a bounded backlog, and a drain on shutdown.
import { describe, expect, it } from "vitest";
import { queuedDelivery, type QueuedDelivery } from "../../src/github/delivery.js";
import { RecentIds } from "../../src/github/intake/recent-ids.js";
import { ReviewQueue } from "../../src/github/queue/review-queue.js";

const silent = { info() {}, warn() {}, error() {} };
/** The queue starts work after the current I/O callbacks, so deliveries are answered first. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

function push(id: string, number: number, headSha: string, updatedAt?: string): QueuedDelivery {
  return queuedDelivery({
    id,
    name: "pull_request",
    payload: {
      action: "synchronize",
      repository: { full_name: "o/r" },
      pull_request: { number, head: { sha: headSha }, ...(updatedAt ? { updated_at: updatedAt } : {}) },
    },
  })!;
}

/** A run function whose calls finish only when the test says so. */
function controlled() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  let active = 0;
  let maxActive = 0;
  const run = (delivery: QueuedDelivery) =>
    new Promise<void>((resolve) => {
      started.push(delivery.id);
      active++;
      maxActive = Math.max(maxActive, active);
      finishers.set(delivery.id, () => {
        active--;
        resolve();
      });
    });
  const finish = async (id: string) => {
    finishers.get(id)!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { run, started, finish, maxActive: () => maxActive };
}

describe("review queue", () => {
  it("runs at most `concurrency` deliveries at once", async () => {
    const runner = controlled();
    const queue = new ReviewQueue({ run: runner.run, concurrency: 2, maxWaiting: 100, log: silent });
    for (let pr = 1; pr <= 5; pr++) queue.enqueue(push(`d${pr}`, pr, "a".repeat(40)));
    expect(runner.started).toEqual([]);
    await tick();
    expect(runner.started).toEqual(["d1", "d2"]);
    await runner.finish("d1");
    expect(runner.started).toEqual(["d1", "d2", "d3"]);
    for (const id of ["d2", "d3"]) await runner.finish(id);
    for (const id of ["d4", "d5"]) await runner.finish(id);
    await queue.onIdle();
    expect(runner.maxActive()).toBe(2);
  });

  it("never runs two deliveries of one pull request at once, and keeps their order", async () => {
    const runner = controlled();
    const queue = new ReviewQueue({ run: runner.run, concurrency: 4, maxWaiting: 100, log: silent });
    const comment = queuedDelivery({
      id: "c1",
      name: "issue_comment",
      payload: { action: "created", repository: { full_name: "o/r" }, issue: { number: 1, pull_request: {} } },
    })!;
    queue.enqueue(push("p1", 1, "a".repeat(40)));
    queue.enqueue(comment);
    queue.enqueue(push("p2", 2, "b".repeat(40)));
    await tick();
    expect(runner.started).toEqual(["p1", "p2"]);
    await runner.finish("p1");
    expect(runner.started).toEqual(["p1", "p2", "c1"]);
  });

  it("a newer push replaces the queued older one of the same pull request", async () => {
    const runner = controlled();
    const queue = new ReviewQueue({ run: runner.run, concurrency: 1, maxWaiting: 100, log: silent });
    expect(queue.enqueue(push("first", 1, "a".repeat(40), "2026-01-01T10:00:00Z"))).toBe("queued");
    await tick();
    expect(queue.enqueue(push("second", 1, "b".repeat(40), "2026-01-01T10:01:00Z"))).toBe("queued");
    expect(queue.enqueue(push("third", 1, "c".repeat(40), "2026-01-01T10:02:00Z"))).toBe("replaced");
    expect(queue.enqueue(push("other", 2, "d".repeat(40), "2026-01-01T10:02:00Z"))).toBe("queued");
    await runner.finish("first");
    await runner.finish("third");
    await runner.finish("other");
    await queue.onIdle();
    expect(runner.started).toEqual(["first", "third", "other"]);
  });

  it("an older push that arrives after a newer one never replaces it", async () => {
    const runner = controlled();
    const queue = new ReviewQueue({ run: runner.run, concurrency: 1, maxWaiting: 100, log: silent });
    expect(queue.enqueue(push("running", 2, "0".repeat(40)))).toBe("queued");
    await tick();
    expect(queue.enqueue(push("newer", 1, "b".repeat(40), "2026-01-01T10:02:00Z"))).toBe("queued");
    // GitHub delivered the older push late (a retry, a slow hop): it is dropped, not the newer one.
    expect(queue.enqueue(push("older", 1, "a".repeat(40), "2026-01-01T10:01:00+00:00"))).toBe("replaced");
    // Without timestamps the order is unknown: both wait, and the head check decides.
    expect(queue.enqueue(push("unknown", 1, "c".repeat(40)))).toBe("queued");
    await runner.finish("running");
    await runner.finish("newer");
    await runner.finish("unknown");
    await queue.onIdle();
    expect(runner.started).toEqual(["running", "newer", "unknown"]);
  });

  it("refuses new deliveries past its backlog bound", () => {
    const queue = new ReviewQueue({ run: () => new Promise(() => {}), concurrency: 1, maxWaiting: 2, log: silent });
    expect([1, 2, 3].map((pr) => queue.enqueue(push(`d${pr}`, pr, "a".repeat(40))))).toEqual(["queued", "queued", "full"]);
  });

  it("on stop, lets running work finish within the grace period and hands back what it did not finish", async () => {
    const runner = controlled();
    const queue = new ReviewQueue({ run: runner.run, concurrency: 1, maxWaiting: 100, log: silent });
    queue.enqueue(push("running", 1, "a".repeat(40)));
    await tick();
    queue.enqueue(push("waiting", 2, "b".repeat(40)));
    const stopped = queue.stop(50);
    expect(queue.enqueue(push("late", 3, "c".repeat(40)))).toBe("stopping");
    const { unstarted, unfinished } = await stopped;
    expect(unstarted.map((delivery) => delivery.id)).toEqual(["waiting"]);
    expect(unfinished.map((delivery) => delivery.id)).toEqual(["running"]);
    expect(runner.started).toEqual(["running"]);
  });

  it("a failing delivery is logged and the queue goes on", async () => {
    const errors: object[] = [];
    const ran: string[] = [];
    const queue = new ReviewQueue({
      run: async (delivery) => {
        ran.push(delivery.id);
        if (delivery.id === "bad") throw new Error("boom");
      },
      concurrency: 1,
      maxWaiting: 10,
      log: { ...silent, error: (fields) => void errors.push(fields) },
    });
    queue.enqueue(push("bad", 1, "a".repeat(40)));
    queue.enqueue(push("good", 2, "b".repeat(40)));
    await queue.onIdle();
    expect(ran).toEqual(["bad", "good"]);
    expect(errors).toHaveLength(1);
  });
});

describe("delivery keys", () => {
  it("groups by repository and pull request across event kinds; drops what the app would ignore", () => {
    const repository = { full_name: "o/r" };
    expect(push("a", 7, "f".repeat(40))).toMatchObject({ key: "o/r#7", headSha: "f".repeat(40), coalescable: true });
    expect(queuedDelivery({ id: "b", name: "check_run", payload: { action: "rerequested", repository, check_run: { head_sha: "e", pull_requests: [{ number: 7 }] } } })).toMatchObject({
      key: "o/r#7",
      coalescable: false,
    });
    expect(queuedDelivery({ id: "c", name: "check_suite", payload: { action: "rerequested", repository, check_suite: { head_sha: "e", pull_requests: [] } } })?.key).toBe("o/r@e");
    expect(queuedDelivery({ id: "d", name: "pull_request", payload: { action: "labeled", repository, pull_request: { number: 7 } } })).toBeUndefined();
    expect(queuedDelivery({ id: "e", name: "issue_comment", payload: { action: "created", repository, issue: { number: 7 } } })).toBeUndefined();
    expect(queuedDelivery({ id: "f", name: "push", payload: { repository } })).toBeUndefined();
  });
});

describe("recent delivery ids", () => {
  it("remembers a bounded number of ids, forgetting the oldest first", () => {
    const ids = new RecentIds(2);
    expect([ids.add("a"), ids.add("a"), ids.add("b"), ids.add("c")]).toEqual([true, false, true, true]);
    expect(ids.size).toBe(2);
    expect(ids.add("a")).toBe(true);
    expect(ids.add("c")).toBe(false);
  });
});
