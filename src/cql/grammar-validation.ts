// Whether the CQL parser validates its grammar when it is built (chevrotain's self-analysis
// checks). A module of its own, without chevrotain, so an entry point can turn validation off
// before the parser's modules load: the command line loads them only for a command that parses.

let validate = true;

/**
 * For production entry points (server, Lambda, Action, CLI), before the first parse: the test
 * suite validates the grammar, so a cold start need not validate it again.
 */
export function skipGrammarValidation(): void {
  validate = false;
}

/** Read by the parser when it is built. */
export function grammarValidation(): boolean {
  return validate;
}
