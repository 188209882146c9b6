// Materialized views (Parser.g `createMaterializedViewStatement`, `alterMaterializedViewStatement`,
// `dropMaterializedViewStatement`).
import type { IOrAlt, IToken } from "chevrotain";
import type { AlterMaterializedViewStatement, CreateMaterializedViewStatement, DropStatement } from "../ast.js";
import * as T from "../tokens.js";
import { defineRule, ifExistsClause, ifNotExistsClause, rangeFrom, RECORDING, required, type Grammar } from "./api.js";
import { identifier, noteVendorOptions, statementBase } from "./build.js";
import { withTableProperties } from "./tables.js";

declare module "./api.js" {
  interface RuleTypes {
    createMaterializedViewStatement: CreateMaterializedViewStatement;
    alterMaterializedViewStatement: AlterMaterializedViewStatement;
    dropMaterializedViewStatement: DropStatement;
  }
}

export function defineViewRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  const ifNotExists = ifNotExistsClause($);
  const ifExists = ifExistsClause($);

  // `*` (the star token) or the selected columns.
  const selections: IOrAlt<IToken | IToken[]>[] = [
    { ALT: () => $.CONSUME(T.Star) },
    {
      ALT: () => {
        const columns = [$.CONSUME(T.Name)];
        $.MANY(() => {
          $.CONSUME(T.Comma);
          columns.push($.CONSUME1(T.Name));
        });
        return columns;
      },
    },
  ];
  const withProperties = () => $.SUBRULE(rules.tableProperties);
  defineRule(grammar, "createMaterializedViewStatement", () => {
    const start = $.CONSUME(T.Create);
    $.CONSUME(T.Materialized);
    $.CONSUME(T.View);
    const existence = $.OPTION(ifNotExists);
    const name = $.SUBRULE(rules.qualifiedName);
    $.CONSUME(T.As);
    $.CONSUME(T.Select);
    const selection = $.OR(selections);
    $.CONSUME(T.From);
    const baseTable = $.SUBRULE1(rules.qualifiedName);
    $.CONSUME(T.Where);
    const where = $.SUBRULE(rules.whereClause);
    const primaryKey = $.SUBRULE(rules.primaryKeyDefinition);
    const properties = $.OPTION1(withProperties);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const star = !Array.isArray(selection);
    return withTableProperties<CreateMaterializedViewStatement>(
      {
        kind: "create-materialized-view",
        name: required(name, "view name"),
        ifNotExists: existence !== undefined,
        columns: star ? [] : selection.map(identifier),
        star,
        baseTable: required(baseTable, "base table name"),
        where: required(where, "WHERE clause"),
        primaryKey: required(primaryKey, "PRIMARY KEY"),
      },
      properties,
      range,
      text,
    );
  });

  defineRule(grammar, "alterMaterializedViewStatement", () => {
    const start = $.CONSUME(T.Alter);
    $.CONSUME(T.Materialized);
    $.CONSUME(T.View);
    const existence = $.OPTION(ifExists);
    const name = $.SUBRULE(rules.qualifiedName);
    $.CONSUME(T.With);
    const properties = $.SUBRULE(rules.properties);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const options = required(properties, "view options");
    noteVendorOptions(options, grammar.context);
    return { kind: "alter-materialized-view", name: required(name, "view name"), ifExists: existence !== undefined, options, range, text };
  });

  defineRule(grammar, "dropMaterializedViewStatement", () => {
    const start = $.CONSUME(T.Drop);
    $.CONSUME(T.Materialized);
    $.CONSUME(T.View);
    const existence = $.OPTION(ifExists);
    const name = $.SUBRULE(rules.qualifiedName);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return { kind: "drop-materialized-view", name: required(name, "view name"), ifExists: existence !== undefined, range, text };
  });
}
