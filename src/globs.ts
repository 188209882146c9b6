// Path globs of the config (`schema`, `manifest`, `ignore`), matched with picomatch.
// Paths are POSIX and relative to the repository root, as in SourceFile.
import picomatch from "picomatch";

type Matcher = (path: string) => boolean;

// Globs come from one config per review: a small cache saves recompiling them for every file.
const compiled = new Map<string, Matcher>();
const CACHE_LIMIT = 500;

function matcherFor(glob: string): Matcher {
  let matcher = compiled.get(glob);
  if (!matcher) {
    try {
      // `dot`: `**/*.cql` must also find files under `.github/` or `.cassandra/`.
      matcher = picomatch(stripLeadingDotSlash(glob), { dot: true });
    } catch {
      matcher = () => false; // a glob picomatch cannot compile matches nothing
    }
    if (compiled.size >= CACHE_LIMIT) compiled.clear();
    compiled.set(glob, matcher);
  }
  return matcher;
}

function stripLeadingDotSlash(path: string): string {
  return path.startsWith("./") ? path.slice(2) : path;
}

/** Whether `path` matches at least one of `globs` (dot files included, `{a,b}` braces supported). */
export function matchesAny(path: string, globs: readonly string[]): boolean {
  const normalised = stripLeadingDotSlash(path.replaceAll("\\", "/"));
  return globs.some((glob) => matcherFor(glob)(normalised));
}
