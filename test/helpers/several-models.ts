// The multi-application fixture (test/fixtures/several-models): two applications, each with a
// keyspace `store` of its own tables (a `users` table in both, with different columns) and one
// file of application code (Java in the shop, Python in the chat).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { SourceFile } from "../../src/source-file.js";

export const SEVERAL_MODELS_DIR = fileURLToPath(new URL("../fixtures/several-models", import.meta.url));

/** Every file of the fixture, by its path inside it. */
export function severalModelsFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(SEVERAL_MODELS_DIR, path).split("\\").join("/")] = readFileSync(path, "utf8");
    }
  };
  walk(SEVERAL_MODELS_DIR);
  return files;
}

export function asSourceFiles(files: Record<string, string>): SourceFile[] {
  return Object.entries(files).map(([path, content]) => ({ path, content }));
}
