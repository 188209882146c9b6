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

let lookaheadOnFirstUse = false;

/**
 * For the command line, before the first parse: build each decision's lookahead function on its
 * first use rather than all of them with the parser. A new process that parses one repository
 * saves about a fifth of building the parser and parsing it; a long-lived process (the server, the
 * Lambda) keeps them built up front, since parsing ran slower afterwards when they were built late
 * (docs/performance.md).
 */
export function buildLookaheadOnFirstUse(): void {
  lookaheadOnFirstUse = true;
}

/** Read by the parser when it is built. */
export function lookaheadBuiltOnFirstUse(): boolean {
  return lookaheadOnFirstUse;
}
