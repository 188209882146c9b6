// Reads (Parser.g `selectStatement`, `selectClause`, `selector`, `groupByClause`, `orderByClause`).
import { EOF, type DSLMethodOpts, type IOrAlt, type IToken } from "chevrotain";
import type { Ordering, SelectStatement, Selector, Term } from "../ast.js";
import { spanBetween, tokenSpan } from "../source-span.js";
import * as T from "../tokens.js";
import { AstSyntaxError, defineRule, isRealToken, rangeFrom, RECORDING, required, type Grammar } from "./api.js";
import { identifier, statementBase } from "./build.js";
import { usingClause } from "./dml.js";
import { isAny, selectModifierAhead } from "./lookahead.js";

declare module "./api.js" {
  interface RuleTypes {
    selectStatement: SelectStatement;
    selectClause: SelectClause;
    selector: Selector;
    orderByClause: Ordering;
  }
}

/** `*`, or the selectors. */
export interface SelectClause {
  star: boolean;
  selectors: Selector[];
}

/** What follows the column in ORDER BY. */
interface OrderingSuffix {
  direction: "asc" | "desc";
  ann?: Term;
}

/** Tokens that cannot start the operand of ANN OF: what follows ORDER BY in a SELECT. */
const ANN_OPERAND_MISSING = [T.Limit, T.Allow, T.Semicolon, T.Comma, T.Per, EOF] as const;

const ASCENDING: OrderingSuffix = Object.freeze({ direction: "asc" });
const DESCENDING: OrderingSuffix = Object.freeze({ direction: "desc" });

export function defineSelectRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  // json and distinct are valid column names: `SELECT json FROM t` selects a column.
  const json: DSLMethodOpts<IToken> = { GATE: () => selectModifierAhead($), DEF: () => $.CONSUME(T.Json) };
  const distinct: DSLMethodOpts<IToken> = { GATE: () => selectModifierAhead($), DEF: () => $.CONSUME(T.Distinct) };
  const whereClause = () => {
    $.CONSUME(T.Where);
    return $.SUBRULE(rules.whereClause);
  };
  const groupByClause = () => {
    $.CONSUME(T.Group);
    $.CONSUME(T.By);
    const terms = [$.SUBRULE(rules.term)];
    $.MANY(() => {
      $.CONSUME(T.Comma);
      terms.push($.SUBRULE1(rules.term));
    });
    return terms;
  };
  const orderBy = () => {
    $.CONSUME(T.Order);
    $.CONSUME1(T.By);
    const orderings = [$.SUBRULE(rules.orderByClause)];
    $.MANY1(() => {
      $.CONSUME1(T.Comma);
      orderings.push($.SUBRULE1(rules.orderByClause));
    });
    return orderings;
  };
  const perPartitionLimit = () => {
    $.CONSUME(T.Per);
    $.CONSUME(T.Partition);
    $.CONSUME(T.Limit);
    return $.SUBRULE2(rules.term);
  };
  const limit = () => {
    $.CONSUME1(T.Limit);
    return $.SUBRULE3(rules.term);
  };
  const allowFiltering = () => {
    $.CONSUME(T.Allow);
    return $.CONSUME(T.Filtering);
  };
  const bypassCache = (): [IToken, IToken] => [$.CONSUME(T.Bypass), $.CONSUME(T.Cache)];
  const optionalUsing = () => $.SUBRULE(rules.usingClause);
  defineRule(grammar, "selectStatement", () => {
    const start = $.CONSUME(T.Select);
    const jsonToken = $.OPTION(json);
    const distinctToken = $.OPTION1(distinct);
    const clause = $.SUBRULE(rules.selectClause);
    $.CONSUME(T.From);
    const table = $.SUBRULE(rules.qualifiedName);
    const where = $.OPTION2(whereClause);
    const groupBy = $.OPTION3(groupByClause);
    const orderings = $.OPTION4(orderBy);
    const partitionLimit = $.OPTION5(perPartitionLimit);
    const rowLimit = $.OPTION6(limit);
    const filtering = $.OPTION7(allowFiltering);
    // ScyllaDB: BYPASS CACHE, USING TIMEOUT; parsed so they can be reported as such.
    const bypass = $.OPTION8(bypassCache);
    const using = $.OPTION9(optionalUsing);
    if ($.RECORDING_PHASE) return RECORDING;
    const { context } = grammar;
    if (bypass) {
      const [keyword, cache] = bypass;
      context.notes.push({
        code: "cql-unsupported-statement",
        severity: "info",
        message: "BYPASS CACHE is a ScyllaDB clause; Apache Cassandra does not accept it",
        range: spanBetween(tokenSpan(keyword), tokenSpan(isRealToken(cache) ? cache : keyword)),
      });
    }
    if (using) usingClause([using], "select", context);
    const { star, selectors } = required(clause, "select clause");
    const select = {
      kind: "select",
      json: jsonToken !== undefined,
      distinct: distinctToken !== undefined,
      star,
      selectors,
      table: required(table, "table"),
    } as SelectStatement;
    // Optional members are assigned in the order of the type, so the JSON of a tree keeps its shape.
    if (where) select.where = where;
    select.groupBy = groupBy ?? [];
    select.orderBy = orderings ?? [];
    if (partitionLimit) select.perPartitionLimit = partitionLimit;
    if (rowLimit) select.limit = rowLimit;
    select.allowFiltering = filtering !== undefined;
    const { range, text } = statementBase(rangeFrom($, start), context);
    select.range = range;
    select.text = text;
    return select;
  });

  const selectionForms: IOrAlt<SelectClause>[] = [
    {
      ALT: () => {
        $.CONSUME(T.Star);
        return { star: true, selectors: [] };
      },
    },
    {
      ALT: () => {
        const selectors = [$.SUBRULE(rules.selector)];
        $.MANY(() => {
          $.CONSUME(T.Comma);
          selectors.push($.SUBRULE1(rules.selector));
        });
        return { star: false, selectors };
      },
    },
  ];
  defineRule(grammar, "selectClause", () => $.OR(selectionForms));

  const alias = () => {
    $.CONSUME(T.As);
    return $.CONSUME(T.Name);
  };
  defineRule(grammar, "selector", () => {
    const start = $.LA(1);
    const expression = $.SUBRULE(rules.term);
    const name = $.OPTION(alias);
    if ($.RECORDING_PHASE) return RECORDING;
    const range = rangeFrom($, start);
    if (name === undefined) return { expression: required(expression, "selector"), range };
    return { expression: required(expression, "selector"), alias: identifier(name), range };
  });

  // `col [ASC|DESC]`, `col ANN OF [..]` (5.0 vector search).
  const orderings: IOrAlt<OrderingSuffix>[] = [
    {
      ALT: () => {
        $.CONSUME(T.Asc);
        return ASCENDING;
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Desc);
        return DESCENDING;
      },
    },
    {
      ALT: () => {
        const ann = $.CONSUME(T.Ann);
        $.CONSUME(T.Of);
        // `ORDER BY v ANN OF LIMIT 3`: say what is missing rather than which tokens a term may start with.
        if (!$.RECORDING_PHASE && isAny($.LA(1), ANN_OPERAND_MISSING)) {
          const next = $.LA(1);
          throw new AstSyntaxError(
            `ORDER BY … ANN OF needs the vector to compare with after OF (a vector literal such as [0.1, 0.2, 0.3] or a bind marker ?), found ${next.tokenType === EOF ? "the end of the statement" : `\`${next.image}\``}`,
            rangeFrom($, ann),
          );
        }
        return { direction: "asc", ann: $.SUBRULE(rules.term) };
      },
    },
  ];
  const ordering = () => $.OR(orderings);
  defineRule(grammar, "orderByClause", () => {
    const column = $.CONSUME(T.Name);
    const suffix = $.OPTION(ordering);
    if ($.RECORDING_PHASE) return RECORDING;
    const name = identifier(column);
    const range = rangeFrom($, column);
    if (suffix === undefined) return { column: name, direction: "asc", range };
    if (suffix === ASCENDING || suffix === DESCENDING) return { column: name, direction: suffix.direction, range };
    return { column: name, direction: suffix.direction, ann: required(suffix.ann, "ANN OF value"), range };
  });
}
