// The real core and renderers, bound once for every runtime (Probot server, Lambda, Action).
import { loadConfig } from "../config.js";
import { explain, parseExplainRequest } from "../explain.js";
import { matchesAny } from "../globs.js";
import { ruleDocUrl } from "../report/links.js";
import {
  readFingerprintMarker,
  renderCheckSummary,
  renderExplainMarkdown,
  renderFindingComment,
} from "../report/markdown.js";
import { review } from "../review.js";
import { HELP_TEXT } from "./commands.js";
import type { ReviewCore } from "./port.js";

export const realCore: ReviewCore = {
  review,
  loadConfig,
  matchesAny,
  renderCheckSummary,
  renderFindingComment,
  readFingerprintMarker,
  ruleDocUrl,
  explainMarkdown(reviewed, requestText) {
    const request = parseExplainRequest(requestText);
    if ("error" in request) {
      return `I could not read that request: ${request.error}\n\n${HELP_TEXT}`;
    }
    return renderExplainMarkdown(explain(reviewed, request));
  },
};
