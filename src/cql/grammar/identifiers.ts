// Names (Parser.g `cident`, `columnFamilyName`, `userTypeName`, `functionName`). A name is an
// identifier, a quoted identifier or an unreserved keyword: the `Name` token category.
import type { IOrAlt, IToken } from "chevrotain";
import type { QualifiedName } from "../ast.js";
import * as T from "../tokens.js";
import { defineRule, rangeFrom, RECORDING, type Grammar } from "./api.js";
import { identifier } from "./build.js";

declare module "./api.js" {
  interface RuleTypes {
    qualifiedName: QualifiedName;
    functionName: QualifiedName;
  }
}

export function defineIdentifierRules(grammar: Grammar): void {
  const { $ } = grammar;

  // `[keyspace.]name` for tables, views, types, indexes (Parser.g `columnFamilyName`, `userTypeName`).
  const keyspacePart = () => {
    $.CONSUME(T.Dot);
    return $.CONSUME1(T.Name);
  };
  defineRule(grammar, "qualifiedName", () => {
    const first = $.CONSUME(T.Name);
    const second = $.OPTION(keyspacePart);
    if ($.RECORDING_PHASE) return RECORDING;
    const range = rangeFrom($, first);
    return second ? { keyspace: identifier(first), name: identifier(second), range } : { name: identifier(first), range };
  });

  // `[keyspace.]function`; `token` is reserved but still names a function (Parser.g `functionName`).
  const functionNameParts: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME1(T.Name) }, { ALT: () => $.CONSUME1(T.Token) }];
  const qualifiedFunction = () => {
    $.CONSUME(T.Dot);
    return $.OR1(functionNameParts);
  };
  const functionNames: IOrAlt<[IToken | undefined, IToken | undefined]>[] = [
    { ALT: () => [undefined, $.CONSUME(T.Token)] },
    { ALT: () => [$.CONSUME(T.Name), $.OPTION(qualifiedFunction)] },
  ];
  defineRule(grammar, "functionName", () => {
    const start = $.LA(1);
    const parts = $.OR(functionNames);
    // While recording, OR returns a placeholder object, not the alternative's array.
    if ($.RECORDING_PHASE) return RECORDING;
    const [first, second] = parts;
    const range = rangeFrom($, start);
    if (first && second) return { keyspace: identifier(first), name: identifier(second), range };
    return { name: identifier(first ?? second!), range };
  });
}
