// Reads (Parser.g `selectStatement`, `selectClause`, `selector`, `groupByClause`, `orderByClause`).
import type { DSLMethodOpts, IOrAlt } from "chevrotain";
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";
import { selectModifierAhead } from "./lookahead.js";

export function defineSelectRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  // json and distinct are valid column names: `SELECT json FROM t` selects a column.
  const json: DSLMethodOpts<unknown> = { GATE: () => selectModifierAhead($), DEF: () => $.CONSUME(T.Json, { LABEL: "json" }) };
  const distinct: DSLMethodOpts<unknown> = {
    GATE: () => selectModifierAhead($),
    DEF: () => $.CONSUME(T.Distinct, { LABEL: "distinct" }),
  };
  defineRule(grammar, "selectStatement", () => {
    $.CONSUME(T.Select);
    $.OPTION(json);
    $.OPTION1(distinct);
    $.SUBRULE(rules.selectClause);
    $.CONSUME(T.From);
    $.SUBRULE(rules.qualifiedName, { LABEL: "table" });
    $.OPTION2(() => {
      $.CONSUME(T.Where);
      $.SUBRULE(rules.whereClause);
    });
    $.OPTION3(() => {
      $.CONSUME(T.Group);
      $.CONSUME(T.By);
      $.SUBRULE(rules.term, { LABEL: "groupBy" });
      $.MANY(() => {
        $.CONSUME(T.Comma);
        $.SUBRULE1(rules.term, { LABEL: "groupBy" });
      });
    });
    $.OPTION4(() => {
      $.CONSUME(T.Order);
      $.CONSUME1(T.By);
      $.SUBRULE(rules.orderByClause);
      $.MANY1(() => {
        $.CONSUME1(T.Comma);
        $.SUBRULE1(rules.orderByClause);
      });
    });
    $.OPTION5(() => {
      $.CONSUME(T.Per);
      $.CONSUME(T.Partition);
      $.CONSUME(T.Limit);
      $.SUBRULE2(rules.term, { LABEL: "perPartitionLimit" });
    });
    $.OPTION6(() => {
      $.CONSUME1(T.Limit);
      $.SUBRULE3(rules.term, { LABEL: "limit" });
    });
    $.OPTION7(() => {
      $.CONSUME(T.Allow, { LABEL: "allowFiltering" });
      $.CONSUME(T.Filtering);
    });
    // ScyllaDB: BYPASS CACHE, USING TIMEOUT; parsed so they can be reported as such.
    $.OPTION8(() => {
      $.CONSUME(T.Bypass, { LABEL: "bypassCache" });
      $.CONSUME(T.Cache);
    });
    $.OPTION9(() => $.SUBRULE(rules.usingClause));
  });

  const moreSelectors = () => {
    $.CONSUME(T.Comma);
    $.SUBRULE1(rules.selector);
  };
  const selectionForms: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.Star, { LABEL: "star" }) },
    {
      ALT: () => {
        $.SUBRULE(rules.selector);
        $.MANY(moreSelectors);
      },
    },
  ];
  defineRule(grammar, "selectClause", () => {
    $.OR(selectionForms);
  });

  defineRule(grammar, "selector", () => {
    $.SUBRULE(rules.term, { LABEL: "expression" });
    $.OPTION(() => {
      $.CONSUME(T.As);
      $.CONSUME(T.Name, { LABEL: "alias" });
    });
  });

  // `col [ASC|DESC]`, `col ANN OF [..]` (5.0 vector search).
  const orderings: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.Asc, { LABEL: "direction" }) },
    { ALT: () => $.CONSUME(T.Desc, { LABEL: "direction" }) },
    {
      ALT: () => {
        $.CONSUME(T.Ann, { LABEL: "ann" });
        $.CONSUME(T.Of);
        $.SUBRULE(rules.term, { LABEL: "annValue" });
      },
    },
  ];
  const ordering = () => $.OR(orderings);
  defineRule(grammar, "orderByClause", () => {
    $.CONSUME(T.Name, { LABEL: "column" });
    $.OPTION(ordering);
  });
}
