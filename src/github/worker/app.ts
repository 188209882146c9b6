// The Probot app as `probot run` and the server, Lambda and Action entries load it: the event
// wiring of create-app.ts bound to the real core.
import type { ApplicationFunction } from "probot";
import { realCore } from "./core.js";
import { createApp } from "./create-app.js";

export { createApp } from "./create-app.js";

function appIdFromEnv(): number | undefined {
  const id = Number.parseInt(process.env.APP_ID ?? "", 10);
  return Number.isFinite(id) ? id : undefined;
}

const cqlReviewApp: ApplicationFunction = (app, options) => {
  const appId = appIdFromEnv();
  return createApp({ core: realCore, ...(appId !== undefined ? { appId } : {}) })(app, options);
};

export default cqlReviewApp;
