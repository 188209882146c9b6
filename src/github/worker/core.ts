// The real core and renderers, bound once for every runtime (Probot server, Lambda, Action).
import { grammars } from "../../code/grammars.js";
import { readCode } from "../../code/read.js";
import { loadConfig } from "../../config.js";
import { explain, parseExplainRequest } from "../../explain.js";
import { matchesAny } from "../../globs.js";
import { ruleDocUrl } from "../../report/links.js";
import { messageMarkdown } from "../../report/markdown-escape.js";
import {
  readFingerprintMarker,
  renderCheckSummary,
  renderExplainMarkdown,
  renderFindingComment,
} from "../../report/markdown.js";
import { review } from "../../review.js";
import { HELP_TEXT } from "./commands.js";
import type { ReviewCore } from "../port.js";

/**
 * Compute time one review may take before it stops with an `input-limit-exceeded` finding, so a
 * huge repository never holds a delivery open. Probot's server answers GitHub after 9 s and keeps
 * working, but API Gateway cuts a Lambda delivery at 30 s: 20 s leaves room for the GitHub requests
 * (a few seconds, writes are spaced a second apart) while a 2,000-table model, head and base, still fits.
 */
export const REVIEW_TIME_BUDGET_MS = 20_000;

/** `review` with a wall-clock budget: the pure core asks `pastDeadline` between files, queries and stages. */
export function reviewWithinBudget(budgetMs: number, now: () => number = () => performance.now()): ReviewCore["review"] {
  return (input) => {
    const deadline = now() + budgetMs;
    return review({ pastDeadline: () => now() > deadline, ...input });
  };
}

export const realCore: ReviewCore = {
  review: reviewWithinBudget(REVIEW_TIME_BUDGET_MS),
  readCode: (files, config) => readCode(files, config, (language) => grammars.parser(language)),
  loadConfig,
  matchesAny,
  renderCheckSummary,
  renderFindingComment,
  readFingerprintMarker,
  ruleDocUrl,
  explainMarkdown(reviewed, requestText) {
    const request = parseExplainRequest(requestText);
    if ("error" in request) {
      return `I could not read that request: ${messageMarkdown(request.error)}\n\n${HELP_TEXT}`;
    }
    return renderExplainMarkdown(explain(reviewed, request));
  },
};
