// Functions, aggregates, triggers (Parser.g `createFunctionStatement`, `dropFunctionStatement`,
// `createAggregateStatement`, `dropAggregateStatement`, `createTriggerStatement`,
// `dropTriggerStatement`).
import type { IOrAlt, IToken } from "chevrotain";
import type {
  CqlType,
  CreateAggregateStatement,
  CreateFunctionStatement,
  CreateTriggerStatement,
  DropFunctionStatement,
  DropStatement,
  QualifiedName,
} from "../ast.js";
import * as T from "../tokens.js";
import { defineRule, ifExistsClause, ifNotExistsClause, rangeFrom, RECORDING, required, requiredToken, type Grammar } from "./api.js";
import { bareQualifiedName, identifier, literal, statementBase, unquoteString } from "./build.js";

declare module "./api.js" {
  interface RuleTypes {
    createFunctionStatement: CreateFunctionStatement;
    functionParameter: FunctionParameter;
    typeList: CqlType[];
    dropFunctionStatement: DropFunctionStatement;
    createAggregateStatement: CreateAggregateStatement;
    dropAggregateStatement: DropFunctionStatement;
    createTriggerStatement: CreateTriggerStatement;
    dropTriggerStatement: DropStatement;
  }
}

export type FunctionParameter = CreateFunctionStatement["parameters"][number];

export function defineFunctionRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  const orReplaceWords = () => {
    const or = $.CONSUME9(T.Or);
    $.CONSUME9(T.Replace);
    return or;
  };
  const orReplace = () => $.OPTION9(orReplaceWords);
  const ifNotExistsWords = ifNotExistsClause($, 8);
  const ifNotExists = () => $.OPTION8(ifNotExistsWords);
  const ifExistsWords = ifExistsClause($, 7);
  const ifExists = () => $.OPTION7(ifExistsWords);

  // `CALLED ON NULL INPUT` (true) or `RETURNS NULL ON NULL INPUT` (false): the first words.
  const nullInputForms: IOrAlt<boolean>[] = [
    {
      ALT: () => {
        $.CONSUME(T.Called);
        return true;
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Returns);
        $.CONSUME(T.Null);
        return false;
      },
    },
  ];
  const monotonicOn = () => {
    $.CONSUME1(T.On);
    $.CONSUME(T.Name);
  };
  // DataStax Enterprise: DETERMINISTIC, MONOTONIC [ON arg]; each returns its keyword.
  const functionFlags: IOrAlt<IToken>[] = [
    { ALT: () => $.CONSUME(T.Deterministic) },
    {
      ALT: () => {
        const monotonic = $.CONSUME(T.Monotonic);
        $.OPTION1(monotonicOn);
        return monotonic;
      },
    },
  ];
  const bodyForms: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.StringLiteral) }, { ALT: () => $.CONSUME(T.DollarStringLiteral) }];
  defineRule(grammar, "createFunctionStatement", () => {
    const start = $.CONSUME(T.Create);
    const replace = orReplace();
    $.CONSUME(T.FunctionKw);
    const ifNot = ifNotExists();
    const name = $.SUBRULE(rules.functionName);
    $.CONSUME(T.LParen);
    const parameters: FunctionParameter[] = [];
    $.OPTION(() => {
      parameters.push($.SUBRULE(rules.functionParameter));
      $.MANY(() => {
        $.CONSUME(T.Comma);
        parameters.push($.SUBRULE1(rules.functionParameter));
      });
    });
    $.CONSUME(T.RParen);
    const calledOnNullInput = $.OR(nullInputForms);
    $.CONSUME(T.On);
    $.CONSUME1(T.Null);
    $.CONSUME(T.Input);
    $.CONSUME1(T.Returns);
    const returnType = $.SUBRULE(rules.comparatorType);
    const flags: IToken[] = [];
    $.MANY1(() => {
      flags.push($.OR1(functionFlags));
    });
    $.CONSUME(T.Language);
    const language = $.CONSUME1(T.Name);
    $.CONSUME(T.As);
    const body = $.OR2(bodyForms);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return {
      kind: "create-function",
      orReplace: replace !== undefined,
      ifNotExists: ifNot !== undefined,
      name: required(name, "function name"),
      parameters,
      calledOnNullInput,
      returns: required(returnType, "return type"),
      language: identifier(requiredToken(language, "language")).name,
      body: literal(requiredToken(body, "function body")).value,
      deterministic: flags.some((flag) => flag.tokenType === T.Deterministic),
      monotonic: flags.some((flag) => flag.tokenType === T.Monotonic),
      range,
      text,
    };
  });

  defineRule(grammar, "functionParameter", () => {
    const name = $.CONSUME(T.Name);
    const type = $.SUBRULE(rules.comparatorType);
    if ($.RECORDING_PHASE) return RECORDING;
    return { name: identifier(requiredToken(name, "parameter name")), type: required(type, "parameter type") };
  });

  // `(type, …)`: the argument types of a function or aggregate.
  defineRule(grammar, "typeList", () => {
    $.CONSUME(T.LParen);
    const types: CqlType[] = [];
    $.OPTION(() => {
      types.push($.SUBRULE(rules.comparatorType));
      $.MANY(() => {
        $.CONSUME(T.Comma);
        types.push($.SUBRULE1(rules.comparatorType));
      });
    });
    $.CONSUME(T.RParen);
    if ($.RECORDING_PHASE) return RECORDING;
    return types;
  });

  const signature = () => $.SUBRULE(rules.typeList);
  /** DROP FUNCTION and DROP AGGREGATE: the same statement but for the keyword. */
  const dropFunction = (kind: DropFunctionStatement["kind"], keyword: typeof T.FunctionKw): DropFunctionStatement => {
    const start = $.CONSUME(T.Drop);
    $.CONSUME(keyword);
    const exists = ifExists();
    const name = $.SUBRULE(rules.functionName);
    const types = $.OPTION(signature);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const functionName = required(name, "function name");
    const ifExistsFlag = exists !== undefined;
    if (types === undefined) return { kind, name: functionName, ifExists: ifExistsFlag, range, text };
    return { kind, name: functionName, ifExists: ifExistsFlag, signature: types, range, text };
  };
  defineRule(grammar, "dropFunctionStatement", () => dropFunction("drop-function", T.FunctionKw));

  const finalFunction = () => {
    $.CONSUME(T.Finalfunc);
    return $.SUBRULE2(rules.functionName);
  };
  const initialCondition = () => {
    $.CONSUME(T.Initcond);
    return $.SUBRULE(rules.term);
  };
  const deterministic = () => $.CONSUME(T.Deterministic);
  defineRule(grammar, "createAggregateStatement", () => {
    const start = $.CONSUME(T.Create);
    const replace = orReplace();
    $.CONSUME(T.Aggregate);
    const ifNot = ifNotExists();
    const name = $.SUBRULE(rules.functionName);
    const argumentTypes = $.SUBRULE(rules.typeList);
    $.CONSUME(T.Sfunc);
    const stateFunction = $.SUBRULE1(rules.functionName);
    $.CONSUME(T.Stype);
    const stateType = $.SUBRULE(rules.comparatorType);
    const final = $.OPTION(finalFunction);
    const initial = $.OPTION1(initialCondition);
    // DSE's DETERMINISTIC is accepted; the AST does not keep it.
    $.OPTION2(deterministic);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const aggregate = {
      kind: "create-aggregate",
      orReplace: replace !== undefined,
      ifNotExists: ifNot !== undefined,
      name: required(name, "aggregate name"),
      argumentTypes: required(argumentTypes, "argument types"),
      stateFunction: required(stateFunction, "state function"),
      stateType: required(stateType, "state type"),
    } as CreateAggregateStatement;
    // Optional members are assigned in the order of the type, so the JSON of a tree keeps its shape.
    if (final) aggregate.finalFunction = final;
    if (initial) aggregate.initialCondition = initial;
    aggregate.range = range;
    aggregate.text = text;
    return aggregate;
  });

  defineRule(grammar, "dropAggregateStatement", () => dropFunction("drop-aggregate", T.Aggregate));

  defineRule(grammar, "createTriggerStatement", () => {
    const start = $.CONSUME(T.Create);
    $.CONSUME(T.Trigger);
    const ifNot = ifNotExists();
    const name = $.CONSUME(T.Name);
    $.CONSUME(T.On);
    const table = $.SUBRULE(rules.qualifiedName);
    $.CONSUME(T.Using);
    const className = $.CONSUME(T.StringLiteral);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return {
      kind: "create-trigger",
      name: identifier(requiredToken(name, "trigger name")),
      ifNotExists: ifNot !== undefined,
      table: required(table, "table"),
      className: unquoteString(requiredToken(className, "trigger class").image),
      range,
      text,
    };
  });

  defineRule(grammar, "dropTriggerStatement", () => {
    const start = $.CONSUME(T.Drop);
    $.CONSUME(T.Trigger);
    const exists = ifExists();
    const name = $.CONSUME(T.Name);
    $.CONSUME(T.On);
    const table = $.SUBRULE(rules.qualifiedName);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const trigger: QualifiedName = bareQualifiedName(requiredToken(name, "trigger name"));
    return {
      kind: "drop-trigger",
      name: trigger,
      ifExists: exists !== undefined,
      range,
      text,
      table: required(table, "table"),
    };
  });
}
