// File collection for a pull request at its head commit, in a constant number of requests:
// `pulls.listFiles` (changed files and their patches), one recursive git tree (every path at the
// head), and one GraphQL query that reads every blob we need by `object(expression: "<sha>:<path>")`
// together with the config on the default branch, the review threads we posted before, and our
// reviews that still request changes.
import { isCodeFile } from "../../code/read.js";
import { isApplicationConfigFile } from "../../schema/default-keyspace.js";
import { DEFAULT_CONFIG, type ReviewConfig } from "../../config.js";
import { FILE_START, type Finding } from "../../findings.js";
import { REVIEW_LIMITS, type SourceFile } from "../../review.js";
import { parsePatch, type Hunk } from "./diff-hunks.js";
import type { GitHubPort, PullRequestRef, ReviewCore } from "../port.js";
import { isOurReviewBody } from "./review-marker.js";

/** Where the repository config lives, read from the default branch like Probot's `context.config`. */
export const CONFIG_PATH = ".github/cql-review.yml";
/** Larger files are reported, not fetched or parsed. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** GraphQL responses have a size limit of their own: split blob reads into queries of this size. */
const MAX_BLOBS_PER_QUERY = 250;
const MAX_BYTES_PER_QUERY = 4 * 1024 * 1024;
const LIMIT_RULE = "input-limit-exceeded";

export type FileStatus = "added" | "removed" | "modified" | "renamed" | "copied" | "changed" | "unchanged";

export interface ChangedFile {
  path: string;
  status: FileStatus;
  /** the path at the base commit, for renames */
  previousPath?: string;
  /** absent when GitHub sends no patch (binary files, very large diffs): no inline comments there */
  hunks?: Hunk[];
}

/** A review comment this app posted earlier, recognised by its hidden fingerprint marker. */
export interface PostedComment {
  /** GraphQL node id, for `minimizeComment` */
  nodeId: string;
  fingerprint: string;
  minimized: boolean;
  /** the bot account that posted it; only this app's own comments are acted on */
  author: string;
}

/** A review this app posted that still requests changes: not dismissed (a later comment does not lift it). */
export interface ChangeRequest {
  /** the review's REST id, for `pulls.dismissReview` */
  reviewId: number;
  /** the bot account that posted it (the app's bot, or github-actions for the Action) */
  author: string;
}

export interface CollectedPullRequest {
  /** schema and manifest candidates at the head commit */
  files: SourceFile[];
  /** the same at the base commit (unchanged files are shared with the head) */
  baseFiles: SourceFile[];
  configFile?: SourceFile;
  config: ReviewConfig;
  changedFiles: ChangedFile[];
  postedComments: PostedComment[];
  /** our earlier reviews on this pull request that still request changes */
  changeRequests: ChangeRequest[];
  /**
   * The pull request's head as GitHub sees it now (absent when not read, as for explain): a
   * re-run on an older commit must not withdraw a change request made on a newer one.
   */
  currentHeadSha?: string;
  /** files that could not be read: too large, binary, truncated; an incomplete tree */
  findings: Finding[];
}

export interface CollectOptions {
  /** list the changed files, read their base versions, our posted comments and change requests (a review) or not (explain) */
  forReview: boolean;
}

interface Blob {
  text: string | null;
  isBinary: boolean | null;
  byteSize: number;
  isTruncated: boolean;
}

interface TreeEntry {
  path: string;
  size?: number;
  /** the blob's id: paths with the same id hold the same bytes, read once */
  sha?: string;
}

export async function collectPullRequest(
  github: GitHubPort,
  core: Pick<ReviewCore, "loadConfig" | "matchesAny" | "readFingerprintMarker">,
  pr: PullRequestRef,
  options: CollectOptions,
): Promise<CollectedPullRequest> {
  const findings: Finding[] = [];
  const changedFiles = options.forReview ? await listChangedFiles(github, pr) : [];
  const { entries, truncated } = await readTree(github, pr);
  if (truncated) {
    findings.push(
      limitFinding(
        "",
        "The repository tree is too large for one listing; only the schema and manifest files this pull request changes were reviewed.",
        "tree",
      ),
    );
    for (const file of changedFiles) {
      if (file.status !== "removed" && !entries.has(file.path)) entries.set(file.path, { path: file.path });
    }
  }

  const reader = new BlobReader(github, pr);
  const headText = new Map<string, string>();
  const baseText = new Map<string, string>();
  const requested = new Set<string>();
  /** head paths that could not be read: left out of both sides, so they do not look deleted */
  const skipped = new Set<string>();

  const candidatesFor = (config: ReviewConfig) => {
    const isCandidate = (path: string) =>
      (core.matchesAny(path, [...config.schema, ...config.manifest, ...config.stats]) && !core.matchesAny(path, config.ignore)) ||
      isCodeFile(path, config) ||
      // Spring's or the driver's configuration names the keyspace unqualified tables are in.
      (isApplicationConfigFile(path) && !core.matchesAny(path, config.ignore));
    const head = [...entries.values()].filter((entry) => isCandidate(entry.path));
    const base = changedFiles.filter((file) => file.status !== "added" && isCandidate(file.previousPath ?? file.path));
    return { head, base };
  };

  // Caps counted before anything is fetched, from the tree's sizes, over both fetches.
  const budget = { files: 0, bytes: 0, baseFiles: 0 };
  /** head paths whose blob another path already reads, by that blob's id */
  const sameBlob = new Map<string, string[]>();

  const fetchCandidates = async (
    candidates: ReturnType<typeof candidatesFor>,
    extras: { config: boolean; pullRequest: boolean },
  ) => {
    const requests: BlobRequest[] = [];
    const head = [...candidates.head].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const entry of head) {
      if (requested.has(`head:${entry.path}`) || skipped.has(entry.path)) continue;
      if (entry.size !== undefined && entry.size > MAX_FILE_BYTES) {
        skipped.add(entry.path);
        findings.push(
          limitFinding(entry.path, `is ${formatBytes(entry.size)}, over the ${formatBytes(MAX_FILE_BYTES)} limit`, "file-size"),
        );
        continue;
      }
      if (budget.files >= REVIEW_LIMITS.filesPerReview) {
        skipped.add(entry.path);
        findings.push(limitFinding(entry.path, `is past the ${REVIEW_LIMITS.filesPerReview} schema and manifest files read per review`, "review-files"));
        continue;
      }
      if (budget.bytes + (entry.size ?? 0) > REVIEW_LIMITS.bytesPerReview) {
        skipped.add(entry.path);
        findings.push(limitFinding(entry.path, `would take the files read past ${formatBytes(REVIEW_LIMITS.bytesPerReview)}, the limit per review`, "review-size"));
        continue;
      }
      budget.files++;
      requested.add(`head:${entry.path}`);
      const copies = entry.sha === undefined ? undefined : sameBlob.get(entry.sha);
      if (copies) {
        // The same bytes as a path already requested: read once, counted once against the bytes.
        const original = copies[0]!;
        const text = headText.get(original);
        if (text !== undefined) headText.set(entry.path, text);
        else if (skipped.has(original)) {
          skipped.add(entry.path);
          findings.push(limitFinding(entry.path, `holds the same bytes as ${original}, which could not be read`, "unreadable"));
        } else copies.push(entry.path);
        continue;
      }
      budget.bytes += entry.size ?? 0;
      if (entry.sha !== undefined) sameBlob.set(entry.sha, [entry.path]);
      requests.push({ side: "head", path: entry.path, expression: `${pr.headSha}:${entry.path}`, size: entry.size, sha: entry.sha });
    }
    for (const file of candidates.base) {
      const path = file.previousPath ?? file.path;
      if (requested.has(`base:${path}`)) continue;
      if (budget.baseFiles >= REVIEW_LIMITS.filesPerReview) {
        findings.push(limitFinding("", `More than ${REVIEW_LIMITS.filesPerReview} changed schema and manifest files: the base versions of the later ones were not read, so their findings count as new.`, "review-files"));
        break;
      }
      budget.baseFiles++;
      requests.push({ side: "base", path, expression: `${pr.baseSha}:${path}` });
    }
    for (const request of requests) requested.add(`${request.side}:${request.path}`);
    const result = await reader.read(requests, extras);
    for (const { request, blob, failed } of result.blobs) {
      const paths = request.side === "head" && request.sha !== undefined ? (sameBlob.get(request.sha) ?? [request.path]) : [request.path];
      if (failed) {
        if (request.side === "head") {
          for (const path of paths) {
            skipped.add(path);
            findings.push(limitFinding(path, "could not be read: GitHub answered the query with an error for it", "unreadable"));
          }
        }
        continue;
      }
      if (blob === null) continue; // not at that commit
      const problem = unreadable(blob);
      for (const path of paths) {
        if (problem === undefined) {
          (request.side === "head" ? headText : baseText).set(path, blob.text ?? "");
        } else if (request.side === "head") {
          skipped.add(path);
          findings.push(limitFinding(path, problem.message, problem.kind));
        }
      }
    }
    return result;
  };

  // One query: blobs picked by the default globs, plus the config, the posted comments and change
  // requests. Only a config whose globs reach beyond the defaults costs a second query for the files it adds.
  const first = await fetchCandidates(candidatesFor(DEFAULT_CONFIG), { config: true, pullRequest: options.forReview });
  // A binary, truncated or unanswered config is reported and not used: half a config could turn rules off.
  const configProblem = first.configFailed
    ? "could not be read: GitHub answered the query with an error for it"
    : first.config
      ? unreadable(first.config)?.message
      : undefined;
  if (configProblem) findings.push(limitFinding(CONFIG_PATH, `${configProblem}; the default settings were used`, "config"));
  const configFile: SourceFile | undefined =
    !configProblem && first.config?.text != null ? { path: CONFIG_PATH, content: first.config.text } : undefined;
  const { config } = core.loadConfig(configFile);
  const candidates = candidatesFor(config);
  const unfetched = {
    head: candidates.head.filter((entry) => !requested.has(`head:${entry.path}`) && !skipped.has(entry.path)),
    base: candidates.base.filter((file) => !requested.has(`base:${file.previousPath ?? file.path}`)),
  };
  if (unfetched.head.length > 0 || unfetched.base.length > 0) {
    await fetchCandidates(unfetched, { config: false, pullRequest: false });
  }

  const headPaths = new Set(candidates.head.map((entry) => entry.path));
  const files = [...headText]
    .filter(([path]) => headPaths.has(path))
    .map(([path, content]) => ({ path, content }));
  const changedHeadPaths = new Set(changedFiles.map((file) => file.path));
  // Unchanged files are identical at the base; changed ones come from the base commit itself.
  const baseVersions = candidates.base
    .filter((file) => !skipped.has(file.path) && baseText.has(file.previousPath ?? file.path))
    .map((file) => ({ path: file.previousPath ?? file.path, content: baseText.get(file.previousPath ?? file.path)! }));
  const baseFiles = [...files.filter((file) => !changedHeadPaths.has(file.path)), ...baseVersions];

  return {
    files: files.sort(byPath),
    baseFiles: baseFiles.sort(byPath),
    ...(configFile ? { configFile } : {}),
    config,
    changedFiles,
    postedComments: postedComments(first.threads, core),
    changeRequests: ourChangeRequests(first.changeRequests),
    ...(first.headSha !== undefined ? { currentHeadSha: first.headSha } : {}),
    // A file picked by the default globs but not by the repository's config is no concern of the review.
    findings: findings.filter((finding) => finding.location.file === "" || finding.location.file === CONFIG_PATH || headPaths.has(finding.location.file)),
  };
}

const byPath = (a: SourceFile, b: SourceFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function unreadable(blob: Blob): { message: string; kind: LimitKind } | undefined {
  if (blob.isBinary) return { message: "is a binary file", kind: "binary" };
  if (blob.byteSize > MAX_FILE_BYTES) {
    return { message: `is ${formatBytes(blob.byteSize)}, over the ${formatBytes(MAX_FILE_BYTES)} limit`, kind: "file-size" };
  }
  if (blob.isTruncated || blob.text === null) return { message: "could not be read in full", kind: "file-size" };
  return undefined;
}

async function listChangedFiles(github: GitHubPort, pr: PullRequestRef): Promise<ChangedFile[]> {
  const files = await github.paginate(github.rest.pulls.listFiles, {
    owner: pr.owner,
    repo: pr.repo,
    pull_number: pr.number,
    per_page: 100,
  });
  return files.map((file) => ({
    path: file.filename,
    status: file.status,
    ...(file.previous_filename ? { previousPath: file.previous_filename } : {}),
    ...(file.patch !== undefined ? { hunks: parsePatch(file.patch) } : {}),
  }));
}

async function readTree(
  github: GitHubPort,
  pr: PullRequestRef,
): Promise<{ entries: Map<string, TreeEntry>; truncated: boolean }> {
  const { data } = await github.rest.git.getTree({
    owner: pr.owner,
    repo: pr.repo,
    tree_sha: pr.headSha,
    recursive: "true",
  });
  const entries = new Map<string, TreeEntry>();
  for (const entry of data.tree) {
    if (entry.type !== "blob" || !entry.path) continue;
    entries.set(entry.path, { path: entry.path, ...(entry.size !== undefined ? { size: entry.size } : {}), ...(entry.sha ? { sha: entry.sha } : {}) });
  }
  return { entries, truncated: data.truncated };
}

interface BlobRequest {
  side: "head" | "base";
  path: string;
  expression: string;
  size?: number | undefined;
  sha?: string | undefined;
}

interface ThreadsPage {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: Array<{ comments: { nodes: ThreadComment[] } } | null>;
}

interface ThreadComment {
  id: string;
  body: string;
  isMinimized: boolean;
  author: { __typename: string; login: string } | null;
}

interface ReviewNode {
  databaseId: number | null;
  body: string;
  author: { __typename: string; login: string } | null;
}

/** What the file query reads of the pull request itself, beside the blobs. */
interface PullRequestState {
  headRefOid?: string;
  reviewThreads: ThreadsPage;
  /** absent from answers that predate it (older mocks); treated as none */
  reviews?: { nodes: Array<ReviewNode | null> };
}

interface ReadResult {
  /** `failed`: GitHub answered with an error for this blob (a partial answer) */
  blobs: Array<{ request: BlobRequest; blob: Blob | null; failed?: boolean }>;
  config?: Blob | null;
  configFailed?: boolean;
  threads: ThreadComment[];
  changeRequests: ReviewNode[];
  headSha?: string;
}

/** Reads blobs by GraphQL aliases; expressions travel as variables so no path needs escaping. */
class BlobReader {
  constructor(
    private readonly github: GitHubPort,
    private readonly pr: PullRequestRef,
  ) {}

  async read(requests: BlobRequest[], extras: { config: boolean; pullRequest: boolean }): Promise<ReadResult> {
    const chunks = chunk(requests);
    const result: ReadResult = { blobs: [], threads: [], changeRequests: [] };
    for (const [index, requestsOfChunk] of chunks.entries()) {
      const withExtras = index === 0;
      if (!withExtras && requestsOfChunk.length === 0) continue;
      const wanted = { config: withExtras && extras.config, pullRequest: withExtras && extras.pullRequest };
      // Never an empty query: GitHub rejects it, and nothing is asked.
      if (requestsOfChunk.length === 0 && !wanted.config && !wanted.pullRequest) continue;
      const { data, pullRequest, failed } = await this.query(requestsOfChunk, wanted);
      requestsOfChunk.forEach((request, i) =>
        result.blobs.push({ request, blob: data[`f${i}`] ?? null, ...(failed.has(`f${i}`) ? { failed: true } : {}) }),
      );
      if (wanted.config) {
        result.config = data.config ?? null;
        if (failed.has("config")) result.configFailed = true;
      }
      if (pullRequest) {
        result.threads = await this.allThreads(pullRequest.reviewThreads);
        result.changeRequests = (pullRequest.reviews?.nodes ?? []).filter((node): node is ReviewNode => node !== null);
        if (pullRequest.headRefOid) result.headSha = pullRequest.headRefOid;
      }
    }
    return result;
  }

  private async query(
    requests: BlobRequest[],
    extras: { config: boolean; pullRequest: boolean },
  ): Promise<{ data: Record<string, Blob | null>; pullRequest?: PullRequestState; failed: Set<string> }> {
    const variables: Record<string, unknown> = { owner: this.pr.owner, repo: this.pr.repo };
    const declarations = ["$owner: String!", "$repo: String!"];
    const selections: string[] = [];
    requests.forEach((request, i) => {
      declarations.push(`$e${i}: String!`);
      variables[`e${i}`] = request.expression;
      selections.push(`f${i}: object(expression: $e${i}) { ...BlobText }`);
    });
    if (extras.config) {
      declarations.push("$config: String!");
      variables.config = `${this.pr.defaultBranch}:${CONFIG_PATH}`;
      selections.push("config: object(expression: $config) { ...BlobText }");
    }
    if (extras.pullRequest) {
      declarations.push("$number: Int!");
      variables.number = this.pr.number;
      selections.push(`pullRequest(number: $number) { headRefOid ${THREADS_SELECTION} ${CHANGE_REQUESTS_SELECTION} }`);
    }
    const query = `query CqlReviewFiles(${declarations.join(", ")}) {
  repository(owner: $owner, name: $repo) {
    ${selections.join("\n    ")}
  }
}
${BLOB_FRAGMENT}`;
    type Answer = { repository: Record<string, Blob | null> & { pullRequest?: PullRequestState | null } };
    let response: Answer;
    const failed = new Set<string>();
    try {
      response = await this.github.graphql<Answer>(query, variables);
    } catch (error) {
      // A partial answer (some fields failed): use what came back, and report the fields that failed.
      const partial = partialAnswer<Answer>(error);
      if (!partial?.data?.repository) throw error;
      response = partial.data;
      for (const problem of partial.errors) {
        const [root, field] = problem.path ?? [];
        if (root === "repository" && typeof field === "string") failed.add(field);
      }
    }
    const { pullRequest, ...data } = response.repository;
    return { data, ...(pullRequest ? { pullRequest } : {}), failed };
  }

  /** Pages beyond the first 100 threads cost one query each; ordinary PRs never need them. */
  private async allThreads(first: ThreadsPage): Promise<ThreadComment[]> {
    const comments: ThreadComment[] = [];
    let page: ThreadsPage | undefined = first;
    while (page) {
      for (const node of page.nodes) {
        const root = node?.comments.nodes[0];
        if (root) comments.push(root);
      }
      if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) break;
      const next: { repository: { pullRequest: { reviewThreads: ThreadsPage } | null } } = await this.github.graphql(
        `query CqlReviewThreads($owner: String!, $repo: String!, $number: Int!, $after: String!) {
  repository(owner: $owner, name: $repo) { pullRequest(number: $number) { ${THREADS_SELECTION.replace("first: 100", "first: 100, after: $after")} } }
}`,
        { owner: this.pr.owner, repo: this.pr.repo, number: this.pr.number, after: page.pageInfo.endCursor },
      );
      page = next.repository.pullRequest?.reviewThreads;
    }
    return comments;
  }
}

const BLOB_FRAGMENT = "fragment BlobText on Blob { text isBinary byteSize isTruncated }";
const THREADS_SELECTION =
  "reviewThreads(first: 100) { pageInfo { hasNextPage endCursor } nodes { comments(first: 1) { nodes { id body isMinimized author { __typename login } } } } }";
/**
 * Dismissed reviews leave this state, so these are the change requests still in force. The last 50
 * are plenty: a passing review dismisses ours, so only the pushes since the gate last passed add any.
 */
const CHANGE_REQUESTS_SELECTION =
  "reviews(last: 50, states: [CHANGES_REQUESTED]) { nodes { databaseId body author { __typename login } } }";

function chunk(requests: BlobRequest[]): BlobRequest[][] {
  const chunks: BlobRequest[][] = [[]];
  let bytes = 0;
  for (const request of requests) {
    const current = chunks[chunks.length - 1]!;
    // Base versions have no known size: count them at the cap so a chunk stays under the limit.
    const size = request.size ?? MAX_FILE_BYTES / 4;
    if (current.length > 0 && (current.length >= MAX_BLOBS_PER_QUERY || bytes + size > MAX_BYTES_PER_QUERY)) {
      chunks.push([request]);
      bytes = size;
    } else {
      current.push(request);
      bytes += size;
    }
  }
  return chunks;
}

function postedComments(
  threads: ThreadComment[],
  core: Pick<ReviewCore, "readFingerprintMarker">,
): PostedComment[] {
  const posted: PostedComment[] = [];
  for (const comment of threads) {
    // Only bots' comments count: a person quoting our marker must not silence a finding.
    if (comment.author?.__typename !== "Bot") continue;
    const fingerprint = core.readFingerprintMarker(comment.body);
    if (fingerprint) posted.push({ nodeId: comment.id, fingerprint, minimized: comment.isMinimized, author: comment.author.login });
  }
  return posted;
}

function ourChangeRequests(reviews: readonly ReviewNode[]): ChangeRequest[] {
  const ours: ChangeRequest[] = [];
  for (const review of reviews) {
    // As for comments: a person quoting our marker in their own change request is not ours to dismiss.
    if (review.author?.__typename !== "Bot" || review.databaseId === null || !isOurReviewBody(review.body)) continue;
    ours.push({ reviewId: review.databaseId, author: review.author.login });
  }
  return ours;
}

/** What Octokit's GraphqlResponseError carries when GitHub answered with data and errors. */
function partialAnswer<T>(error: unknown): { data?: T; errors: Array<{ path?: unknown[] }> } | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { data, errors } = error as { data?: T; errors?: unknown };
  return data !== undefined && Array.isArray(errors) ? { data, errors: errors as Array<{ path?: unknown[] }> } : undefined;
}

type LimitKind = "file-size" | "binary" | "tree" | "review-files" | "review-size" | "unreadable" | "config";

/** Same rule and fingerprint scheme as the core's own limit findings (src/review.ts). */
function limitFinding(path: string, problem: string, kind: LimitKind): Finding {
  return {
    rule: LIMIT_RULE,
    severity: "warning",
    location: { file: path, range: FILE_START },
    message: path ? `${path} ${problem}; it was not reviewed.` : problem,
    fingerprint: path === "" ? `${LIMIT_RULE}:${kind}` : `${LIMIT_RULE}:${kind}:${path}`,
  };
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
