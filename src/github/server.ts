// `npm start`: the Probot server, after the checks Probot does not do itself. An unset
// WEBHOOK_SECRET silently becomes "development" in Probot, which would accept forged deliveries.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { pathToFileURL } from "node:url";
import { run } from "probot";
import cqlReviewApp from "./app.js";
import { CqlReviewOctokit } from "./octokit.js";

/** Throws a startup error naming what is missing; returns quietly when the environment is usable. */
export function checkServerEnvironment(env: NodeJS.ProcessEnv): void {
  if (env.NODE_ENV === "production" && !env.WEBHOOK_SECRET) {
    throw new Error(
      "WEBHOOK_SECRET is not set. In production (NODE_ENV=production) cql-review refuses to start without it, " +
        "because Probot would otherwise verify webhook signatures against the public default \"development\". " +
        "Set WEBHOOK_SECRET to the secret of your GitHub App's webhook.",
    );
  }
}

/** The environment Probot will see: the process environment with `.env` applied on top, as Probot does. */
export function effectiveEnvironment(cwd: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  try {
    return { ...env, ...parseEnv(readFileSync(join(cwd, ".env"), "utf8")) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return env;
    throw error;
  }
}

export async function startServer(): Promise<void> {
  checkServerEnvironment(effectiveEnvironment(process.cwd(), process.env));
  await run(cqlReviewApp, { Octokit: CqlReviewOctokit });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  startServer().catch((error: unknown) => {
    process.stderr.write(`cql-review: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
