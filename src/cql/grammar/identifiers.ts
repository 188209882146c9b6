// Names (Parser.g `cident`, `columnFamilyName`, `userTypeName`, `functionName`). A name is an
// identifier, a quoted identifier or an unreserved keyword: the `Name` token category.
import type { IOrAlt } from "chevrotain";
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";

export function defineIdentifierRules(grammar: Grammar): void {
  const { $ } = grammar;

  // `[keyspace.]name` for tables, views, types, indexes (Parser.g `columnFamilyName`, `userTypeName`).
  const keyspacePart = () => {
    $.CONSUME(T.Dot);
    $.CONSUME1(T.Name, { LABEL: "second" });
  };
  defineRule(grammar, "qualifiedName", () => {
    $.CONSUME(T.Name, { LABEL: "first" });
    $.OPTION(keyspacePart);
  });

  // `[keyspace.]function`; `token` is reserved but still names a function (Parser.g `functionName`).
  const functionNameParts: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME1(T.Name, { LABEL: "second" }) },
    { ALT: () => $.CONSUME1(T.Token, { LABEL: "second" }) },
  ];
  const qualifiedFunction = () => {
    $.CONSUME(T.Dot);
    $.OR1(functionNameParts);
  };
  const functionNames: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.Token, { LABEL: "second" }) },
    {
      ALT: () => {
        $.CONSUME(T.Name, { LABEL: "first" });
        $.OPTION(qualifiedFunction);
      },
    },
  ];
  defineRule(grammar, "functionName", () => {
    $.OR(functionNames);
  });
}
