// Reviews small applications the way the CLI does: code read first (grammars load
// asynchronously), then the synchronous review with the statements found.
import { extractStatements } from "../../src/code/extract.js";
import { grammars } from "../../src/code/grammars.js";
import { readCode } from "../../src/code/read.js";
import { loadConfig } from "../../src/config.js";
import { review, type Review, type SourceFile } from "../../src/review.js";

export async function reviewWithCode(files: Record<string, string>, config?: string): Promise<Review> {
  const sources: SourceFile[] = Object.entries(files).map(([path, content]) => ({ path, content }));
  const configFile = config === undefined ? undefined : { path: ".github/cql-review.yml", content: config };
  const code = await readCode(sources, loadConfig(configFile).config, (language) => grammars.parser(language));
  return review({ files: sources, ...(configFile ? { configFile } : {}), ...(code ? { code } : {}) });
}

/** `rule file:line` of each finding, sorted as the review sorts them. */
export function findingsAt(result: Review, rule?: string): string[] {
  return result.findings.filter((f) => rule === undefined || f.rule === rule).map((f) => `${f.rule} ${f.location.file}:${f.location.range.start.line}`);
}

/** What the extractor reads out of files given as path → content. */
export function extractFrom(files: Record<string, string>) {
  return extractStatements(
    Object.entries(files).map(([path, content]) => ({ path, content })),
    (language) => grammars.parser(language),
  );
}
