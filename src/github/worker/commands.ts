// `/cql …` commands in pull-request comments: acknowledge with 👀 at once, then answer with
// exactly one comment computed for the pull request's head commit.
import { unwrapCodeSpan } from "../../explain.js";
import { codeSpan } from "../../report/markdown-escape.js";
import { clipText } from "../../report/truncate.js";
import { collectPullRequest } from "../api/collect.js";
import type { ExplainRequest, GitHubPort, Log, ReviewCore } from "../port.js";
import type { ReviewIsolation } from "./analysis.js";
import { fetchPullRequest } from "../api/pull-request.js";

export type Command =
  | { kind: "help" }
  | { kind: "explain"; argument: string }
  | { kind: "unknown"; text: string };

const COMMAND_LINE = /^\s*\/cql(?=\s|$)(.*)$/i;

/**
 * The command in a comment, when its first line starts with `/cql` (any case). A `SELECT` may
 * continue on the following lines, up to a blank line.
 */
export function parseCommand(body: string): Command | undefined {
  const [firstLine = "", ...rest] = body.replace(/\r\n?/g, "\n").split("\n");
  const match = COMMAND_LINE.exec(firstLine);
  if (!match) return undefined;
  const words = (match[1] ?? "").trim();
  const [verb = "", ...args] = words.split(/\s+/);
  switch (verb.toLowerCase()) {
    case "":
    case "help":
      return { kind: "help" };
    case "explain": {
      let argument = args.join(" ");
      if (/^`*\s*select\b/i.test(argument)) {
        const continuation: string[] = [];
        for (const line of rest) {
          if (line.trim() === "") break;
          continuation.push(line.trim());
        }
        argument = [argument, ...continuation].join(" ");
      }
      // People often wrap the query in backticks; the parser should not see them.
      argument = unwrapCodeSpan(argument.trim());
      return argument === "" ? { kind: "unknown", text: words } : { kind: "explain", argument };
    }
    default:
      return { kind: "unknown", text: words };
  }
}

export const HELP_TEXT = [
  "**cql-review commands** (in a comment on a pull request, on its first line):",
  "",
  "| command | answer |",
  "| --- | --- |",
  "| `/cql explain <query-id>` | the plan of a query of the access-patterns manifest, step by step, e.g. `/cql explain Q1` |",
  "| `/cql explain <code statement>` | the same for a statement of the application's code, by its function or in full, e.g. `/cql explain UserDao.findByEmail` or `/cql explain src/main/java/com/example/UserDao.java#UserDao.findByEmail` |",
  "| `/cql explain SELECT …` | the plan of any `SELECT` against the schema at this pull request's head |",
  "| `/cql explain table <name>` | a table's key layout, partition-size estimate and the queries that use it |",
  "| `/cql help` | this list |",
].join("\n");

/**
 * Who may run commands: people who can write to the repository. An answer costs a full collection
 * and review of the pull request, so strangers commenting on a public repository get nothing.
 */
const WRITERS: ReadonlySet<string> = new Set(["OWNER", "MEMBER", "COLLABORATOR"]);

export function mayRunCommands(authorAssociation: string | undefined): boolean {
  return authorAssociation !== undefined && WRITERS.has(authorAssociation);
}

export interface CommandDeps {
  github: GitHubPort;
  log: Log;
  core: ReviewCore;
  /** the server's review threads; without it the core runs on this thread */
  isolation?: ReviewIsolation;
}

export interface CommandComment {
  repository: { name: string; owner: { login: string }; default_branch: string };
  pullRequestNumber: number;
  commentId: number;
  body: string;
  /** shown to the user when something breaks, and logged with the error */
  correlationId: string;
}

/** Answers one command comment. Returns the command handled, or undefined when the comment has none. */
export async function answerCommand(deps: CommandDeps, comment: CommandComment): Promise<Command | undefined> {
  const command = parseCommand(comment.body);
  if (!command) return undefined;
  const { github, log, core } = deps;
  const owner = comment.repository.owner.login;
  const repo = comment.repository.name;
  const reply = (body: string) =>
    github.rest.issues.createComment({ owner, repo, issue_number: comment.pullRequestNumber, body });
  try {
    await github.rest.reactions.createForIssueComment({ owner, repo, comment_id: comment.commentId, content: "eyes" });
  } catch (error) {
    // The answer matters more than the acknowledgement.
    log.warn({ err: error, correlationId: comment.correlationId }, "Could not add the 👀 reaction");
  }
  try {
    if (command.kind === "help") {
      await reply(HELP_TEXT);
    } else if (command.kind === "unknown") {
      await reply(unknownCommandReply(command.text));
    } else {
      const pr = await fetchPullRequest(github, comment.repository, comment.pullRequestNumber);
      const collected = await collectPullRequest(github, core, pr, { forReview: false });
      const request = { files: collected.files, ...(collected.configFile ? { configFile: collected.configFile } : {}), requestText: command.argument };
      // The server answers in a review thread, with its deadline and memory limit (review-threads.ts).
      const answer = deps.isolation ? await deps.isolation.explain(request) : await explainInProcess(core, request);
      await reply(explainReply(command.argument, answer, pr.headSha));
    }
  } catch (error) {
    log.error({ err: error, correlationId: comment.correlationId, pullRequest: comment.pullRequestNumber }, "Command failed");
    await reply(
      `Sorry, cql-review could not answer this command because of an internal error. Please try again; if it keeps failing, report correlation id ${codeSpan(clipText(comment.correlationId, QUOTED_MAX))}.`,
    );
  }
  return command;
}

/** Reviews the files and answers the question, on the caller's thread. */
export async function explainInProcess(core: ReviewCore, request: ExplainRequest): Promise<string> {
  // The code's statements are explained like the manifest's queries: read them as a review does.
  const code = core.readCode ? await core.readCode(request.files, core.loadConfig(request.configFile).config) : undefined;
  const review = core.review({
    files: request.files,
    ...(request.configFile ? { configFile: request.configFile } : {}),
    ...(code ? { code } : {}),
  });
  return core.explainMarkdown(review, request.requestText);
}

/** Longest part of a command quoted back in a reply. */
const QUOTED_MAX = 200;

/** The reply to a command cql-review does not know: the commenter's text quoted as code. */
export function unknownCommandReply(text: string): string {
  return `I don't know the command ${codeSpan(clipText(`/cql ${text}`, QUOTED_MAX))}.\n\n${HELP_TEXT}`;
}

/** The reply to `/cql explain …`: the request quoted as code, the answer, the commit it is for. */
export function explainReply(argument: string, answer: string, headSha: string): string {
  return `> ${codeSpan(clipText(`/cql explain ${argument}`, QUOTED_MAX))}\n\n${answer}\n\n<sub>At commit ${headSha.slice(0, 7)}.</sub>`;
}
