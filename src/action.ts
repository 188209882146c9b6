// GitHub Action entry (action.yml runs the bundle of this file, dist/action/index.js).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { skipGrammarValidation } from "./cql/parser.js";
import { runAction } from "./github/action-runner.js";
import { realCore } from "./github/core.js";

export async function main(): Promise<number> {
  skipGrammarValidation();
  return runAction({
    core: realCore,
    env: process.env,
    readFile: (path) => readFileSync(path, "utf8"),
    write: (line) => process.stdout.write(`${line}\n`),
  });
}

// Run when node is pointed at this file or at its bundle (import.meta.url is then the bundle's).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stdout.write(`::error::cql-review crashed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
