// The CQL front-end's facade: `parseCql(text)` never throws and always terminates.
//
// A file is lexed as it is parsed, cut into statements (split.ts), and each statement is parsed on
// its own (parser.ts, whose productions build the AST as they recognise), so one broken statement
// costs only itself:
// - a syntax error becomes a `cql-syntax-error` diagnostic saying what was expected and what was
//   found; parsing resumes at the next statement (after the `;`, or earlier at a line that clearly
//   starts a statement, e.g. after a stray `#` line);
// - a statement with a syntax error is left out of `statements`, unless error recovery repaired it
//   completely by inserting or skipping a single punctuation token (a missing `)` or `,`): then it
//   is kept, and every repair is still reported;
// - a missing `;` between two statements is reported, and both statements are kept;
// - cqlsh commands and vendor statements get a `cql-unsupported-statement` info and are skipped.
import type { IRecognitionException, IToken } from "chevrotain";
import { EOF } from "chevrotain";
import type { ParseDiagnostic, ParseOptions, ParseResult, SourceRange, Statement } from "./ast.js";
import { describeFound } from "./errors.js";
import { commentsOf, CqlScanner } from "./lexer.js";
import { pointAfter, TEXT_START, tokenSpan } from "./source-span.js";
import { AstSyntaxError, type AstContext } from "./grammar/api.js";
import { parseStatementTokens, withoutStackTraces, type StatementParse } from "./parser.js";
import { cqlshCommandAt, cqlshPromptAt, looksLikeStatementStart, statementEnd, TokenStream, vendorStatementAt, type TokenSource } from "./split.js";
import * as T from "./tokens.js";
import { append } from "../arrays.js";

export type { ParseOptions, ParseResult } from "./ast.js";
export { formatTerm, formatType, isReservedKeyword, quoteName } from "./print.js";

export function parseCql(text: string, options: ParseOptions = {}): ParseResult {
  const result: ParseResult = { statements: [], diagnostics: [], comments: [] };
  let scanner: CqlScanner | undefined;
  try {
    scanner = new CqlScanner(typeof text === "string" ? text : "");
    const tokens = new TokenStream(scanner);
    withoutStackTraces(() => parseTokens(tokens, text, result, options.maxStatements ?? Infinity));
    result.comments = commentsOf(scanner);
    // In source order: a statement's notes are added when it is kept, its repairs after them.
    result.diagnostics.sort((a, b) => a.range.start.offset - b.range.start.offset);
  } catch (error) {
    if (scanner) result.comments = commentsOf(scanner);
    result.diagnostics.push({
      code: "cql-syntax-error",
      severity: "error",
      message: `cql-review could not parse this file (internal error: ${error instanceof Error ? error.message : String(error)})`,
      range: TEXT_START,
    });
  }
  return result;
}

function parseTokens(tokens: TokenStream, text: string, result: ParseResult, maxStatements: number): void {
  let index = 0;
  let bound: number | undefined;
  let attempted = 0;
  while (tokens.at(index) !== undefined) {
    // Broken statements count too: each costs a diagnostic, and a file of nothing else is the costliest.
    if (tokens.at(index)!.tokenType !== T.Semicolon) {
      if (attempted >= maxStatements) {
        result.stopped = true;
        break;
      }
      result.attempted = ++attempted;
    }
    const step = parseOne(tokens, index, bound, text, result);
    // Every step consumes at least one token, so the loop ends on any input.
    index = Math.max(step.next, index + 1);
    bound = step.bound !== undefined && step.bound > index ? step.bound : undefined;
    tokens.release(index);
  }
}

interface Step {
  /** where the next statement starts */
  next: number;
  /**
   * set when the next statement starts inside the stretch just parsed (after an error or a
   * missing `;`): that stretch's end, so it is not searched for again
   */
  bound?: number;
}

/**
 * Handles the statement that starts at `index`; `bound` is set when `index` is inside a stretch
 * already cut (see Step). Then the statement is also cut at the next line that looks like a
 * statement start, so that no token is copied or scanned more than a few times, even in a file of
 * thousands of broken lines without a `;`.
 */
function parseOne(tokens: TokenStream, index: number, bound: number | undefined, text: string, result: ParseResult): Step {
  const first = tokens.at(index)!;
  if (first.tokenType === T.Semicolon) return { next: index + 1, bound };

  const afterPrompt = cqlshPromptAt(tokens, index);
  if (afterPrompt !== undefined) {
    const range = tokenSpan(first, tokens.at(afterPrompt - 1)!);
    result.diagnostics.push(syntaxError("a cqlsh prompt pasted from a shell session is not CQL; the statement after it is still read", range));
    return { next: afterPrompt };
  }
  const command = cqlshCommandAt(tokens, index);
  if (command) {
    result.diagnostics.push(info(`cqlsh command ${command.name} is not CQL; cql-review skips it`, tokens, index, command.end));
    return { next: command.end };
  }
  const vendor = vendorStatementAt(tokens, index);
  if (vendor) {
    result.diagnostics.push(info(`${vendor.description}, not Apache Cassandra 3.11–5.0 CQL; cql-review skips it`, tokens, index, vendor.end));
    return { next: vendor.end };
  }

  const end = bound === undefined ? statementEnd(tokens, index) : nextStatementStart(tokens, index, bound);
  const stretchEnd = bound ?? end;
  const slice = tokens.slice(index, end);
  const context: AstContext = { text, notes: [] };
  let parse: StatementParse;
  try {
    parse = parseStatementTokens(slice, context);
  } catch (error) {
    result.diagnostics.push(syntaxError(`cql-review could not parse this statement (${failureReason(error)})`, rangeOfSlice(slice)));
    return { next: end, bound };
  }
  const { statement } = parse;
  // An action that throws stops the parse mid-statement, and chevrotain then reports the rest of
  // the statement as not parsed: that report is an effect of the failure, not a second error.
  const failed = "failure" in parse;
  const errors = failed ? parse.errors.filter((error) => error.name !== "NotAllInputParsedException") : parse.errors;

  if (errors.length === 0) {
    if (failed) {
      const failure = parse.failure;
      if (failure instanceof AstSyntaxError) result.diagnostics.push(syntaxError(failure.message, failure.range));
      else result.diagnostics.push(syntaxError(`cql-review could not parse this statement (${failureReason(failure)})`, rangeOfSlice(slice)));
      return { next: end, bound: stretchEnd };
    }
    if (statement) keep(statement, context, result);
    // The statement ended at a line that starts a new one, not at a `;`: one is missing (DESCRIBE
    // may end at its line break, see split.ts).
    const next = tokens.at(end);
    if (statement && statement.kind !== "describe" && next && slice.at(-1)!.tokenType !== T.Semicolon) {
      result.diagnostics.push(syntaxError(`missing \`;\` before ${describeFound(next)}: expected \`;\` after the statement`, tokenSpan(next)));
    }
    return { next: end, bound: stretchEnd };
  }

  // The statement is complete but something follows it before the `;`.
  const [firstError] = errors;
  if (errors.length === 1 && firstError!.name === "NotAllInputParsedException") {
    const redundant = slice.indexOf(firstError!.token);
    if (statement && redundant > 0 && looksLikeStatementStart(slice, redundant)) {
      keep(statement, context, result);
      result.diagnostics.push(syntaxError(`missing \`;\` before ${describeFound(slice[redundant]!)}: ${firstError!.message}`, tokenSpan(slice[redundant]!)));
      return { next: index + redundant, bound: stretchEnd };
    }
    const found = slice[redundant] ?? slice.at(-1)!;
    const message =
      statement?.kind === "insert" && found.tokenType === T.Comma
        ? `INSERT inserts one row; a second VALUES tuple is not CQL: ${firstError!.message}`
        : firstError!.message;
    result.diagnostics.push(syntaxError(withHint(message, slice, redundant), tokenSpan(found)));
    return { next: resumeAfter(slice, redundant, index, end), bound: stretchEnd };
  }

  const errorTokens = focusOf(errors, parse.focusTokens, slice);
  if (statement && !failed && !parse.ruleRecovered && isFullyRecovered(errors)) {
    keep(statement, context, result);
    errors.forEach((error, i) => result.diagnostics.push(syntaxError(withHint(error.message, slice, errorTokens[i]!), rangeAt(slice, errorTokens[i]!))));
    return { next: end, bound: stretchEnd };
  }
  // A statement that a one-token repair would have kept, but whose AST is not CQL: both are said.
  if (failed && parse.failure instanceof AstSyntaxError && !parse.ruleRecovered && isFullyRecovered(errors)) {
    result.diagnostics.push(syntaxError(parse.failure.message, parse.failure.range));
  }
  const at = errorTokens[0]!;
  result.diagnostics.push(syntaxError(withHint(firstError!.message, slice, at), rangeAt(slice, at)));
  return { next: resumeAfter(slice, at, index, end), bound: stretchEnd };
}

function failureReason(error: unknown): string {
  // Nesting deeper than the stack allows is the one failure valid-looking input can cause.
  return error instanceof RangeError ? "it nests too deeply" : `internal error: ${error instanceof Error ? error.message : String(error)}`;
}

/** Within an already cut stretch: the next line that looks like a statement start, else the bound. */
function nextStatementStart(tokens: TokenStream, index: number, bound: number): number {
  for (let i = index + 1; i < bound; i++) {
    if (looksLikeStatementStart(tokens, i)) return i;
  }
  return bound;
}

function keep(statement: Statement, context: AstContext, result: ParseResult): void {
  result.statements.push(statement);
  append(result.diagnostics, context.notes);
}

/** Only single-token repairs (a `)` inserted, a stray token skipped), and no re-synchronisation. */
function isFullyRecovered(errors: IRecognitionException[]): boolean {
  return errors.every((error) => error.name === "MismatchedTokenException" && (error.resyncedTokens?.length ?? 0) === 0);
}

/** The index in `slice` of the token each error is about (the slice length for end of input). */
function focusOf(errors: IRecognitionException[], focusTokens: IToken[], slice: IToken[]): number[] {
  let nextFocus = 0;
  return errors.map((error) => {
    let token = error.token;
    if (error.name === "NoViableAltException" || error.name === "EarlyExitException") token = focusTokens[nextFocus++] ?? token;
    if (token.tokenType === EOF) return slice.length;
    const at = slice.indexOf(token);
    return at >= 0 ? at : slice.length;
  });
}

function rangeAt(slice: IToken[], at: number): SourceRange {
  const token = slice[at];
  if (token) return tokenSpan(token);
  // End of the statement: point just past its last token.
  return pointAfter(slice.at(-1)!);
}

function rangeOfSlice(slice: IToken[]): SourceRange {
  return tokenSpan(slice[0]!, slice.at(-1)!);
}

/**
 * After an error at `at`: the next line that starts a statement within the slice (the token of the
 * error itself, when it starts one: "found SELECT" often means the previous statement was cut
 * short), else the end of the slice.
 */
function resumeAfter(slice: IToken[], at: number, index: number, end: number): number {
  for (let i = Math.max(at, 1); i < slice.length; i++) {
    if (looksLikeStatementStart(slice, i)) return index + i;
  }
  return end;
}

function syntaxError(message: string, range: SourceRange): ParseDiagnostic {
  return { code: "cql-syntax-error", severity: "error", message, range };
}

function info(message: string, tokens: TokenSource, index: number, end: number): ParseDiagnostic {
  let last = Math.max(index, end - 1);
  if (tokens.at(last)?.tokenType === T.Semicolon && last > index) last--;
  return {
    code: "cql-unsupported-statement",
    severity: "info",
    message,
    range: tokenSpan(tokens.at(index)!, tokens.at(last)!),
  };
}

// ---------------------------------------------------------------------------------------------
// What non-CQL text usually is, said before the expected/found part of the message.

function withHint(message: string, slice: IToken[], at: number): string {
  const hint = hintFor(slice, at);
  return hint ? `${hint}: ${message}` : message;
}

function hintFor(slice: IToken[], at: number): string | undefined {
  const token = slice[at];
  if (!token) return undefined;
  const next = slice[at + 1];
  const image = token.image;
  if (token.tokenType === T.UnterminatedString) return "unterminated string: this `'` is never closed";
  if (token.tokenType === T.UnterminatedDollarString) return "unterminated string: this `$$` is never closed";
  if (token.tokenType === T.UnterminatedQuotedIdentifier) return 'unterminated quoted name: this `"` is never closed';
  if (token.tokenType === T.UnterminatedBlockComment) return "unterminated comment: this `/*` is never closed by `*/`";
  const lineStart = at === 0 || (slice[at - 1]!.endLine ?? 0) < (token.startLine ?? 0);
  if (lineStart && sameTokenRun(slice, at, 7) && [T.Less, T.Equals, T.Greater].includes(token.tokenType as never)) {
    return "git merge conflict marker";
  }
  if (token.tokenType === T.UnknownCharacters) {
    if (image.startsWith("$") && next?.tokenType === T.LBrace) return "template placeholder `${…}` is not CQL";
    if (image.startsWith("#")) return "`#` does not start a comment in CQL (use `--` or `//`)";
    if (image.startsWith("|")) return PASTED_OUTPUT;
    return `\`${image}\` is not a CQL character`;
  }
  if (token.tokenType === T.LBrace && next?.tokenType === T.LBrace) return "template placeholder `{{…}}` is not CQL";
  // Documentation writes `...` for "the rest of the statement"; the lexer reads it as `..` and `.`.
  if (token.tokenType === T.Range && next?.tokenType === T.Dot && next.startOffset === token.startOffset + 2) {
    return "`...` (text left out, as in documentation) is not CQL";
  }
  if (token.tokenType === T.Less && next?.tokenType === T.IntegerLiteral && slice[at + 2]?.tokenType === T.Greater) {
    return "documentation callout `<n>` is not CQL";
  }
  if (token.tokenType === T.Minus && sameTokenRun(slice, at, 3)) return PASTED_OUTPUT;
  if (token.tokenType === T.LParen && /^\d+$/.test(next?.image ?? "") && /^rows?$/i.test(slice[at + 2]?.image ?? "")) return PASTED_OUTPUT;
  // A table row: `value | value` on the line of the error.
  for (let i = at + 1; i < slice.length && slice[i]!.startLine === token.startLine; i++) {
    if (slice[i]!.tokenType === T.UnknownCharacters && slice[i]!.image.startsWith("|")) return PASTED_OUTPUT;
  }
  return undefined;
}

const PASTED_OUTPUT = "this looks like pasted cqlsh output, which is not CQL";

/** `count` adjacent tokens of the same type with no space between (`<<<<<<<`, `-----`). */
function sameTokenRun(slice: IToken[], at: number, count: number): boolean {
  const type = slice[at]!.tokenType;
  for (let i = 1; i < count; i++) {
    const token = slice[at + i];
    if (!token || token.tokenType !== type || token.startOffset !== slice[at + i - 1]!.startOffset + 1) return false;
  }
  return true;
}
