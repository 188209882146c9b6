// `cql-review init` in a repository of several applications (a samples repository, a monorepo):
// each application's root is the deepest directory holding a build file (Maven, Gradle, npm, Go,
// Python) above its schema files, or a directory the config's `models:` lists. Each gets a draft of
// its own, never one that merges them: their keyspaces and tables may share names.
import * as path from "node:path";
import { rootOf } from "../manifest/model-roots.js";

/** Files that mark the root of one application's build. */
export const BUILD_FILES = ["pom.xml", "build.gradle", "build.gradle.kts", "package.json", "go.mod", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"] as const;

export interface ApplicationRoots {
  /** absolute directories strictly inside the one init was given, one draft each; fewer than two: one application */
  roots: string[];
  /** schema files (absolute) beneath none of them */
  outside: string[];
}

/**
 * The application roots of `directory`, from the schema files beneath it: the config's `models:`
 * (repository-relative, `repositoryRoot` absolute) when it lists any, else each schema file's
 * deepest enclosing directory with a build file, below `directory`.
 */
export async function applicationRoots(
  directory: string,
  schemaFiles: readonly string[],
  options: { models?: readonly string[]; repositoryRoot: string; hasBuildFile: (directory: string) => Promise<boolean> },
): Promise<ApplicationRoots> {
  const owner = new Map<string, string | undefined>();
  if (options.models && options.models.length > 0) {
    const roots = options.models.map((model) => `${path.resolve(options.repositoryRoot, model)}${path.sep}`);
    for (const file of schemaFiles) {
      const root = rootOf(file, roots);
      owner.set(file, root === undefined ? undefined : root.slice(0, -1));
    }
  } else {
    const found = new Map<string, boolean>();
    const isRoot = async (candidate: string) => {
      if (!found.has(candidate)) found.set(candidate, await options.hasBuildFile(candidate));
      return found.get(candidate)!;
    };
    for (const file of schemaFiles) {
      let root: string | undefined;
      for (let candidate = path.dirname(file); candidate.startsWith(directory + path.sep); candidate = path.dirname(candidate)) {
        if (await isRoot(candidate)) {
          root = candidate;
          break;
        }
      }
      owner.set(file, root);
    }
  }
  const roots = [...new Set([...owner.values()].filter((root): root is string => root !== undefined && root !== directory && root.startsWith(directory + path.sep)))].sort();
  // One application root, or roots nested in one another's drafts, is one application.
  const nested = roots.some((root) => roots.some((other) => other !== root && root.startsWith(other + path.sep)));
  if (roots.length < 2 || nested) return { roots: [], outside: [] };
  return { roots, outside: schemaFiles.filter((file) => owner.get(file) === undefined || !roots.includes(owner.get(file)!)) };
}
