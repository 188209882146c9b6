// Files the collector could not read join the core's findings (both the in-process and the
// threaded review add them before planning comments).
import { compareFindings, type Finding } from "../../findings.js";
import { gateFails, unreviewedOf, type Review } from "../../review.js";

/**
 * Files the collector could not read are findings like any other: annotated, counted, and
 * gating when `fail_on` reaches their severity.
 */
export function withCollectionFindings(review: Review, extra: readonly Finding[]): Review {
  if (extra.length === 0) return review;
  const findings = [...extra, ...review.findings].sort(compareFindings);
  const summary = { ...review.summary };
  for (const finding of extra) {
    if (finding.severity === "error") summary.errors++;
    else if (finding.severity === "warning") summary.warnings++;
    else summary.infos++;
  }
  // The core's gate over the whole list: a file the collector could not read is left unreviewed too.
  return { ...review, findings, summary, gateFails: gateFails(findings, review.config), unreviewed: unreviewedOf(findings) };
}
