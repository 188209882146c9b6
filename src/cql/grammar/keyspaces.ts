// Keyspaces (Parser.g `createKeyspaceStatement`, `alterKeyspaceStatement`, `dropKeyspaceStatement`,
// `useStatement`).
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";

export function defineKeyspaceRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  defineRule(grammar, "createKeyspaceStatement", () => {
    $.CONSUME(T.Create);
    $.CONSUME(T.Keyspace);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Not);
      $.CONSUME(T.Exists);
    });
    $.CONSUME(T.Name, { LABEL: "name" });
    $.CONSUME(T.With);
    $.SUBRULE(rules.properties);
  });

  defineRule(grammar, "alterKeyspaceStatement", () => {
    $.CONSUME(T.Alter);
    $.CONSUME(T.Keyspace);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Exists);
    });
    $.CONSUME(T.Name, { LABEL: "name" });
    $.CONSUME(T.With);
    $.SUBRULE(rules.properties);
  });

  defineRule(grammar, "dropKeyspaceStatement", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.Keyspace);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Exists);
    });
    $.CONSUME(T.Name, { LABEL: "name" });
  });

  defineRule(grammar, "useStatement", () => {
    $.CONSUME(T.Use);
    $.CONSUME(T.Name, { LABEL: "name" });
  });
}
