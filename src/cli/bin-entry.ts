// The command line as bin/cql-review.js runs it, bundled into one file (scripts/build-lambda.mjs cli)
// so a pre-commit hook does not wait for hundreds of modules to load.
import { main } from "../cli.js";
import { buildLookaheadOnFirstUse, skipGrammarValidation } from "../cql/grammar-validation.js";

/** Runs the CLI on the arguments after the command name; resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  // The test suite validates the CQL grammar; a shipped command need not do it again on every start.
  skipGrammarValidation();
  // One repository per process: building the parser's lookahead as it is used costs less in all.
  buildLookaheadOnFirstUse();
  return main(argv);
}
