// Names (Parser.g `cident`, `columnFamilyName`, `userTypeName`, `functionName`). A name is an
// identifier, a quoted identifier or an unreserved keyword: the `Name` token category.
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";

export function defineIdentifierRules(grammar: Grammar): void {
  const { $ } = grammar;

  // `[keyspace.]name` for tables, views, types, indexes (Parser.g `columnFamilyName`, `userTypeName`).
  defineRule(grammar, "qualifiedName", () => {
    $.CONSUME(T.Name, { LABEL: "first" });
    $.OPTION(() => {
      $.CONSUME(T.Dot);
      $.CONSUME1(T.Name, { LABEL: "second" });
    });
  });

  // `[keyspace.]function`; `token` is reserved but still names a function (Parser.g `functionName`).
  defineRule(grammar, "functionName", () => {
    $.OR([
      { ALT: () => $.CONSUME(T.Token, { LABEL: "second" }) },
      {
        ALT: () => {
          $.CONSUME(T.Name, { LABEL: "first" });
          $.OPTION(() => {
            $.CONSUME(T.Dot);
            $.OR1([
              { ALT: () => $.CONSUME1(T.Name, { LABEL: "second" }) },
              { ALT: () => $.CONSUME1(T.Token, { LABEL: "second" }) },
            ]);
          });
        },
      },
    ]);
  });
}
