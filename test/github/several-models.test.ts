// The App on a repository with several applications, with the real core through Probot and nock:
// a pull request touching one model reviews only that model, and the check run says which.
import { beforeEach, describe, expect, it } from "vitest";
import { realCore } from "../../src/github/worker/core.js";
import { severalModelsFiles } from "../helpers/several-models.js";
import { Capture, captureEachTest, nockReviewOf, type RepositoryState } from "./helpers/github-mock.js";
import { pullRequestEvent } from "./helpers/payloads.js";
import { testProbot } from "./helpers/probot.js";

const github = captureEachTest();
let capture: Capture;
beforeEach(() => {
  capture = github();
});

const base = severalModelsFiles();
const newChatQuery = "  - id: latest-message\n    description: The newest message of a room\n    cql: SELECT body FROM messages_by_room WHERE room_id = ? LIMIT 1\n";
const newShopQuery = "  - id: orders-over\n    description: Orders above an amount\n    cql: SELECT order_id FROM orders_by_user WHERE total > ?\n";

describe("the App on a repository with several models", () => {
  it("a change to one application reviews that model only, and the gate names it and the model left out", async () => {
    const { probot } = testProbot(realCore);
    const state: RepositoryState = { base, head: { ...base, "apps/chat/access-patterns.yaml": base["apps/chat/access-patterns.yaml"] + newChatQuery } };
    nockReviewOf(capture, state);

    await probot.receive(pullRequestEvent("opened"));

    // The new entry's only finding (no code runs it yet) is on its line, in the chat's manifest.
    const review = capture.bodiesOf("POST", "/reviews")[0];
    expect(review.comments.map((comment: { path: string; line: number }) => [comment.path, comment.line])).toEqual([["apps/chat/access-patterns.yaml", 15]]);
    const completed = capture.bodiesOf("PATCH", "/check-runs/9001")[0];
    // The shop's existing error is not this change's: its model was not reviewed, and nothing clashes. Infos only: neutral.
    expect(completed.conclusion).toBe("neutral");
    expect(completed.output.summary).toContain("model reviewed: `apps/chat`; not reviewed (nothing in it changed): `apps/shop`");
    expect(completed.output.summary).toContain("### Model `apps/chat`");
    expect(completed.output.summary).not.toContain("schema-invalid");
    expect(completed.output.annotations.every((annotation: { path: string }) => annotation.path.startsWith("apps/chat/"))).toBe(true);
    capture.assertAllValid();
  });

  it("a change to the other application fails the gate on that model's new error, with the comment on its line", async () => {
    const { probot } = testProbot(realCore);
    const state: RepositoryState = { base, head: { ...base, "apps/shop/access-patterns.yaml": base["apps/shop/access-patterns.yaml"] + newShopQuery } };
    nockReviewOf(capture, state);

    await probot.receive(pullRequestEvent("opened"));

    const review = capture.bodiesOf("POST", "/reviews")[0];
    const filtering = review.comments.filter((comment: { body: string }) => comment.body.includes("query-needs-allow-filtering"));
    expect(filtering.map((comment: { path: string; line: number }) => [comment.path, comment.line])).toEqual([["apps/shop/access-patterns.yaml", 15]]);
    const completed = capture.bodiesOf("PATCH", "/check-runs/9001")[0];
    expect(completed.conclusion).toBe("failure");
    expect(completed.output.summary).toContain("1 new error in this change; model reviewed: `apps/shop`; not reviewed (nothing in it changed): `apps/chat`");
    capture.assertAllValid();
  });
});
