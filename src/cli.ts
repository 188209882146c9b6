// `cql-review check` and `cql-review explain`: the thin entry point that reads files from disk,
// hands them to the pure core (review, explain) and prints a renderer's output. Everything that
// touches the machine (files, the terminal, the environment) comes in through `CliIo`, so tests
// drive `main` without child processes.
import { readFileSync } from "node:fs";
import * as nodeFs from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadConfig } from "./config.js";
import { explain, parseExplainRequest, type ExplainAnswer, type ExplainRequest } from "./explain.js";
import { matchesAny } from "./globs.js";
import { isCodeFile, readCode } from "./code/read.js";
import { grammars } from "./code/grammars.js";
import { renderExplainText } from "./report/explain-text.js";
import { renderExplainJson, renderJson } from "./report/json.js";
import { renderCheckSummary, renderExplainMarkdown } from "./report/markdown.js";
import { renderSarif } from "./report/sarif.js";
import { renderText } from "./report/text.js";
import { review, type Review, type SourceFile } from "./review.js";
import { CASSANDRA_VERSIONS, type CassandraVersion } from "./schema/model.js";

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
}

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** whether stdout is a terminal: colour only then */
  stdoutIsTTY: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
  fs: CliFileSystem;
  /** a monotonic clock in milliseconds, for the review's time budget (performance.now by default) */
  now?: () => number;
}

export const EXIT = { ok: 0, gateFails: 1, usage: 2 } as const;

/** Compute time a review may take before it stops and reports an `input-limit-exceeded` finding: never a hang. */
export const REVIEW_TIME_BUDGET_MS = 120_000;

/** Files larger than this are not read at all (the core's own per-file limit is 1 MiB and is reported as a finding). */
export const READ_LIMIT_BYTES = 2 * 1024 * 1024;

/** Directories never walked: dependencies, version control, build output. */
const SKIPPED_DIRECTORIES = new Set(["node_modules", ".git", "dist"]);

const CHECK_FORMATS = ["text", "json", "sarif", "markdown"] as const;
const EXPLAIN_FORMATS = ["text", "json", "markdown"] as const;

const SHORT_USAGE = `Usage: cql-review check [paths…] [--manifest FILE] [--config FILE] [--cassandra 3.11|4.0|4.1|5.0] [--format text|json|sarif|markdown]
       cql-review explain [paths…] [--manifest FILE] [--config FILE] [--cassandra V] (<query-id> | "SELECT …" | table <name>) [--format text|json|markdown]
Run \`cql-review --help\` for details.
`;

const HELP = `cql-review: reviews Apache Cassandra data models (schema .cql files and an access-patterns manifest).

Usage:
  cql-review check [paths…] [options]
      Review every schema file and manifest under the paths (files or directories; default: .).
  cql-review explain [paths…] [options] <target>
      Explain one thing, step by step. <target> is a query id of the manifest (Q1),
      a statement ("SELECT … FROM …", quoted), or table <name>.

Options:
  --manifest FILE      the access-patterns manifest (default: files matching the config's globs,
                       **/access-patterns.y{,a}ml)
  --config FILE        the config (default: .github/cql-review.yml under the first path, else here)
  --cassandra VERSION  the Cassandra semantics to apply: ${CASSANDRA_VERSIONS.join(", ")}
                       (default: the manifest's, else the config's, else 5.0)
  --format FORMAT      check: ${CHECK_FORMATS.join(", ")}; explain: ${EXPLAIN_FORMATS.join(", ")} (default: text)
  -h, --help           show this help
  --version            show the version

Paths in the output are relative to the repository root: the first path when it holds
.github/cql-review.yml, else the current directory when every path lies inside it, else the
paths' common parent. node_modules, .git and dist are skipped; files over 2 MiB are not read.
Colour is used only when stdout is a terminal and NO_COLOR is not set.

Exit status:
  0  reviewed, and the gate passes (explain: the target was explained)
  1  the gate fails: findings new at the configured fail_on level (explain: unknown target or a
     statement that does not parse)
  2  usage error, or nothing could be read
`;

class UsageError extends Error {}

function defaultIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
    fs: {
      stat: (file) => nodeFs.stat(file),
      readdir: (directory) => nodeFs.readdir(directory, { withFileTypes: true }),
      readFile: (file) => nodeFs.readFile(file),
    },
  };
}

/** The version in package.json, found by walking up from this module (src/ in tests, dist/src/ when built). */
export function packageVersion(): string {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(directory, "package.json"), "utf8")) as { name?: string; version?: string };
      if (manifest.name === "cql-review" && manifest.version) return manifest.version;
    } catch {
      // no package.json here: keep walking up
    }
    const parent = path.dirname(directory);
    if (parent === directory) return "unknown";
    directory = parent;
  }
}

interface CommonOptions {
  paths: string[];
  manifest?: string;
  config?: string;
  cassandra?: CassandraVersion;
}

interface ParsedCommand {
  command: "check" | "explain" | "help" | "version";
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
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
    });
  } catch (error) {
    // node's messages name the option: "Unknown option '--fromat'", "Option '--format <value>' argument missing"
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ""));
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help", positionals: [], format: "text", options: {} };
  if (values.version) return { command: "version", positionals: [], format: "text", options: {} };
  const [command, ...rest] = positionals;
  if (command === undefined) throw new UsageError("a command is needed: check or explain");
  if (command !== "check" && command !== "explain") throw new UsageError(`unknown command "${command}": use check or explain`);

  const format = values.format ?? "text";
  const formats: readonly string[] = command === "check" ? CHECK_FORMATS : EXPLAIN_FORMATS;
  if (!formats.includes(format)) throw new UsageError(`${command} --format must be one of ${formats.join(", ")}, not "${format}"`);
  if (values.cassandra !== undefined && !(CASSANDRA_VERSIONS as readonly string[]).includes(values.cassandra)) {
    throw new UsageError(`--cassandra must be one of ${CASSANDRA_VERSIONS.join(", ")}, not "${values.cassandra}"`);
  }
  for (const name of ["manifest", "config"] as const) {
    if (values[name] === "") throw new UsageError(`--${name} needs a file`);
  }
  return {
    command,
    positionals: rest,
    format,
    options: { manifest: values.manifest, config: values.config, cassandra: values.cassandra as CassandraVersion | undefined },
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
  return (error as Error).message ?? String(error);
}

interface Inputs {
  files: SourceFile[];
  configFile?: SourceFile;
  manifestPath?: string;
  /** paths named on the command line that exist */
  found: number;
  /** files that should have been read but could not be */
  unreadable: number;
}

/**
 * Reads what the core needs: the config, then every file under the paths that the config's globs
 * call a schema file or a manifest (so a large repository is walked, not read), plus the files
 * named explicitly.
 */
async function collectInputs(io: CliIo, options: CommonOptions): Promise<Inputs> {
  const warn = (message: string) => io.stderr(`cql-review: ${message}\n`);
  const named: { absolute: string; written: string; stat: CliStat }[] = [];
  for (const written of options.paths) {
    const absolute = path.resolve(io.cwd, written);
    const stat = await statOrUndefined(io, absolute);
    if (!stat) {
      warn(`${written}: no such file or directory`);
      continue;
    }
    named.push({ absolute, written, stat });
  }

  const explicitManifest = options.manifest !== undefined ? path.resolve(io.cwd, options.manifest) : undefined;
  if (explicitManifest && !(await statOrUndefined(io, explicitManifest))?.isFile()) {
    throw new UsageError(`--manifest ${options.manifest}: no such file`);
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
    ...[explicitManifest, configAbsolute].filter((file): file is string => file !== undefined).map((file) => path.dirname(file)),
  ];
  const root =
    rootFromConfig && anchors.every((anchor) => isInside(rootFromConfig, anchor))
      ? rootFromConfig
      : anchors.every((anchor) => isInside(io.cwd, anchor))
        ? io.cwd
        : commonParent(anchors);
  const relativeToRoot = (absolute: string) => toPosix(path.relative(root, absolute));

  let unreadable = 0;
  const readText = async (absolute: string, size?: number): Promise<string | undefined> => {
    const shown = toPosix(path.relative(io.cwd, absolute)) || ".";
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
    !matchesAny(relative, config.ignore) && (matchesAny(relative, config.schema) || matchesAny(relative, config.manifest) || isCodeFile(relative, config));

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
  if (explicitManifest) toRead.set(explicitManifest, (await statOrUndefined(io, explicitManifest))?.size);
  if (configAbsolute) toRead.delete(configAbsolute);

  const files: SourceFile[] = [];
  for (const [absolute, size] of toRead) {
    const content = await readText(absolute, size);
    if (content !== undefined) files.push({ path: relativeToRoot(absolute), content });
  }
  return {
    files,
    configFile,
    manifestPath: explicitManifest ? relativeToRoot(explicitManifest) : undefined,
    found: named.length,
    unreadable,
  };
}

async function runReview(io: CliIo, options: CommonOptions): Promise<Review | number> {
  const inputs = await collectInputs(io, options);
  if (inputs.found === 0 || (inputs.files.length === 0 && inputs.unreadable > 0)) {
    io.stderr("cql-review: nothing could be read\n");
    return EXIT.usage;
  }
  const { config } = loadConfig(inputs.configFile);
  if (inputs.files.every((file) => isCodeFile(file.path, config))) {
    io.stderr(`cql-review: no schema (.cql) or manifest files found under ${options.paths.join(", ")}\n`);
  }
  const now = io.now ?? (() => performance.now());
  const deadline = now() + REVIEW_TIME_BUDGET_MS;
  // Application code is read before the review: its grammars load asynchronously.
  const code = await readCode(inputs.files, config, (language) => grammars.parser(language));
  return review({
    code,
    files: inputs.files,
    configFile: inputs.configFile,
    manifestPath: inputs.manifestPath,
    cassandra: options.cassandra,
    pastDeadline: () => now() > deadline,
  });
}

function useColor(io: CliIo): boolean {
  const noColor = io.env.NO_COLOR;
  return io.stdoutIsTTY && (noColor === undefined || noColor === "");
}

// ---------------------------------------------------------------------------------------------
// Commands

async function check(io: CliIo, parsed: ParsedCommand): Promise<number> {
  const paths = parsed.positionals.length > 0 ? parsed.positionals : ["."];
  const reviewed = await runReview(io, { ...parsed.options, paths });
  if (typeof reviewed === "number") return reviewed;
  switch (parsed.format) {
    case "json":
      io.stdout(renderJson(reviewed));
      break;
    case "sarif":
      io.stdout(renderSarif(reviewed, { toolVersion: packageVersion() }));
      break;
    case "markdown":
      io.stdout(`${renderCheckSummary(reviewed, { maxLength: Number.POSITIVE_INFINITY })}\n`);
      break;
    default:
      io.stdout(renderText(reviewed, { color: useColor(io) }));
  }
  return reviewed.gateFails ? EXIT.gateFails : EXIT.ok;
}

/**
 * Splits `explain`'s arguments into paths and the target: `table NAME` at the end; a statement
 * from the argument that starts with SELECT to the end (quoted as one argument, or left unquoted
 * as several); or else the last argument as a query id.
 */
function explainTarget(positionals: string[]): { paths: string[]; request: ExplainRequest; text: string } {
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
  const request = parseExplainRequest(text);
  if ("error" in request) throw new UsageError(request.error.replace(/`/g, ""));
  return { paths: paths.length > 0 ? paths : ["."], request, text };
}

async function explainCommand(io: CliIo, parsed: ParsedCommand): Promise<number> {
  const target = explainTarget(parsed.positionals);
  const reviewed = await runReview(io, { ...parsed.options, paths: target.paths });
  if (typeof reviewed === "number") return reviewed;
  const answer: ExplainAnswer = explain(reviewed, target.request);
  // `cql-review explain schema/` forgot the target: the "query id" is really a path.
  if (answer.kind === "not-found" && target.request.kind === "query" && (await statOrUndefined(io, path.resolve(io.cwd, target.text)))) {
    throw new UsageError(`explain needs a target after the paths: "${target.text}" is a path, not a query id`);
  }
  switch (parsed.format) {
    case "json":
      io.stdout(renderExplainJson(answer));
      break;
    case "markdown":
      io.stdout(`${renderExplainMarkdown(answer, { maxLength: Number.POSITIVE_INFINITY })}\n`);
      break;
    default:
      io.stdout(renderExplainText(answer, { color: useColor(io) }));
  }
  return answer.kind === "not-found" || answer.kind === "invalid-select" ? EXIT.gateFails : EXIT.ok;
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
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`cql-review: ${error.message}\n${SHORT_USAGE}`);
      return EXIT.usage;
    }
    // A bug, not bad input (the core reports bad input as findings): say so and keep the stack.
    io.stderr(`cql-review: internal error: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.usage;
  }
}
