// `cql-review check --base REF`: the same files at another commit, read through git itself
// (`git ls-tree`, `git cat-file`), so the change rules, the new/existing split and the gate work
// in any CI that has a clone (GitLab, Jenkins, Buildkite) and locally. Only the CLI shell runs git;
// the core gets the base files as plain text, as the App gives them.
import * as path from "node:path";

/** Runs git with these arguments in a directory; resolves to its stdout, rejects with its stderr. */
export type GitRunner = (args: readonly string[], cwd: string) => Promise<Buffer>;

export class GitError extends Error {}

export interface BaseFile {
  /** absolute path in the working tree the file would have */
  absolute: string;
  content: string;
}

interface TreeEntry {
  absolute: string;
  objectId: string;
  size: number;
}

function gitMessage(error: unknown): string {
  const stderr = (error as { stderr?: Buffer | string }).stderr;
  const text = stderr ? stderr.toString().trim() : (error as Error).message;
  return text.split("\n")[0] ?? "";
}

/** The top of the working tree that holds `directory`. */
export async function repositoryTop(git: GitRunner, directory: string): Promise<string> {
  try {
    return (await git(["rev-parse", "--show-toplevel"], directory)).toString("utf8").trim();
  } catch (error) {
    throw new GitError(`--base needs a git repository: ${directory} is not inside one (${gitMessage(error)})`);
  }
}

/** The commit a ref names; a clear error when it names none (a shallow clone is the usual cause). */
export async function resolveCommit(git: GitRunner, top: string, ref: string): Promise<string> {
  if (ref.startsWith("-")) throw new GitError(`--base ${ref}: not a git ref`);
  try {
    return (await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], top)).toString("utf8").trim();
  } catch {
    throw new GitError(
      `--base ${ref}: no such commit in this repository (in CI, fetch it first: a shallow clone lacks it, e.g. \`git fetch --depth=1 origin ${ref}\`)`,
    );
  }
}

/** Every blob of the commit's tree: `git ls-tree -r -z --long` lines are "mode type id size\tpath". */
async function listTree(git: GitRunner, top: string, commit: string): Promise<TreeEntry[]> {
  const listing = (await git(["ls-tree", "-r", "-z", "--long", "--full-tree", commit], top)).toString("utf8");
  const entries: TreeEntry[] = [];
  for (const record of listing.split("\0")) {
    const tab = record.indexOf("\t");
    if (tab < 0) continue;
    const [, type, objectId, size] = record.slice(0, tab).split(/ +/);
    if (type !== "blob") continue;
    entries.push({ absolute: path.join(top, ...record.slice(tab + 1).split("/")), objectId, size: Number(size) });
  }
  return entries;
}

export interface BaseSelection {
  /** whether the file at this absolute path is one the head review would read */
  wanted(absolute: string): boolean;
  /** files larger than this are left out, as at the head */
  readLimitBytes: number;
}

/** The files at `ref` that the selection wants, with their text. */
export async function readFilesAtRef(git: GitRunner, cwd: string, ref: string, selection: BaseSelection): Promise<BaseFile[]> {
  const top = await repositoryTop(git, cwd);
  const commit = await resolveCommit(git, top, ref);
  const files: BaseFile[] = [];
  for (const entry of await listTree(git, top, commit)) {
    if (entry.size > selection.readLimitBytes || !selection.wanted(entry.absolute)) continue;
    const content = await git(["cat-file", "blob", entry.objectId], top);
    files.push({ absolute: entry.absolute, content: content.toString("utf8") });
  }
  return files;
}
