// Reads a model repository from disk for tests that review it whole.
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { SourceFile } from "../../src/review.js";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The files of a model directory (relative to the repository), paths relative to it; `.github/cql-review.yml` is the config. */
export function readModel(relative: string): { files: SourceFile[]; configFile?: SourceFile } {
  const root = path.join(REPO_ROOT, relative);
  const files: SourceFile[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(absolute);
      else files.push({ path: path.relative(root, absolute).split(path.sep).join("/"), content: readFileSync(absolute, "utf8") });
    }
  };
  walk(root);
  const configFile = files.find((file) => file.path === ".github/cql-review.yml");
  return { files: files.filter((file) => file !== configFile), ...(configFile ? { configFile } : {}) };
}
