#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script): the bundle
// dist/cli/cql-review.cjs, run by dist/cli/start.mjs with a V8 code cache (src/cli/start.ts), when
// they are there (they start fastest), else the modules of dist/src.
import { existsSync } from "node:fs";
import nodeModule from "node:module";
import { fileURLToPath } from "node:url";

// Node's compile cache, for the ES modules loaded outside the bundle (the code readers' grammars
// module and web-tree-sitter, or dist/src): V8 keeps their compiled code in Node's default place
// (node-compile-cache in the temp directory; NODE_COMPILE_CACHE moves it,
// NODE_DISABLE_COMPILE_CACHE=1 turns it off, and turns off the bundle's cache too). Where the folder
// cannot be made, Node tells no one and runs without it (test/cli/code-cache.test.ts).
// Read off the default export: a named import of it would fail to link on Node before 22.1.
nodeModule.enableCompileCache?.();

const bundle = new URL("../dist/cli/cql-review.cjs", import.meta.url);
const start = new URL("../dist/cli/start.mjs", import.meta.url);
const modules = new URL("../dist/src/cli.js", import.meta.url);
if (existsSync(fileURLToPath(bundle)) && existsSync(fileURLToPath(start))) {
  const { startCli } = await import(start.href);
  process.exitCode = await startCli(fileURLToPath(bundle), process.argv.slice(2));
} else if (existsSync(fileURLToPath(modules))) {
  const { main } = await import(modules.href);
  process.exitCode = await main(process.argv.slice(2));
} else {
  process.stderr.write("cql-review: dist/ is missing; run `npm run build` (or `npm ci`) first.\n");
  process.exit(2);
}
