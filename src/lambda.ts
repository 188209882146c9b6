// AWS Lambda entry (template.yaml): Probot's variables configure the app; the handler in
// src/github/lambda-handler.ts checks every delivery before Probot sees it.
import { createProbot, type Probot } from "probot";
import { skipGrammarValidation } from "./cql/parser.js";
import cqlReviewApp from "./github/app.js";
import { createLambdaHandler } from "./github/lambda-handler.js";
import { CqlReviewOctokit } from "./github/octokit.js";

// The test suite validates the grammar; a cold start need not.
skipGrammarValidation();

let probot: Promise<Probot> | undefined;

/** One Probot per container, created on the first delivery (cold start) from Probot's variables. */
function loadProbot(): Promise<Probot> {
  probot ??= (async () => {
    const instance = createProbot({ defaults: { logFormat: "json" }, overrides: { Octokit: CqlReviewOctokit } });
    await instance.load(cqlReviewApp);
    return instance;
  })();
  return probot;
}

export const handler = createLambdaHandler({
  secret: process.env.WEBHOOK_SECRET,
  receive: async (delivery) => (await loadProbot()).receive(delivery as Parameters<Probot["receive"]>[0]),
});
