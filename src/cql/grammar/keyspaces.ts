// Keyspaces (Parser.g `createKeyspaceStatement`, `alterKeyspaceStatement`, `dropKeyspaceStatement`,
// `useStatement`).
import type { AlterKeyspaceStatement, CreateKeyspaceStatement, DropStatement, UseStatement } from "../ast.js";
import * as T from "../tokens.js";
import { defineRule, ifExistsClause, ifNotExistsClause, rangeFrom, RECORDING, required, type Grammar } from "./api.js";
import { bareQualifiedName, identifier, noteVendorOptions, statementBase } from "./build.js";

declare module "./api.js" {
  interface RuleTypes {
    createKeyspaceStatement: CreateKeyspaceStatement;
    alterKeyspaceStatement: AlterKeyspaceStatement;
    dropKeyspaceStatement: DropStatement;
    useStatement: UseStatement;
  }
}

export function defineKeyspaceRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  const ifNotExists = ifNotExistsClause($);
  const ifExists = ifExistsClause($);

  defineRule(grammar, "createKeyspaceStatement", () => {
    const start = $.CONSUME(T.Create);
    $.CONSUME(T.Keyspace);
    const existence = $.OPTION(ifNotExists);
    const name = $.CONSUME(T.Name);
    $.CONSUME(T.With);
    const properties = $.SUBRULE(rules.properties);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const options = required(properties, "keyspace options");
    noteVendorOptions(options, grammar.context);
    return { kind: "create-keyspace", name: identifier(name), ifNotExists: existence !== undefined, options, range, text };
  });

  defineRule(grammar, "alterKeyspaceStatement", () => {
    const start = $.CONSUME(T.Alter);
    $.CONSUME(T.Keyspace);
    const existence = $.OPTION(ifExists);
    const name = $.CONSUME(T.Name);
    $.CONSUME(T.With);
    const properties = $.SUBRULE(rules.properties);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const options = required(properties, "keyspace options");
    noteVendorOptions(options, grammar.context);
    return { kind: "alter-keyspace", name: identifier(name), ifExists: existence !== undefined, options, range, text };
  });

  defineRule(grammar, "dropKeyspaceStatement", () => {
    const start = $.CONSUME(T.Drop);
    $.CONSUME(T.Keyspace);
    const existence = $.OPTION(ifExists);
    const name = $.CONSUME(T.Name);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return { kind: "drop-keyspace", name: bareQualifiedName(name), ifExists: existence !== undefined, range, text };
  });

  defineRule(grammar, "useStatement", () => {
    const start = $.CONSUME(T.Use);
    const name = $.CONSUME(T.Name);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return { kind: "use", keyspace: identifier(name), range, text };
  });
}
