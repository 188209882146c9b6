// What the docs and messages say matches what the code does.
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { rules } from "../../rules/index.js";
import { checkServerEnvironment } from "../../src/github/server-environment.js";
import { RULE_ALIASES } from "../../src/rule-engine/rule-aliases.js";
import { REPO_ROOT, runCli } from "./run-cli.js";

const read = (relative: string) => readFileSync(path.join(REPO_ROOT, relative), "utf8");
const markdownDocs = ["README.md", "CONTRIBUTING.md", ...readdirSync(path.join(REPO_ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

describe("the CLI's Markdown", () => {
  it("prints whole findings and never points at a check run's annotations, which a terminal has none of", async () => {
    const result = await runCli(["check", "examples/iot", "--format", "markdown"]);
    expect(result.stdout).toContain("| Severity | Rule | Location | Message |");
    expect(result.stdout).not.toMatch(/annotation|check run/i);
  });
});

describe("the docs", () => {
  it("name only rules that exist, in rule links and linked rule ids", () => {
    const known = new Set([...rules.map((rule) => rule.meta.id), ...RULE_ALIASES.keys()]);
    const named: string[] = [];
    for (const doc of markdownDocs) {
      const text = read(doc);
      // [`rule-id`](…) in the findings tables, and links to rules/<id>.md
      for (const match of text.matchAll(/\[`([a-z0-9-]+)`\]\((?:…|[^)]*rules\/[a-z0-9-]+\.md[^)]*)\)/g)) named.push(`${doc}: ${match[1]}`);
      for (const match of text.matchAll(/rules\/([a-z0-9-]+)\.md/g)) if (match[1] !== "README") named.push(`${doc}: ${match[1]}`);
    }
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((entry) => !known.has(entry.split(": ")[1]!))).toEqual([]);
  });

  it(".env.example, docs/deploy-probot.md and the server agree on when WEBHOOK_SECRET is required", () => {
    const credentials = { APP_ID: "12", PRIVATE_KEY: "pem" };
    // The server: required unless NODE_ENV=development.
    expect(() => checkServerEnvironment({ ...credentials })).toThrow(/WEBHOOK_SECRET is not set/);
    expect(() => checkServerEnvironment({ ...credentials, NODE_ENV: "production" })).toThrow(/WEBHOOK_SECRET is not set/);
    expect(checkServerEnvironment({ ...credentials, NODE_ENV: "development" })).toBe("serve");
    expect(read(".env.example")).toMatch(/Required unless NODE_ENV=development\b[^=]*\nWEBHOOK_SECRET=/);
    expect(read("docs/deploy-probot.md")).toMatch(/\| `WEBHOOK_SECRET` \| \*\*required\*\* unless `NODE_ENV=development`/);
  });

  it("`npm start` without credentials opens the setup pages, as deploy-probot.md's first step says, except in production", () => {
    expect(read("docs/deploy-probot.md")).toContain("1. `npm ci && npm start`, then open <http://localhost:3000>.");
    expect(checkServerEnvironment({})).toBe("setup");
    expect(() => checkServerEnvironment({ NODE_ENV: "production" })).toThrow(/APP_ID and PRIVATE_KEY/);
  });
});
