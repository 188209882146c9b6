// Materialized views (Parser.g `createMaterializedViewStatement`, `alterMaterializedViewStatement`,
// `dropMaterializedViewStatement`).
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";

export function defineViewRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  defineRule(grammar, "createMaterializedViewStatement", () => {
    $.CONSUME(T.Create);
    $.CONSUME(T.Materialized);
    $.CONSUME(T.View);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Not);
      $.CONSUME(T.Exists);
    });
    $.SUBRULE(rules.qualifiedName, { LABEL: "name" });
    $.CONSUME(T.As);
    $.CONSUME(T.Select);
    $.OR([
      { ALT: () => $.CONSUME(T.Star, { LABEL: "star" }) },
      {
        ALT: () => {
          $.CONSUME(T.Name, { LABEL: "column" });
          $.MANY(() => {
            $.CONSUME(T.Comma);
            $.CONSUME1(T.Name, { LABEL: "column" });
          });
        },
      },
    ]);
    $.CONSUME(T.From);
    $.SUBRULE1(rules.qualifiedName, { LABEL: "baseTable" });
    $.CONSUME(T.Where);
    $.SUBRULE(rules.whereClause);
    $.SUBRULE(rules.primaryKeyDefinition);
    $.OPTION1(() => $.SUBRULE(rules.tableProperties));
  });

  defineRule(grammar, "alterMaterializedViewStatement", () => {
    $.CONSUME(T.Alter);
    $.CONSUME(T.Materialized);
    $.CONSUME(T.View);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Exists);
    });
    $.SUBRULE(rules.qualifiedName, { LABEL: "name" });
    $.CONSUME(T.With);
    $.SUBRULE(rules.properties);
  });

  defineRule(grammar, "dropMaterializedViewStatement", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.Materialized);
    $.CONSUME(T.View);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Exists);
    });
    $.SUBRULE(rules.qualifiedName, { LABEL: "name" });
  });
}
