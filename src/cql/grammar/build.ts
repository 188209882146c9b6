// AST pieces built from single tokens, shared by the production modules: names, native types,
// literals, bind markers, and the parts every statement has.
import type { IToken } from "chevrotain";
import type { BindMarker, CqlType, Identifier, Literal, LiteralType, NativeTypeName, OptionEntry, QualifiedName, SourceRange } from "../ast.js";
import { spanBetween, tokenSpan } from "../source-span.js";
import * as T from "../tokens.js";
import { IncompleteTreeError, type AstContext } from "./api.js";

export function unquoteIdentifier(image: string): string {
  return image.slice(1, -1).replace(/""/g, '"');
}

export function unquoteString(image: string): string {
  const content = image.slice(1, -1);
  return content.includes("''") ? content.replace(/''/g, "'") : content;
}

/** Unquoted names fold to lower case; quoted names (and string-literal names) keep theirs. */
export function identifier(token: IToken): Identifier {
  if (token.isInsertedInRecovery) throw new IncompleteTreeError("name inserted by recovery");
  const range = tokenSpan(token);
  if (token.tokenType === T.QuotedIdentifier) return { name: unquoteIdentifier(token.image), text: token.image, quoted: true, range };
  if (token.tokenType === T.StringLiteral) return { name: unquoteString(token.image), text: token.image, quoted: true, range };
  return { name: token.image.toLowerCase(), text: token.image, quoted: false, range };
}

/** A single name as a QualifiedName (keyspaces, roles, triggers have no keyspace part). */
export function bareQualifiedName(token: IToken): QualifiedName {
  const name = identifier(token);
  return { name, range: name.range };
}

export function nativeType(token: IToken): CqlType {
  if (token.isInsertedInRecovery) throw new IncompleteTreeError("type inserted by recovery");
  return { kind: "native", name: token.image.toLowerCase() as NativeTypeName, range: tokenSpan(token) };
}

const LITERAL_TYPES = new Map<unknown, LiteralType>([
  [T.StringLiteral, "string"],
  [T.DollarStringLiteral, "string"],
  [T.IntegerLiteral, "integer"],
  [T.FloatLiteral, "float"],
  [T.True, "boolean"],
  [T.False, "boolean"],
  [T.UuidLiteral, "uuid"],
  [T.BlobLiteral, "blob"],
  [T.DurationLiteral, "duration"],
  [T.IsoDurationLiteral, "duration"],
  [T.Null, "null"],
  [T.NanKw, "nan"],
  [T.InfinityKw, "infinity"],
]);

export function literal(token: IToken): Literal {
  if (token.isInsertedInRecovery) throw new IncompleteTreeError("literal inserted by recovery");
  const type = LITERAL_TYPES.get(token.tokenType);
  if (!type) throw new IncompleteTreeError(`not a literal: ${token.tokenType.name}`);
  let value = token.image;
  if (token.tokenType === T.StringLiteral) value = unquoteString(token.image);
  else if (token.tokenType === T.DollarStringLiteral) value = token.image.slice(2, -2);
  return { kind: "literal", type, value, range: tokenSpan(token) };
}

/** `?` or `:name`. */
export function bindMarker(marker: IToken, name: IToken | undefined): BindMarker {
  if (!name) return { kind: "bind", range: tokenSpan(marker) };
  return { kind: "bind", name: identifier(name).name, range: spanBetween(tokenSpan(marker), tokenSpan(name)) };
}

/** What every statement has: its range (without the `;`) and its source text. */
export function statementBase(range: SourceRange, context: AstContext): { range: SourceRange; text: string } {
  return { range, text: context.text.slice(range.start.offset, range.end.offset) };
}

/** Options that only one vendor's CQL accepts, reported so a team knows its schema is not portable. */
const VENDOR_OPTIONS = new Map<string, string>([
  ["tags", "Amazon Keyspaces"],
  ["custom_properties", "Amazon Keyspaces"],
  ["nodesync", "DataStax Enterprise"],
  ["tombstone_gc", "ScyllaDB"],
  ["per_partition_rate_limit", "ScyllaDB"],
  ["synchronous_updates", "ScyllaDB"],
]);

export function noteVendorOptions(options: OptionEntry[], context: AstContext): void {
  for (const option of options) {
    const vendor = VENDOR_OPTIONS.get(option.name.name);
    if (!vendor) continue;
    context.notes.push({
      code: "cql-unsupported-statement",
      severity: "info",
      message: `option ${option.name.name} is specific to ${vendor}; Apache Cassandra rejects it`,
      range: option.range,
    });
  }
}
