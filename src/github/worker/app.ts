// The Probot app as `probot run` and the server, Lambda and Action entries load it: the event
// wiring of create-app.ts bound to the real core.
import type { ApplicationFunction } from "probot";
import { realCore } from "./core.js";
import type { ReviewIsolation } from "./analysis.js";
import { createApp } from "./create-app.js";

export { createApp } from "./create-app.js";

function appIdFromEnv(): number | undefined {
  const id = Number.parseInt(process.env.APP_ID ?? "", 10);
  return Number.isFinite(id) ? id : undefined;
}

/** The app on the real core; with `isolation`, reviews run there (the server's review threads). */
export function cqlReviewAppWith(isolation?: ReviewIsolation): ApplicationFunction {
  return (app, options) => {
    const appId = appIdFromEnv();
    return createApp({ core: realCore, ...(isolation ? { isolation } : {}), ...(appId !== undefined ? { appId } : {}) })(app, options);
  };
}

const cqlReviewApp: ApplicationFunction = cqlReviewAppWith();

export default cqlReviewApp;
