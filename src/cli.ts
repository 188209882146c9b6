// `cql-review check` and `cql-review explain`: the thin entry point that reads files from disk,
// hands them to the pure core (review, explain) and prints a renderer's output. Everything that
// touches the machine (files, the terminal, the environment) comes in through `CliIo`, so tests
// drive `main` without child processes.
import { execFile } from "node:child_process";
import { constants as fsConstants, readFileSync } from "node:fs";
import * as nodeFs from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readFilesAtRef, GitError, type GitRunner } from "./cli/git.js";
import { applicationRoots, BUILD_FILES, type ApplicationRoots } from "./cli/init-roots.js";
import { loadConfig, type ReviewConfig } from "./config.js";
import type { ExplainAnswer, ExplainRequest, parseExplainRequest } from "./explain.js";
import { matchesAny } from "./globs.js";
import { isCodeFile, readCode } from "./code/read.js";
import type { CodeLanguage, CodeStatement, CodeTable } from "./code/types.js";
import { terminalSafe } from "./report/controls.js";
import { SCHEMA_BASE_URL } from "./manifest/json-schema.js";
import type { Review, SourceFile } from "./review.js";
import { CASSANDRA_VERSIONS, DEFAULT_CASSANDRA_VERSION, type CassandraVersion, type SchemaModel } from "./schema/model.js";
import { isApplicationConfigFile } from "./schema/default-keyspace.js";
import { settingFor } from "./schema/file-order.js";
import { combineStats, measuredTableName } from "./stats/combine.js";
import { parseStatsFile } from "./stats/parse.js";
import type { NodeTableStats, TableMeasurements } from "./stats/types.js";
import { append } from "./arrays.js";
import { FILTER_MODES, type FilterMode } from "./cli/filter-modes.js";
import { applyFixes, fixDiff, MAX_FIX_PASSES, safeFixesByFile } from "./cli/fix.js";

export interface CliStat {
  isFile(): boolean;
  isDirectory(): boolean;
  size: number;
}

export interface CliDirectoryEntry {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** The file-system calls the CLI makes (node:fs/promises by default). */
export interface CliFileSystem {
  stat(path: string): Promise<CliStat>;
  readdir(path: string): Promise<CliDirectoryEntry[]>;
  readFile(path: string): Promise<Buffer>;
  /** `init` and `check --fix`: `exclusive` fails with EEXIST rather than replace a file; never writes through a symbolic link */
  writeFile?(path: string, text: string, options: { exclusive: boolean }): Promise<void>;
  /** the path with every symbolic link resolved: files leading out of the reviewed root are not read */
  realpath?(path: string): Promise<string>;
}

/** node:fs/promises, writing with O_NOFOLLOW: a link put where the file goes is refused (ELOOP), not followed. */
export const nodeFileSystem: CliFileSystem = {
  stat: (file) => nodeFs.stat(file),
  readdir: (directory) => nodeFs.readdir(directory, { withFileTypes: true }),
  readFile: (file) => nodeFs.readFile(file),
  writeFile: async (file, text, { exclusive }) => {
    const { O_WRONLY, O_CREAT, O_TRUNC, O_EXCL, O_NOFOLLOW } = fsConstants;
    const handle = await nodeFs.open(file, O_WRONLY | O_CREAT | (exclusive ? O_EXCL : O_TRUNC) | (O_NOFOLLOW ?? 0));
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
  },
  realpath: (file) => nodeFs.realpath(file),
};

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** whether stdout is a terminal: colour and wrapping only then */
  stdoutIsTTY: boolean;
  /** the terminal's width, for wrapping (80 when unknown) */
  stdoutColumns?: number;
  /** all of standard input, for the path `-` */
  readStdin?(): Promise<Buffer>;
  /** runs git (only `check --base`) */
  git?: GitRunner;
  env: Record<string, string | undefined>;
  cwd: string;
  fs: CliFileSystem;
  /** a monotonic clock in milliseconds, for the review's time budget (performance.now by default) */
  now?: () => number;
  /**
   * Loads the code readers' grammars module, an ES module kept out of the CLI bundle. The bundle's
   * starter (src/cli/start.ts) passes it in: the bundle runs as a vm.Script, where import() is
   * not available without an experimental flag.
   */
  importGrammars?: () => Promise<GrammarsModule>;
}

/** What the CLI uses of src/code/grammars.ts. */
export type GrammarsModule = Pick<typeof import("./code/grammars.js"), "grammars">;

export const EXIT = { ok: 0, gateFails: 1, usage: 2 } as const;

/** Compute time a review may take before it stops and reports an `input-limit-exceeded` finding: never a hang. */
export const REVIEW_TIME_BUDGET_MS = 120_000;

/** Files larger than this are not read at all (the core's own per-file limit is 1 MiB and is reported as a finding). */
export const READ_LIMIT_BYTES = 2 * 1024 * 1024;

/** Directories never walked: dependencies, version control, build output. */
const SKIPPED_DIRECTORIES = new Set(["node_modules", ".git", "dist"]);

const CHECK_FORMATS = ["text", "json", "sarif", "markdown", "codeclimate"] as const;
const FAIL_ON_LEVELS = ["error", "warning", "never"] as const;
const EXPLAIN_FORMATS = ["text", "json", "markdown"] as const;

const SHORT_USAGE = `Usage: cql-review check [paths…] [--manifest FILE] [--config FILE] [--cassandra 3.11|4.0|4.1|5.0] [--base REF] [--fail-on error|warning|never] [--stats FILE]… [--format text|json|sarif|markdown|codeclimate] [--quiet]
       cql-review explain [paths…] [--manifest FILE] [--config FILE] [--cassandra V] (<query-id> | "SELECT …" | table <name>) [--format text|json|markdown]
       cql-review init [dir] [--force] [--cassandra V] [--stats FILE]…
Run \`cql-review --help\` for details.
`;

const HELP = `cql-review: reviews Apache Cassandra data models (schema .cql files and an access-patterns manifest).

Usage:
  cql-review check [paths…] [options]
      Review every schema file and manifest under the paths (files or directories; default: .).
      The path - reads one file from standard input (name it with --stdin-filename).
  cql-review explain [paths…] [options] <target>
      Explain one thing, step by step. <target> is a query id of the manifest (Q1),
      a statement of the code (UserDao.findByEmail, or path#Class.method in full),
      a statement ("SELECT … FROM …", quoted), or table <name>.
  cql-review init [dir] [--force]
      Draft dir/access-patterns.yaml (default dir: .) from the schema files and the application
      code under dir: each statement of the code as an entry pointing at it (code:), one read by
      the full partition key and one write for each table the code does not use, TODO
      placeholders for the figures. An existing file is kept unless --force is given.
      With --stats (or files matching the config's stats globs), the volume figures are drafted
      from production's measurements instead, each marked as measured.

Options:
  --manifest FILE         the access-patterns manifest (default: files matching the config's globs,
                          **/access-patterns.y{,a}ml)
  --config FILE           the config (default: .github/cql-review.yml under the first path, else here)
  --cassandra VERSION     the Cassandra semantics to apply: ${CASSANDRA_VERSIONS.join(", ")}
                          (default: the manifest's, else the config's, else 5.0)
  --base REF              check: compare with the same files at this git commit, branch or tag, so
                          findings already there are marked existing and only new ones fail the gate
  --fail-on LEVEL         check: ${FAIL_ON_LEVELS.join(", ")}; overrides the config's fail_on
  --filter-mode MODE      check, with --base: which findings are shown and can fail the gate, as in
                          reviewdog: added (on lines the change added or modified), diff_context
                          (on lines of the diff's hunks), file (in files it changed), nofilter (all;
                          the default)
  --fix                   check: apply the fixes the findings offer that their rule marks safe,
                          rewriting the files in place (as eslint --fix), then report what is left
  --fix-dry-run           check: print those fixes as a unified diff instead; exit 1 when there is one
  --stdin-filename NAME   the path the file read from - has (default: stdin.cql; a name ending in
                          .yaml or .yml is read as the manifest)
  --format FORMAT         check: ${CHECK_FORMATS.join(", ")}; explain: ${EXPLAIN_FORMATS.join(", ")} (default: text)
  --quiet                 check, text format: errors and warnings only (no infos, no queries table)
  --stats FILE            saved output of nodetool tablestats (plain, -H, -F json, -F yaml) or
                          nodetool tablehistograms, one node's per file; repeat it for several
                          nodes (default: files matching the config's stats globs,
                          **/cassandra-stats/**/*.{txt,json,yaml,yml}; docs/production-stats.md)
  --force                 init: replace an existing access-patterns.yaml
  -h, --help              show this help
  --version               show the version

Paths in the output are relative to the repository root: the first path when it holds
.github/cql-review.yml, else the current directory when every path lies inside it, else the
paths' common parent. node_modules, .git and dist are skipped; files over 2 MiB are not read.
Colour is used when stdout is a terminal and NO_COLOR is not set, or when FORCE_COLOR is set
(FORCE_COLOR=0 turns it off). On a terminal, text output wraps to its width; elsewhere each
finding is one line.

Exit status:
  0  reviewed, and the gate passes (explain: the target was explained; init: the draft was written)
  1  the gate fails: findings new at the fail_on level (explain: unknown target or a statement
     that does not parse; init: the draft was written but does not validate)
  2  usage error, a path that does not exist, nothing to review, or nothing could be read
`;

class UsageError extends Error {}

/** Bad input that is no misuse of the command line (a missing path, nothing to review): exit 2 without the usage. */
class InputError extends Error {}

/** Which globs were tried, so a mistyped path or glob is easy to spot. */
function nothingToReview(where: string, config: ReviewConfig): string {
  const code = config.code.enabled ? `, or application code that runs CQL (${config.code.files.join(", ")})` : "";
  const ignored = config.ignore.length > 0 ? `, outside the ignored ${config.ignore.join(", ")}` : "";
  return `nothing to review under ${where}: no file matches the schema globs (${config.schema.join(", ")}) or the manifest globs (${config.manifest.join(", ")})${code}${ignored}`;
}

const runGit: GitRunner = (args, cwd) =>
  new Promise((resolve, reject) => {
    execFile("git", [...args], { cwd, encoding: "buffer", maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error, { stderr }));
      else resolve(stdout);
    });
  });

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export function defaultIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY === true,
    stdoutColumns: process.stdout.columns,
    readStdin: () => readAll(process.stdin),
    git: runGit,
    env: process.env,
    cwd: process.cwd(),
    fs: nodeFileSystem,
  };
}

/** The package's package.json and its directory, found by walking up from this module (src/ in tests, dist/src/ when built). */
function findPackage(): { root: string; version: string } | undefined {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(directory, "package.json"), "utf8")) as { name?: string; version?: string };
      if (manifest.name === "cql-review" && manifest.version) return { root: directory, version: manifest.version };
    } catch {
      // no package.json here: keep walking up
    }
    const parent = path.dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

export function packageVersion(): string {
  return findPackage()?.version ?? "unknown";
}

function packageRoot(): string {
  return findPackage()?.root ?? path.dirname(path.dirname(fileURLToPath(import.meta.url)));
}

interface CommonOptions {
  paths: string[];
  manifest?: string;
  config?: string;
  cassandra?: CassandraVersion;
  /** check: the git ref to compare with */
  base?: string;
  failOn?: ReviewConfig["failOn"];
  stdinFilename?: string;
  /** check: which findings to show, by where they lie in the change against `base` */
  filterMode?: FilterMode;
  /** check: apply the safe fixes (`write`) or print them as a diff (`diff`) */
  fix?: "write" | "diff";
  /** saved nodetool tablestats / tablehistograms output, read whatever the `stats` globs say */
  stats?: string[];
}

interface ParsedCommand {
  command: "check" | "explain" | "init" | "help" | "version";
  force: boolean;
  /** check --quiet: errors and warnings only */
  quiet?: boolean;
  positionals: string[];
  format: string;
  options: Omit<CommonOptions, "paths">;
}

function parseCommandLine(argv: string[]): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        manifest: { type: "string" },
        config: { type: "string" },
        cassandra: { type: "string" },
        format: { type: "string" },
        base: { type: "string" },
        "fail-on": { type: "string" },
        "filter-mode": { type: "string" },
        fix: { type: "boolean" },
        "fix-dry-run": { type: "boolean" },
        "stdin-filename": { type: "string" },
        stats: { type: "string", multiple: true },
        force: { type: "boolean" },
        quiet: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
    });
  } catch (error) {
    // node's messages name the option: "Unknown option '--fromat'", "Option '--format <value>' argument missing"
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ""));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help", positionals: [], format: "text", force: false, options: {} };
  if (values.version) return { command: "version", positionals: [], format: "text", force: false, options: {} };
  const [command, ...rest] = positionals;
  if (command === undefined) throw new UsageError("a command is needed: check, explain or init");
  if (command !== "check" && command !== "explain" && command !== "init") {
    throw new UsageError(`unknown command "${command}": use check, explain or init`);
  }
  const checkOnly = (["base", "fail-on", "stdin-filename", "filter-mode", "fix", "fix-dry-run"] as const).filter((name) => values[name] !== undefined);
  if (command !== "check" && checkOnly.length > 0) throw new UsageError(`--${checkOnly[0]} is an option of check only`);
  if (command !== "init" && values.force) throw new UsageError("--force is an option of init only");
  if (values.quiet && (command !== "check" || (values.format ?? "text") !== "text")) throw new UsageError("--quiet is an option of check with the text format only");
  if (command === "init" && (values.format !== undefined || values.manifest !== undefined)) {
    throw new UsageError("init writes access-patterns.yaml: --format and --manifest do not apply");
  }
  if (command === "init" && rest.length > 1) throw new UsageError("init takes one directory");
  const failOn = values["fail-on"];
  if (failOn !== undefined && !(FAIL_ON_LEVELS as readonly string[]).includes(failOn)) {
    throw new UsageError(`--fail-on must be one of ${FAIL_ON_LEVELS.join(", ")}, not "${failOn}"`);
  }
  const filterMode = values["filter-mode"];
  if (filterMode !== undefined && !(FILTER_MODES as readonly string[]).includes(filterMode)) {
    throw new UsageError(`--filter-mode must be one of ${FILTER_MODES.join(", ")}, not "${filterMode}"`);
  }
  if (filterMode !== undefined && filterMode !== "nofilter" && values.base === undefined) throw new UsageError(`--filter-mode ${filterMode} needs --base: the change is what it filters by`);
  if (values.fix && values["fix-dry-run"]) throw new UsageError("--fix and --fix-dry-run: give one");
  if ((values.fix || values["fix-dry-run"]) && rest.includes("-")) throw new UsageError(`--${values.fix ? "fix" : "fix-dry-run"} rewrites files: it cannot fix standard input`);
  for (const name of ["base", "stdin-filename"] as const) {
    if (values[name] === "") throw new UsageError(`--${name} needs a value`);
  }
  if (values["stdin-filename"] !== undefined && !rest.includes("-")) throw new UsageError("--stdin-filename names the file read from -, which is not among the paths");
  if (rest.filter((argument) => argument === "-").length > 1) throw new UsageError("- (standard input) can be given once");

  const format = values.format ?? "text";
  const formats: readonly string[] = command === "explain" ? EXPLAIN_FORMATS : CHECK_FORMATS;
  if (!formats.includes(format)) throw new UsageError(`${command} --format must be one of ${formats.join(", ")}, not "${format}"`);
  if (values.cassandra !== undefined && !(CASSANDRA_VERSIONS as readonly string[]).includes(values.cassandra)) {
    throw new UsageError(`--cassandra must be one of ${CASSANDRA_VERSIONS.join(", ")}, not "${values.cassandra}"`);
  }
  for (const name of ["manifest", "config"] as const) {
    if (values[name] === "") throw new UsageError(`--${name} needs a file`);
  }
  if (values.stats?.includes("")) throw new UsageError("--stats needs a file");
  return {
    command,
    positionals: rest,
    format,
    force: values.force ?? false,
    quiet: values.quiet ?? false,
    options: {
      manifest: values.manifest,
      config: values.config,
      cassandra: values.cassandra as CassandraVersion | undefined,
      base: values.base,
      failOn: failOn as ReviewConfig["failOn"] | undefined,
      stdinFilename: values["stdin-filename"],
      filterMode: filterMode as FilterMode | undefined,
      fix: values.fix ? "write" : values["fix-dry-run"] ? "diff" : undefined,
      ...(values.stats ? { stats: values.stats } : {}),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Collecting files

function toPosix(relative: string): string {
  return relative.split(path.sep).join("/");
}

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function commonParent(paths: string[]): string {
  let common = paths[0];
  for (const candidate of paths.slice(1)) {
    while (!isInside(common, candidate)) common = path.dirname(common);
  }
  return common;
}

async function statOrUndefined(io: CliIo, file: string): Promise<CliStat | undefined> {
  try {
    return await io.fs.stat(file);
  } catch {
    return undefined;
  }
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOENT") return "no such file or directory";
  if (code === "EISDIR") return "is a directory";
  if (code === "ELOOP") return "it is a symbolic link, which is not written through";
  return (error as Error).message ?? String(error);
}

interface Inputs {
  files: SourceFile[];
  /** the same files at `--base`, when given */
  baseFiles?: SourceFile[];
  configFile?: SourceFile;
  config: ReviewConfig;
  manifestPath?: string;
  /** the files named with --stats, relative to the root */
  statsPaths: string[];
  /** the directory the paths are relative to */
  root: string;
  /** files that should have been read but could not be */
  unreadable: number;
  /** files not read on purpose (a symbolic link out of the root), listed as not reviewed */
  notRead: { file: string; reason: string }[];
}

/** The default name of the file read from `-`. */
const STDIN_DEFAULT_NAME = "stdin.cql";

/**
 * Reads what the core needs: the config, then every file under the paths that the config's globs
 * call a schema file or a manifest (so a large repository is walked, not read), plus the files
 * named explicitly.
 */
async function collectInputs(io: CliIo, options: CommonOptions): Promise<Inputs> {
  const warn = (message: string) => io.stderr(`cql-review: ${message}\n`);
  const named: { absolute: string; written: string; stat: CliStat }[] = [];
  const missing: string[] = [];
  for (const written of options.paths) {
    if (written === "-") continue;
    const absolute = path.resolve(io.cwd, written);
    const stat = await statOrUndefined(io, absolute);
    if (stat) named.push({ absolute, written, stat });
    else missing.push(written);
  }
  // A mistyped path in CI must not pass the gate by reviewing less than was asked for.
  if (missing.length > 0) throw new InputError(missing.map((written) => `${written}: no such file or directory`).join("\ncql-review: "));

  // `-`: one file from standard input, under the name --stdin-filename gives it.
  let stdin: { absolute: string; content: string } | undefined;
  if (options.paths.includes("-")) {
    if (!io.readStdin) throw new UsageError("- (standard input) cannot be read here");
    const name = options.stdinFilename ?? STDIN_DEFAULT_NAME;
    stdin = { absolute: path.resolve(io.cwd, name), content: (await io.readStdin()).toString("utf8") };
  }
  const stdinIsManifest = stdin !== undefined && /\.ya?ml$/i.test(stdin.absolute) && options.manifest === undefined;

  const explicitManifest = options.manifest !== undefined ? path.resolve(io.cwd, options.manifest) : undefined;
  if (explicitManifest && !(await statOrUndefined(io, explicitManifest))?.isFile()) {
    throw new UsageError(`--manifest ${options.manifest}: no such file`);
  }
  const explicitStats: { absolute: string; size: number }[] = [];
  for (const written of options.stats ?? []) {
    const absolute = path.resolve(io.cwd, written);
    const stat = await statOrUndefined(io, absolute);
    if (!stat?.isFile()) throw new UsageError(`--stats ${written}: no such file`);
    explicitStats.push({ absolute, size: stat.size });
  }

  // The config: as given, else .github/cql-review.yml under the first path, else under here.
  let configAbsolute: string | undefined;
  let rootFromConfig: string | undefined;
  if (options.config !== undefined) {
    configAbsolute = path.resolve(io.cwd, options.config);
    if (!(await statOrUndefined(io, configAbsolute))?.isFile()) throw new UsageError(`--config ${options.config}: no such file`);
  } else {
    const first = named[0];
    const candidates = [
      ...(first?.stat.isDirectory() ? [first.absolute] : []),
      ...(named.every((entry) => isInside(io.cwd, entry.absolute)) ? [io.cwd] : []),
    ];
    for (const directory of candidates) {
      const candidate = path.join(directory, ".github", "cql-review.yml");
      if ((await statOrUndefined(io, candidate))?.isFile()) {
        configAbsolute = candidate;
        rootFromConfig = directory;
        break;
      }
    }
  }

  // Where each input lives: a directory itself, a file's directory.
  const anchors = [
    ...named.map((entry) => (entry.stat.isDirectory() ? entry.absolute : path.dirname(entry.absolute))),
    ...(stdin ? [path.dirname(stdin.absolute)] : []),
    ...[explicitManifest, configAbsolute].filter((file): file is string => file !== undefined).map((file) => path.dirname(file)),
    ...explicitStats.map((file) => path.dirname(file.absolute)),
  ];
  const root =
    rootFromConfig && anchors.every((anchor) => isInside(rootFromConfig, anchor))
      ? rootFromConfig
      : anchors.every((anchor) => isInside(io.cwd, anchor))
        ? io.cwd
        : commonParent(anchors);
  const relativeToRoot = (absolute: string) => toPosix(path.relative(root, absolute));

  let unreadable = 0;
  const notRead: Inputs["notRead"] = [];
  // A symbolic link (or a path through one) that leads out of the root is not read: its target is
  // not the repository's, and its text must not reach a report.
  const realRoot = io.fs.realpath ? await io.fs.realpath(root).catch(() => root) : root;
  const leadsOutside = async (absolute: string) => {
    if (!io.fs.realpath) return false;
    const real = await io.fs.realpath(absolute).catch(() => undefined);
    return real !== undefined && !isInside(realRoot, real);
  };
  const readText = async (absolute: string, size?: number): Promise<string | undefined> => {
    const shown = toPosix(path.relative(io.cwd, absolute)) || ".";
    if (await leadsOutside(absolute)) {
      unreadable++;
      notRead.push({ file: relativeToRoot(absolute), reason: "it is a symbolic link to a file outside the reviewed directory" });
      warn(`${shown}: not read, it is a symbolic link to a file outside ${toPosix(path.relative(io.cwd, root)) || "."}`);
      return undefined;
    }
    if (size !== undefined && size > READ_LIMIT_BYTES) {
      unreadable++;
      warn(`${shown}: skipped, ${(size / 1024 / 1024).toFixed(1)} MiB is over the ${READ_LIMIT_BYTES / 1024 / 1024} MiB read limit`);
      return undefined;
    }
    try {
      return (await io.fs.readFile(absolute)).toString("utf8");
    } catch (error) {
      unreadable++;
      warn(`${shown}: cannot be read (${describeError(error)})`);
      return undefined;
    }
  };

  let configFile: SourceFile | undefined;
  if (configAbsolute) {
    const content = await readText(configAbsolute);
    if (content === undefined && options.config !== undefined) throw new UsageError(`--config ${options.config}: cannot be read`);
    if (content !== undefined) configFile = { path: relativeToRoot(configAbsolute), content };
  }
  const { config } = loadConfig(configFile);
  const wanted = (relative: string) =>
    !matchesAny(relative, config.ignore) &&
    (matchesAny(relative, config.schema) || matchesAny(relative, config.manifest) || matchesAny(relative, config.stats) || isCodeFile(relative, config) || isApplicationConfigFile(relative));

  const toRead = new Map<string, number | undefined>();
  const walk = async (directory: string): Promise<void> => {
    let entries: CliDirectoryEntry[];
    try {
      entries = await io.fs.readdir(directory);
    } catch (error) {
      unreadable++;
      warn(`${toPosix(path.relative(io.cwd, directory)) || "."}: cannot be listed (${describeError(error)})`);
      return;
    }
    for (const entry of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) await walk(absolute);
        continue;
      }
      // Symbolic links to files are followed; links to directories are not (no cycles).
      const stat = entry.isFile() || entry.isSymbolicLink() ? await statOrUndefined(io, absolute) : undefined;
      if (stat?.isFile() && wanted(relativeToRoot(absolute))) toRead.set(absolute, stat.size);
    }
  };
  for (const entry of named) {
    if (entry.stat.isDirectory()) await walk(entry.absolute);
    // a file named on the command line is passed even if the globs would not pick it
    else toRead.set(entry.absolute, entry.stat.size);
  }
  // Application code from an editor's buffer means nothing alone: its statements are planned
  // against the schema, and the manifest's `code:` entries point at the other code files. With no
  // other path, the buffer is reviewed in its repository, as `check` would review the saved file.
  const stdinAlone = stdin !== undefined && named.length === 0 && explicitManifest === undefined;
  if (stdinAlone && stdin && isCodeFile(relativeToRoot(stdin.absolute), config)) await walk(root);
  if (explicitManifest) toRead.set(explicitManifest, (await statOrUndefined(io, explicitManifest))?.size);
  for (const file of explicitStats) toRead.set(file.absolute, file.size);
  if (configAbsolute) toRead.delete(configAbsolute);

  const files: SourceFile[] = [];
  for (const [absolute, size] of toRead) {
    const content = await readText(absolute, size);
    if (content !== undefined) files.push({ path: relativeToRoot(absolute), content });
  }
  if (stdin) {
    const stdinPath = relativeToRoot(stdin.absolute);
    const others = files.filter((file) => file.path !== stdinPath);
    files.length = 0;
    append(files, others).push({ path: stdinPath, content: stdin.content });
  }
  // An application's configuration only says which keyspace it uses: alone it is nothing to review.
  if (files.every((file) => isApplicationConfigFile(file.path)) && unreadable === 0) {
    throw new InputError(nothingToReview(named.map((entry) => entry.written).join(", "), config));
  }

  let baseFiles: SourceFile[] | undefined;
  if (options.base !== undefined) {
    if (!io.git) throw new UsageError("--base cannot run git here");
    // The same selection as at the head: under the directories named, by the globs, plus the files named.
    const namedFiles = new Set([...named.filter((entry) => !entry.stat.isDirectory()).map((entry) => entry.absolute), ...(explicitManifest ? [explicitManifest] : []), ...(stdin ? [stdin.absolute] : [])]);
    const directories = named.filter((entry) => entry.stat.isDirectory()).map((entry) => entry.absolute);
    const wantedAtBase = (absolute: string) =>
      absolute !== configAbsolute &&
      (namedFiles.has(absolute) ||
        (directories.some((directory) => isInside(directory, absolute)) &&
          !toPosix(path.relative(root, absolute)).split("/").some((part) => SKIPPED_DIRECTORIES.has(part)) &&
          wanted(relativeToRoot(absolute))));
    try {
      const atBase = await readFilesAtRef(io.git, root, options.base, { wanted: wantedAtBase, readLimitBytes: READ_LIMIT_BYTES });
      baseFiles = atBase.map((file) => ({ path: relativeToRoot(file.absolute), content: file.content }));
    } catch (error) {
      if (error instanceof GitError) throw new InputError(error.message);
      throw error;
    }
  }
  return {
    files,
    baseFiles,
    configFile,
    config,
    root,
    manifestPath: explicitManifest ? relativeToRoot(explicitManifest) : stdinIsManifest && stdin ? relativeToRoot(stdin.absolute) : undefined,
    statsPaths: explicitStats.map((file) => relativeToRoot(file.absolute)),
    unreadable,
    notRead,
  };
}

/** Parsers of application code: the tree-sitter module loads only for a review that reads some. */
function codeParserOf(io: CliIo) {
  const importGrammars = io.importGrammars ?? (() => import("./code/grammars.js"));
  return async (language: CodeLanguage) => (await importGrammars()).grammars.parser(language);
}

async function runReview(io: CliIo, options: CommonOptions, read?: (inputs: Inputs) => void): Promise<Review | number> {
  // The core loads with the first command that reviews: `--help` and `--version` do not wait for it.
  const { review } = await import("./review.js");
  const inputs = await collectInputs(io, options);
  read?.(inputs);
  if (inputs.files.length === 0) {
    io.stderr("cql-review: nothing could be read\n");
    return EXIT.usage;
  }
  const { config } = loadConfig(inputs.configFile);
  const now = io.now ?? (() => performance.now());
  const deadline = now() + REVIEW_TIME_BUDGET_MS;
  // Application code is read before the review: its grammars load asynchronously.
  const code = await readCode(inputs.files, config, codeParserOf(io));
  // Code counts only when it runs CQL: a folder of unrelated sources is as empty for this review as
  // a folder of nothing, and a mistyped CI path must not pass the gate.
  // The base's code too, read with the same config (as the App does): else every finding about
  // application code would count as new at the base.
  const baseCode = inputs.baseFiles ? await readCode(inputs.baseFiles, config, codeParserOf(io)) : undefined;
  const onlyCode = inputs.files.every((file) => isCodeFile(file.path, config) || isApplicationConfigFile(file.path));
  if (onlyCode && (code === undefined || code.statements.length + code.dynamic.length === 0)) {
    io.stderr(`cql-review: ${nothingToReview(options.paths.length > 0 ? options.paths.join(", ") : ".", config)}\n`);
    return EXIT.usage;
  }
  return review({
    code,
    files: inputs.files,
    baseFiles: inputs.baseFiles,
    ...(baseCode ? { baseCode } : {}),
    configFile: inputs.configFile,
    manifestPath: inputs.manifestPath,
    statsPaths: inputs.statsPaths,
    cassandra: options.cassandra,
    failOn: options.failOn,
    pastDeadline: () => now() > deadline,
    notRead: inputs.notRead,
  });
}

/**
 * FORCE_COLOR (as Node and most tools read it: set and not "0"/"false" turns colour on, "0" or
 * "false" off) wins; else NO_COLOR (https://no-color.org: set and not empty) turns it off; else a
 * terminal gets colour.
 */
export function useColor(io: Pick<CliIo, "env" | "stdoutIsTTY">): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  const noColor = io.env.NO_COLOR;
  return io.stdoutIsTTY && (noColor === undefined || noColor === "");
}

/** Default width when a terminal does not say. */
const DEFAULT_COLUMNS = 80;

// ---------------------------------------------------------------------------------------------
// Commands

async function check(io: CliIo, parsed: ParsedCommand): Promise<number> {
  const paths = parsed.positionals.length > 0 ? parsed.positionals : ["."];
  let inputs: Inputs | undefined;
  let reviewed = await runReview(io, { ...parsed.options, paths }, (read) => (inputs = read));
  if (typeof reviewed === "number") return reviewed;
  const { filterMode } = parsed.options;
  if (filterMode && inputs?.baseFiles) {
    const { changedLines, filterReview } = await import("./cli/filter-mode.js");
    reviewed = filterReview(reviewed, filterMode, changedLines(inputs.baseFiles, inputs.files));
  }
  if (parsed.options.fix && inputs) {
    const fixed = await fixSafely(io, { ...parsed.options, paths }, inputs, reviewed);
    if (typeof fixed === "number") return fixed;
    if (parsed.options.fix === "diff") {
      for (const file of fixed.files) io.stdout(fixDiff(file.path, file.before, file.after));
      return fixed.files.length > 0 ? EXIT.gateFails : EXIT.ok;
    }
    const { writeFile } = io.fs;
    if (!writeFile) throw new UsageError("--fix cannot write files here");
    for (const file of fixed.files) await writeFile(file.absolute, file.after, { exclusive: false });
    if (fixed.applied > 0) io.stderr(`cql-review: applied ${fixed.applied} fix(es) in ${fixed.files.length} file(s)\n`);
    reviewed = fixed.review;
  }
  switch (parsed.format) {
    case "json":
      io.stdout((await import("./report/json.js")).renderJson(reviewed));
      break;
    case "sarif":
      io.stdout((await import("./report/sarif.js")).renderSarif(reviewed, { toolVersion: packageVersion() }));
      break;
    case "markdown":
      io.stdout(`${(await import("./report/markdown.js")).renderCheckSummary(reviewed, { maxLength: Number.POSITIVE_INFINITY, standalone: true })}\n`);
      break;
    case "codeclimate":
      io.stdout((await import("./report/codeclimate.js")).renderCodeClimate(reviewed));
      break;
    default:
      io.stdout((await import("./report/text.js")).renderText(reviewed, { color: useColor(io), layout: io.stdoutIsTTY ? (io.stdoutColumns || DEFAULT_COLUMNS) : "plain", quiet: parsed.quiet }));
  }
  return reviewed.gateFails ? EXIT.gateFails : EXIT.ok;
}

/**
 * `check --fix` / `--fix-dry-run`: applies the safe fixes of the review to the files' text in
 * memory, reviews the fixed text again (read through the same file system, with the fixed files
 * served from memory) and repeats while fixes apply, at most MAX_FIX_PASSES times. Returns the
 * last review and each file's text before and after; writing them is the caller's.
 */
async function fixSafely(
  io: CliIo,
  options: CommonOptions,
  firstInputs: Inputs,
  firstReview: Review,
): Promise<{ review: Review; applied: number; files: { absolute: string; path: string; before: string; after: string }[] } | number> {
  const fixedTexts = new Map<string, string>();
  const originals = new Map<string, { path: string; text: string }>();
  const fixedIo: CliIo = {
    ...io,
    fs: { ...io.fs, readFile: async (file) => (fixedTexts.has(file) ? Buffer.from(fixedTexts.get(file)!, "utf8") : io.fs.readFile(file)) },
  };
  let inputs = firstInputs;
  let review = firstReview;
  let applied = 0;
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    let appliedThisPass = 0;
    for (const [file, fixes] of safeFixesByFile(review.findings)) {
      const absolute = path.resolve(inputs.root, file);
      const text = fixedTexts.get(absolute) ?? inputs.files.find((candidate) => candidate.path === file)?.content;
      if (text === undefined) continue;
      const result = applyFixes(text, fixes);
      if (result.applied === 0 || result.text === text) continue;
      if (!originals.has(absolute)) originals.set(absolute, { path: file, text });
      fixedTexts.set(absolute, result.text);
      appliedThisPass += result.applied;
    }
    if (appliedThisPass === 0) break;
    applied += appliedThisPass;
    let next: Inputs | undefined;
    const again = await runReview(fixedIo, options, (read) => (next = read));
    if (typeof again === "number") return again;
    inputs = next!;
    const { changedLines, filterReview } = await import("./cli/filter-mode.js");
    review = options.filterMode && inputs.baseFiles ? filterReview(again, options.filterMode, changedLines(inputs.baseFiles, inputs.files)) : again;
  }
  const files = [...originals]
    .map(([absolute, original]) => ({ absolute, path: original.path, before: original.text, after: fixedTexts.get(absolute)! }))
    .filter((file) => file.before !== file.after);
  return { review, applied, files };
}

/**
 * Splits `explain`'s arguments into paths and the target: `table NAME` at the end; a statement
 * from the argument that starts with SELECT to the end (quoted as one argument, or left unquoted
 * as several); or else the last argument as a query id.
 */
function explainTarget(positionals: string[], parseRequest: typeof parseExplainRequest): { paths: string[]; request: ExplainRequest; text: string } {
  const last = positionals.at(-1);
  if (last === undefined) throw new UsageError('explain needs a target: a query id, "SELECT …" or table <name>');
  const select = positionals.findIndex((argument) => /^\s*select\b/i.test(argument));
  let paths: string[];
  let text: string;
  if (select >= 0) {
    paths = positionals.slice(0, select);
    text = positionals.slice(select).join(" ");
  } else if (positionals.length >= 2 && positionals.at(-2)!.toLowerCase() === "table") {
    paths = positionals.slice(0, -2);
    text = `table ${last}`;
  } else {
    paths = positionals.slice(0, -1);
    text = last;
  }
  const request = parseRequest(text);
  if ("error" in request) throw new UsageError(request.error.replace(/`/g, ""));
  return { paths: paths.length > 0 ? paths : ["."], request, text };
}

async function explainCommand(io: CliIo, parsed: ParsedCommand): Promise<number> {
  const { explain, parseExplainRequest } = await import("./explain.js");
  const target = explainTarget(parsed.positionals, parseExplainRequest);
  const reviewed = await runReview(io, { ...parsed.options, paths: target.paths });
  if (typeof reviewed === "number") return reviewed;
  const answer: ExplainAnswer = explain(reviewed, target.request);
  // `cql-review explain schema/` forgot the target: the "query id" is really a path.
  if (answer.kind === "not-found" && target.request.kind === "query" && (await statOrUndefined(io, path.resolve(io.cwd, target.text)))) {
    throw new UsageError(`explain needs a target after the paths: "${target.text}" is a path, not a query id`);
  }
  switch (parsed.format) {
    case "json":
      io.stdout((await import("./report/json.js")).renderExplainJson(answer));
      break;
    case "markdown":
      io.stdout(`${(await import("./report/markdown.js")).renderExplainMarkdown(answer, { maxLength: Number.POSITIVE_INFINITY })}\n`);
      break;
    default:
      io.stdout((await import("./report/explain-text.js")).renderExplainText(answer, { color: useColor(io) }));
  }
  return answer.kind === "not-found" || answer.kind === "invalid-select" || answer.kind === "code-dynamic" ? EXIT.gateFails : EXIT.ok;
}

/**
 * Where the manifest's modeline points, so an editor's YAML language server validates against the
 * schema of the version installed: a path to a file on disk when there is one (resolved without
 * network), else the address of that version's schema (docs/manifest.md, "Editor support").
 */
async function schemaReference(io: CliIo, manifestDirectory: string): Promise<string> {
  const own = ownSchemaReference(io, manifestDirectory);
  if (own !== undefined) return own;
  // A project that installs the package itself, run through npx or a global install.
  for (let directory = manifestDirectory; ; directory = path.dirname(directory)) {
    const installed = path.join(directory, "node_modules", "cql-review", "schema", "access-patterns.schema.json");
    if ((await statOrUndefined(io, installed))?.isFile()) return toPosix(path.relative(manifestDirectory, installed));
    if (path.dirname(directory) === directory || !isInside(io.cwd, path.dirname(directory))) break;
  }
  return `${SCHEMA_BASE_URL.replace("/main/", `/v${packageVersion()}/`)}access-patterns.schema.json`;
}

/** The package's own schema file when the package and the working directory lie one inside the other (a local install, the clone). */
function ownSchemaReference(io: CliIo, manifestDirectory: string): string | undefined {
  const packaged = path.join(packageRoot(), "schema", "access-patterns.schema.json");
  const root = packageRoot();
  // Installed for the project: in a node_modules of the manifest's directory or one above it.
  const parts = root.split(path.sep);
  const modules = parts.lastIndexOf("node_modules");
  const installedFor = modules > 0 ? parts.slice(0, modules).join(path.sep) || path.sep : undefined;
  const installedHere = installedFor !== undefined && isInside(installedFor, manifestDirectory);
  if (installedHere || isInside(io.cwd, root) || isInside(root, io.cwd)) return toPosix(path.relative(manifestDirectory, packaged));
  return undefined;
}

/**
 * The saved nodetool output init drafts from (--stats, and files matching the stats globs), for
 * the schema's tables. A file it cannot read is said on stderr, with its line; the draft goes on.
 */
function readMeasurementsForInit(io: CliIo, inputs: Inputs, schema: SchemaModel): Map<string, TableMeasurements> {
  const files = inputs.files.filter((file) => inputs.statsPaths.includes(file.path) || matchesAny(file.path, inputs.config.stats));
  const known: NodeTableStats[] = [];
  for (const file of files) {
    const parsed = parseStatsFile(file);
    for (const finding of parsed.findings) io.stderr(`cql-review: ${terminalSafe(finding.message)}\n`);
    for (const table of parsed.tables) {
      if (schema.tables.has(measuredTableName(table))) known.push(table);
    }
  }
  return combineStats(known);
}

async function initCommand(io: CliIo, parsed: ParsedCommand): Promise<number> {
  const [{ review }, { draftManifest }] = await Promise.all([import("./review.js"), import("./cli/init.js")]);
  const written = parsed.positionals[0] ?? ".";
  const directory = path.resolve(io.cwd, written);
  if (!(await statOrUndefined(io, directory))?.isDirectory()) throw new InputError(`${written}: no such directory`);
  const target = path.join(directory, "access-patterns.yaml");
  const shownTarget = toPosix(path.relative(io.cwd, target));
  if ((await statOrUndefined(io, target)) && !parsed.force) {
    throw new InputError(`${shownTarget} exists; it is kept (pass --force to replace it with a new draft)`);
  }
  if (!io.fs.writeFile) throw new UsageError("init cannot write files here");
  // A link where the draft goes is written through only when it stays inside the directory.
  let writeTo = target;
  if (io.fs.realpath && (await statOrUndefined(io, target))) {
    const [realTarget, realDirectory] = await Promise.all([io.fs.realpath(target), io.fs.realpath(directory)]);
    if (!isInside(realDirectory, realTarget)) {
      throw new InputError(`${shownTarget} is a symbolic link to a file outside ${written}; init does not write through it (remove the link to write a new draft)`);
    }
    writeTo = realTarget;
  }

  const inputs = await collectInputs(io, { ...parsed.options, paths: [written] });
  let schemaFiles = inputs.files.filter((file) => matchesAny(file.path, inputs.config.schema));
  // The application's code, read as `check` reads it: its statements become the draft's entries,
  // and its entity classes the schema when the repository has no schema file.
  const code = await readCode(inputs.files, inputs.config, codeParserOf(io));
  const entities = schemaFiles.length === 0 ? (await import("./cli/init-entities.js")).draftableEntities(code?.tables ?? []) : [];
  if (schemaFiles.length === 0 && entities.length === 0) {
    throw new InputError(
      `no schema files under ${written} (globs: ${inputs.config.schema.join(", ")}) and no entity classes that map tables: init drafts the manifest from the tables`,
    );
  }
  // Several applications: one draft in each, never one merging their keyspaces and tables.
  const tableSources = schemaFiles.length > 0 ? schemaFiles.map((file) => file.path) : entities.map((entity) => entity.file);
  const applications = await applicationRoots(directory, [...new Set(tableSources)].map((file) => path.resolve(inputs.root, file)), {
    ...(inputs.config.models ? { models: inputs.config.models } : {}),
    repositoryRoot: inputs.root,
    hasBuildFile: async (candidate) => (await Promise.all(BUILD_FILES.map((name) => statOrUndefined(io, path.join(candidate, name))))).some((stat) => stat?.isFile()),
  });
  if (applications.roots.length > 1) return initEachApplication(io, parsed, applications);
  if (schemaFiles.length === 0) schemaFiles = [await writeEntitySchema(io, parsed, inputs, directory, entities, code?.statements ?? [])];
  const cassandra = parsed.options.cassandra ?? inputs.config.cassandra ?? DEFAULT_CASSANDRA_VERSION;
  // The application's configuration too: it names the keyspace of unqualified tables.
  const applicationConfigs = inputs.files.filter((file) => isApplicationConfigFile(file.path) && !schemaFiles.includes(file));
  const fromSchema = review({ files: [...schemaFiles, ...applicationConfigs], configFile: inputs.configFile, cassandra });
  const applied = fromSchema.model.appliedSchemaFiles ?? fromSchema.model.schemaFiles;
  const measured = readMeasurementsForInit(io, inputs, fromSchema.schema);
  const draft = draftManifest(fromSchema.schema, {
    cassandra,
    schemaReference: await schemaReference(io, directory),
    // the files applied, in their order (tear-down scripts are not)
    sourceFiles: applied.map((file) => file.path),
    schemaSetting: settingFor(applied, fromSchema.model.schemaFiles, toPosix(path.relative(inputs.root, directory))),
    ...(code ? { code } : {}),
    ...(measured.size > 0 ? { measured } : {}),
  });
  if (draft === undefined) throw new InputError(`no CREATE TABLE in ${schemaFiles.map((file) => file.path).join(", ")}: nothing to draft from`);

  try {
    await io.fs.writeFile(writeTo, draft, { exclusive: !parsed.force });
  } catch (error) {
    throw new InputError(`${shownTarget}: cannot be written (${(error as NodeJS.ErrnoException).code === "EEXIST" ? "it exists; pass --force to replace it" : describeError(error)})`);
  }

  // The draft is reviewed as `check` would review it; a problem in it is ours, and said.
  const manifestPath = toPosix(path.relative(inputs.root, target));
  const checked = review({
    files: [...schemaFiles, ...applicationConfigs, { path: manifestPath, content: draft }],
    configFile: inputs.configFile,
    manifestPath,
    cassandra,
    ...(code ? { code } : {}),
  });
  const draftErrors = checked.findings.filter((finding) => finding.location.file === manifestPath && finding.severity === "error");
  const tables = fromSchema.schema.tables.size;
  const statements = code?.statements.length ?? 0;
  const dynamic = code?.dynamic.length ?? 0;
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  io.stdout(
    `Wrote ${shownTarget}, drafted from ${plural(tables, "table", "tables")}${statements > 0 ? ` and ${plural(statements, "statement", "statements")} of the code` : ""} (${plural(checked.queries.length, "query", "queries")}).\n` +
      (dynamic > 0 ? `${plural(dynamic, "statement is", "statements are")} built at run time: listed at the end of the draft, not drafted.\n` : "") +
      (measured.size > 0 ? `The volume figures of ${plural(measured.size, "table", "tables")} come from production's measurements (marked measured).\n` : "") +
      "Replace every TODO with your own figures and the application's real queries, then run:\n" +
      `  cql-review check ${written}\n`,
  );
  for (const finding of draftErrors) {
    io.stderr(`cql-review: the draft has a problem (please report it): ${manifestPath}:${finding.location.range.start.line}: ${terminalSafe(finding.message)}\n`);
  }
  // A draft that does not validate is no success, whoever is to blame.
  return draftErrors.length > 0 ? EXIT.gateFails : EXIT.ok;
}

/**
 * `init` where the tables come from entity classes: writes the schema drafted from them (init-entities.ts)
 * beside the manifest, says what it could not derive (file, line, column), and returns it as the schema file.
 */
async function writeEntitySchema(io: CliIo, parsed: ParsedCommand, inputs: Inputs, directory: string, entities: CodeTable[], code: CodeStatement[]): Promise<SourceFile> {
  const { ENTITY_SCHEMA_PATH, schemaActionOf, schemaFromEntities } = await import("./cli/init-entities.js");
  const schemaAction = schemaActionOf(inputs.files.filter((file) => isApplicationConfigFile(file.path) || isCodeFile(file.path, inputs.config)));
  const drafted = schemaFromEntities(entities, { code, ...(schemaAction ? { schemaAction } : {}) });
  const absolute = path.join(directory, ENTITY_SCHEMA_PATH);
  const shownPath = toPosix(path.relative(io.cwd, absolute));
  try {
    await io.fs.writeFile!(absolute, drafted.text, { exclusive: !parsed.force });
  } catch (error) {
    throw new InputError(`${shownPath}: cannot be written (${(error as NodeJS.ErrnoException).code === "EEXIST" ? "it exists; pass --force to replace it" : describeError(error)})`);
  }
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  io.stdout(
    `No schema file: wrote ${shownPath}, ${plural(drafted.tables, "table", "tables")} drafted from the entity classes` +
      `${schemaAction ? ` (the application creates them: schema-action ${terminalSafe(schemaAction.value)} in ${terminalSafe(schemaAction.file)}:${schemaAction.line})` : ""}.\n`,
  );
  for (const field of drafted.unknown) {
    io.stderr(`cql-review: ${terminalSafe(field.file)}:${field.line}:${field.column}: ${terminalSafe(field.entity)}.${terminalSafe(field.property)} (${terminalSafe(field.type)}): no CQL type derived, left out of ${shownPath} as a TODO: ${terminalSafe(field.reason)}\n`);
  }
  for (const entity of drafted.skipped) io.stderr(`cql-review: ${terminalSafe(entity.file)}:${entity.line}: ${terminalSafe(entity.entity)} not drafted: ${terminalSafe(entity.reason)}\n`);
  return { path: toPosix(path.relative(inputs.root, absolute)), content: drafted.text };
}

/** `init` in each application root: each draft written and checked on its own; a root whose draft cannot be written is said and skipped. */
async function initEachApplication(io: CliIo, parsed: ParsedCommand, applications: ApplicationRoots): Promise<number> {
  const shown = (absolute: string) => toPosix(path.relative(io.cwd, absolute)) || ".";
  io.stdout(`${applications.roots.length} applications, each with its own schema: one draft in each (${applications.roots.map(shown).join(", ")}).\n`);
  for (const file of applications.outside) io.stdout(`${shown(file)} lies in none of them: not drafted (run init in its application's directory).\n`);
  let exit: number = EXIT.ok;
  for (const root of applications.roots) {
    try {
      exit = Math.max(exit, await initCommand(io, { ...parsed, positionals: [shown(root)] }));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      io.stderr(`cql-review: ${error.message}\n`);
      exit = Math.max(exit, EXIT.usage);
    }
  }
  return exit;
}

/** Runs the CLI; resolves to the exit code (bin/cql-review.js sets it). */
export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  try {
    const parsed = parseCommandLine(argv);
    switch (parsed.command) {
      case "help":
        io.stdout(HELP);
        return EXIT.ok;
      case "version":
        io.stdout(`${packageVersion()}\n`);
        return EXIT.ok;
      case "check":
        return await check(io, parsed);
      case "explain":
        return await explainCommand(io, parsed);
      case "init":
        return await initCommand(io, parsed);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`cql-review: ${error.message}\n${SHORT_USAGE}`);
      return EXIT.usage;
    }
    if (error instanceof InputError) {
      io.stderr(`cql-review: ${error.message}\n`);
      return EXIT.usage;
    }
    // A bug, not bad input (the core reports bad input as findings): say so and keep the stack.
    io.stderr(`cql-review: internal error: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.usage;
  }
}
