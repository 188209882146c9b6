// The shells turn the core's deadline into a wall-clock budget: a review that runs past it is
// reported as a finding (in the CLI's report, in the check run on GitHub), never a hang. Fake
// clocks that jump a minute per reading make the budget run out deterministically.
import { readFileSync } from "node:fs";
import * as nodeFs from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { main, REVIEW_TIME_BUDGET_MS as CLI_BUDGET_MS, type CliIo } from "../../src/cli.js";
import { realCore, REVIEW_TIME_BUDGET_MS as APP_BUDGET_MS, reviewWithinBudget } from "../../src/github/worker/core.js";
import { captureEachTest, nockReviewOf, type Capture } from "../github/helpers/github-mock.js";
import { pullRequestEvent } from "../github/helpers/payloads.js";
import { testProbot } from "../github/helpers/probot.js";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** A clock that advances `stepMs` every time it is read. */
function jumpingClock(stepMs: number): () => number {
  let now = 0;
  return () => (now += stepMs);
}

describe("CLI", () => {
  async function check(now?: () => number): Promise<{ code: number; report: any }> {
    const out: string[] = [];
    const io: CliIo = {
      stdout: (text) => void out.push(text),
      stderr: () => {},
      stdoutIsTTY: false,
      env: {},
      cwd: REPO_ROOT,
      fs: { stat: (f) => nodeFs.stat(f), readdir: (d) => nodeFs.readdir(d, { withFileTypes: true }), readFile: (f) => nodeFs.readFile(f) },
      ...(now ? { now } : {}),
    };
    const code = await main(["check", "examples/iot", "--format", "json"], io);
    return { code, report: JSON.parse(out.join("")) };
  }

  it("a review past the budget is reported as a finding in the report, and the check still ends", async () => {
    // one reading to set the deadline, then each question reads the clock once
    const { code, report } = await check(jumpingClock(CLI_BUDGET_MS / 2));
    const stopped = report.findings.filter((f: { rule: string }) => f.rule === "input-limit-exceeded");
    expect(stopped).toHaveLength(1);
    expect(stopped[0].message).toMatch(/^The review ran out of time before parsing schema\/010_accounts\.cql and the 3 schema files after it;/);
    expect(report.queries).toEqual([]);
    // what was not reviewed fails the gate
    expect(code).toBe(1);
  });

  it("within the budget, the review is complete", async () => {
    const { report } = await check();
    expect(report.findings.filter((f: { rule: string }) => f.rule === "input-limit-exceeded")).toEqual([]);
    expect(report.queries.length).toBeGreaterThan(5);
  });
});

describe("GitHub app", () => {
  it("the budget ends a review well before API Gateway's 30-second cut of a Lambda delivery", () => {
    expect(APP_BUDGET_MS).toBeLessThanOrEqual(20_000);
  });
});

describe("GitHub app, through Probot and nock", () => {
  const github = captureEachTest();
  let capture: Capture;
  beforeEach(() => {
    capture = github();
  });

  const iot = (name: string) => readFileSync(`${REPO_ROOT}examples/iot/${name}`, "utf8");
  const head = {
    "access-patterns.yaml": iot("access-patterns.yaml"),
    "schema/001_keyspace.cql": iot("schema/001_keyspace.cql"),
    "schema/010_accounts.cql": iot("schema/010_accounts.cql"),
  };

  it("a review past the budget completes the check run with the finding as an annotation", async () => {
    const { probot } = testProbot({ ...realCore, review: reviewWithinBudget(APP_BUDGET_MS, jumpingClock(APP_BUDGET_MS)) });
    nockReviewOf(capture, { base: {}, head });

    await probot.receive(pullRequestEvent("opened"));

    const completed = capture.bodiesOf("PATCH", "/check-runs/9001")[0];
    expect(completed.status).toBe("completed");
    expect(completed.output.annotations).toContainEqual(
      expect.objectContaining({ path: "schema/001_keyspace.cql", start_line: 1, title: "input-limit-exceeded", annotation_level: "warning" }),
    );
    const annotation = completed.output.annotations.find((a: { title: string }) => a.title === "input-limit-exceeded");
    // one clock reading sets the deadline, the manifest is read at the second, the third is past it
    expect(annotation.message).toContain("ran out of time before parsing schema/001_keyspace.cql and the 1 schema file after it");
    expect(completed.output.summary).toContain("0 queries");
  });
});
