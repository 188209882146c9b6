// Functions, aggregates, triggers (Parser.g `createFunctionStatement`, `dropFunctionStatement`,
// `createAggregateStatement`, `dropAggregateStatement`, `createTriggerStatement`,
// `dropTriggerStatement`).
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";

export function defineFunctionRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  const orReplace = () =>
    $.OPTION9(() => {
      $.CONSUME9(T.Or, { LABEL: "orReplace" });
      $.CONSUME9(T.Replace);
    });
  const ifNotExists = () =>
    $.OPTION8(() => {
      $.CONSUME8(T.If);
      $.CONSUME8(T.Not);
      $.CONSUME8(T.Exists);
    });
  const ifExists = () =>
    $.OPTION7(() => {
      $.CONSUME7(T.If);
      $.CONSUME7(T.Exists);
    });

  defineRule(grammar, "createFunctionStatement", () => {
    $.CONSUME(T.Create);
    orReplace();
    $.CONSUME(T.FunctionKw);
    ifNotExists();
    $.SUBRULE(rules.functionName, { LABEL: "name" });
    $.CONSUME(T.LParen);
    $.OPTION(() => {
      $.SUBRULE(rules.functionParameter);
      $.MANY(() => {
        $.CONSUME(T.Comma);
        $.SUBRULE1(rules.functionParameter);
      });
    });
    $.CONSUME(T.RParen);
    $.OR([
      { ALT: () => $.CONSUME(T.Called, { LABEL: "called" }) },
      {
        ALT: () => {
          $.CONSUME(T.Returns, { LABEL: "returnsNull" });
          $.CONSUME(T.Null);
        },
      },
    ]);
    $.CONSUME(T.On);
    $.CONSUME1(T.Null);
    $.CONSUME(T.Input);
    $.CONSUME1(T.Returns);
    $.SUBRULE(rules.comparatorType, { LABEL: "returnType" });
    // DataStax Enterprise: DETERMINISTIC, MONOTONIC [ON arg].
    $.MANY1(() => {
      $.OR1([
        { ALT: () => $.CONSUME(T.Deterministic, { LABEL: "deterministic" }) },
        {
          ALT: () => {
            $.CONSUME(T.Monotonic, { LABEL: "monotonic" });
            $.OPTION1(() => {
              $.CONSUME1(T.On);
              $.CONSUME(T.Name, { LABEL: "monotonicOn" });
            });
          },
        },
      ]);
    });
    $.CONSUME(T.Language);
    $.CONSUME1(T.Name, { LABEL: "language" });
    $.CONSUME(T.As);
    $.OR2([
      { ALT: () => $.CONSUME(T.StringLiteral, { LABEL: "body" }) },
      { ALT: () => $.CONSUME(T.DollarStringLiteral, { LABEL: "body" }) },
    ]);
  });

  defineRule(grammar, "functionParameter", () => {
    $.CONSUME(T.Name, { LABEL: "name" });
    $.SUBRULE(rules.comparatorType, { LABEL: "type" });
  });

  // `(type, …)`: the argument types of a function or aggregate.
  defineRule(grammar, "typeList", () => {
    $.CONSUME(T.LParen);
    $.OPTION(() => {
      $.SUBRULE(rules.comparatorType, { LABEL: "type" });
      $.MANY(() => {
        $.CONSUME(T.Comma);
        $.SUBRULE1(rules.comparatorType, { LABEL: "type" });
      });
    });
    $.CONSUME(T.RParen);
  });

  defineRule(grammar, "dropFunctionStatement", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.FunctionKw);
    ifExists();
    $.SUBRULE(rules.functionName, { LABEL: "name" });
    $.OPTION(() => $.SUBRULE(rules.typeList, { LABEL: "signature" }));
  });

  defineRule(grammar, "createAggregateStatement", () => {
    $.CONSUME(T.Create);
    orReplace();
    $.CONSUME(T.Aggregate);
    ifNotExists();
    $.SUBRULE(rules.functionName, { LABEL: "name" });
    $.SUBRULE(rules.typeList, { LABEL: "argumentTypes" });
    $.CONSUME(T.Sfunc);
    $.SUBRULE1(rules.functionName, { LABEL: "stateFunction" });
    $.CONSUME(T.Stype);
    $.SUBRULE(rules.comparatorType, { LABEL: "stateType" });
    $.OPTION(() => {
      $.CONSUME(T.Finalfunc);
      $.SUBRULE2(rules.functionName, { LABEL: "finalFunction" });
    });
    $.OPTION1(() => {
      $.CONSUME(T.Initcond);
      $.SUBRULE(rules.term, { LABEL: "initialCondition" });
    });
    $.OPTION2(() => $.CONSUME(T.Deterministic, { LABEL: "deterministic" }));
  });

  defineRule(grammar, "dropAggregateStatement", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.Aggregate);
    ifExists();
    $.SUBRULE(rules.functionName, { LABEL: "name" });
    $.OPTION(() => $.SUBRULE(rules.typeList, { LABEL: "signature" }));
  });

  defineRule(grammar, "createTriggerStatement", () => {
    $.CONSUME(T.Create);
    $.CONSUME(T.Trigger);
    ifNotExists();
    $.CONSUME(T.Name, { LABEL: "name" });
    $.CONSUME(T.On);
    $.SUBRULE(rules.qualifiedName, { LABEL: "table" });
    $.CONSUME(T.Using);
    $.CONSUME(T.StringLiteral, { LABEL: "className" });
  });

  defineRule(grammar, "dropTriggerStatement", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.Trigger);
    ifExists();
    $.CONSUME(T.Name, { LABEL: "name" });
    $.CONSUME(T.On);
    $.SUBRULE(rules.qualifiedName, { LABEL: "table" });
  });
}
