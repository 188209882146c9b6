// Hand-written lookahead for the few decisions that LL(k) cannot make (type hints, the meaning of a
// parenthesis in WHERE, keywords that are also names). Each one looks at a bounded or a
// parenthesis-delimited stretch of tokens, never re-parses.
import { EOF, tokenMatcher, type IToken, type TokenType } from "chevrotain";
import * as T from "../tokens.js";
import type { GrammarDsl } from "./api.js";

export function isToken(token: IToken, type: TokenType): boolean {
  return tokenMatcher(token, type);
}

export function isAny(token: IToken, types: readonly TokenType[]): boolean {
  for (const type of types) if (tokenMatcher(token, type)) return true;
  return false;
}

const TERM_STARTS = [
  T.Constant, T.QuestionMark, T.Colon, T.LParen, T.LBracket, T.LBrace, T.Null, T.NanKw, T.InfinityKw,
] as const;

/**
 * `(int) ?`, `(frozen<list<int>>) :x`, `(address) {street: 'x'}`: a parenthesised type followed by a
 * term. A single bare name in parentheses is a type hint only when a literal, a marker or a
 * collection follows, because `(a) + b` and `(a) AS x` must stay expressions.
 */
export function typeHintAhead($: GrammarDsl): boolean {
  let depth = 0;
  let sawTypeSyntax = false;
  let sawNativeType = false;
  let tokens = 0;
  for (let i = 2; ; i++) {
    const token = $.LA(i);
    if (token.tokenType === T.RParen && depth === 0) {
      if (tokens === 0) return false;
      const next = $.LA(i + 1);
      if (isAny(next, TERM_STARTS)) return true;
      // `(text) AS t` is a parenthesised column called text with an alias.
      if (sawTypeSyntax || sawNativeType) return (isToken(next, T.Name) && next.tokenType !== T.As) || next.tokenType === T.Minus || next.tokenType === T.Token;
      return false;
    }
    tokens++;
    if (token.tokenType === T.Less) {
      depth++;
      sawTypeSyntax = true;
    } else if (token.tokenType === T.Greater) {
      depth--;
      if (depth < 0) return false;
    } else if (token.tokenType === T.Comma || token.tokenType === T.IntegerLiteral) {
      if (depth === 0) return false;
    } else if (isToken(token, T.NativeTypeKeyword)) {
      sawNativeType = true;
    } else if (token.tokenType === T.SetKw) {
      sawTypeSyntax = true;
    } else if (!isToken(token, T.Name) && token.tokenType !== T.Dot && token.tokenType !== T.StringLiteral) {
      return false;
    }
    if (tokens > 64) return false;
  }
}

/**
 * In WHERE, `(` opens either a group of relations (`(a = 1 OR b = 2)`) or a tuple of columns
 * (`(a, b) > (1, 2)`): a tuple of columns is names separated by commas up to `)`.
 */
export function relationGroupAhead($: GrammarDsl): boolean {
  const second = $.LA(2);
  if (!isToken(second, T.Name)) return true;
  const third = $.LA(3);
  return third.tokenType !== T.Comma && third.tokenType !== T.RParen;
}

/** `expr(index, 'query')`: a custom index expression (Parser.g `customIndexExpression`). */
export function customIndexExpressionAhead($: GrammarDsl): boolean {
  const first = $.LA(1);
  return first.tokenType === T.Identifier && first.image.toLowerCase() === "expr" && $.LA(2).tokenType === T.LParen;
}

const SELECTOR_CONTINUATIONS = [
  T.From, T.Comma, T.As, T.Dot, T.LBracket, T.LParen, T.Plus, T.Minus, T.Star, T.Slash, T.Percent,
] as const;

/** `SELECT JSON …` / `SELECT DISTINCT …` versus a column called json or distinct. */
export function selectModifierAhead($: GrammarDsl): boolean {
  // `SELECT JSON * FROM t`: `json * FROM` cannot be a product (no right operand), so `*` is the selection.
  if ($.LA(2).tokenType === T.Star && $.LA(3).tokenType === T.From) return true;
  return !isAny($.LA(2), SELECTOR_CONTINUATIONS) && $.LA(2).tokenType !== T.UnknownCharacters;
}

/** `IF EXISTS` versus a condition on a column called exists. */
export function ifExistsAhead($: GrammarDsl): boolean {
  const next = $.LA(2);
  return !(
    next.tokenType === T.LBracket ||
    next.tokenType === T.Dot ||
    next.tokenType === T.Equals ||
    next.tokenType === T.NotEquals ||
    next.tokenType === T.Less ||
    next.tokenType === T.LessEquals ||
    next.tokenType === T.Greater ||
    next.tokenType === T.GreaterEquals ||
    isAny(next, [T.In, T.Not, T.Contains, T.Like, T.Is, T.Between])
  );
}

const PERMISSION_KEYWORDS = [
  T.Create, T.Alter, T.Drop, T.Select, T.Modify, T.Authorize, T.Describe, T.Execute,
] as const;
const PERMISSION_WORDS_THAT_ARE_NAMES = [T.All, T.Unmask, T.SelectMasked] as const;

/**
 * After GRANT / REVOKE / LIST: a permission list (`SELECT, MODIFY ON …`, `ALL PERMISSIONS ON …`) or a
 * role name (`GRANT analyst TO alice`). ALL, UNMASK and SELECT_MASKED are also valid role names.
 */
export function permissionAhead($: GrammarDsl, at: number): boolean {
  const first = $.LA(at);
  if (isAny(first, PERMISSION_KEYWORDS)) return true;
  if (!isAny(first, PERMISSION_WORDS_THAT_ARE_NAMES)) return false;
  const next = $.LA(at + 1);
  return isAny(next, [T.On, T.Comma, T.Permission, T.Permissions, T.Of, T.Norecursive]) || next.tokenType === T.Semicolon || next.tokenType === EOF;
}
