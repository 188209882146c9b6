// The CQL parser: one chevrotain EmbeddedActionsParser for the process, composed from production
// modules by language area (grammar/*.ts), with production names taken from Cassandra's Parser.g.
// Each production returns its part of the typed AST (see grammar/api.ts for how, and README.md,
// "Throughput", for why there is no concrete syntax tree).
//
// Self-analysis (recording the grammar, and validating it in the tests) runs once, on first use;
// in the command line, each decision's lookahead function is built on its first use
// (LazyLookaheadStrategy).
// The grammar is LL(1) except where a keyword is also a name (LL(2), marked MAX_LOOKAHEAD) and in
// the statement dispatcher (LL(4)); the few decisions LL(k) cannot make use bounded hand-written
// lookahead (grammar/lookahead.ts), never backtracking.
import {
  EmbeddedActionsParser,
  getLookaheadPaths,
  LLkLookaheadStrategy,
  NoViableAltException,
  type ILookaheadStrategy,
  type IRecognitionException,
  type IToken,
  type LookaheadSequence,
  type TokenType,
} from "chevrotain";
import { CqlErrorMessageProvider } from "./errors.js";
import { grammarValidation, lookaheadBuiltOnFirstUse } from "./grammar-validation.js";
import { defineAccessControlRules } from "./grammar/access-control.js";
import type { Statement } from "./ast.js";
import type { AstContext, Grammar, GrammarDsl, Rules } from "./grammar/api.js";
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

/** Chevrotain parser members that raiseNoAltException below uses; they are not in its typings. */
interface RecognizerInternals {
  maxLookahead: number;
  getCurrRuleFullName(): string;
  SAVE_ERROR(error: NoViableAltException): NoViableAltException;
  getCurrentGrammarPath(tokenType: TokenType, occurrence: number): { ruleStack: string[]; occurrenceStack: number[] };
  /** each decision's lookahead function, by chevrotain's key for the decision */
  lookAheadFuncsCache: Map<number, LookaheadFunction>;
}

/** Chevrotain's implementation of getFollowsForInRuleRecovery, which the parser below wraps. */
type FollowsForInRuleRecovery = (this: EmbeddedActionsParser, tokenType: TokenType, occurrence: number) => TokenType[];

const MAX_CACHED_PATHS = 4096;

/** A lookahead function as chevrotain calls it: with the parser as `this`, and an OR's alternatives. */
type LookaheadFunction = (this: unknown, alternatives?: unknown) => unknown;

/** What LazyLookaheadStrategy hands chevrotain in place of a lookahead function: how to build it. */
const LOOKAHEAD_BUILDER = Symbol("lookahead builder");
interface DeferredLookahead {
  [LOOKAHEAD_BUILDER]: () => LookaheadFunction;
}

/**
 * Chevrotain's LL(k) lookahead, each decision's function built on the decision's first use instead
 * of for the whole grammar in performSelfAnalysis: a model's statements touch few of the grammar's
 * decisions, and building all of them is about half of building the parser. CqlParser.setLaFuncCache
 * swaps the built function into chevrotain's table, so parsing after the first use runs chevrotain's
 * own function with nothing in between (a wrapper that stayed made parsing about 15 % slower).
 * Measured (docs/performance.md, 28 November, evening): building the parser and parsing the example
 * model's schema in a new process, 223 ms of CPU against 279 ms built up front; but parsing 1 MB
 * afterwards counted 5 % and 26 % more instructions in two runs, so only the command line, a new
 * process that parses one repository, uses it (buildLookaheadOnFirstUse).
 */
class LazyLookaheadStrategy extends LLkLookaheadStrategy {
  override buildLookaheadForAlternation(options: Parameters<ILookaheadStrategy["buildLookaheadForAlternation"]>[0]): ReturnType<ILookaheadStrategy["buildLookaheadForAlternation"]> {
    return deferred(() => super.buildLookaheadForAlternation(options) as LookaheadFunction) as unknown as ReturnType<ILookaheadStrategy["buildLookaheadForAlternation"]>;
  }

  override buildLookaheadForOptional(options: Parameters<ILookaheadStrategy["buildLookaheadForOptional"]>[0]): ReturnType<ILookaheadStrategy["buildLookaheadForOptional"]> {
    return deferred(() => super.buildLookaheadForOptional(options) as LookaheadFunction) as unknown as ReturnType<ILookaheadStrategy["buildLookaheadForOptional"]>;
  }
}

function deferred(build: () => LookaheadFunction): DeferredLookahead {
  return { [LOOKAHEAD_BUILDER]: build };
}

/** Tokens recovery may invent: closing punctuation and separators, never a name or a value. */
const INSERTABLE = new Set<TokenType>([T.RParen, T.RBracket, T.RBrace, T.Greater, T.Comma]);

class CqlParser extends EmbeddedActionsParser {
  readonly grammar: Grammar;
  readonly messages: CqlErrorMessageProvider;
  /** set when error recovery gave up on a rule of the statement being parsed (re-synchronised) */
  ruleRecovered = false;

  constructor(options: { validateGrammar: boolean; lookaheadOnFirstUse: boolean }) {
    const messages = new CqlErrorMessageProvider();
    super(T.parserVocabulary, {
      skipValidations: !options.validateGrammar,
      recoveryEnabled: true,
      maxLookahead: 1,
      ...(options.lookaheadOnFirstUse ? { lookaheadStrategy: new LazyLookaheadStrategy({ maxLookahead: 1 }) } : {}),
      errorMessageProvider: messages,
    });
    this.messages = messages;
    const grammar: Grammar = {
      $: this as unknown as GrammarDsl,
      rules: {} as Rules,
      context: { text: "", notes: [] },
      recoveryValue: () => {
        this.ruleRecovered = true;
        return undefined as never;
      },
    };
    this.grammar = grammar;
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

  /**
   * Chevrotain stores each decision's lookahead function here, by decision, and looks it up on
   * every use. A deferred one is stored as a function that builds the real one, puts it in its
   * place and runs it; a caller still holding the first (a MANY loop) reaches the built one.
   */
  setLaFuncCache(key: number, value: LookaheadFunction | DeferredLookahead): void {
    const table = (this as unknown as RecognizerInternals).lookAheadFuncsCache;
    if (!(LOOKAHEAD_BUILDER in value)) {
      table.set(key, value);
      return;
    }
    const build = value[LOOKAHEAD_BUILDER];
    let built: LookaheadFunction | undefined;
    table.set(key, function (this: unknown, alternatives?: unknown) {
      if (built === undefined) {
        built = build();
        table.set(key, built);
      }
      return built.call(this, alternatives);
    });
  }

  override canTokenTypeBeInsertedInRecovery(tokenType: TokenType): boolean {
    return INSERTABLE.has(tokenType);
  }

  /** Tokens that may follow a missing one, per grammar path (rule stack, token, occurrence). */
  private readonly followsByPath = new Map<string, TokenType[]>();

  /**
   * Wraps chevrotain's method of the same name, which walks the grammar on every mismatched token
   * to see whether inserting or skipping one token would repair it; the answer depends only on the
   * grammar path, so it is computed once per path.
   */
  getFollowsForInRuleRecovery(tokenType: TokenType, occurrence: number): TokenType[] {
    const path = (this as unknown as RecognizerInternals).getCurrentGrammarPath(tokenType, occurrence);
    const key = `${path.ruleStack.join(" ")}/${path.occurrenceStack.join(" ")}/${tokenType.name}/${occurrence}`;
    let follows = this.followsByPath.get(key);
    if (follows === undefined) {
      follows = (EmbeddedActionsParser.prototype as unknown as { getFollowsForInRuleRecovery: FollowsForInRuleRecovery }).getFollowsForInRuleRecovery.call(this, tokenType, occurrence);
      // Recursive rules make paths as many as nesting levels: keep the cache bounded.
      if (this.followsByPath.size >= MAX_CACHED_PATHS) this.followsByPath.clear();
      this.followsByPath.set(key, follows);
    }
    return follows;
  }

  /** Expected token paths per decision (rule and OR occurrence), for "no viable alternative" messages. */
  private readonly expectedPaths = new Map<string, LookaheadSequence[]>();

  /**
   * Replaces chevrotain's method of the same name, which walks the grammar for the expected paths
   * of the decision on every error (most of what an error costs); here they are computed once per
   * decision. The rest is as chevrotain does it.
   */
  raiseNoAltException(occurrence: number, errMsgTypes: string | undefined): never {
    const internals = this as unknown as RecognizerInternals;
    const ruleName = internals.getCurrRuleFullName();
    const key = `${ruleName}/${occurrence}`;
    let expectedPathsPerAlt = this.expectedPaths.get(key);
    if (expectedPathsPerAlt === undefined) {
      const rule = this.getGAstProductions()[ruleName]!;
      expectedPathsPerAlt = getLookaheadPaths({ occurrence, rule, prodType: "Alternation", maxLookahead: internals.maxLookahead });
      this.expectedPaths.set(key, expectedPathsPerAlt);
    }
    const actual: IToken[] = [];
    for (let i = 1; i <= internals.maxLookahead; i++) actual.push(this.LA(i));
    const previous = this.LA(0);
    const message = this.messages.buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous, customUserDescription: errMsgTypes, ruleName });
    throw internals.SAVE_ERROR(new NoViableAltException(message, this.LA(1), previous));
  }
}

let parser: CqlParser | undefined;

/**
 * The one parser of the process, built on first use: building it (self-analysis) is the largest
 * part of loading the core, and a process that never parses, or a cold start that answers before
 * it parses, should not pay for it.
 */
function sharedParser(): CqlParser {
  parser ??= new CqlParser({ validateGrammar: grammarValidation(), lookaheadOnFirstUse: lookaheadBuiltOnFirstUse() });
  return parser;
}

export { buildLookaheadOnFirstUse, skipGrammarValidation } from "./grammar-validation.js";

export interface StatementParse {
  /** the statement's AST; undefined when recovery gave up on it or building it failed */
  statement: Statement | undefined;
  /** what building the AST threw (an AstSyntaxError, or an incomplete tree after recovery) */
  failure?: unknown;
  errors: IRecognitionException[];
  /** for NoViableAlt / EarlyExit errors, in order: the token the error is about */
  focusTokens: IToken[];
  /** error recovery re-synchronised somewhere in the statement (more than a one-token repair) */
  ruleRecovered: boolean;
}

/** Parses one statement (optionally followed by `;`) from `tokens`, building its AST. */
export function parseStatementTokens(tokens: IToken[], context: AstContext): StatementParse {
  const parser = sharedParser();
  parser.messages.focusTokens.length = 0;
  parser.messages.input = tokens;
  parser.input = tokens;
  parser.ruleRecovered = false;
  parser.grammar.context = context;
  let statement: Statement | undefined;
  let failure: unknown;
  let failed = false;
  try {
    statement = parser.grammar.rules.cqlStatement.call(parser);
  } catch (error) {
    // Thrown by an action: not a syntax error, which chevrotain records instead of throwing.
    failed = true;
    failure = error;
  }
  const errors = parser.errors;
  return {
    statement,
    ...(failed ? { failure } : {}),
    errors,
    focusTokens: errors.length === 0 ? [] : [...parser.messages.focusTokens],
    ruleRecovered: parser.ruleRecovered,
  };
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
