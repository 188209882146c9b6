// Copies web-tree-sitter's runtime and the grammar WASM files into a bundle's grammars/ folder,
// where src/code/grammars.ts finds them when the code runs bundled (Lambda, Action).
import { copyFileSync, mkdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const FILES = [
  ["web-tree-sitter", "web-tree-sitter.wasm"],
  ["tree-sitter-java", "tree-sitter-java.wasm"],
  ["@tree-sitter-grammars/tree-sitter-kotlin", "tree-sitter-kotlin.wasm"],
  ["tree-sitter-go", "tree-sitter-go.wasm"],
  ["tree-sitter-python", "tree-sitter-python.wasm"],
  ["tree-sitter-javascript", "tree-sitter-javascript.wasm"],
  ["tree-sitter-typescript", "tree-sitter-typescript.wasm"],
  ["tree-sitter-typescript", "tree-sitter-tsx.wasm"],
];

/** Copies every file into `folder`; returns their total size in bytes and the packages they came from. */
export function copyGrammars(folder) {
  mkdirSync(folder, { recursive: true });
  let bytes = 0;
  const packageDirs = new Set();
  for (const [module, file] of FILES) {
    const packageDir = module === "web-tree-sitter" ? dirname(require.resolve(module)) : dirname(require.resolve(`${module}/package.json`));
    copyFileSync(join(packageDir, file), join(folder, file));
    bytes += statSync(join(folder, file)).size;
    packageDirs.add(packageDir);
  }
  return { bytes, packageDirs: [...packageDirs] };
}
