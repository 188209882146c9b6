// Tree-sitter grammars of the host languages, loaded lazily: a review without application code
// never loads web-tree-sitter, and a review with only Go loads only the Go grammar.
//
// This is the one part of src/code that touches the file system: it reads the WASM files that the
// grammar packages ship (tree-sitter-java, tree-sitter-go, …). The built code (the npm package),
// the Lambda and the Action carry the same files in a `grammars/` folder beside this module or the
// bundle (scripts/copy-grammars.mjs copies them), which is looked at first; the grammar packages
// themselves are development dependencies, there for a git clone.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Language as TreeSitterLanguage, Parser as TreeSitterParser } from "web-tree-sitter";
import type { CodeLanguage } from "./types.js";

/** The npm package and file of each grammar, and the name the bundle gives the file. */
export const GRAMMAR_FILES: Partial<Record<CodeLanguage, { module: string; file: string }>> = {
  java: { module: "tree-sitter-java", file: "tree-sitter-java.wasm" },
  kotlin: { module: "@tree-sitter-grammars/tree-sitter-kotlin", file: "tree-sitter-kotlin.wasm" },
  go: { module: "tree-sitter-go", file: "tree-sitter-go.wasm" },
  python: { module: "tree-sitter-python", file: "tree-sitter-python.wasm" },
  javascript: { module: "tree-sitter-javascript", file: "tree-sitter-javascript.wasm" },
  typescript: { module: "tree-sitter-typescript", file: "tree-sitter-typescript.wasm" },
  tsx: { module: "tree-sitter-typescript", file: "tree-sitter-tsx.wasm" },
};

/** web-tree-sitter's own runtime, beside its module. */
const RUNTIME = { module: "web-tree-sitter", file: "web-tree-sitter.wasm" };

const here = dirname(fileURLToPath(import.meta.url));
const requireHere = createRequire(import.meta.url);

/** The WASM file: in the bundle's `grammars/` folder, else in its npm package. */
export function grammarPath(entry: { module: string; file: string }): string {
  const bundled = join(here, "grammars", entry.file);
  if (existsSync(bundled)) return bundled;
  if (entry.module === RUNTIME.module) return join(dirname(requireHere.resolve(entry.module)), entry.file);
  try {
    return join(dirname(requireHere.resolve(`${entry.module}/package.json`)), entry.file);
  } catch {
    throw new Error(`${entry.file} is neither in ${join(here, "grammars")} nor in an installed ${entry.module} package`);
  }
}

export interface Grammars {
  /** a parser for the language, loading its grammar on first use */
  parser(language: CodeLanguage): Promise<TreeSitterParser>;
}

let runtime: Promise<typeof import("web-tree-sitter")> | undefined;
const languages = new Map<CodeLanguage, Promise<TreeSitterLanguage>>();

async function loadRuntime(): Promise<typeof import("web-tree-sitter")> {
  const module = await import("web-tree-sitter");
  const wasmBinary = readFileSync(grammarPath(RUNTIME));
  await module.Parser.init({ wasmBinary });
  return module;
}

/** The process-wide grammar cache (grammars are immutable once loaded). */
export const grammars: Grammars = {
  async parser(language) {
    runtime ??= loadRuntime();
    const module = await runtime;
    let loaded = languages.get(language);
    if (!loaded) {
      const files = GRAMMAR_FILES[language];
      if (!files) throw new Error(`no grammar is shipped for ${language}`);
      loaded = module.Language.load(readFileSync(grammarPath(files)));
      languages.set(language, loaded);
    }
    const parser = new module.Parser();
    parser.setLanguage(await loaded);
    return parser;
  },
};
