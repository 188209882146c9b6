#!/usr/bin/env node
// Copies the grammar WASM files (and, for bundles, web-tree-sitter's runtime) into a grammars/
// folder, where src/code/grammars.ts looks first, with a notices file holding each package's
// licence. Used by the Lambda and Action bundles (scripts/build-lambda.mjs) and by `npm run build`
// for the npm package:
//   node scripts/copy-grammars.mjs dist/src/code/grammars
// The npm package leaves the runtime out: web-tree-sitter stays a dependency there, and its .wasm
// must come from the same version as its JavaScript loader.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const RUNTIME = ["web-tree-sitter", "web-tree-sitter.wasm"];
const GRAMMARS = [
  ["tree-sitter-java", "tree-sitter-java.wasm"],
  ["@tree-sitter-grammars/tree-sitter-kotlin", "tree-sitter-kotlin.wasm"],
  ["tree-sitter-go", "tree-sitter-go.wasm"],
  ["tree-sitter-python", "tree-sitter-python.wasm"],
  ["tree-sitter-javascript", "tree-sitter-javascript.wasm"],
  ["tree-sitter-typescript", "tree-sitter-typescript.wasm"],
  ["tree-sitter-typescript", "tree-sitter-tsx.wasm"],
];
/** The notices file written beside the WASM files. */
export const NOTICES_FILE = "THIRD-PARTY-NOTICES.txt";

/**
 * Copies the files into `folder` and writes their packages' licences beside them; returns their
 * total size in bytes and the package folders they came from.
 */
export function copyGrammars(folder, { runtime = true } = {}) {
  mkdirSync(folder, { recursive: true });
  let bytes = 0;
  const packageDirs = new Set();
  for (const [module, file] of runtime ? [RUNTIME, ...GRAMMARS] : GRAMMARS) {
    const packageDir = module === RUNTIME[0] ? dirname(require.resolve(module)) : dirname(require.resolve(`${module}/package.json`));
    copyFileSync(join(packageDir, file), join(folder, file));
    bytes += statSync(join(folder, file)).size;
    // Bundles import web-tree-sitter's ES module from here (as .mjs, whatever the bundle's package type), so that
    // src/code/grammars.ts can load a fresh instance of it after a WebAssembly abort.
    if (module === RUNTIME[0]) {
      copyFileSync(join(packageDir, "web-tree-sitter.js"), join(folder, "web-tree-sitter.mjs"));
      bytes += statSync(join(folder, "web-tree-sitter.mjs")).size;
    }
    packageDirs.add(packageDir);
  }
  writeFileSync(join(folder, NOTICES_FILE), notices([...packageDirs]));
  return { bytes, packageDirs: [...packageDirs] };
}

/** Each package's name, version, licence and licence text. */
function notices(packageDirs) {
  const sections = packageDirs.map((root) => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    const licenceFile = readdirSync(root).find((file) => /^(licen[sc]e|copying|notice)(\.|$)/i.test(file));
    const text = licenceFile ? readFileSync(join(root, licenceFile), "utf8").trim() : `(no licence file in the package; package.json says: ${manifest.license ?? "unknown"})`;
    return `${manifest.name}@${manifest.version} (${manifest.license ?? "unknown"})\n\n${text}`;
  });
  const header = `The tree-sitter WASM files in this folder come from these packages (${packageDirs.length}):`;
  return `${[header, ...sections].join(`\n\n${"-".repeat(78)}\n\n`)}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  if (!folder) {
    process.stderr.write("usage: node scripts/copy-grammars.mjs <folder> [--with-runtime]\n");
    process.exit(2);
  }
  const copied = copyGrammars(folder, { runtime: process.argv.includes("--with-runtime") });
  process.stdout.write(`${folder}: ${(copied.bytes / 1024).toFixed(0)} KiB of grammars\n`);
}
