// Several models in one repository (a samples repository, a monorepo): each directory holding an
// access-patterns manifest, or each directory the config's `models:` lists, is the root of one
// application's model: its schema files, manifest and code are the files beneath it, reviewed
// apart from the others. A file beneath two roots belongs to the deeper one.
import { matchesAny } from "../globs.js";

/** A model root as a path prefix: "" for the repository's root, else a directory with a trailing slash ("apps/shop/"). */
export type ModelRoot = string;

/** The directory part of a repository path, as a root ("" for a file at the top). */
export function directoryOf(path: string): ModelRoot {
  return path.slice(0, path.lastIndexOf("/") + 1);
}

/** A directory written in the config (`apps/shop`, `./apps/shop/`, `.`) as a root. */
export function rootOfDirectory(directory: string): ModelRoot {
  let trimmed = directory.replace(/^(\.\/)+/, "");
  // A loop, not /\/+$/: that pattern retries from every slash of a long run (quadratic).
  while (trimmed.endsWith("/")) trimmed = trimmed.slice(0, -1);
  return trimmed === "" || trimmed === "." ? "" : `${trimmed}/`;
}

/**
 * The model roots of a repository, sorted: the directories the config lists when it lists any,
 * else the directories of the manifests among `paths` (by the manifest globs, ignored paths left
 * out). One root or none is the single-model review of a repository as a whole.
 */
export function modelRoots(paths: readonly string[], settings: { manifest: readonly string[]; ignore: readonly string[]; models?: readonly string[] }): ModelRoot[] {
  const roots = new Set<ModelRoot>();
  if (settings.models && settings.models.length > 0) {
    for (const directory of settings.models) roots.add(rootOfDirectory(directory));
  } else {
    for (const path of paths) {
      if (matchesAny(path, settings.manifest) && !matchesAny(path, settings.ignore)) roots.add(directoryOf(path));
    }
  }
  return [...roots].sort();
}

/** The root a path belongs to: the deepest one holding it, or undefined when it lies beneath none. */
export function rootOf(path: string, roots: readonly ModelRoot[]): ModelRoot | undefined {
  let best: ModelRoot | undefined;
  for (const root of roots) {
    if (path.startsWith(root) && (best === undefined || root.length > best.length)) best = root;
  }
  return best;
}

/** How a root is named in messages and reports: its directory, `.` for the repository's root. */
export function modelName(root: ModelRoot): string {
  return root === "" ? "." : root.slice(0, -1);
}
