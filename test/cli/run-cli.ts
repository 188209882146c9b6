// Drives `main` in-process with a recorded terminal, for the CLI tests.
import * as nodeFs from "node:fs/promises";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { main, type CliFileSystem, type CliIo } from "../../src/cli.js";
import type { GitRunner } from "../../src/cli/git.js";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

export const realFs: CliFileSystem = {
  stat: (file) => nodeFs.stat(file),
  readdir: (directory) => nodeFs.readdir(directory, { withFileTypes: true }),
  readFile: (file) => nodeFs.readFile(file),
  writeFile: (file, text, { exclusive }) => nodeFs.writeFile(file, text, { flag: exclusive ? "wx" : "w" }),
};

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
