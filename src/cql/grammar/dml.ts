// Writes (Parser.g `insertStatement`, `normalInsertStatement`, `jsonInsertStatement`,
// `usingClause`, `updateStatement`, `columnOperation`, `deleteStatement`, `deleteSelection`,
// `batchStatement`, `updateConditions`).
import type { IOrAlt } from "chevrotain";
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";
import { ifExistsAhead } from "./lookahead.js";
import { literalOrTerm } from "./terms.js";

export function defineDmlRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  // Alternatives are built once, not on every call.
  const insertForms: IOrAlt<unknown>[] = [
    { ALT: () => $.SUBRULE(rules.normalInsertStatement) },
    { ALT: () => $.SUBRULE(rules.jsonInsertStatement) },
  ];
  defineRule(grammar, "insertStatement", () => {
    $.CONSUME(T.Insert);
    $.CONSUME(T.Into);
    $.SUBRULE(rules.qualifiedName, { LABEL: "table" });
    $.OR(insertForms);
  });

  const firstValue = literalOrTerm(grammar, 1, "value");
  const laterValue = literalOrTerm(grammar, 2, "value");
  const moreValues = () => {
    $.CONSUME1(T.Comma);
    $.or(2, laterValue);
  };
  defineRule(grammar, "normalInsertStatement", () => {
    $.CONSUME(T.LParen);
    $.CONSUME(T.Name, { LABEL: "column" });
    $.MANY(() => {
      $.CONSUME(T.Comma);
      $.CONSUME1(T.Name, { LABEL: "column" });
    });
    $.CONSUME(T.RParen);
    $.CONSUME(T.Values);
    $.CONSUME1(T.LParen, { LABEL: "valuesOpen" });
    $.or(1, firstValue);
    $.MANY1(moreValues);
    $.CONSUME1(T.RParen, { LABEL: "valuesClose" });
    $.SUBRULE(rules.insertOptions);
  });

  defineRule(grammar, "jsonInsertStatement", () => {
    $.CONSUME(T.Json);
    $.SUBRULE(rules.term, { LABEL: "json" });
    $.OPTION(() => {
      $.CONSUME(T.Default);
      $.OR([
        { ALT: () => $.CONSUME(T.Null, { LABEL: "jsonDefault" }) },
        { ALT: () => $.CONSUME(T.Unset, { LABEL: "jsonDefault" }) },
      ]);
    });
    $.SUBRULE(rules.insertOptions);
  });

  // `[IF NOT EXISTS] [USING …]`, in either order (Scylla and old drivers write USING first).
  const insertOptionForms: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        $.CONSUME(T.If, { LABEL: "ifNotExists" });
        $.CONSUME(T.Not);
        $.CONSUME(T.Exists);
      },
    },
    { ALT: () => $.SUBRULE(rules.usingClause) },
  ];
  const insertOption = () => $.OR(insertOptionForms);
  defineRule(grammar, "insertOptions", () => {
    $.MANY(insertOption);
  });

  const moreUsingObjectives = () => {
    $.CONSUME(T.And);
    $.SUBRULE1(rules.usingClauseObjective);
  };
  defineRule(grammar, "usingClause", () => {
    $.CONSUME(T.Using);
    $.SUBRULE(rules.usingClauseObjective);
    $.MANY(moreUsingObjectives);
  });

  // `TIMESTAMP t`, `TTL n`, and ScyllaDB's `TIMEOUT d` (recognised to be reported).
  const usingKinds: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.Timestamp, { LABEL: "kind" }) },
    { ALT: () => $.CONSUME(T.Ttl, { LABEL: "kind" }) },
    { ALT: () => $.CONSUME(T.Timeout, { LABEL: "kind" }) },
  ];
  defineRule(grammar, "usingClauseObjective", () => {
    $.OR(usingKinds);
    $.SUBRULE(rules.term, { LABEL: "value" });
  });

  defineRule(grammar, "updateStatement", () => {
    $.CONSUME(T.Update);
    $.SUBRULE(rules.qualifiedName, { LABEL: "table" });
    $.OPTION(() => $.SUBRULE(rules.usingClause));
    $.CONSUME(T.SetKw);
    $.SUBRULE(rules.columnOperation);
    $.MANY(() => {
      $.CONSUME(T.Comma);
      $.SUBRULE1(rules.columnOperation);
    });
    $.CONSUME(T.Where);
    $.SUBRULE(rules.whereClause);
    $.OPTION1(() => $.SUBRULE(rules.updateConditions));
  });

  // `c = v`, `c = c + 1`, `c += v`, `m[k] = v`, `u.f = v` (Parser.g `columnOperation`).
  const elementOrFieldForms: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        $.CONSUME(T.LBracket);
        $.SUBRULE(rules.term, { LABEL: "key" });
        $.CONSUME(T.RBracket);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Dot);
        $.CONSUME1(T.Name, { LABEL: "field" });
      },
    },
  ];
  const elementOrField = () => $.OR(elementOrFieldForms);
  const assignmentOperators: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.Equals, { LABEL: "operator" }) },
    { ALT: () => $.CONSUME(T.PlusEquals, { LABEL: "operator" }) },
    { ALT: () => $.CONSUME(T.MinusEquals, { LABEL: "operator" }) },
  ];
  defineRule(grammar, "columnOperation", () => {
    $.CONSUME(T.Name, { LABEL: "column" });
    $.OPTION(elementOrField);
    $.OR1(assignmentOperators);
    $.SUBRULE1(rules.term, { LABEL: "value" });
  });

  // `IF EXISTS` or `IF cond AND …` (Parser.g `updateConditions`).
  defineRule(grammar, "updateConditions", () => {
    $.CONSUME(T.If);
    $.OR([
      { GATE: () => ifExistsAhead($), ALT: () => $.CONSUME(T.Exists, { LABEL: "exists" }) },
      {
        ALT: () => {
          $.SUBRULE(rules.columnCondition);
          $.MANY(() => {
            $.CONSUME(T.And);
            $.SUBRULE1(rules.columnCondition);
          });
        },
      },
    ]);
  });

  defineRule(grammar, "deleteStatement", () => {
    $.CONSUME(T.Delete);
    $.OPTION(() => {
      $.SUBRULE(rules.deleteOp);
      $.MANY(() => {
        $.CONSUME(T.Comma);
        $.SUBRULE1(rules.deleteOp);
      });
    });
    $.CONSUME(T.From);
    $.SUBRULE(rules.qualifiedName, { LABEL: "table" });
    $.OPTION1(() => $.SUBRULE(rules.usingClause));
    $.CONSUME(T.Where);
    $.SUBRULE(rules.whereClause);
    $.OPTION2(() => $.SUBRULE(rules.updateConditions));
  });

  // `col`, `col[key]`, `col.field` (Parser.g `deleteOp`).
  defineRule(grammar, "deleteOp", () => {
    $.CONSUME(T.Name, { LABEL: "column" });
    $.OPTION(elementOrField);
  });

  defineRule(grammar, "batchStatement", () => {
    $.CONSUME(T.Begin);
    $.OPTION(() => {
      $.OR([
        { ALT: () => $.CONSUME(T.Unlogged, { LABEL: "batchType" }) },
        { ALT: () => $.CONSUME(T.Counter, { LABEL: "batchType" }) },
      ]);
    });
    $.CONSUME(T.Batch);
    $.OPTION1(() => $.SUBRULE(rules.usingClause));
    $.MANY(() => {
      $.SUBRULE(rules.batchStatementObjective);
      $.OPTION2(() => $.CONSUME(T.Semicolon, { LABEL: "separator" }));
    });
    $.CONSUME(T.Apply, { LABEL: "apply" });
    $.CONSUME1(T.Batch);
  });

  // Labelled like the statements of cqlStatement, so the AST reads both the same way.
  const batchMembers: IOrAlt<unknown>[] = [
    { ALT: () => $.SUBRULE(rules.insertStatement, { LABEL: "statement" }) },
    { ALT: () => $.SUBRULE(rules.updateStatement, { LABEL: "statement" }) },
    { ALT: () => $.SUBRULE(rules.deleteStatement, { LABEL: "statement" }) },
  ];
  defineRule(grammar, "batchStatementObjective", () => {
    $.OR(batchMembers);
  });
}
