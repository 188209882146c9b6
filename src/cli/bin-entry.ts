// The command line as bin/cql-review.js runs it, bundled into one file (scripts/build-lambda.mjs cli)
// so a pre-commit hook does not wait for hundreds of modules to load.
import { defaultIo, main, type GrammarsModule } from "../cli.js";
import { buildLookaheadOnFirstUse, skipGrammarValidation } from "../cql/grammar-validation.js";

/**
 * Runs the CLI on the arguments after the command name; resolves to the exit code. The starter
 * (src/cli/start.ts) passes `importGrammars`: the bundle cannot import() the grammars module itself.
 */
export async function run(argv: string[], importGrammars?: () => Promise<GrammarsModule>): Promise<number> {
  // The test suite validates the CQL grammar; a shipped command need not do it again on every start.
  skipGrammarValidation();
  // One repository per process: building the parser's lookahead as it is used costs less in all.
  buildLookaheadOnFirstUse();
  return main(argv, importGrammars ? { ...defaultIo(), importGrammars } : defaultIo());
}
