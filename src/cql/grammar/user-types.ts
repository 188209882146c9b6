// User-defined types (Parser.g `createTypeStatement`, `typeColumns`, `alterTypeStatement`,
// `dropTypeStatement`).
import type { IOrAlt, IToken } from "chevrotain";
import type { AlterTypeStatement, CqlType, CreateTypeStatement, DropStatement } from "../ast.js";
import { spanBetween, tokenSpan } from "../source-span.js";
import * as T from "../tokens.js";
import { defineRule, ifExistsClause, ifNotExistsClause, rangeFrom, RECORDING, required, type Grammar } from "./api.js";
import { identifier, statementBase } from "./build.js";
import type { RenamePair } from "./tables.js";

type TypeField = CreateTypeStatement["fields"][number];
type AlterTypeAction = AlterTypeStatement["action"];

/**
 * What ALTER TYPE does, as read: the action's first token (its range runs from there to the end of
 * the statement) and its parts.
 */
type FieldChange =
  | { start: IToken; kind: "alter-type"; field: IToken; type: CqlType }
  | { start: IToken; kind: "add"; ifNotExists: boolean; field: IToken; type: CqlType }
  | { start: IToken; kind: "rename"; ifExists: boolean; renames: RenamePair[] };

declare module "./api.js" {
  interface RuleTypes {
    createTypeStatement: CreateTypeStatement;
    typeColumns: TypeField;
    alterTypeStatement: AlterTypeStatement;
    dropTypeStatement: DropStatement;
  }
}

export function defineUserTypeRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  const ifNotExists = ifNotExistsClause($);
  const ifExists = ifExistsClause($);

  const optionalField = () => $.SUBRULE1(rules.typeColumns);
  defineRule(grammar, "createTypeStatement", () => {
    const start = $.CONSUME(T.Create);
    $.CONSUME(T.Type);
    const existence = $.OPTION(ifNotExists);
    const name = $.SUBRULE(rules.qualifiedName);
    $.CONSUME(T.LParen);
    const fields = [$.SUBRULE(rules.typeColumns)];
    $.MANY(() => {
      $.CONSUME(T.Comma);
      // undefined for an empty entry (a trailing comma), or for one recovery gave up on
      const field = $.OPTION1(optionalField);
      if (field !== undefined) fields.push(field);
    });
    $.CONSUME(T.RParen);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return {
      kind: "create-type",
      name: required(name, "type name"),
      ifNotExists: existence !== undefined,
      fields: fields.map((field) => required(field, "field")),
      range,
      text,
    };
  });

  defineRule(grammar, "typeColumns", () => {
    const name = $.CONSUME(T.Name);
    const type = $.SUBRULE(rules.comparatorType);
    if ($.RECORDING_PHASE) return RECORDING;
    return { name: identifier(name), type: required(type, "field type"), range: rangeFrom($, name) };
  });

  const addIfNotExists = () => {
    $.CONSUME1(T.If);
    $.CONSUME(T.Not);
    return $.CONSUME1(T.Exists);
  };
  const renameIfExists = () => {
    $.CONSUME2(T.If);
    return $.CONSUME2(T.Exists);
  };
  const fieldChanges: IOrAlt<FieldChange>[] = [
    {
      ALT: () => {
        const start = $.CONSUME1(T.Alter);
        const field = $.CONSUME(T.Name);
        $.CONSUME1(T.Type);
        const type = $.SUBRULE(rules.comparatorType);
        return { start, kind: "alter-type", field, type };
      },
    },
    {
      ALT: () => {
        const start = $.CONSUME(T.Add);
        const existence = $.OPTION1(addIfNotExists);
        const field = $.CONSUME1(T.Name);
        const type = $.SUBRULE1(rules.comparatorType);
        return { start, kind: "add", ifNotExists: existence !== undefined, field, type };
      },
    },
    {
      ALT: () => {
        const start = $.CONSUME(T.Rename);
        const existence = $.OPTION2(renameIfExists);
        const renames = [$.SUBRULE(rules.renamePair)];
        $.MANY(() => {
          $.CONSUME(T.And);
          renames.push($.SUBRULE1(rules.renamePair));
        });
        return { start, kind: "rename", ifExists: existence !== undefined, renames };
      },
    },
  ];
  defineRule(grammar, "alterTypeStatement", () => {
    const start = $.CONSUME(T.Alter);
    $.CONSUME(T.Type);
    const existence = $.OPTION(ifExists);
    const name = $.SUBRULE(rules.qualifiedName);
    const change = $.OR(fieldChanges);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    // The action runs from its keyword to the end of the statement.
    const actionRange = spanBetween(tokenSpan(change.start), range);
    let action: AlterTypeAction;
    if (change.kind === "rename") {
      action = { kind: "rename", renames: change.renames.map((pair) => required(pair, "RENAME pair")), ifExists: change.ifExists, range: actionRange };
    } else if (change.kind === "add") {
      action = { kind: "add", field: identifier(change.field), type: required(change.type, "field type"), ifNotExists: change.ifNotExists, range: actionRange };
    } else {
      action = { kind: "alter-type", field: identifier(change.field), type: required(change.type, "field type"), range: actionRange };
    }
    return { kind: "alter-type", name: required(name, "type name"), ifExists: existence !== undefined, range, text, action };
  });

  defineRule(grammar, "dropTypeStatement", () => {
    const start = $.CONSUME(T.Drop);
    $.CONSUME(T.Type);
    const existence = $.OPTION(ifExists);
    const name = $.SUBRULE(rules.qualifiedName);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return { kind: "drop-type", name: required(name, "type name"), ifExists: existence !== undefined, range, text };
  });
}
