// `npm start`: the Probot server, after the environment checks of server-environment.ts.
import { pathToFileURL } from "node:url";
import { run } from "probot";
import { skipGrammarValidation } from "../cql/parser.js";
import cqlReviewApp from "./app.js";
import { CqlReviewOctokit } from "./octokit.js";
import { checkServerEnvironment, effectiveEnvironment } from "./server-environment.js";

export async function startServer(): Promise<void> {
  checkServerEnvironment(effectiveEnvironment(process.cwd(), process.env));
  skipGrammarValidation();
  await run(cqlReviewApp, { Octokit: CqlReviewOctokit });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  startServer().catch((error: unknown) => {
    process.stderr.write(`cql-review: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
