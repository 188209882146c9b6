// Checks Probot does not do itself before the server starts. An unset WEBHOOK_SECRET silently
// becomes "development" in Probot, which would accept deliveries signed with a public secret, so
// outside an explicit development mode (NODE_ENV=development) the server needs a real secret.
// Without credentials it serves Probot's setup pages (register the app), unless NODE_ENV=production.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";

/** Probot's default secret: public, so never accepted outside development mode. */
const PUBLIC_DEFAULT_SECRET = "development";

export type ServerMode =
  /** the webhook server with its review queue */
  | "serve"
  /** Probot's "Register GitHub App" pages (before APP_ID exists; never in production) */
  | "setup";

/** Throws a startup error naming what is missing; otherwise says how to start. */
export function checkServerEnvironment(env: NodeJS.ProcessEnv): ServerMode {
  const development = env.NODE_ENV === "development";
  // Probot logs a missing key file and falls back to its setup page, which looks like a fresh install.
  const keyPath = env.PRIVATE_KEY_PATH;
  if (keyPath && !env.PRIVATE_KEY && !existsSync(keyPath)) {
    throw new Error(`PRIVATE_KEY_PATH is ${JSON.stringify(keyPath)}, but there is no file there: give the path of the app's .pem private key.`);
  }
  const hasCredentials = Boolean(env.APP_ID) && Boolean(env.PRIVATE_KEY || env.PRIVATE_KEY_PATH);
  if (!hasCredentials) {
    // A fresh clone's `npm start` registers the app; a production server without credentials is misconfigured.
    if (env.NODE_ENV !== "production") return "setup";
    throw new Error(
      "APP_ID and PRIVATE_KEY (or PRIVATE_KEY_PATH) are not set. Set them from your GitHub App's settings, " +
        "or start without NODE_ENV=production to register a new app from the setup page.",
    );
  }
  if (!development && (!env.WEBHOOK_SECRET || env.WEBHOOK_SECRET === PUBLIC_DEFAULT_SECRET)) {
    throw new Error(
      `WEBHOOK_SECRET is ${env.WEBHOOK_SECRET ? `the public default "${PUBLIC_DEFAULT_SECRET}"` : "not set"}. ` +
        "cql-review refuses to start without a real one, because anyone could sign deliveries with a known secret. " +
        "Set WEBHOOK_SECRET to the secret of your GitHub App's webhook (or NODE_ENV=development on your own machine).",
    );
  }
  return "serve";
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
