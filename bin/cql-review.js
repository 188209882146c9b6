#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script): the bundle
// dist/cli/cql-review.mjs and its chunks when they are there (they start fastest), else the modules
// of dist/src.
import { existsSync } from "node:fs";
import nodeModule from "node:module";
import { fileURLToPath } from "node:url";

// V8 keeps the compiled code in Node's default place (node-compile-cache in the temp directory, a
// subfolder per Node version and user; NODE_COMPILE_CACHE moves it, NODE_DISABLE_COMPILE_CACHE=1
// turns it off): later runs skip compiling the bundle. Measured 28 November 2026, `check
// examples/iot`, medians of 20 new processes on Node 24: 0.75 s of CPU with the cache, 0.78 s
// without (host loaded, load average 17–19). Where the folder cannot be made, Node tells no one and
// runs without it (test/cli/compile-cache.test.ts).
// Read off the default export: a named import of it would fail to link on Node before 22.1.
nodeModule.enableCompileCache?.();

const bundle = new URL("../dist/cli/cql-review.mjs", import.meta.url);
const modules = new URL("../dist/src/cli.js", import.meta.url);
if (existsSync(fileURLToPath(bundle))) {
  const { run } = await import(bundle.href);
  process.exitCode = await run(process.argv.slice(2));
} else if (existsSync(fileURLToPath(modules))) {
  const { main } = await import(modules.href);
  process.exitCode = await main(process.argv.slice(2));
} else {
  process.stderr.write("cql-review: dist/ is missing; run `npm run build` (or `npm ci`) first.\n");
  process.exit(2);
}
