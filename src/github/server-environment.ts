// Checks Probot does not do itself before the server starts. An unset WEBHOOK_SECRET silently
// becomes "development" in Probot, which would accept deliveries signed with a public secret.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";

/** Throws a startup error naming what is missing; returns quietly when the environment is usable. */
export function checkServerEnvironment(env: NodeJS.ProcessEnv): void {
  if (env.NODE_ENV === "production" && !env.WEBHOOK_SECRET) {
    throw new Error(
      "WEBHOOK_SECRET is not set. In production (NODE_ENV=production) cql-review refuses to start without it, " +
        "because Probot would otherwise verify webhook signatures against the public default \"development\". " +
        "Set WEBHOOK_SECRET to the secret of your GitHub App's webhook.",
    );
  }
  // Probot logs a missing key file and falls back to its setup page, which looks like a fresh install.
  const keyPath = env.PRIVATE_KEY_PATH;
  if (keyPath && !env.PRIVATE_KEY && !existsSync(keyPath)) {
    throw new Error(`PRIVATE_KEY_PATH is ${JSON.stringify(keyPath)}, but there is no file there: give the path of the app's .pem private key.`);
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
