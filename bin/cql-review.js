#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm ci` through the `prepare` script).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cli = new URL("../dist/src/cli.js", import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write("cql-review: dist/ is missing; run `npm run build` (or `npm ci`) first.\n");
  process.exit(2);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
