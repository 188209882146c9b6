#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script): the bundle
// dist/cli/cql-review.mjs and its chunks when they are there (they start fastest), else the modules
// of dist/src.
import { existsSync } from "node:fs";
import nodeModule from "node:module";
import { fileURLToPath } from "node:url";

// V8 keeps the compiled code in the system's temp directory: later runs skip compiling the bundle.
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
