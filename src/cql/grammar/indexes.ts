// Secondary indexes (Parser.g `createIndexStatement`, `indexIdent`, `dropIndexStatement`).
import type { IOrAlt, IToken } from "chevrotain";
import type { CreateIndexStatement, DropStatement, IndexTarget, IndexTargetKind } from "../ast.js";
import * as T from "../tokens.js";
import { AstSyntaxError, defineRule, ifExistsClause, ifNotExistsClause, rangeFrom, RECORDING, required, type Grammar } from "./api.js";
import { identifier, statementBase, unquoteString } from "./build.js";

declare module "./api.js" {
  interface RuleTypes {
    createIndexStatement: CreateIndexStatement;
    indexIdent: IndexTarget;
    dropIndexStatement: DropStatement;
  }
}

const INDEX_TARGET_KINDS = new Map<unknown, IndexTargetKind>([
  [T.Keys, "keys"],
  [T.Values, "values"],
  [T.Entries, "entries"],
  [T.Full, "full"],
]);

export function defineIndexRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  const customKeyword = () => $.CONSUME(T.Custom);
  const ifNotExists = ifNotExistsClause($);
  const indexName = () => $.CONSUME(T.Name);
  const indexClass = () => {
    $.CONSUME(T.Using);
    return $.CONSUME(T.StringLiteral);
  };
  const indexProperties = () => {
    $.CONSUME(T.With);
    return $.SUBRULE(rules.properties);
  };
  defineRule(grammar, "createIndexStatement", () => {
    const start = $.CONSUME(T.Create);
    const custom = $.OPTION(customKeyword);
    $.CONSUME(T.Index);
    const existence = $.OPTION1(ifNotExists);
    const name = $.OPTION2(indexName);
    $.CONSUME(T.On);
    const table = $.SUBRULE(rules.qualifiedName);
    $.CONSUME(T.LParen);
    const targets: IndexTarget[] = [];
    $.OPTION3(() => {
      targets.push($.SUBRULE(rules.indexIdent));
      $.MANY(() => {
        $.CONSUME(T.Comma);
        targets.push($.SUBRULE1(rules.indexIdent));
      });
    });
    $.CONSUME(T.RParen);
    const using = $.OPTION4(indexClass);
    const properties = $.OPTION5(indexProperties);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const options = properties ?? [];
    const indexOptions = options.find((option) => option.name.name === "options");
    const unknown = options.find((option) => option.name.name !== "options");
    if (unknown) throw new AstSyntaxError(`CREATE INDEX takes WITH OPTIONS = {…}, not ${unknown.name.text}`, unknown.range);
    // Fields are assigned in the order the statement reads, optional ones only when present.
    const statement = { kind: "create-index", custom: custom !== undefined } as CreateIndexStatement;
    if (name) statement.name = identifier(name);
    statement.ifNotExists = existence !== undefined;
    statement.table = required(table, "table name");
    statement.targets = targets.map((target) => required(target, "index target"));
    if (using) statement.using = unquoteString(using.image);
    if (indexOptions) statement.options = indexOptions.value;
    statement.range = range;
    statement.text = text;
    return statement;
  });

  // `col`, `KEYS(col)`, `VALUES(col)`, `ENTRIES(col)`, `FULL(col)`.
  const targetKinds: IOrAlt<IToken>[] = [
    { ALT: () => $.CONSUME(T.Keys) },
    { ALT: () => $.CONSUME(T.Values) },
    { ALT: () => $.CONSUME(T.Entries) },
    { ALT: () => $.CONSUME(T.Full) },
  ];
  const targetForms: IOrAlt<IndexTarget>[] = [
    {
      GATE: () => $.LA(2).tokenType === T.LParen,
      ALT: () => {
        const kind = $.OR1(targetKinds);
        $.CONSUME(T.LParen);
        const column = $.CONSUME(T.Name);
        $.CONSUME(T.RParen);
        if ($.RECORDING_PHASE) return RECORDING;
        return { column: identifier(column), kind: INDEX_TARGET_KINDS.get(kind.tokenType) ?? "simple", range: rangeFrom($, kind) };
      },
    },
    {
      ALT: () => {
        const column = $.CONSUME1(T.Name);
        if ($.RECORDING_PHASE) return RECORDING;
        return { column: identifier(column), kind: "simple", range: rangeFrom($, column) };
      },
    },
  ];
  defineRule(grammar, "indexIdent", () => $.OR(targetForms));

  const ifExists = ifExistsClause($);
  defineRule(grammar, "dropIndexStatement", () => {
    const start = $.CONSUME(T.Drop);
    $.CONSUME(T.Index);
    const existence = $.OPTION(ifExists);
    const name = $.SUBRULE(rules.qualifiedName);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return { kind: "drop-index", name: required(name, "index name"), ifExists: existence !== undefined, range, text };
  });
}
