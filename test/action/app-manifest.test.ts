// app.yml asks for what the code uses and nothing more.
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";

const manifest = parseYaml(readFileSync(new URL("../../app.yml", import.meta.url), "utf8")) as {
  default_events: string[];
  default_permissions: Record<string, string>;
};

describe("app.yml", () => {
  it("subscribes to the events the app handles", () => {
    expect(manifest.default_events.sort()).toEqual(["check_run", "check_suite", "issue_comment", "pull_request"]);
  });

  it("asks for least privilege: writes only checks and pull requests, reads issues only to receive issue_comment", () => {
    expect(manifest.default_permissions).toEqual({
      checks: "write",
      pull_requests: "write",
      contents: "read",
      issues: "read",
      metadata: "read",
    });
  });

  it("calls no Issues endpoint that pull_requests: write does not cover", () => {
    // Comments and reactions go to pull requests' conversation, authorised by pull_requests.
    const sources = ["worker/commands.ts", "api/review-comments.ts", "api/change-requests.ts", "api/check-run.ts", "api/stopped-check-run.ts", "api/collect.ts", "api/pull-request.ts", "worker/review-pull-request.ts"].map(
      (file) => readFileSync(new URL(`../../src/github/${file}`, import.meta.url), "utf8"),
    );
    const issueCalls = new Set(sources.flatMap((source) => [...source.matchAll(/rest\.(issues|reactions)\.(\w+)/g)].map((match) => `${match[1]}.${match[2]}`)));
    // on a pull request's number, GitHub accepts these with pull_requests: write alone
    const coveredByPullRequests = new Set(["issues.createComment", "issues.listComments", "issues.getComment", "issues.updateComment", "reactions.createForIssueComment"]);
    expect(issueCalls.size).toBeGreaterThan(0);
    expect([...issueCalls].filter((call) => !coveredByPullRequests.has(call))).toEqual([]);
  });
});
