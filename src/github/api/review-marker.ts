// The hidden marker of every review cql-review posts. Both the collector (which reads our earlier
// reviews back) and the review poster (which writes them) need it, so it lives apart from both.
import { lastLine } from "../../report/markdown.js";

/**
 * Hidden in the body of every review cql-review posts, so a later run can tell its own change
 * requests apart from other reviews of the pull request and withdraw them once the gate passes.
 */
export const REVIEW_MARKER = "<!-- cql-review:review -->";

/** Our review marker is the body's last line, alone: quoting it anywhere else does not count. */
export function isOurReviewBody(body: string): boolean {
  return lastLine(body) === REVIEW_MARKER;
}
