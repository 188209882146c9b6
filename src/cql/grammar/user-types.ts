// User-defined types (Parser.g `createTypeStatement`, `typeColumns`, `alterTypeStatement`,
// `dropTypeStatement`).
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";

export function defineUserTypeRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  defineRule(grammar, "createTypeStatement", () => {
    $.CONSUME(T.Create);
    $.CONSUME(T.Type);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Not);
      $.CONSUME(T.Exists);
    });
    $.SUBRULE(rules.qualifiedName, { LABEL: "name" });
    $.CONSUME(T.LParen);
    $.SUBRULE(rules.typeColumns);
    $.MANY(() => {
      $.CONSUME(T.Comma);
      $.OPTION1(() => $.SUBRULE1(rules.typeColumns));
    });
    $.CONSUME(T.RParen);
  });

  defineRule(grammar, "typeColumns", () => {
    $.CONSUME(T.Name, { LABEL: "name" });
    $.SUBRULE(rules.comparatorType, { LABEL: "type" });
  });

  defineRule(grammar, "alterTypeStatement", () => {
    $.CONSUME(T.Alter);
    $.CONSUME(T.Type);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Exists);
    });
    $.SUBRULE(rules.qualifiedName, { LABEL: "name" });
    $.OR([
      {
        ALT: () => {
          $.CONSUME1(T.Alter, { LABEL: "alterField" });
          $.CONSUME(T.Name, { LABEL: "field" });
          $.CONSUME1(T.Type);
          $.SUBRULE(rules.comparatorType, { LABEL: "type" });
        },
      },
      {
        ALT: () => {
          $.CONSUME(T.Add, { LABEL: "add" });
          $.OPTION1(() => {
            $.CONSUME1(T.If, { LABEL: "addIf" });
            $.CONSUME(T.Not);
            $.CONSUME1(T.Exists);
          });
          $.CONSUME1(T.Name, { LABEL: "field" });
          $.SUBRULE1(rules.comparatorType, { LABEL: "type" });
        },
      },
      {
        ALT: () => {
          $.CONSUME(T.Rename, { LABEL: "rename" });
          $.OPTION2(() => {
            $.CONSUME2(T.If, { LABEL: "renameIf" });
            $.CONSUME2(T.Exists);
          });
          $.SUBRULE(rules.renamePair);
          $.MANY(() => {
            $.CONSUME(T.And);
            $.SUBRULE1(rules.renamePair);
          });
        },
      },
    ]);
  });

  defineRule(grammar, "dropTypeStatement", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.Type);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Exists);
    });
    $.SUBRULE(rules.qualifiedName, { LABEL: "name" });
  });
}
