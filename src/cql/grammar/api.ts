// The part of chevrotain's parser DSL that the production modules use. Chevrotain declares these
// methods `protected`; the parser hands each module itself typed as this interface, so productions
// can live in one module per language area (see parser.ts) at no runtime cost.
import type {
  ConsumeMethodOpts,
  CstNode,
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

type Occurrence = "" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
export type Rule = ParserMethod<[], CstNode>;

type ConsumeDsl = { [K in `CONSUME${Occurrence}`]: (tokenType: TokenType, options?: ConsumeMethodOpts) => IToken };
type SubruleDsl = { [K in `SUBRULE${Occurrence}`]: (rule: Rule, options?: SubruleMethodOpts<[]>) => CstNode };
type OptionDsl = { [K in `OPTION${Occurrence}`]: (action: GrammarAction<unknown> | DSLMethodOpts<unknown>) => unknown };
type OrDsl = { [K in `OR${Occurrence}`]: (alternatives: IOrAlt<unknown>[] | OrMethodOpts<unknown>) => unknown };
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
    subrule(occurrence: number, rule: Rule, options?: SubruleMethodOpts<[]>): CstNode;
    or(occurrence: number, alternatives: IOrAlt<unknown>[] | OrMethodOpts<unknown>): unknown;
    RULE(name: string, implementation: () => void): Rule;
    /** LA(1) is the next token; works for any distance (EOF past the end). */
    LA(distance: number): IToken;
  };

/** The productions by name; filled by the modules, read lazily inside rule bodies. */
export type Rules = Record<string, Rule>;

export interface Grammar {
  $: GrammarDsl;
  rules: Rules;
}

export function defineRule(grammar: Grammar, name: string, implementation: () => void): void {
  grammar.rules[name] = grammar.$.RULE(name, implementation);
}
