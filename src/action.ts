// GitHub Action entry (action.yml runs the bundle of this file, dist/action/index.js): binds the
// runner to @actions/core (inputs, outputs, escaped log commands, the job summary) and the process.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import * as actionsCore from "@actions/core";
import { skipGrammarValidation } from "./cql/parser.js";
import { runAction, type ActionToolkit } from "./github/action-runner.js";
import { realCore } from "./github/worker/core.js";
import { packageVersion } from "./cli.js";

/** @actions/core as the runner's toolkit. Its log commands escape `%`, CR and LF, so text from a repository cannot end a command early. */
export const actionsToolkit: ActionToolkit = {
  getInput: (name) => actionsCore.getInput(name),
  setOutput: (name, value) => actionsCore.setOutput(name, value),
  debug: (message) => actionsCore.debug(message),
  info: (message) => actionsCore.info(message),
  warning: (message) => actionsCore.warning(message),
  error: (message) => actionsCore.error(message),
  appendSummary: async (markdown) => {
    // Outside a runner (a local try-out) there is no summary file; @actions/core would throw.
    if (!process.env.GITHUB_STEP_SUMMARY) return;
    await actionsCore.summary.addRaw(markdown, true).write();
  },
};

export async function main(): Promise<number> {
  skipGrammarValidation();
  return runAction({
    core: realCore,
    toolkit: actionsToolkit,
    env: process.env,
    readFile: (path) => readFileSync(path, "utf8"),
    writeFile: (path, text) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    },
    toolVersion: packageVersion(),
  });
}

// Run when node is pointed at this file or at its bundle (import.meta.url is then the bundle's).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      actionsCore.setFailed(`cql-review crashed: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
}
