// What the GitHub layer needs from the outside world, as interfaces, so the same use cases run
// on Probot's Octokit (app, Lambda) and on @octokit/rest (Action), and tests can hand fakes.
import type { CodeExtraction } from "../code/types.js";
import type { Octokit } from "@octokit/rest";
import type { Review, ReviewInput, SourceFile } from "../review.js";
import type { ReviewConfig } from "../config.js";
import type { Finding } from "../findings.js";

/** Both Probot's `context.octokit` and `new Octokit()` from @octokit/rest satisfy this. */
export type GitHubPort = Pick<Octokit, "rest" | "graphql" | "paginate">;

/** The structured-logging subset of pino that the use cases call. */
export interface Log {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The pull request under review, as every event handler resolves it. */
export interface PullRequestRef {
  owner: string;
  repo: string;
  number: number;
  headSha: string;
  baseSha: string;
  /** the base repository's default branch, where the config lives */
  defaultBranch: string;
}

/**
 * The pure core and its renderers, passed in (repository-settings/app style) so tests can use
 * fakes and the entry points bind the real implementations (src/github/worker/core.ts).
 */
export interface ReviewCore {
  review(input: ReviewInput): Review;
  /** reads the CQL statements of the application code among `files` (src/code), before `review` */
  readCode?(files: SourceFile[], config: ReviewConfig): Promise<CodeExtraction | undefined>;
  loadConfig(file?: SourceFile): { config: ReviewConfig; findings: Finding[] };
  matchesAny(path: string, globs: string[]): boolean;
  renderCheckSummary(review: Review, options?: { maxLength?: number; shownInline?: ReadonlySet<string> }): string;
  renderFindingComment(finding: Finding, options?: { suggestion?: string }): string;
  readFingerprintMarker(body: string): string | undefined;
  ruleDocUrl(ruleId: string): string;
  /** parses `/cql explain …` arguments and answers them in Markdown; bad requests get a friendly answer */
  explainMarkdown(review: Review, requestText: string): string;
}

/** A `/cql explain` command's files and question. */
export interface ExplainRequest {
  files: SourceFile[];
  configFile?: SourceFile;
  requestText: string;
}

/** The check run every runtime posts; its name is part of the contract (docs/deploy-probot.md). */
export const CHECK_NAME = "cql-review";
/** `identifier` of the check run's re-run button (at most 20 characters). */
export const RERUN_ACTION = "rerun";
