// The CQL parser: one chevrotain CstParser for the process, composed from production modules by
// language area (grammar/*.ts), with production names taken from Cassandra's Parser.g.
//
// Self-analysis (lookahead computation and grammar validation) runs once, when this module loads.
// The grammar is LL(1) except where a keyword is also a name (LL(2), marked MAX_LOOKAHEAD) and in
// the statement dispatcher (LL(4)); the few decisions LL(k) cannot make use bounded hand-written
// lookahead (grammar/lookahead.ts), never backtracking.
import { CstParser, type CstNode, type IRecognitionException, type IToken, type TokenType } from "chevrotain";
import { CqlErrorMessageProvider } from "./errors.js";
import { defineAccessControlRules } from "./grammar/access-control.js";
import type { Grammar, GrammarDsl, Rules } from "./grammar/api.js";
import { defineDescribeRules } from "./grammar/describe.js";
import { defineDmlRules } from "./grammar/dml.js";
import { defineFunctionRules } from "./grammar/functions.js";
import { defineIdentifierRules } from "./grammar/identifiers.js";
import { defineIndexRules } from "./grammar/indexes.js";
import { defineKeyspaceRules } from "./grammar/keyspaces.js";
import { defineSelectRules } from "./grammar/select.js";
import { defineStatementRules } from "./grammar/statements.js";
import { defineTableRules } from "./grammar/tables.js";
import { defineTermRules } from "./grammar/terms.js";
import { defineTypeRules } from "./grammar/types.js";
import { defineUserTypeRules } from "./grammar/user-types.js";
import { defineViewRules } from "./grammar/views.js";
import * as T from "./tokens.js";

/** Tokens recovery may invent: closing punctuation and separators, never a name or a value. */
const INSERTABLE = new Set<TokenType>([T.RParen, T.RBracket, T.RBrace, T.Greater, T.Comma]);

class CqlParser extends CstParser {
  readonly rules: Rules = {};
  readonly messages: CqlErrorMessageProvider;

  constructor() {
    const messages = new CqlErrorMessageProvider();
    super(T.parserVocabulary, {
      recoveryEnabled: true,
      nodeLocationTracking: "onlyOffset",
      maxLookahead: 1,
      errorMessageProvider: messages,
    });
    this.messages = messages;
    const grammar: Grammar = { $: this as unknown as GrammarDsl, rules: this.rules };
    defineIdentifierRules(grammar);
    defineTypeRules(grammar);
    defineTermRules(grammar);
    defineKeyspaceRules(grammar);
    defineTableRules(grammar);
    defineUserTypeRules(grammar);
    defineIndexRules(grammar);
    defineViewRules(grammar);
    defineFunctionRules(grammar);
    defineAccessControlRules(grammar);
    defineDmlRules(grammar);
    defineSelectRules(grammar);
    defineDescribeRules(grammar);
    defineStatementRules(grammar);
    this.performSelfAnalysis();
  }

  override canTokenTypeBeInsertedInRecovery(tokenType: TokenType): boolean {
    return INSERTABLE.has(tokenType);
  }
}

const parser = new CqlParser();

export interface StatementParse {
  cst: CstNode;
  errors: IRecognitionException[];
  /** for NoViableAlt / EarlyExit errors, in order: the token the error is about */
  focusTokens: IToken[];
}

/** Parses one statement (optionally followed by `;`) from `tokens`. */
export function parseStatementTokens(tokens: IToken[]): StatementParse {
  parser.messages.focusTokens.length = 0;
  parser.messages.input = tokens;
  parser.input = tokens;
  const cst = parser.rules.cqlStatement!.call(parser);
  const errors = parser.errors;
  return { cst, errors, focusTokens: errors.length === 0 ? [] : [...parser.messages.focusTokens] };
}

/**
 * Runs `parse` with stack traces off. Chevrotain reports syntax errors as exceptions; their stack
 * traces are never read, and capturing them dominates the cost of a file with many errors.
 */
export function withoutStackTraces<T>(parse: () => T): T {
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return parse();
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}
