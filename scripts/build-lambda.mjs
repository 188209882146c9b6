#!/usr/bin/env node
// Bundles a runtime entry into one minified file with esbuild:
//   node scripts/build-lambda.mjs          → dist/lambda/index.mjs  (src/lambda.ts, handler `index.handler`)
//   node scripts/build-lambda.mjs action   → dist/action/index.js   (src/action.ts, action.yml's `main`)
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const targets = {
  lambda: { entry: "src/lambda.ts", outfile: "dist/lambda/index.mjs" },
  action: { entry: "src/action.ts", outfile: "dist/action/index.js" },
};
const name = process.argv[2] ?? "lambda";
const target = targets[name];
if (!target) {
  process.stderr.write(`unknown target "${name}"; expected one of: ${Object.keys(targets).join(", ")}\n`);
  process.exit(2);
}

const result = await build({
  absWorkingDir: root,
  entryPoints: [target.entry],
  outfile: target.outfile,
  bundle: true,
  minify: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: false,
  legalComments: "none",
  metafile: true,
  // Probot's CommonJS dependencies call require() for Node built-ins; ESM output needs one.
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  logLevel: "warning",
});
// The tree-sitter runtime and grammars are WASM files read at run time (src/code/grammars.ts looks
// for them in a grammars/ folder beside the bundle).
const { copyGrammars } = await import("./copy-grammars.mjs");
const grammarBytes = copyGrammars(join(root, dirname(target.outfile), "grammars"));
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
process.stdout.write(`${target.outfile}: ${(bytes / 1024).toFixed(0)} KiB, grammars ${(grammarBytes / 1024).toFixed(0)} KiB\n`);
