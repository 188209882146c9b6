// The Redis queue's job: what a delivery becomes (ids and a few fields, never the payload), what a
// job read back must look like, and how the worker rebuilds the delivery through the API.
import { describe, expect, it } from "vitest";
import { commandText, deliveryJobOf, MAX_COMMAND_CHARS, MAX_JOB_DATA_BYTES, readDeliveryJob, type DeliveryJob } from "../../src/github/delivery-job.js";
import { queuedDelivery, type WebhookDelivery } from "../../src/github/delivery.js";
import { processJob } from "../../src/github/worker/process-delivery.js";
import {
  BASE_SHA,
  checkRunEvent,
  checkSuiteRerequestedEvent,
  DEFAULT_BRANCH,
  HEAD_SHA,
  INSTALLATION_ID,
  issueCommentEvent,
  OWNER,
  PR_NUMBER,
  pullRequestEvent,
  REPO,
} from "../github/helpers/payloads.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function jobOf(delivery: WebhookDelivery): DeliveryJob {
  const made = deliveryJobOf(queuedDelivery(delivery)!);
  if ("refused" in made) throw new Error(made.refused);
  return made.job;
}

/** A pull request event as large as the ones that filled Redis: a 265 KiB description. */
function largePullRequestEvent() {
  const event = pullRequestEvent("synchronize");
  event.payload.pull_request.body = "A long description. ".repeat(Math.ceil((265 * 1024) / 20));
  return event;
}

describe("the Redis queue's job", () => {
  it("carries ids and the review's fields, a few hundred bytes for a 265 KiB delivery", () => {
    const event = largePullRequestEvent();
    expect(JSON.stringify(event.payload).length).toBeGreaterThan(265 * 1024);
    const job = jobOf(event);
    expect(job).toMatchObject({
      version: 1,
      deliveryId: event.id,
      event: "pull_request",
      action: "synchronize",
      installationId: INSTALLATION_ID,
      repository: { owner: OWNER, name: REPO, defaultBranch: DEFAULT_BRANCH },
      pullNumber: PR_NUMBER,
      headSha: HEAD_SHA,
      baseSha: BASE_SHA,
      baseRef: DEFAULT_BRANCH,
    });
    expect(job.updatedAt).toBe(Date.parse(event.payload.pull_request.updated_at));
    expect(Buffer.byteLength(JSON.stringify(job))).toBeLessThan(1024);
  });

  it("carries a comment's id and its command, bounded; a longer command is left to the API", () => {
    const job = jobOf(issueCommentEvent("/cql explain SELECT * FROM readings\nWHERE sensor_id = ?\n\nThanks! ".padEnd(100_000, "x")));
    expect(job.comment).toEqual({ id: 555001, command: "/cql explain SELECT * FROM readings\nWHERE sensor_id = ?" });
    expect(Buffer.byteLength(JSON.stringify(job))).toBeLessThan(MAX_JOB_DATA_BYTES);

    const long = jobOf(issueCommentEvent(`/cql explain SELECT ${"a, ".repeat(MAX_COMMAND_CHARS)} FROM t`));
    expect(long.comment).toEqual({ id: 555001 });
    expect(commandText("x".repeat(MAX_COMMAND_CHARS))).toHaveLength(MAX_COMMAND_CHARS);
    expect(commandText("x".repeat(MAX_COMMAND_CHARS + 1))).toBeUndefined();
    // Weighed as stored: escaped control characters and multi-byte letters count for more.
    expect(commandText("é".repeat(1_500))).toBeUndefined();
    expect(commandText("\u0007".repeat(400))).toBeUndefined();
  });

  it("carries a check run's or suite's id and the button pressed", () => {
    const run = checkRunEvent("requested_action");
    expect(jobOf(run)).toMatchObject({ event: "check_run", checkRunId: run.payload.check_run.id, requestedAction: "rerun", headSha: HEAD_SHA, pullNumber: PR_NUMBER });
    const suite = checkSuiteRerequestedEvent({ fromFork: true });
    const job = jobOf(suite);
    expect(job).toMatchObject({ event: "check_suite", checkSuiteId: suite.payload.check_suite.id, headSha: HEAD_SHA });
    expect(job.pullNumber).toBeUndefined();
  });

  it("is not made from a delivery without an installation", () => {
    const event = pullRequestEvent("opened");
    delete event.payload.installation;
    const made = deliveryJobOf(queuedDelivery(event)!);
    expect(made).toEqual({ refused: expect.stringContaining("installationId") });
  });

  it("read back, refuses a job of an older shape or from a hostile writer", () => {
    const good = jobOf(pullRequestEvent("synchronize"));
    expect(readDeliveryJob(JSON.parse(JSON.stringify(good)))).toEqual({ job: good });
    // What the queue stored before: the whole delivery, payload and all.
    expect(readDeliveryJob(queuedDelivery(pullRequestEvent("synchronize")))).toHaveProperty("refused");
    expect(readDeliveryJob({ ...good, version: 2 })).toHaveProperty("refused");
    expect(readDeliveryJob({ ...good, payload: { a: 1 } })).toHaveProperty("refused");
    expect(readDeliveryJob({ ...good, repository: { ...good.repository, owner: "../../orgs/x" } })).toHaveProperty("refused");
    expect(readDeliveryJob({ ...good, headSha: "HEAD" })).toHaveProperty("refused");
    expect(readDeliveryJob({ ...good, comment: { id: 1, command: "x".repeat(MAX_COMMAND_CHARS + 1) } })).toHaveProperty("refused");
    expect(readDeliveryJob("not an object")).toHaveProperty("refused");
  });
});

/** A Probot stand-in: `auth` hands a GitHub whose answers the test gives; `receive` records. */
function fakeProbot(answers: { pull?: object; comment?: object; checkRun?: object; checkSuite?: object }) {
  const requests: string[] = [];
  const received: { id: string; name: string; payload: any }[] = [];
  const github = {
    rest: {
      pulls: { get: async (params: object) => (requests.push(`pulls.get ${JSON.stringify(params)}`), { data: answers.pull }) },
      issues: { getComment: async (params: object) => (requests.push(`issues.getComment ${JSON.stringify(params)}`), { data: answers.comment }) },
      checks: {
        get: async (params: object) => (requests.push(`checks.get ${JSON.stringify(params)}`), { data: answers.checkRun }),
        getSuite: async (params: object) => (requests.push(`checks.getSuite ${JSON.stringify(params)}`), { data: answers.checkSuite }),
      },
    },
  };
  const probot = {
    auth: async (id?: number) => {
      requests.push(`auth ${id}`);
      return github;
    },
    receive: async (event: { id: string; name: string; payload: any }) => void received.push(event),
  };
  return { probot: probot as never, requests, received };
}

const repositoryResource = { id: 1, name: REPO, full_name: `${OWNER}/${REPO}`, owner: { login: OWNER }, default_branch: DEFAULT_BRANCH };
const pullResource = (headSha: string, state = "open") => ({
  number: PR_NUMBER,
  state,
  draft: false,
  head: { sha: headSha },
  base: { sha: BASE_SHA, ref: DEFAULT_BRANCH, repo: repositoryResource },
});

describe("a Redis job in the worker", () => {
  it("a push is rebuilt from the pull request the API returns, with one request", async () => {
    const { probot, requests, received } = fakeProbot({ pull: pullResource(HEAD_SHA) });
    expect(await processJob(probot, jobOf(pullRequestEvent("synchronize")), silent)).toBe("reviewed");
    expect(requests).toEqual([`auth ${INSTALLATION_ID}`, `pulls.get {"owner":"${OWNER}","repo":"${REPO}","pull_number":${PR_NUMBER}}`]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ id: "delivery-pr-synchronize", name: "pull_request" });
    expect(received[0]!.payload).toMatchObject({ action: "synchronize", installation: { id: INSTALLATION_ID }, repository: { ...repositoryResource, id: expect.any(Number) }, pull_request: { head: { sha: HEAD_SHA } } });
  });

  it("a push whose head is no longer the pull request's head is not reviewed (two pushes of the same age)", async () => {
    const { probot, received } = fakeProbot({ pull: pullResource("f".repeat(40)) });
    expect(await processJob(probot, jobOf(pullRequestEvent("synchronize")), silent)).toBe("skipped");
    expect(received).toEqual([]);
    const closed = fakeProbot({ pull: pullResource(HEAD_SHA, "closed") });
    expect(await processJob(closed.probot, jobOf(pullRequestEvent("synchronize")), silent)).toBe("skipped");
    expect(closed.received).toEqual([]);
  });

  it("a comment's author and association come from the API, its command from the job", async () => {
    const author = { login: "someone", type: "User" };
    const { probot, received } = fakeProbot({ comment: { id: 555001, body: "/cql help (edited since)", user: author, author_association: "NONE" } });
    expect(await processJob(probot, jobOf(issueCommentEvent("/cql explain Q1", { authorAssociation: "OWNER" })), silent)).toBe("reviewed");
    expect(received[0]!.payload).toMatchObject({
      action: "created",
      issue: { number: PR_NUMBER, pull_request: expect.any(Object) },
      comment: { id: 555001, body: "/cql explain Q1", author_association: "NONE", user: author },
      sender: author,
    });
  });

  it("a check run is read back by its id, with the button the job names", async () => {
    const event = checkRunEvent("requested_action");
    const checkRun = { id: event.payload.check_run.id, name: "cql-review", head_sha: HEAD_SHA, app: { id: 7001 }, pull_requests: [] };
    const { probot, received } = fakeProbot({ checkRun });
    await processJob(probot, jobOf(event), silent);
    expect(received[0]!.payload).toMatchObject({ action: "requested_action", check_run: checkRun, requested_action: { identifier: "rerun" } });
  });
});
