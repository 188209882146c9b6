// Which files of a change are application code to read, and reading them. The shells call
// `readCode` before the (synchronous) review, since tree-sitter's grammars load asynchronously.
import type { ReviewConfig } from "../config.js";
import { matchesAny } from "../globs.js";
import { mentionsCassandraDriver } from "./drivers.js";
import type { ParserFor } from "./extract.js";
import { languageOf, type CodeExtraction, type CodeFile, type CodeLanguage } from "./types.js";

/** Whether the config asks for `path` to be read as application code. */
export function isCodeFile(path: string, config: ReviewConfig): boolean {
  if (!config.code.enabled) return false;
  const language = languageOf(path);
  if (!language) return false;
  const configured = language === "tsx" ? "typescript" : language;
  return (
    config.code.languages.includes(configured) &&
    matchesAny(path, config.code.files) &&
    !matchesAny(path, config.code.exclude) &&
    !matchesAny(path, config.ignore)
  );
}

/**
 * The languages worth a grammar: those of files that name a Cassandra driver somewhere in their
 * text. A change without such a file loads no grammar at all; the other files of those languages
 * are still parsed, for the constants they hold.
 */
export function languagesToRead(files: CodeFile[]): Set<CodeLanguage> {
  const languages = new Set<CodeLanguage>();
  for (const file of files) {
    const language = languageOf(file.path);
    if (language && !languages.has(language) && mentionsCassandraDriver(file.content)) languages.add(language);
  }
  // TypeScript and TSX share their constants.
  if (languages.has("typescript") || languages.has("tsx")) languages.add("typescript").add("tsx");
  return languages;
}

/** Reads the statements of the code files among `files`; no code file, no grammar loaded. */
export async function readCode(files: CodeFile[], config: ReviewConfig, parserFor: ParserFor): Promise<CodeExtraction | undefined> {
  if (!config.code.enabled) return undefined;
  const code = files.filter((file) => isCodeFile(file.path, config));
  const languages = languagesToRead(code);
  if (languages.size === 0) return code.length > 0 ? { files: [], statements: [], dynamic: [], tables: [], skipped: [] } : undefined;
  // The extractors load only for code that uses a driver: a model of .cql files never loads them.
  const { extractStatements } = await import("./extract.js");
  return extractStatements(
    code.filter((file) => languages.has(languageOf(file.path)!)),
    parserFor,
  );
}
