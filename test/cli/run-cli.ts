// Drives `main` in-process with a recorded terminal, for the CLI tests.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { main, nodeFileSystem, type CliFileSystem, type CliIo } from "../../src/cli.js";
import type { GitRunner } from "../../src/cli/git.js";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export const realFs: CliFileSystem = nodeFileSystem;

export const realGit: GitRunner = (args, cwd) =>
  new Promise((resolve, reject) => {
    execFile("git", [...args], { cwd, encoding: "buffer" }, (error, stdout, stderr) => (error ? reject(Object.assign(error, { stderr })) : resolve(stdout)));
  });

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: string[], overrides: Partial<CliIo> = {}): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    stdoutIsTTY: false,
    env: {},
    cwd: REPO_ROOT,
    fs: realFs,
    git: realGit,
    ...overrides,
  };
  const code = await main(argv, io);
  return { code, stdout: out.join(""), stderr: err.join("") };
}
