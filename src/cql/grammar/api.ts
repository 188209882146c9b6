// The part of chevrotain's parser DSL that the production modules use, and the conventions by
// which productions build the AST.
//
// The parser is an EmbeddedActionsParser: every production returns its piece of the typed AST
// (ast.ts) directly, with no concrete syntax tree in between (see ../README.md, "Throughput").
// Chevrotain runs each rule body once at start-up in a recording phase to learn the grammar; then
// CONSUME returns a placeholder token and SUBRULE/OR/OPTION placeholder values. So a rule body
// only collects tokens and sub-results while it recognises, and builds its result after
// `if ($.RECORDING_PHASE) return RECORDING;` at its end. Building never happens inside a
// repetition or an alternative, except pushing what was collected.
//
// Chevrotain declares the DSL methods `protected`; the parser hands each module itself typed as
// this interface, so productions can live in one module per language area at no runtime cost.
import type {
  ConsumeMethodOpts,
  DSLMethodOpts,
  DSLMethodOptsWithErr,
  GrammarAction,
  IOrAlt,
  IToken,
  OrMethodOpts,
  ParserMethod,
  SubruleMethodOpts,
  TokenType,
} from "chevrotain";
import { EOF } from "chevrotain";
import type { ParseDiagnostic, SourceRange } from "../ast.js";
import { tokenSpan } from "../source-span.js";
import * as T from "../tokens.js";

/**
 * What each production returns, by rule name. Each grammar module adds its own rules by
 * declaration merging (`declare module "./api.js" { interface RuleTypes { … } }`), so `rules.x`
 * is typed wherever it is called.
 */
export interface RuleTypes {}

type Occurrence = "" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
export type Rule<T> = ParserMethod<[], T>;
export type Rules = { [K in keyof RuleTypes]: Rule<RuleTypes[K]> };

type ConsumeDsl = { [K in `CONSUME${Occurrence}`]: (tokenType: TokenType, options?: ConsumeMethodOpts) => IToken };
type SubruleDsl = { [K in `SUBRULE${Occurrence}`]: <T>(rule: Rule<T>, options?: SubruleMethodOpts<[]>) => T };
type OptionDsl = { [K in `OPTION${Occurrence}`]: <T>(action: GrammarAction<T> | DSLMethodOpts<T>) => T | undefined };
type OrDsl = { [K in `OR${Occurrence}`]: <T>(alternatives: IOrAlt<T>[] | OrMethodOpts<T>) => T };
type ManyDsl = { [K in `MANY${Occurrence}`]: (action: GrammarAction<unknown> | DSLMethodOpts<unknown>) => void };
type AtLeastOneDsl = {
  [K in `AT_LEAST_ONE${Occurrence}`]: (action: GrammarAction<unknown> | DSLMethodOptsWithErr<unknown>) => void;
};

export type GrammarDsl = ConsumeDsl &
  SubruleDsl &
  OptionDsl &
  OrDsl &
  ManyDsl &
  AtLeastOneDsl & {
    /** CONSUME with the occurrence index as an argument (consume(2, T) is CONSUME2(T)). */
    consume(occurrence: number, tokenType: TokenType, options?: ConsumeMethodOpts): IToken;
    subrule<T>(occurrence: number, rule: Rule<T>, options?: SubruleMethodOpts<[]>): T;
    or<T>(occurrence: number, alternatives: IOrAlt<T>[] | OrMethodOpts<T>): T;
    RULE<T>(name: string, implementation: () => T, config?: { recoveryValueFunc?: (error: Error) => T }): Rule<T>;
    /** LA(1) is the next token, LA(0) the last one consumed; EOF past either end. */
    LA(distance: number): IToken;
    /** True while chevrotain records the grammar (once, at start-up): build nothing then. */
    readonly RECORDING_PHASE: boolean;
  };

/** State of one statement's parse: its file's text (for statement text) and the notes it makes. */
export interface AstContext {
  text: string;
  /** vendor clauses and options found inside otherwise valid statements */
  notes: ParseDiagnostic[];
}

export interface Grammar {
  $: GrammarDsl;
  rules: Rules;
  /** the statement being parsed; set by the parser before each statement */
  context: AstContext;
  /** what a rule returns when error recovery gives up on it; notes that it did */
  recoveryValue: () => never;
}

/** What a rule returns during the recording phase: never read. */
export const RECORDING = undefined as never;

/**
 * Registers a production. A rule that error recovery gives up on returns undefined (and the
 * parser notes that the statement was not fully recovered); rules built on it must expect that
 * only in recovered statements, which are dropped.
 */
export function defineRule<K extends keyof RuleTypes>(grammar: Grammar, name: K, implementation: () => RuleTypes[K]): void {
  (grammar.rules as Record<string, unknown>)[name] = grammar.$.RULE(name, implementation, { recoveryValueFunc: grammar.recoveryValue });
}

/**
 * `IF NOT EXISTS`, as the body of an OPTION: returns its `IF`. `occurrence` is the DSL index of
 * its tokens, which must differ from other `IF`s consumed in the same rule.
 */
export function ifNotExistsClause($: GrammarDsl, occurrence = 0): () => IToken {
  return () => {
    const ifToken = $.consume(occurrence, T.If);
    $.consume(occurrence, T.Not);
    $.consume(occurrence, T.Exists);
    return ifToken;
  };
}

/** `IF EXISTS`, as the body of an OPTION: returns its `IF` (see ifNotExistsClause). */
export function ifExistsClause($: GrammarDsl, occurrence = 0): () => IToken {
  return () => {
    const ifToken = $.consume(occurrence, T.If);
    $.consume(occurrence, T.Exists);
    return ifToken;
  };
}

// ---------------------------------------------------------------------------------------------
// Building

/** A construct the grammar accepts as a superset but CQL does not; reported as a syntax error. */
export class AstSyntaxError extends Error {
  override name = "AstSyntaxError";
  constructor(
    message: string,
    readonly range: SourceRange,
  ) {
    super(message);
  }
}

/** The tree lacks a part the grammar requires: error recovery left it incomplete. */
export class IncompleteTreeError extends Error {
  override name = "IncompleteTreeError";
}

/** A token that is really in the source (not EOF, not invented by error recovery). */
export function isRealToken(token: IToken | undefined): token is IToken {
  return token !== undefined && token.tokenType !== EOF && token.isInsertedInRecovery !== true;
}

/** A token the grammar requires; one invented by recovery means an incomplete tree. */
export function requiredToken(token: IToken | undefined, what: string): IToken {
  if (!isRealToken(token)) throw new IncompleteTreeError(`missing ${what}`);
  return token;
}

/** A sub-result the grammar requires; undefined means recovery gave up on it. */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new IncompleteTreeError(`missing ${what}`);
  return value;
}

/**
 * The range from `first` (the rule's first token: `$.LA(1)` read at the start of its body) to the
 * last token consumed so far (`$.LA(0)`). Call it when building, after the recording check.
 */
export function rangeFrom($: GrammarDsl, first: IToken): SourceRange {
  const last = $.LA(0);
  if (!isRealToken(first) || !isRealToken(last) || last.startOffset < first.startOffset) {
    throw new IncompleteTreeError("a production without tokens");
  }
  return tokenSpan(first, last);
}
