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
import { fileURLToPath, pathToFileURL } from "node:url";
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

type Runtime = typeof import("web-tree-sitter");

/** One instance of web-tree-sitter's WebAssembly module, and the grammars loaded into it. */
interface Instance {
  module: Runtime;
  languages: Map<CodeLanguage, Promise<TreeSitterLanguage>>;
  /** set once the module aborted or trapped: it is never used again */
  broken: boolean;
}

/**
 * web-tree-sitter's JavaScript, in the bundle's `grammars/` folder (as .mjs) or in its package.
 * It is imported by URL, not bundled: its WebAssembly instance is a module-level singleton, so
 * a fresh instance takes a fresh copy of the module (the URL's query makes it one).
 */
function runtimeScript(): string {
  const bundled = join(here, "grammars", "web-tree-sitter.mjs");
  // The package's ES module, beside the CommonJS one that require resolves to.
  return existsSync(bundled) ? bundled : join(dirname(requireHere.resolve(RUNTIME.module)), "web-tree-sitter.js");
}

/** Whether an error means the WebAssembly module can no longer be trusted (an abort, a trap, memory exhausted). */
function breaksTheModule(error: unknown): boolean {
  return error instanceof Error && (error.name === "RuntimeError" || (error instanceof RangeError && /memory/i.test(error.message)));
}

/**
 * Grammars loaded into one instance of the runtime at a time. When that instance aborts (out of
 * WebAssembly memory) or traps, it is thrown away with its grammars, and the next `parser` call
 * loads a fresh one: a hostile file breaks its own review, never a later one. A grammar that
 * failed to load is not remembered either, so the next review tries again.
 */
export function createGrammars(): Grammars {
  let current: Promise<Instance> | undefined;
  let loads = 0;

  async function load(): Promise<Instance> {
    const script = `${pathToFileURL(runtimeScript()).href}?instance=${++loads}`;
    const module = (await import(script)) as Runtime;
    const instance: Instance = { module, languages: new Map(), broken: false };
    const wasmBinary = readFileSync(grammarPath(RUNTIME));
    await module.Parser.init({ wasmBinary, onAbort: () => (instance.broken = true) });
    return instance;
  }

  async function instance(): Promise<Instance> {
    const loading = (current ??= load());
    try {
      const loaded = await loading;
      if (!loaded.broken) return loaded;
    } catch (error) {
      if (current === loading) current = undefined;
      throw error;
    }
    if (current === loading) current = undefined;
    return instance();
  }

  function guarded(parser: TreeSitterParser, owner: Instance): TreeSitterParser {
    const parse = parser.parse.bind(parser);
    parser.parse = (input, oldTree, options) => {
      try {
        return parse(input, oldTree, options);
      } catch (error) {
        if (breaksTheModule(error)) owner.broken = true;
        throw error;
      }
    };
    return parser;
  }

  return {
    async parser(language) {
      const owner = await instance();
      let loaded = owner.languages.get(language);
      if (!loaded) {
        const files = GRAMMAR_FILES[language];
        if (!files) throw new Error(`no grammar is shipped for ${language}`);
        loaded = owner.module.Language.load(readFileSync(grammarPath(files)));
        owner.languages.set(language, loaded);
        loaded.catch((error: unknown) => {
          if (owner.languages.get(language) === loaded) owner.languages.delete(language);
          if (breaksTheModule(error)) owner.broken = true;
        });
      }
      const parser = new owner.module.Parser();
      parser.setLanguage(await loaded);
      return guarded(parser, owner);
    },
  };
}

/** The process-wide grammars (grammars are immutable once loaded). */
export const grammars: Grammars = createGrammars();
