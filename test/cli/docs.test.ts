// docs/cli.md and docs/deploy-action.md say what the code does.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { permissionProblem } from "../../src/github/action-runner.js";
import { runCli } from "./run-cli.js";

const doc = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), "utf8");

describe("docs/cli.md", () => {
  it("documents every option and command of --help", async () => {
    const help = (await runCli(["--help"])).stdout;
    const cli = doc("cli.md");
    const options = new Set([...help.matchAll(/^ {2}(--[a-z-]+)/gm)].map((match) => match[1]));
    expect(options.size).toBeGreaterThan(8);
    for (const option of options) if (option !== "--help" && option !== "--version") expect(cli, option).toContain(`\`${option}`);
    for (const command of ["check", "explain", "init"]) expect(cli).toContain(`cql-review ${command} [`);
  });

  it("shows the output init prints", async () => {
    expect(doc("cli.md")).toContain("Replace every TODO with your own figures and the application's real queries, then run:\n  cql-review check db\n");
  });
});

describe("docs/deploy-action.md", () => {
  it("quotes the fork failure message word for word", () => {
    expect(doc("deploy-action.md")).toContain(`\n${permissionProblem("pull_request", true)}\n`);
  });

  it("uses the current major versions of the actions its workflow needs", () => {
    const text = doc("deploy-action.md");
    expect(text).toContain("github/codeql-action/upload-sarif@v4");
    expect(text).toContain("security-events: write");
    expect(text).toContain("actions/checkout@v6");
    expect(text).toContain("pull_request_target");
  });
});
