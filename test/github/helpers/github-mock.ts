// nock scope helpers per endpoint family. Every helper records the request it answers in one
// `Capture`, so tests assert the exact bodies afterwards (nock body matchers would also run for
// unrelated requests) and every body can be checked against GitHub's OpenAPI description.
import { createHash } from "node:crypto";
import nock from "nock";
import { afterEach, beforeEach, expect } from "vitest";
import { unifiedPatch } from "./unified-diff.js";
import { assertValidGitHubRequest } from "./openapi.js";
import { APP_ID, BASE_SHA, DEFAULT_BRANCH, HEAD_SHA, INSTALLATION_ID, OWNER, PR_NUMBER, REPO } from "./payloads.js";

export const API = "https://api.github.com";
const REPO_PATH = `/repos/${OWNER}/${REPO}`;

export interface CapturedRequest {
  method: string;
  path: string;
  body: any;
}

export class Capture {
  readonly requests: CapturedRequest[] = [];
  constructor(
    readonly baseUrl = API,
    /** path prefix of the REST API under baseUrl (GHES: /api/v3) */
    readonly restPrefix = "",
    readonly graphqlPath = "/graphql",
  ) {}

  scope(): nock.Scope {
    return nock(this.baseUrl);
  }

  record(method: string, path: string, body: unknown): void {
    this.requests.push({ method, path: path.startsWith(this.restPrefix) ? path.slice(this.restPrefix.length) : path, body: parse(body) });
  }

  /** requests to GitHub other than authentication */
  get api(): CapturedRequest[] {
    return this.requests.filter((request) => !request.path.endsWith("/access_tokens"));
  }

  bodiesOf(method: string, pathSuffix: string): any[] {
    return this.requests.filter((r) => r.method === method && r.path.endsWith(pathSuffix)).map((r) => r.body);
  }

  graphqlQueries(): Array<{ query: string; variables: Record<string, unknown> }> {
    return this.requests.filter((r) => r.path === this.graphqlPath).map((r) => r.body);
  }

  /** Every REST body must satisfy GitHub's OpenAPI request schema for its operation. */
  assertAllValid(): void {
    for (const request of this.requests) {
      if (request.path === this.graphqlPath) {
        expect(typeof request.body.query).toBe("string");
        continue;
      }
      assertValidGitHubRequest(request.method, request.path, request.body);
    }
  }
}

function parse(body: unknown): unknown {
  if (typeof body !== "string") return body;
  if (body === "") return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function p(capture: Capture, path: string): string {
  return `${capture.restPrefix}${path}`;
}

export function nockInstallationToken(capture: Capture, times = 1): void {
  capture
    .scope()
    .post(p(capture, `/app/installations/${INSTALLATION_ID}/access_tokens`))
    .times(times)
    .reply(201, function (uri, body) {
      capture.record("POST", uri, body);
      return { token: "ghs_test_installation_token", expires_at: "2099-01-01T00:00:00Z", permissions: {} };
    });
}

/**
 * GitHub answering `method path` with an error (`times` times), the request recorded like the
 * others. A GET matches any query string.
 */
export function nockFailure(
  capture: Capture,
  method: "GET" | "POST" | "PATCH",
  path: string,
  answer: { status: number; message: string; headers?: Record<string, string>; times?: number },
): void {
  const scope = capture.scope();
  const interceptor = method === "GET" ? scope.get(p(capture, path)).query(true) : method === "POST" ? scope.post(p(capture, path)) : scope.patch(p(capture, path));
  interceptor.times(answer.times ?? 1).reply(function (uri, body) {
    capture.record(method, uri, method === "GET" ? undefined : body);
    return [answer.status, { message: answer.message }, answer.headers ?? {}];
  });
}

export function nockCreateCheckRun(capture: Capture, checkRunId = 9001): void {
  capture
    .scope()
    .post(p(capture, `${REPO_PATH}/check-runs`))
    .reply(201, function (uri, body) {
      capture.record("POST", uri, body);
      return { id: checkRunId, name: "cql-review", head_sha: HEAD_SHA, status: "in_progress" };
    });
}

export function nockUpdateCheckRun(capture: Capture, checkRunId = 9001, times = 1): void {
  capture
    .scope()
    .patch(p(capture, `${REPO_PATH}/check-runs/${checkRunId}`))
    .times(times)
    .reply(200, function (uri, body) {
      capture.record("PATCH", uri, body);
      return { id: checkRunId };
    });
}

/** A test repository: file contents at the base and head commits, the config on the default branch. */
export interface RepositoryState {
  base: Record<string, string>;
  head: Record<string, string>;
  config?: string;
  /** review comments already on the pull request (root comments of threads) */
  threads?: Array<{ id: string; body: string; isMinimized?: boolean; authorType?: "Bot" | "User"; login?: string }>;
  /** reviews on the pull request that still request changes (GitHub filters by state; so does this) */
  changeRequests?: Array<{ databaseId: number; body: string; authorType?: "Bot" | "User"; login?: string }>;
  /** the pull request's current head, when it is no longer the commit under review (default HEAD_SHA) */
  headRefOid?: string;
  /** blob facts to override, by `<sha>:<path>` (binary, truncated, huge) */
  blobOverrides?: Record<string, Partial<{ text: string | null; isBinary: boolean; byteSize: number; isTruncated: boolean }>>;
  /** files GitHub lists without a patch (too large a diff) */
  withoutPatch?: string[];
}

export interface PullFile {
  filename: string;
  status: "added" | "removed" | "modified" | "renamed";
  patch?: string;
  previous_filename?: string;
}

export function changedFilesOf(state: RepositoryState): PullFile[] {
  const paths = [...new Set([...Object.keys(state.base), ...Object.keys(state.head)])].sort();
  const files: PullFile[] = [];
  for (const path of paths) {
    const before = state.base[path];
    const after = state.head[path];
    if (before === after) continue;
    const status = before === undefined ? "added" : after === undefined ? "removed" : "modified";
    const patch = unifiedPatch(before, after);
    files.push({ filename: path, status, ...(state.withoutPatch?.includes(path) ? {} : { patch }) });
  }
  return files;
}

export function nockPullFiles(capture: Capture, files: PullFile[]): void {
  capture
    .scope()
    .get(p(capture, `${REPO_PATH}/pulls/${PR_NUMBER}/files`))
    .query(true)
    .reply(200, function (uri) {
      capture.record("GET", uri, undefined);
      return files.map((file, i) => ({
        sha: `blob${i}`,
        additions: 1,
        deletions: 0,
        changes: 1,
        blob_url: "",
        raw_url: "",
        contents_url: "",
        ...file,
      }));
    });
}

export function nockTree(capture: Capture, files: Record<string, string>, options: { truncated?: boolean; sizes?: Record<string, number> } = {}): void {
  const paths = Object.keys(files).sort();
  const directories = [...new Set(paths.flatMap((path) => path.split("/").slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join("/"))))];
  capture
    .scope()
    .get(p(capture, `${REPO_PATH}/git/trees/${HEAD_SHA}`))
    .query({ recursive: "true" })
    .reply(200, function (uri) {
      capture.record("GET", uri, undefined);
      return {
        sha: HEAD_SHA,
        url: "",
        truncated: options.truncated ?? false,
        tree: [
          ...directories.map((path) => ({ path, mode: "040000", type: "tree", sha: "t" })),
          { path: "README.md", mode: "100644", type: "blob", sha: "r", size: 120 },
          ...paths.map((path) => ({
            path,
            mode: "100644",
            type: "blob",
            // git's blob id: paths with the same content share it
            sha: createHash("sha1").update(`blob ${Buffer.byteLength(files[path]!)}\0${files[path]!}`).digest("hex"),
            size: options.sizes?.[path] ?? Buffer.byteLength(files[path]!),
          })),
        ],
      };
    });
}

/** Answers the file-collection GraphQL query from the repository state (blobs by `<sha>:<path>`). */
export function nockGraphqlFiles(capture: Capture, state: RepositoryState, times = 1): void {
  capture
    .scope()
    .post(capture.graphqlPath, (body) => typeof body.query === "string" && body.query.startsWith("query"))
    .times(times)
    .reply(200, function (uri, body) {
      capture.record("POST", uri, body);
      const { query, variables } = parse(body) as { query: string; variables: Record<string, string> };
      const repository: Record<string, unknown> = {};
      for (const [name, expression] of Object.entries(variables)) {
        if (!/^e\d+$/.test(name) && name !== "config") continue;
        repository[name === "config" ? "config" : `f${name.slice(1)}`] = blobAt(state, expression);
      }
      if (query.includes("reviewThreads")) {
        repository.pullRequest = {
          ...(query.includes("headRefOid") ? { headRefOid: state.headRefOid ?? HEAD_SHA } : {}),
          ...(query.includes("states: [CHANGES_REQUESTED]")
            ? {
                reviews: {
                  nodes: (state.changeRequests ?? []).map((review) => ({
                    databaseId: review.databaseId,
                    body: review.body,
                    author:
                      review.authorType === "User"
                        ? { __typename: "User", login: review.login ?? "maria-dev" }
                        : { __typename: "Bot", login: review.login ?? APP_SLUG },
                  })),
                },
              }
            : {}),
          reviewThreads: {
            pageInfo: { hasNextPage: false, endCursor: null },
            nodes: (state.threads ?? []).map((thread) => ({
              comments: {
                nodes: [
                  {
                    id: thread.id,
                    body: thread.body,
                    isMinimized: thread.isMinimized ?? false,
                    author:
                      thread.authorType === "User"
                        ? { __typename: "User", login: thread.login ?? "maria-dev" }
                        : { __typename: "Bot", login: thread.login ?? APP_SLUG },
                  },
                ],
              },
            })),
          },
        };
      }
      return { data: { repository } };
    });
}

function blobAt(state: RepositoryState, expression: string) {
  const separator = expression.indexOf(":");
  const ref = expression.slice(0, separator);
  const path = expression.slice(separator + 1);
  const text =
    ref === HEAD_SHA ? state.head[path] : ref === BASE_SHA ? state.base[path] : ref === DEFAULT_BRANCH && path === ".github/cql-review.yml" ? state.config : undefined;
  if (text === undefined) return null;
  return {
    text,
    isBinary: false,
    byteSize: Buffer.byteLength(text),
    isTruncated: false,
    ...state.blobOverrides?.[expression],
  };
}

/**
 * Our check runs still in progress on the head commit, as the review lists them after completing
 * its own (to complete runs a dead review left behind).
 */
export function nockRunsInProgress(capture: Capture, runs: Array<{ id: number; startedAt: string; appId?: number }> = []): void {
  capture
    .scope()
    .get(p(capture, `${REPO_PATH}/commits/${HEAD_SHA}/check-runs`))
    .query(true)
    // optional: only an app that knows its id (not the Action) looks
    .optionally()
    .reply(200, function (uri) {
      capture.record("GET", uri, undefined);
      return {
        total_count: runs.length,
        check_runs: runs.map((run) => ({ id: run.id, name: "cql-review", status: "in_progress", started_at: run.startedAt, app: { id: run.appId ?? APP_ID } })),
      };
    });
}

/** The app's slug: its bot account is `cql-review[bot]` (GraphQL names it `cql-review`). */
export const APP_SLUG = "cql-review";

/**
 * GET /app, which the app reads once per process to learn its bot login. Optional: a Probot
 * instance that already knows it does not ask again.
 */
export function nockGetApp(capture: Capture, slug = APP_SLUG, status = 200): void {
  capture
    .scope()
    .get(p(capture, "/app"))
    .optionally()
    .reply(status, function (uri) {
      capture.record("GET", uri, undefined);
      return status === 200 ? { id: APP_ID, slug, name: slug, owner: { login: OWNER } } : { message: "Bad credentials" };
    });
}

export function nockMinimizeComments(capture: Capture): void {
  capture
    .scope()
    .post(capture.graphqlPath, (body) => typeof body.query === "string" && body.query.startsWith("mutation"))
    .reply(200, function (uri, body) {
      capture.record("POST", uri, body);
      const { variables } = parse(body) as { variables: Record<string, string> };
      return { data: Object.fromEntries(Object.keys(variables).map((name) => [`m${name.slice(1)}`, { minimizedComment: { isMinimized: true } }])) };
    });
}

export function nockCreateReview(capture: Capture, status = 200, times = 1): void {
  capture
    .scope()
    .post(p(capture, `${REPO_PATH}/pulls/${PR_NUMBER}/reviews`))
    .times(times)
    .reply(function (uri, body) {
      capture.record("POST", uri, body);
      return status === 422
        ? [422, { message: "Unprocessable Entity", errors: ["Line could not be resolved"], documentation_url: "https://docs.github.com/rest" }]
        : [200, { id: 31337, state: "COMMENTED" }];
    });
}

/** `pulls.dismissReview` of one review; 403 and 422 answer as GitHub does when it refuses. */
export function nockDismissReview(capture: Capture, reviewId: number, status: 200 | 403 | 422 = 200): void {
  capture
    .scope()
    .put(p(capture, `${REPO_PATH}/pulls/${PR_NUMBER}/reviews/${reviewId}/dismissals`))
    .reply(function (uri, body) {
      capture.record("PUT", uri, body);
      if (status === 403) return [403, { message: "Resource not accessible by integration", documentation_url: "https://docs.github.com/rest" }];
      if (status === 422) return [422, { message: "Can not dismiss a dismissed pull request review", documentation_url: "https://docs.github.com/rest" }];
      return [200, { id: reviewId, state: "DISMISSED" }];
    });
}

export function nockGetPull(capture: Capture, pull: { headSha?: string; state?: string } = {}): void {
  capture
    .scope()
    .get(p(capture, `${REPO_PATH}/pulls/${PR_NUMBER}`))
    .reply(200, function (uri) {
      capture.record("GET", uri, undefined);
      return pullRequestResource(pull.headSha ?? HEAD_SHA, pull.state ?? "open");
    });
}

export function nockListOpenPulls(capture: Capture, heads: Array<{ number: number; headSha: string }>): void {
  capture
    .scope()
    .get(p(capture, `${REPO_PATH}/pulls`))
    .query(true)
    .reply(200, function (uri) {
      capture.record("GET", uri, undefined);
      return heads.map(({ number, headSha }) => ({ ...pullRequestResource(headSha, "open"), number }));
    });
}

function pullRequestResource(headSha: string, state: string) {
  return {
    number: PR_NUMBER,
    state,
    draft: false,
    head: { sha: headSha, ref: "feature", repo: { full_name: `forker/${REPO}` } },
    base: { sha: BASE_SHA, ref: DEFAULT_BRANCH, repo: { full_name: `${OWNER}/${REPO}` } },
  };
}

export function nockReaction(capture: Capture, commentId: number): void {
  capture
    .scope()
    .post(p(capture, `${REPO_PATH}/issues/comments/${commentId}/reactions`))
    .reply(201, function (uri, body) {
      capture.record("POST", uri, body);
      return { id: 1, content: "eyes" };
    });
}

export function nockIssueComment(capture: Capture): void {
  capture
    .scope()
    .post(p(capture, `${REPO_PATH}/issues/${PR_NUMBER}/comments`))
    .reply(201, function (uri, body) {
      capture.record("POST", uri, body);
      return { id: 777 };
    });
}

/**
 * The requests of a whole review of `state`: check create, files, tree, GraphQL, review, then a
 * dismissal of each review id in `dismiss` (with its answer), check update.
 */
export function nockReviewOf(
  capture: Capture,
  state: RepositoryState,
  options: { review?: boolean; updates?: number; dismiss?: Array<number | [number, 200 | 403 | 422]>; runsInProgress?: boolean } = {},
): void {
  nockCreateCheckRun(capture);
  nockPullFiles(capture, changedFilesOf(state));
  nockTree(capture, state.head);
  nockGraphqlFiles(capture, state);
  if ((state.threads?.length ?? 0) + (state.changeRequests?.length ?? 0) > 0) nockGetApp(capture);
  if (options.review ?? true) nockCreateReview(capture);
  for (const dismissal of options.dismiss ?? []) {
    const [reviewId, status] = typeof dismissal === "number" ? [dismissal, 200 as const] : dismissal;
    nockDismissReview(capture, reviewId, status);
  }
  nockUpdateCheckRun(capture, 9001, options.updates ?? 1);
  if (options.runsInProgress ?? true) nockRunsInProgress(capture);
}

/** The requests of answering a `/cql` command at the head of `state`: reaction, pull, tree, GraphQL, reply. */
export function nockCommandAnswer(capture: Capture, state: RepositoryState, commentId = 555001): void {
  nockReaction(capture, commentId);
  nockGetPull(capture);
  nockTree(capture, state.head);
  nockGraphqlFiles(capture, state);
  nockIssueComment(capture);
}

/**
 * A fresh Capture for every test of the file; after each test, every body is checked against the
 * OpenAPI description and no expected request may be left unmade.
 */
export function captureEachTest(options: { installationToken?: boolean } = {}): () => Capture {
  let capture = new Capture();
  beforeEach(() => {
    capture = new Capture();
    if (options.installationToken ?? true) nockInstallationToken(capture);
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    capture.assertAllValid();
    expect(pending).toEqual([]);
  });
  return () => capture;
}
