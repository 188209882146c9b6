// The pull-request review: which findings become inline comments, where exactly they go, their
// `suggestion` blocks, and posting them once per fingerprint. Placement is validated against the
// patch hunks, because GitHub rejects the whole review when a single comment misses the diff.
import { SEVERITY_ORDER, type Finding, type Fix } from "../../findings.js";
import type { ReviewConfig } from "../../config.js";
import type { SourceFile } from "../../review.js";
import type { ChangedFile, PostedComment } from "./collect.js";
import { codeSpan, messageMarkdown } from "../../report/markdown-escape.js";
import { clipText } from "../../report/truncate.js";
import { hunkContaining } from "./diff-hunks.js";
import { NO_AUTOMATIC_RETRY, postOnce, statusOf } from "./post-once.js";
import { REVIEW_MARKER } from "./review-marker.js";
import type { GitHubPort, Log, PullRequestRef, ReviewCore } from "../port.js";

export interface InlineComment {
  finding: Finding;
  path: string;
  /** last line of the comment (RIGHT side) */
  line: number;
  /** first line, for comments spanning several lines */
  startLine?: number;
  body: string;
}

export interface CommentPlan {
  comments: InlineComment[];
  /** new findings on lines outside the diff, or beyond `comments.max`: the check run shows them */
  notInline: Finding[];
  /** findings already commented on in an earlier review of this pull request */
  alreadyPosted: Finding[];
}

/**
 * Decides the inline comments for the findings new in this pull request. Findings that existed at
 * the base stay in the check run: the author did not cause them.
 */
export function planComments(input: {
  findings: readonly Finding[];
  changedFiles: readonly ChangedFile[];
  headFiles: readonly SourceFile[];
  posted: readonly PostedComment[];
  max: number;
  render: ReviewCore["renderFindingComment"];
}): CommentPlan {
  const changed = new Map(input.changedFiles.map((file) => [file.path, file]));
  const texts = new Map(input.headFiles.map((file) => [file.path, file.content]));
  const postedFingerprints = new Set(input.posted.map((comment) => comment.fingerprint));
  const plan: CommentPlan = { comments: [], notInline: [], alreadyPosted: [] };
  const candidates = input.findings
    .filter((finding) => !finding.existing)
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  const seen = new Set<string>();
  for (const finding of candidates) {
    if (postedFingerprints.has(finding.fingerprint)) {
      plan.alreadyPosted.push(finding);
      continue;
    }
    // Two findings with one fingerprint would be one comment thread; keep the first.
    if (seen.has(finding.fingerprint)) continue;
    seen.add(finding.fingerprint);
    const placed = place(finding, changed.get(finding.location.file), texts.get(finding.location.file));
    if (!placed || plan.comments.length >= input.max) {
      plan.notInline.push(finding);
      continue;
    }
    const body = input.render(finding, placed.suggestion !== undefined ? { suggestion: placed.suggestion } : {});
    plan.comments.push({
      finding,
      path: finding.location.file,
      line: placed.endLine,
      ...(placed.startLine < placed.endLine ? { startLine: placed.startLine } : {}),
      body,
    });
  }
  return plan;
}

interface Placement {
  startLine: number;
  endLine: number;
  suggestion?: string;
}

function place(finding: Finding, file: ChangedFile | undefined, text: string | undefined): Placement | undefined {
  if (!file?.hunks || file.status === "removed") return undefined;
  const hunks = file.hunks;
  // A fix that rewrites whole lines inside one hunk becomes a suggestion on exactly those lines.
  if (finding.fix && finding.fix.file === finding.location.file && text !== undefined) {
    const suggested = suggestedLines(text, finding.fix);
    if (suggested && hunkContaining(hunks, suggested.startLine, suggested.endLine)) return suggested;
  }
  const { start, end } = finding.location.range;
  const endLine = lastLineOf(start.line, end.line, end.column);
  if (hunkContaining(hunks, start.line, endLine)) return { startLine: start.line, endLine };
  // A long finding (a whole CREATE TABLE) whose first line is in the diff still gets its comment there.
  if (hunkContaining(hunks, start.line, start.line)) return { startLine: start.line, endLine: start.line };
  return undefined;
}

/** An exclusive end at column 1 means the range stops at the end of the previous line. */
function lastLineOf(startLine: number, endLine: number, endColumn: number): number {
  return endLine > startLine && endColumn === 1 ? endLine - 1 : endLine;
}

/**
 * The head lines a fix touches, rewritten: the text a `suggestion` block must hold so that
 * accepting it applies the fix. Undefined when the fix's range does not match the file.
 */
export function suggestedLines(text: string, fix: Fix): Placement | undefined {
  const { start, end } = fix.range;
  if (end.offset < start.offset || end.offset > text.length) return undefined;
  const startLine = start.line;
  const endLine = lastLineOf(start.line, end.line, end.column);
  const lineStarts = lineStartOffsets(text);
  const firstOffset = lineStarts[startLine - 1];
  const lastLineStart = lineStarts[endLine - 1];
  if (firstOffset === undefined || lastLineStart === undefined) return undefined;
  // The range's offsets must agree with its lines and columns, or the file is not the one analysed.
  if (firstOffset + start.column - 1 !== start.offset) return undefined;
  let lastOffset = text.indexOf("\n", lastLineStart);
  if (lastOffset === -1) lastOffset = text.length;
  if (end.offset > lastOffset + 1) return undefined;
  let rewritten: string;
  if (end.offset === lastOffset + 1) {
    // The fix eats the line break after the last line: whole lines are replaced only when the
    // rewrite is empty (lines deleted) or ends with its own line break; otherwise lines would join.
    rewritten = text.slice(firstOffset, start.offset) + fix.replacement;
    if (rewritten !== "" && !rewritten.endsWith("\n")) return undefined;
    rewritten = rewritten.replace(/\n$/, "");
  } else {
    rewritten = text.slice(firstOffset, start.offset) + fix.replacement + text.slice(end.offset, lastOffset);
  }
  const suggestion = rewritten.replace(/\r(?=\n|$)/g, "");
  return { startLine, endLine, suggestion };
}

function lineStartOffsets(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

export type ReviewEvent = ReviewConfig["comments"]["event"];

/**
 * `REQUEST_CHANGES` is a merge block under branch protection, so it is used only when the gate
 * fails; otherwise the review informs (`COMMENT`), whatever the configuration asks for.
 */
export function reviewEvent(config: ReviewConfig, gateFails: boolean): ReviewEvent {
  return config.comments.event === "REQUEST_CHANGES" && gateFails ? "REQUEST_CHANGES" : "COMMENT";
}

export interface GateState {
  /** `review.gateFails` after collection findings */
  fails: boolean;
  /** a change request of ours is already in force on this pull request */
  changesRequested: boolean;
}

export interface PostedReview {
  /** comments GitHub accepted */
  posted: InlineComment[];
  /** comments GitHub refused even after the retry; their findings stay in the check run */
  refused: InlineComment[];
  /** the event of the review posted; absent when none was */
  event?: ReviewEvent;
}

/**
 * Posts one review on the head commit with the planned comments. Nothing new → no review, except
 * that a failing gate under `event: REQUEST_CHANGES` with no change request in force yet gets a
 * review without comments, so the block follows the gate. If GitHub still answers 422, the review
 * is posted once more without inline comments, naming the findings in its body, so nothing is lost.
 */
export async function postReview(
  github: GitHubPort,
  log: Log,
  pr: PullRequestRef,
  config: ReviewConfig,
  plan: CommentPlan,
  gate: GateState,
): Promise<PostedReview> {
  const event = reviewEvent(config, gate.fails);
  const base = {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    commit_id: pr.headSha,
    event,
  };
  // A review is posted at most once: after a lost answer, the reviews on this commit are looked at first.
  const createReview = async (params: { body: string; comments?: ReviewComment[] }) => {
    await postOnce(
      "Posting the review",
      log,
      async () => {
        await github.rest.pulls.createReview({ ...base, ...params, ...NO_AUTOMATIC_RETRY });
        return true as const;
      },
      () => findReview(github, pr, params.body),
    );
  };
  if (plan.comments.length === 0) {
    if (event !== "REQUEST_CHANGES" || gate.changesRequested) return { posted: [], refused: [] };
    await createReview({ body: changeRequestBody(plan, config.failOn) });
    return { posted: [], refused: [], event };
  }
  try {
    await createReview({
      body: reviewBody(plan),
      comments: plan.comments.map((comment) => ({
        path: comment.path,
        line: comment.line,
        side: "RIGHT" as const,
        ...(comment.startLine !== undefined ? { start_line: comment.startLine, start_side: "RIGHT" as const } : {}),
        body: comment.body,
      })),
    });
    return { posted: plan.comments, refused: [], event };
  } catch (error) {
    if (statusOf(error) !== 422) throw error;
    log.warn(
      { err: error, pullRequest: pr.number, comments: plan.comments.length },
      "GitHub refused the review's inline comments; posting it without them",
    );
    await createReview({ body: fallbackBody(plan.comments) });
    return { posted: [], refused: plan.comments, event };
  }
}

interface ReviewComment {
  path: string;
  line: number;
  side: "RIGHT";
  start_line?: number;
  start_side?: "RIGHT";
  body: string;
}

/** A review on the commit under review with exactly this body: one we posted whose answer was lost. */
async function findReview(github: GitHubPort, pr: PullRequestRef, body: string): Promise<true | undefined> {
  const reviews = await github.paginate(github.rest.pulls.listReviews, { owner: pr.owner, repo: pr.repo, pull_number: pr.number, per_page: 100 });
  return reviews.some((review) => review.commit_id === pr.headSha && review.body === body) ? true : undefined;
}

function reviewBody(plan: CommentPlan): string {
  const lines = [`**cql-review** found ${count(plan.comments.length + plan.notInline.length, "new finding")} in this change.`];
  if (plan.notInline.length > 0) {
    lines.push(`${count(plan.notInline.length, "finding")} outside the changed lines ${plan.notInline.length === 1 ? "is" : "are"} in the \`cql-review\` check run.`);
  }
  return `${lines.join(" ")}\n\n${REVIEW_MARKER}`;
}

/** Findings listed in the body of a change request without inline comments; the rest are in the check run. */
const MAX_LISTED_IN_BODY = 20;

/** The body of a change request that has no new inline comment to carry it: it names what fails the gate. */
export function changeRequestBody(plan: CommentPlan, failOn: ReviewConfig["failOn"]): string {
  const threshold = failOn === "never" ? -1 : SEVERITY_ORDER[failOn];
  const gating = [...plan.notInline, ...plan.alreadyPosted].filter((finding) => SEVERITY_ORDER[finding.severity] <= threshold);
  const items = gating
    .slice(0, MAX_LISTED_IN_BODY)
    .map((finding) => listItem(finding, finding.location.file ? `${finding.location.file}:${finding.location.range.start.line}` : undefined));
  const more = gating.length - items.length;
  const what = gating.length > 0 ? `${count(gating.length, "new finding")} in this change fail${gating.length === 1 ? "s" : ""}` : "this change fails";
  return listedBody(`**cql-review** requests changes: ${what} the gate (\`fail_on: ${failOn}\`). The \`cql-review\` check run has the details.`, items, more);
}

/** The review body when GitHub refused the inline comments: what they said, as a list. */
export function fallbackBody(comments: readonly InlineComment[]): string {
  const items = comments.slice(0, MAX_LISTED_IN_BODY).map(({ finding, path, line }) => listItem(finding, `${path}:${line}`));
  const more = comments.length - items.length;
  return listedBody(
    `**cql-review** found ${count(comments.length, "new finding")}; GitHub could not place them inline, so they are listed here and annotated in the \`cql-review\` check run.`,
    items,
    more,
  );
}

/** A review body: its opening line, the listed findings, how many more the check run has, and the marker. */
function listedBody(opening: string, items: readonly string[], more: number): string {
  return [opening, "", ...items, ...(more > 0 ? [`- and ${count(more, "more finding")} in the check run`] : []), "", REVIEW_MARKER].join("\n");
}

/** Longest message quoted in a review body's list; the check run has the whole text. */
const LISTED_MESSAGE_MAX = 1_000;

/** A finding in a review body: repository text escaped and neutralised like every comment. */
function listItem(finding: Finding, where: string | undefined): string {
  return `- ${codeSpan(finding.rule)} at ${where === undefined ? "the repository" : codeSpan(where)}: ${messageMarkdown(clipText(finding.message, LISTED_MESSAGE_MAX))}`;
}

/**
 * Marks our earlier comments whose finding is gone as outdated, by minimizing them (one GraphQL
 * mutation for all): the thread stays readable but collapses, and replies are not needed.
 */
export async function minimizeResolvedComments(
  github: GitHubPort,
  posted: readonly PostedComment[],
  currentFingerprints: ReadonlySet<string>,
): Promise<PostedComment[]> {
  const resolved = posted.filter((comment) => !comment.minimized && !currentFingerprints.has(comment.fingerprint));
  if (resolved.length === 0) return [];
  const declarations = resolved.map((_, i) => `$c${i}: ID!`).join(", ");
  const mutations = resolved.map(
    (_, i) => `m${i}: minimizeComment(input: { subjectId: $c${i}, classifier: OUTDATED }) { minimizedComment { isMinimized } }`,
  );
  const variables = Object.fromEntries(resolved.map((comment, i) => [`c${i}`, comment.nodeId]));
  await github.graphql(`mutation CqlReviewResolved(${declarations}) {\n  ${mutations.join("\n  ")}\n}`, variables);
  return resolved;
}


function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
