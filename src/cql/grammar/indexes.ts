// Secondary indexes (Parser.g `createIndexStatement`, `indexIdent`, `dropIndexStatement`).
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";

export function defineIndexRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  defineRule(grammar, "createIndexStatement", () => {
    $.CONSUME(T.Create);
    $.OPTION(() => $.CONSUME(T.Custom, { LABEL: "custom" }));
    $.CONSUME(T.Index);
    $.OPTION1(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Not);
      $.CONSUME(T.Exists);
    });
    $.OPTION2(() => $.CONSUME(T.Name, { LABEL: "name" }));
    $.CONSUME(T.On);
    $.SUBRULE(rules.qualifiedName, { LABEL: "table" });
    $.CONSUME(T.LParen);
    $.OPTION3(() => {
      $.SUBRULE(rules.indexIdent);
      $.MANY(() => {
        $.CONSUME(T.Comma);
        $.SUBRULE1(rules.indexIdent);
      });
    });
    $.CONSUME(T.RParen);
    $.OPTION4(() => {
      $.CONSUME(T.Using);
      $.CONSUME(T.StringLiteral, { LABEL: "using" });
    });
    $.OPTION5(() => {
      $.CONSUME(T.With);
      $.SUBRULE(rules.properties);
    });
  });

  // `col`, `KEYS(col)`, `VALUES(col)`, `ENTRIES(col)`, `FULL(col)`.
  defineRule(grammar, "indexIdent", () => {
    $.OR([
      {
        GATE: () => $.LA(2).tokenType === T.LParen,
        ALT: () => {
          $.OR1([
            { ALT: () => $.CONSUME(T.Keys, { LABEL: "targetKind" }) },
            { ALT: () => $.CONSUME(T.Values, { LABEL: "targetKind" }) },
            { ALT: () => $.CONSUME(T.Entries, { LABEL: "targetKind" }) },
            { ALT: () => $.CONSUME(T.Full, { LABEL: "targetKind" }) },
          ]);
          $.CONSUME(T.LParen);
          $.CONSUME(T.Name, { LABEL: "column" });
          $.CONSUME(T.RParen);
        },
      },
      { ALT: () => $.CONSUME1(T.Name, { LABEL: "column" }) },
    ]);
  });

  defineRule(grammar, "dropIndexStatement", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.Index);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Exists);
    });
    $.SUBRULE(rules.qualifiedName, { LABEL: "name" });
  });
}
