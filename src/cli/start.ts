// How bin/cql-review.js starts the command line: it runs the CLI bundle (dist/cli/cql-review.cjs)
// as a vm.Script with a V8 code cache made after the command ran, kept per command and output
// format in a folder of the user's own. A pre-commit hook starts a new process for every commit, and most of a short
// command's time is V8 compiling and first running the bundle's functions. Node's own compile
// cache (module.enableCompileCache) keeps only what V8 compiles when a module loads: the top level,
// not the functions the command then calls. A cache made after the run holds those too.
// Measured 28 November 2026, `check examples/iot` as new processes on Node 24.21 (2 vCPUs, load
// average about 1), medians of 20 to 30 interleaved runs in three sessions: 454–490 ms for the
// split ESM bundle with Node's compile cache, 381–401 ms for this (docs/performance.md).
//
// The cache is only a speed-up: whatever fails (no folder, a folder someone else owns or can write,
// a cache V8 rejects, a full disk), the command runs the same without it.
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import nodeModule from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import * as vm from "node:vm";
import { crc32 } from "node:zlib";

/** What the bundle exports: bin-entry.ts's run. */
interface CliBundle {
  run(argv: string[], importGrammars: () => Promise<unknown>): Promise<number>;
}

/** The code readers' grammars module, which the CLI build leaves outside the bundle (scripts/build-lambda.mjs). */
const GRAMMARS_MODULE = "../src/code/grammars.js";

/** The cache files of one bundle on one Node: one per command and format. */
export interface CodeCacheLocation {
  directory: string;
  /** the start of each file name: the bundle's checksum and length, Node's version and architecture */
  key: string;
}

const CACHE_SUFFIX = ".v8cache";

/**
 * The folder for cache files: CQL_REVIEW_CACHE_DIR, or a folder of this user's in the temp
 * directory. Undefined when caching is off (NODE_DISABLE_COMPILE_CACHE, as for Node's own cache)
 * or the folder is unsafe: V8 runs the code a cache file holds, so a folder another user owns or
 * can write to, or a link, is never read.
 */
export function cacheDirectory(env: NodeJS.ProcessEnv, temp: string = tmpdir()): string | undefined {
  if (env["NODE_DISABLE_COMPILE_CACHE"]) return undefined;
  const uid = process.getuid?.();
  const directory = env["CQL_REVIEW_CACHE_DIR"] || path.join(temp, `cql-review-code-cache${uid === undefined ? "" : `-${uid}`}`);
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const stat = lstatSync(directory);
    if (!stat.isDirectory()) return undefined;
    // POSIX only: Windows has no owner ids or mode bits here, and its temp directory is per user.
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
    return directory;
  } catch {
    return undefined;
  }
}

/**
 * What a cache file is for: the command (its first argument when it is a plain word, else "other")
 * and the output format, when one is named: each runs its own functions, and a cache holds only
 * the functions the run that made it compiled.
 */
export function commandOf(argv: readonly string[]): string {
  const first = argv[0] ?? "";
  const command = /^[a-z][a-z-]{0,30}$/.test(first) ? first : "other";
  const formatAt = argv.findIndex((argument) => argument === "--format" || argument.startsWith("--format="));
  const format = formatAt < 0 ? undefined : argv[formatAt]!.includes("=") ? argv[formatAt]!.slice("--format=".length) : argv[formatAt + 1];
  return format !== undefined && /^[a-z]{1,20}$/.test(format) && format !== "text" ? `${command}-${format}` : command;
}

/**
 * Where the cache files of a bundle go. V8 checks a cache only against the length of the source,
 * so the name carries a checksum of the bundle's bytes too (CRC-32: loading node:crypto for a
 * hash costs a start about 17 ms, zlib's CRC-32 of the 1.1 MB bundle about 1 ms), and Node's
 * version and architecture, whose caches V8 would reject.
 */
export function cacheLocation(directory: string, bundleBytes: Uint8Array): CodeCacheLocation {
  const checksum = crc32(bundleBytes).toString(16).padStart(8, "0");
  return { directory, key: `${checksum}-${bundleBytes.length}-${process.version}-${process.arch}` };
}

function cacheFile(location: CodeCacheLocation, command: string): string {
  return path.join(location.directory, `${location.key}-${command}${CACHE_SUFFIX}`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Cache files of other bundles or Nodes are removed once they are this old (another project may still use one). */
const STALE_AFTER_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * Writes a cache file whole or not at all (a temporary file renamed into place, so a concurrent
 * run reads either the old file or the new one). Cache files of other bundles or Node versions are
 * removed when they are two weeks old: another project on the machine may pin another release,
 * and removing its file at once would make both start cold every time.
 */
export function writeCache(location: CodeCacheLocation, command: string, data: Buffer, now: number = Date.now()): void {
  const target = cacheFile(location, command);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    const descriptor = openSync(temporary, "wx", 0o600);
    try {
      writeSync(descriptor, data);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, target);
    for (const name of readdirSync(location.directory)) {
      if (!name.endsWith(CACHE_SUFFIX) || name.startsWith(`${location.key}-`)) continue;
      const file = path.join(location.directory, name);
      if (now - lstatSync(file).mtimeMs > STALE_AFTER_MS) rmSync(file, { force: true });
    }
  } catch {
    rmSync(temporary, { force: true });
  }
}

/**
 * Runs the bundle's CLI on `argv`; resolves to the exit code. With `cacheDir`, the bundle's code
 * comes from the command's cache file when V8 accepts it, and a new cache file is written after
 * the command when there was none or V8 rejected it.
 */
export async function runBundle(bundlePath: string, argv: string[], cacheDir: string | undefined): Promise<number> {
  const bytes = readFileSync(bundlePath);
  const source = bytes.toString("utf8");
  const location = cacheDir === undefined ? undefined : cacheLocation(cacheDir, bytes);
  const command = commandOf(argv);
  const cachedData = location && readCache(cacheFile(location, command));
  const script = new vm.Script(nodeModule.wrap(source), { filename: bundlePath, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as CliBundle };
  const wrapper = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  wrapper.call(module.exports, module.exports, nodeModule.createRequire(bundlePath), module, bundlePath, path.dirname(bundlePath));
  // A vm.Script cannot import() (not without an experimental flag): this module imports for it.
  const grammars = new URL(GRAMMARS_MODULE, pathToFileURL(bundlePath)).href;
  const exitCode = await module.exports.run(argv, () => import(grammars));
  if (location && (cachedData === undefined || script.cachedDataRejected === true)) writeCache(location, command, script.createCachedData());
  return exitCode;
}

/** bin/cql-review.js's start: the bundle at `bundlePath` on `argv`, cached where it is safe. */
export function startCli(bundlePath: string, argv: string[]): Promise<number> {
  return runBundle(bundlePath, argv, cacheDirectory(process.env));
}
