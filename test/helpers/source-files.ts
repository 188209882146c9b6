// The project's own TypeScript sources, for the tests that read the code itself (layers,
// regular expressions, spread calls).
import { readdirSync } from "node:fs";
import { join } from "node:path";

export const REPOSITORY_ROOT = join(import.meta.dirname, "../..");

/** Repository-relative paths (`src/review.ts`) of every `.ts` file under `src/` and `rules/`, declarations left out. */
export function projectSources(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(REPOSITORY_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
    });
  return [...walk("src"), ...walk("rules")];
}
