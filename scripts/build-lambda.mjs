#!/usr/bin/env node
// Bundles runtime entries into minified single files with esbuild:
//   node scripts/build-lambda.mjs          → dist/lambda/index.mjs  (src/lambda.ts: the webhook function, `index.handler`)
//                                            dist/lambda/worker.mjs (src/lambda/worker-entry.ts: `worker.handler`,
//                                                                    `worker.deadLetterHandler`)
//                                            dist/lambda/review-thread.mjs (the worker's review thread)
//   node scripts/build-lambda.mjs action   → dist/action/index.js   (src/action.ts, action.yml's `main`)
//   node scripts/build-lambda.mjs cli      → dist/cli/cql-review.cjs (src/cli/bin-entry.ts), one CommonJS file that
//                                            dist/cli/start.mjs (src/cli/start.ts) runs for bin/cql-review.js with a
//                                            V8 code cache; it uses dist/src/code/grammars.js and its grammars/
//                                            folder, so no grammar is shipped twice
// Next to each bundle: THIRD-PARTY-NOTICES.txt, the licence of every package the bundle includes.
import { build } from "esbuild";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const targets = {
  lambda: {
    // review-thread: the worker's review thread, a file of its own that worker_threads starts
    entries: { index: "src/lambda.ts", worker: "src/lambda/worker-entry.ts", "review-thread": "src/lambda/review-thread-entry.ts" },
    outdir: "dist/lambda",
    extension: ".mjs",
  },
  action: { entries: { index: "src/action.ts" }, outdir: "dist/action", extension: ".js" },
  // CommonJS, so src/cli/start.ts can run it as a vm.Script with a code cache made after the run (an
  // ES module's cache cannot be). One file: what a command imports dynamically (the core for
  // `check`, a report format, the code readers) still runs only when the command imports it.
  cli: {
    entries: { "cql-review": "src/cli/bin-entry.ts" },
    outdir: "dist/cli",
    extension: ".cjs",
    format: "cjs",
    grammarsFrom: "../src/code/grammars.js",
    node: "node22.12",
    starter: { start: "src/cli/start.ts" },
  },
};
const name = process.argv[2] ?? "lambda";
const target = targets[name];
if (!target) {
  process.stderr.write(`unknown target "${name}"; expected one of: ${Object.keys(targets).join(", ")}\n`);
  process.exit(2);
}
// `--outdir DIR`: somewhere else than dist/ (a test builds the CLI into a scratch folder).
const outdirOption = process.argv.indexOf("--outdir");
if (outdirOption > 0) target.outdir = resolve(process.argv[outdirOption + 1]);
// `--no-minify`: names kept, for a profile, or for a test that reads which modules a command ran.
const minify = !process.argv.includes("--no-minify");

// Earlier builds' files go first (the CLI was once split into chunks whose names changed with their content).
const outdir = resolve(root, target.outdir);
for (const file of existsSync(outdir) ? readdirSync(outdir) : []) if (/\.[cm]?js(\.LEGAL\.txt)?$/.test(file)) rmSync(join(outdir, file));

const result = await build({
  absWorkingDir: root,
  entryPoints: target.entries,
  outdir: target.outdir,
  outExtension: { ".js": target.extension },
  bundle: true,
  minify,
  platform: "node",
  // The package's engines field: the CLI runs on Node 22.12 too; the Lambda and the Action on 24.
  target: target.node ?? "node24",
  format: target.format ?? "esm",
  sourcemap: false,
  // Licence comments go to one file per bundle; the notices file below covers packages without any.
  legalComments: "external",
  metafile: true,
  // Probot's CommonJS dependencies call require() for Node built-ins; ESM output needs one. CommonJS
  // output has no import.meta: the bundle's own URL stands in for it.
  ...(target.format === "cjs"
    ? { define: { "import.meta.url": "__bundleUrl" }, banner: { js: 'const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' } }
    : { banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' } }),
  logLevel: "warning",
  plugins: target.grammarsFrom ? [grammarsModuleOutside(target.grammarsFrom)] : [],
});

// What runs the bundle (src/cli/start.ts): Node's modules only, so a build of its own.
if (target.starter) {
  await build({ absWorkingDir: root, entryPoints: target.starter, outdir: target.outdir, outExtension: { ".js": ".mjs" }, bundle: true, minify, platform: "node", target: target.node, format: "esm", logLevel: "warning" });
}

// The tree-sitter runtime and grammars are WASM files read at run time (src/code/grammars.ts looks
// for them in a grammars/ folder beside the bundle); their licences go into the notices too.
const { copyGrammars } = await import("./copy-grammars.mjs");
const grammars = target.grammarsFrom ? { bytes: 0, packageDirs: [] } : copyGrammars(join(outdir, "grammars"));
writeFileSync(
  join(outdir, "THIRD-PARTY-NOTICES.txt"),
  thirdPartyNotices([...Object.keys(result.metafile.inputs), ...grammars.packageDirs.map((dir) => `${dir}/`)]),
);
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  process.stdout.write(`${file}: ${(output.bytes / 1024).toFixed(0)} KiB\n`);
}
if (!target.grammarsFrom) process.stdout.write(`${target.outdir}/grammars: ${(grammars.bytes / 1024).toFixed(0)} KiB\n`);

/**
 * Leaves src/code/grammars.ts out of the bundle, imported from the compiled module instead, which
 * finds the WASM files in the grammars/ folder beside it (and web-tree-sitter, loaded only when
 * application code is read, in node_modules).
 */
function grammarsModuleOutside(compiledPath) {
  return {
    name: "grammars-outside",
    setup(build) {
      build.onResolve({ filter: /(^|\/)code\/grammars\.js$|^\.\/grammars\.js$/ }, (args) =>
        resolve(args.resolveDir, args.path).endsWith(join("src", "code", "grammars.js")) ? { path: compiledPath, external: true } : undefined,
      );
    },
  };
}

/** The package roots of the bundled inputs, each with its name, version, licence and licence text. */
function thirdPartyNotices(inputs) {
  const roots = new Set();
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) roots.add(match[1]);
  }
  const sections = [...roots].sort().map((packageRoot) => {
    const dir = resolve(root, packageRoot);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const licenceFile = existsSync(dir) ? readdirSync(dir).find((file) => /^(licen[sc]e|copying|notice)(\.|$)/i.test(file)) : undefined;
    const text = licenceFile ? readFileSync(join(dir, licenceFile), "utf8").trim() : `(no licence file in the package; package.json says: ${manifest.license ?? "unknown"})`;
    return `${manifest.name}@${manifest.version} (${manifest.license ?? "unknown"})\n\n${text}`;
  });
  const header = `Third-party software bundled in ${target.outdir}: ${roots.size} packages.`;
  return `${[header, ...sections].join(`\n\n${"-".repeat(78)}\n\n`)}\n`;
}

