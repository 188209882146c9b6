// The Action's client retries what is safe to repeat and backs off on rate limits; the real
// toolkit escapes what it writes as workflow commands.
import nock from "nock";
import { afterEach, describe, expect, it, vi } from "vitest";
import { actionOctokit, retriesAllowed } from "../../src/github/api/action-octokit.js";
import { actionsToolkit } from "../../src/action.js";

afterEach(() => {
  nock.cleanAll();
});

const api = () => nock("https://api.github.com");

function client(warnings: string[] = []) {
  return actionOctokit({ token: "t", warn: (message) => void warnings.push(message), retryAfterBaseValue: 1 });
}

describe("the Action's Octokit", () => {
  it("retries a read after a 502, so one bad gateway no longer fails the run", async () => {
    api().get("/repos/o/r/pulls/1/files").reply(502, "Bad Gateway");
    api().get("/repos/o/r/pulls/1/files").reply(200, [{ filename: "a.cql" }]);
    const { data } = await client().rest.pulls.listFiles({ owner: "o", repo: "r", pull_number: 1 });
    expect(data).toEqual([{ filename: "a.cql" }]);
    expect(nock.isDone()).toBe(true);
  });

  it("sends a non-idempotent POST once: a retried createReview after a 502 GitHub processed would post it twice", async () => {
    const created = api().post("/repos/o/r/check-runs").times(2).reply(502, "Bad Gateway");
    await expect(client().rest.checks.create({ owner: "o", repo: "r", name: "cql-review", head_sha: "abc" })).rejects.toMatchObject({ status: 502 });
    expect(created.pendingMocks()).toHaveLength(1);
    expect(retriesAllowed("POST", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews")).toBe(false);
    expect(retriesAllowed("POST", "/graphql")).toBe(true);
    expect(retriesAllowed("PATCH", "/repos/{owner}/{repo}/check-runs/{check_run_id}")).toBe(true);
  });

  it("gives up at once when GitHub asks for a wait longer than a minute", async () => {
    const warnings: string[] = [];
    api().get("/repos/o/r").reply(403, { message: "You have exceeded a secondary rate limit" }, { "retry-after": "600" });
    await expect(client(warnings).rest.repos.get({ owner: "o", repo: "r" })).rejects.toMatchObject({ status: 403 });
    expect(warnings).toEqual(["Secondary rate limit hit by GET /repos/{owner}/{repo}; giving up (retry 1 of 2)"]);
  });
});

describe("the @actions/core toolkit", () => {
  it("escapes line breaks and % in log commands, so repository text cannot start a command of its own", () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    let lines: string[];
    try {
      actionsToolkit.error("bad table\n::add-mask::x 100%");
      actionsToolkit.warning("w\r\n");
      lines = write.mock.calls.map(([text]) => String(text));
    } finally {
      write.mockRestore();
    }
    expect(lines).toEqual(["::error::bad table%0A::add-mask::x 100%25\n", "::warning::w%0D%0A\n"]);
  });

  it("reads inputs the runner passes as INPUT_ variables", () => {
    process.env["INPUT_SARIF-FILE"] = " results.sarif ";
    try {
      expect(actionsToolkit.getInput("sarif-file")).toBe("results.sarif");
      expect(actionsToolkit.getInput("github-token")).toBe("");
    } finally {
      delete process.env["INPUT_SARIF-FILE"];
    }
  });
});
