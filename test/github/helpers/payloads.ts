// Webhook payloads taken from @octokit/webhooks-examples (GitHub's own examples) and adjusted to
// one test repository, so handlers see the full, realistic shape of each event.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const examples = require("@octokit/webhooks-examples/api.github.com/index.json") as Array<{
  name: string;
  examples: Array<Record<string, any>>;
}>;

export const OWNER = "acme-data";
export const REPO = "iot-models";
export const INSTALLATION_ID = 4242;
export const APP_ID = 7001;
export const PR_NUMBER = 17;
export const HEAD_SHA = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678";
export const BASE_SHA = "0f9e8d7c6b5a49382716f5e4d3c2b1a098765432";
export const DEFAULT_BRANCH = "main";

function example(event: string, action: string, pick: (payload: Record<string, any>) => boolean = () => true): any {
  const found = examples.find((entry) => entry.name === event)?.examples.find((p) => p.action === action && pick(p));
  if (!found) throw new Error(`no ${event}.${action} example in @octokit/webhooks-examples`);
  return structuredClone(found);
}

function adjustRepository(payload: Record<string, any>): void {
  payload.repository.name = REPO;
  payload.repository.full_name = `${OWNER}/${REPO}`;
  payload.repository.owner.login = OWNER;
  payload.repository.default_branch = DEFAULT_BRANCH;
  payload.installation = { id: INSTALLATION_ID, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDI0Mg==" };
}

export function pullRequestEvent(
  action: "opened" | "synchronize" | "reopened" | "ready_for_review" | "closed",
  overrides: { draft?: boolean; headSha?: string } = {},
) {
  const payload = example("pull_request", action);
  adjustRepository(payload);
  payload.number = PR_NUMBER;
  Object.assign(payload.pull_request, {
    number: PR_NUMBER,
    state: action === "closed" ? "closed" : "open",
    draft: overrides.draft ?? false,
  });
  payload.pull_request.head.sha = overrides.headSha ?? HEAD_SHA;
  payload.pull_request.base.sha = BASE_SHA;
  payload.pull_request.base.ref = DEFAULT_BRANCH;
  return { id: `delivery-pr-${action}`, name: "pull_request" as const, payload };
}

export function checkRunEvent(
  action: "rerequested" | "requested_action",
  overrides: { name?: string; appId?: number; identifier?: string; fromFork?: boolean } = {},
) {
  const payload = example("check_run", action);
  adjustRepository(payload);
  Object.assign(payload.check_run, { name: overrides.name ?? "cql-review", head_sha: HEAD_SHA });
  payload.check_run.app = { ...payload.check_run.app, id: overrides.appId ?? APP_ID };
  payload.check_run.check_suite = { ...payload.check_run.check_suite, head_sha: HEAD_SHA };
  payload.check_run.pull_requests = overrides.fromFork
    ? []
    : [
        {
          url: `https://api.github.com/repos/${OWNER}/${REPO}/pulls/${PR_NUMBER}`,
          id: 1,
          number: PR_NUMBER,
          head: { ref: "feature", sha: HEAD_SHA, repo: { id: 1, url: "", name: REPO } },
          base: { ref: DEFAULT_BRANCH, sha: BASE_SHA, repo: { id: 1, url: "", name: REPO } },
        },
      ];
  if (action === "requested_action") payload.requested_action = { identifier: overrides.identifier ?? "rerun" };
  return { id: `delivery-check-run-${action}`, name: "check_run" as const, payload };
}

export function checkSuiteRerequestedEvent(overrides: { fromFork?: boolean; appId?: number } = {}) {
  const payload = example("check_suite", "rerequested");
  adjustRepository(payload);
  payload.check_suite.head_sha = HEAD_SHA;
  payload.check_suite.app = { ...payload.check_suite.app, id: overrides.appId ?? APP_ID };
  payload.check_suite.pull_requests = overrides.fromFork
    ? []
    : [{ ...payload.check_suite.pull_requests[0], number: PR_NUMBER, head: { ...payload.check_suite.pull_requests[0].head, sha: HEAD_SHA }, base: { ...payload.check_suite.pull_requests[0].base, sha: BASE_SHA } }];
  return { id: "delivery-check-suite", name: "check_suite" as const, payload };
}

export function issueCommentEvent(
  body: string,
  overrides: {
    onPullRequest?: boolean;
    senderType?: "User" | "Bot";
    senderLogin?: string;
    commentId?: number;
    /** the commenter's relation to the repository; the example's OWNER when not given */
    authorAssociation?: string;
  } = {},
) {
  const payload = example("issue_comment", "created");
  adjustRepository(payload);
  payload.issue.number = PR_NUMBER;
  if (overrides.onPullRequest ?? true) {
    payload.issue.pull_request = {
      url: `https://api.github.com/repos/${OWNER}/${REPO}/pulls/${PR_NUMBER}`,
      html_url: `https://github.com/${OWNER}/${REPO}/pull/${PR_NUMBER}`,
      diff_url: `https://github.com/${OWNER}/${REPO}/pull/${PR_NUMBER}.diff`,
      patch_url: `https://github.com/${OWNER}/${REPO}/pull/${PR_NUMBER}.patch`,
      merged_at: null,
    };
  } else {
    delete payload.issue.pull_request;
  }
  payload.comment.body = body;
  payload.comment.id = overrides.commentId ?? 555001;
  if (overrides.authorAssociation !== undefined) payload.comment.author_association = overrides.authorAssociation as never;
  payload.sender = { ...payload.sender, type: overrides.senderType ?? "User", login: overrides.senderLogin ?? "maria-dev" };
  return { id: "delivery-comment", name: "issue_comment" as const, payload };
}
