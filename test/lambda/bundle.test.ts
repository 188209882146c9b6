// The Lambda bundles build on a clean clone (esbuild's platform binary comes from its optional
// dependency; npm 11 does not run its install script) and carry the licences of what they include.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

describe("build:lambda", () => {
  it("writes both functions' bundles for Node 24 and a notices file naming every bundled package's licence", () => {
    const build = spawnSync(process.execPath, ["scripts/build-lambda.mjs", "lambda"], { cwd: root, encoding: "utf8", timeout: 120_000 });
    expect(build.stderr).toBe("");
    expect(build.status).toBe(0);
    for (const bundle of ["index.mjs", "worker.mjs"]) expect(existsSync(`${root}dist/lambda/${bundle}`)).toBe(true);
    const notices = readFileSync(`${root}dist/lambda/THIRD-PARTY-NOTICES.txt`, "utf8");
    for (const name of ["probot", "@octokit/core", "@aws-sdk/client-sqs", "chevrotain", "yaml", "zod"]) {
      expect(notices).toMatch(new RegExp(`^${name.replace("/", "\\/")}@[0-9][^ ]* \\(`, "m"));
    }
    expect(notices).toContain("Permission is hereby granted, free of charge");
  }, 120_000);
});
