// Terms and relations (Parser.g `term`, `value`, `function`, `selector`, `relation`, `whereClause`).
//
// Deviation from Parser.g: one expression grammar serves terms and selectors (a superset: a bare
// column is a term here; whether it is allowed in a given place is judged later, not by the parser).
// Binary operators are read as a flat list and given their precedence in to-ast.ts, which keeps the
// tree shallow and every decision LL(1).
import * as T from "../tokens.js";
import type { DSLMethodOpts, IOrAlt, OrMethodOpts } from "chevrotain";
import { defineRule, type Grammar } from "./api.js";
import { customIndexExpressionAhead, relationGroupAhead, typeHintAhead } from "./lookahead.js";

export function defineTermRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  // Alternatives are built once, not on every call: rule bodies run for every token.
  const binaryOperators: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME9(T.Plus, { LABEL: "operator" }) },
    { ALT: () => $.CONSUME9(T.Minus, { LABEL: "operator" }) },
    { ALT: () => $.CONSUME9(T.Star, { LABEL: "operator" }) },
    { ALT: () => $.CONSUME9(T.Slash, { LABEL: "operator" }) },
    { ALT: () => $.CONSUME9(T.Percent, { LABEL: "operator" }) },
  ];
  const binaryOperation = () => {
    $.OR2(binaryOperators);
    $.SUBRULE1(rules.operand);
  };

  const qualifiedCall: DSLMethodOpts<unknown> = {
    GATE: () => $.LA(1).tokenType === T.Dot && $.LA(3).tokenType === T.LParen,
    DEF: () => {
      $.CONSUME(T.Dot, { LABEL: "qualifier" });
      $.CONSUME2(T.Name, { LABEL: "name" });
    },
  };
  const callArguments = () => $.SUBRULE1(rules.functionArgs);
  const primaries: OrMethodOpts<unknown> = {
    IGNORE_AMBIGUITIES: true,
    DEF: [
      {
        ALT: () => {
          $.CONSUME(T.Minus, { LABEL: "negate" });
          $.SUBRULE(rules.operand, { LABEL: "negated" });
        },
      },
      { ALT: () => $.CONSUME(T.Constant, { LABEL: "constant" }) },
      { ALT: () => $.CONSUME(T.Null, { LABEL: "constant" }) },
      { ALT: () => $.CONSUME(T.NanKw, { LABEL: "constant" }) },
      { ALT: () => $.CONSUME(T.InfinityKw, { LABEL: "constant" }) },
      { ALT: () => $.CONSUME(T.QuestionMark, { LABEL: "marker" }) },
      {
        ALT: () => {
          $.CONSUME(T.Colon, { LABEL: "marker" });
          $.CONSUME(T.Name, { LABEL: "markerName" });
        },
      },
      { ALT: () => $.SUBRULE(rules.parenthesizedTerm) },
      { ALT: () => $.SUBRULE(rules.listLiteral) },
      { ALT: () => $.SUBRULE(rules.braceLiteral) },
      {
        // `token(a, b)`: TOKEN is reserved but is a function in selectors and relations.
        ALT: () => {
          $.CONSUME(T.Token, { LABEL: "functionName" });
          $.SUBRULE(rules.functionArgs);
        },
      },
      {
        // a column, `fn(…)` or `ks.fn(…)`; `CAST(x AS type)` is a call whose argument has `AS type`.
        ALT: () => {
          $.CONSUME1(T.Name, { LABEL: "name" });
          $.OPTION(qualifiedCall);
          $.OPTION1(callArguments);
        },
      },
    ],
  };
  const accessors: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        $.CONSUME1(T.Dot, { LABEL: "fieldDot" });
        $.CONSUME3(T.Name, { LABEL: "field" });
      },
    },
    { ALT: () => $.SUBRULE(rules.subscript) },
  ];
  const accessor = () => $.OR1(accessors);

  // A primary value with its postfix accessors (`.field`, `[key]`, `[from..to]`).
  defineRule(grammar, "operand", () => {
    $.OR(primaries);
    $.MANY(accessor);
  });

  // Operands joined by binary operators. The first operand is written out here rather than called
  // as a subrule: most terms are a single value, and this saves a tree node for each of them.
  // Accessors here can only follow the first operand (a later operand takes its own), so one
  // loop serves both: one loop exit per term instead of two.
  const termContinuations: IOrAlt<unknown>[] = [...accessors, { ALT: binaryOperation }];
  const termContinuation = () => $.OR3(termContinuations);
  defineRule(grammar, "term", () => {
    $.OR(primaries);
    $.MANY(termContinuation);
  });

  // `[key]`, `[from..to]`, `[..to]`, `[from..]` (Parser.g `collectionSubSelection`).
  const sliceTail = () => {
    $.CONSUME1(T.Range);
    $.OPTION1(() => $.SUBRULE2(rules.term, { LABEL: "to" }));
  };
  const subscriptForms: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        $.CONSUME(T.Range);
        $.SUBRULE(rules.term, { LABEL: "to" });
      },
    },
    {
      ALT: () => {
        $.SUBRULE1(rules.term, { LABEL: "from" });
        $.OPTION(sliceTail);
      },
    },
  ];
  defineRule(grammar, "subscript", () => {
    $.CONSUME(T.LBracket);
    $.OR(subscriptForms);
    $.CONSUME(T.RBracket);
  });

  // `( … )`: a type hint `(int) ?`, a tuple `(1, 'a')`, or a parenthesised expression.
  const moreElements = () => {
    $.CONSUME(T.Comma);
    $.SUBRULE1(rules.term, { LABEL: "element" });
  };
  // Both forms start with `(` and a name; the gate decides, so one token of lookahead is enough.
  const parenthesizedForms: OrMethodOpts<unknown> = {
    MAX_LOOKAHEAD: 1,
    IGNORE_AMBIGUITIES: true,
    DEF: [
    {
      GATE: () => typeHintAhead($),
      ALT: () => {
        $.CONSUME(T.LParen);
        $.SUBRULE(rules.comparatorType, { LABEL: "hint" });
        $.CONSUME(T.RParen);
        $.SUBRULE(rules.operand, { LABEL: "hinted" });
      },
    },
    {
      ALT: () => {
        $.CONSUME1(T.LParen);
        $.SUBRULE(rules.term, { LABEL: "element" });
        $.MANY(moreElements);
        $.CONSUME1(T.RParen);
      },
    },
    ],
  };
  defineRule(grammar, "parenthesizedTerm", () => {
    $.OR(parenthesizedForms);
  });

  const listValue = literalOrTerm(grammar, 1, "element");
  const moreListValues = () => {
    $.CONSUME(T.Comma);
    $.or(2, literalOrTerm(grammar, 2, "element"));
  };
  const listElements = () => {
    $.or(1, listValue);
    $.MANY(moreListValues);
  };
  defineRule(grammar, "listLiteral", () => {
    $.CONSUME(T.LBracket);
    $.OPTION(listElements);
    $.CONSUME(T.RBracket);
  });

  // `{}`, `{a, b}` (set), `{k: v, …}` (map, or a user type literal when every key is a bare name).
  const laterKey = literalOrTerm(grammar, 2, "key");
  const laterValue = literalOrTerm(grammar, 3, "value");
  const laterElement = literalOrTerm(grammar, 4, "key");
  const moreEntries = () => {
    $.CONSUME(T.Comma);
    $.or(2, laterKey);
    $.CONSUME1(T.Colon);
    $.or(3, laterValue);
  };
  const moreSetElements = () => {
    $.CONSUME1(T.Comma);
    $.or(4, laterElement);
  };
  const firstValue = literalOrTerm(grammar, 1, "value");
  const braceForms: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        $.CONSUME(T.Colon);
        $.or(1, firstValue);
        $.MANY(moreEntries);
      },
    },
    { ALT: () => $.MANY1(moreSetElements) },
  ];
  const firstKey = literalOrTerm(grammar, 5, "key");
  const braceContent = () => {
    $.or(5, firstKey);
    $.OR(braceForms);
  };
  defineRule(grammar, "braceLiteral", () => {
    $.CONSUME(T.LBrace);
    $.OPTION(braceContent);
    $.CONSUME(T.RBrace);
  });

  // `( [* | term [AS type] (, term)*] )`: `count(*)`, `cast(x AS int)` and ordinary calls.
  const castType = () => {
    $.CONSUME(T.As);
    $.SUBRULE(rules.comparatorType, { LABEL: "castType" });
  };
  const laterArgument = literalOrTerm(grammar, 2, "argument");
  const moreArguments = () => {
    $.CONSUME(T.Comma);
    $.or(2, laterArgument);
  };
  const firstArgument = literalOrTerm(grammar, 1, "argument");
  const argumentForms: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.Star, { LABEL: "star" }) },
    {
      ALT: () => {
        $.or(1, firstArgument);
        $.OPTION1(castType);
        $.MANY(moreArguments);
      },
    },
  ];
  const argumentList = () => $.OR(argumentForms);
  defineRule(grammar, "functionArgs", () => {
    $.CONSUME(T.LParen);
    $.OPTION(argumentList);
    $.CONSUME(T.RParen);
  });

  // -------------------------------------------------------------------------------------------
  // WHERE (Parser.g `whereClause`, `relationOrExpression`, `relation`)

  // Relations joined by AND. OR is not CQL (3.11–5.0) but SAI users write it: it is parsed and
  // recorded so the planner can explain the rejection, instead of failing the whole statement.
  const connectives: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.And) },
    { ALT: () => $.CONSUME(T.Or, { LABEL: "or" }) },
  ];
  const moreRelations = () => {
    $.OR(connectives);
    $.SUBRULE1(rules.relationOrExpression);
  };
  defineRule(grammar, "whereClause", () => {
    $.SUBRULE(rules.relationOrExpression);
    $.MANY(moreRelations);
  });

  // Gates decide between a custom expression, a group and a relation; one token of lookahead.
  // Deviation: Parser.g's `relation` is written out here (one tree node less per relation).
  const relationForms: OrMethodOpts<unknown> = {
    MAX_LOOKAHEAD: 1,
    IGNORE_AMBIGUITIES: true,
    DEF: [
      { GATE: () => customIndexExpressionAhead($), ALT: () => $.SUBRULE(rules.customIndexExpression) },
      {
        GATE: () => $.LA(1).tokenType === T.LParen && relationGroupAhead($),
        ALT: () => {
          $.CONSUME(T.LParen, { LABEL: "groupOpen" });
          $.SUBRULE(rules.whereClause, { LABEL: "group" });
          $.CONSUME(T.RParen);
        },
      },
      {
        ALT: () => {
          $.CONSUME(T.Token, { LABEL: "token" });
          $.SUBRULE(rules.tupleOfIdentifiers);
          $.SUBRULE(rules.relationOperation);
        },
      },
      {
        ALT: () => {
          $.SUBRULE1(rules.tupleOfIdentifiers);
          $.SUBRULE1(rules.relationOperation);
        },
      },
      { ALT: () => $.SUBRULE(rules.columnCondition) },
    ],
  };
  defineRule(grammar, "relationOrExpression", () => {
    $.OR(relationForms);
  });

  defineRule(grammar, "customIndexExpression", () => {
    $.CONSUME(T.Identifier, { LABEL: "expr" });
    $.CONSUME(T.LParen);
    $.SUBRULE(rules.qualifiedName, { LABEL: "index" });
    $.CONSUME(T.Comma);
    $.SUBRULE(rules.term, { LABEL: "expression" });
    $.CONSUME(T.RParen);
  });

  const moreColumns = () => {
    $.CONSUME(T.Comma);
    $.CONSUME1(T.Name, { LABEL: "column" });
  };
  defineRule(grammar, "tupleOfIdentifiers", () => {
    $.CONSUME(T.LParen);
    $.CONSUME(T.Name, { LABEL: "column" });
    $.MANY(moreColumns);
    $.CONSUME(T.RParen);
  });

  // `col op …`, `col[key] op …`, `col.field op …`: relations in WHERE and conditions in IF
  // (Parser.g `columnCondition`, and the single-column forms of `relation`).
  const elementOrField: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        $.CONSUME(T.LBracket);
        $.SUBRULE6(rules.term, { LABEL: "key" });
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
  const columnSelector = () => $.OR3(elementOrField);
  // Deviation: the operator and value (relationOperation) are written out here, one tree node
  // less per relation; relationOperation remains for token and multi-column relations.
  defineRule(grammar, "columnCondition", () => {
    $.CONSUME(T.Name, { LABEL: "column" });
    $.OPTION2(columnSelector);
    $.OR(operations);
  });

  // The operator and right-hand side (Parser.g `relationType`, `inOperator`, `containsOperator`, …).
  const comparisons: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.Equals, { LABEL: "operator" }) },
    { ALT: () => $.CONSUME(T.NotEquals, { LABEL: "operator" }) },
    { ALT: () => $.CONSUME(T.Less, { LABEL: "operator" }) },
    { ALT: () => $.CONSUME(T.LessEquals, { LABEL: "operator" }) },
    { ALT: () => $.CONSUME(T.Greater, { LABEL: "operator" }) },
    { ALT: () => $.CONSUME(T.GreaterEquals, { LABEL: "operator" }) },
  ];
  const containsKey = () => $.CONSUME(T.Key, { LABEL: "containsKey" });
  const containsKeyAgain = () => $.CONSUME1(T.Key, { LABEL: "containsKey" });
  const negatedOperations: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        $.CONSUME1(T.In, { LABEL: "in" });
        $.SUBRULE1(rules.inValues);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Contains, { LABEL: "contains" });
        $.OPTION(containsKey);
        $.SUBRULE1(rules.term, { LABEL: "value" });
      },
    },
  ];
  const operations: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        $.OR1(comparisons);
        $.SUBRULE(rules.term, { LABEL: "value" });
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.In, { LABEL: "in" });
        $.SUBRULE(rules.inValues);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Not, { LABEL: "not" });
        $.OR2(negatedOperations);
      },
    },
    {
      ALT: () => {
        $.CONSUME1(T.Contains, { LABEL: "contains" });
        $.OPTION1(containsKeyAgain);
        $.SUBRULE2(rules.term, { LABEL: "value" });
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Like, { LABEL: "like" });
        $.SUBRULE3(rules.term, { LABEL: "value" });
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Is, { LABEL: "is" });
        $.CONSUME2(T.Not);
        $.CONSUME(T.Null);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Between, { LABEL: "between" });
        $.SUBRULE4(rules.term, { LABEL: "low" });
        $.CONSUME(T.And);
        $.SUBRULE5(rules.term, { LABEL: "high" });
      },
    },
  ];
  defineRule(grammar, "relationOperation", () => {
    $.OR(operations);
  });

  // `(a, b, …)`, `()`, `?`, `:name` after IN (Parser.g `singleColumnInValues`, `multiColumnInValues`).
  const firstInValue = literalOrTerm(grammar, 1, "element");
  const laterInValue = literalOrTerm(grammar, 2, "element");
  const moreInValues = () => {
    $.CONSUME(T.Comma);
    $.or(2, laterInValue);
  };
  const inListElements = () => {
    $.or(1, firstInValue);
    $.MANY(moreInValues);
  };
  const inValueForms: IOrAlt<unknown>[] = [
    {
      ALT: () => {
        $.CONSUME(T.LParen);
        $.OPTION(inListElements);
        $.CONSUME(T.RParen);
      },
    },
    { ALT: () => $.CONSUME(T.QuestionMark, { LABEL: "marker" }) },
    {
      ALT: () => {
        $.CONSUME(T.Colon, { LABEL: "marker" });
        $.CONSUME(T.Name, { LABEL: "markerName" });
      },
    },
  ];
  defineRule(grammar, "inValues", () => {
    $.OR(inValueForms);
  });

  // `name = term AND …` (Parser.g `properties`, `property`); values are any term, judged later.
  const moreProperties = () => {
    $.CONSUME(T.And);
    $.SUBRULE1(rules.property);
  };
  defineRule(grammar, "properties", () => {
    $.SUBRULE(rules.property);
    $.MANY(moreProperties);
  });

  defineRule(grammar, "property", () => {
    $.CONSUME(T.Name, { LABEL: "name" });
    $.CONSUME(T.Equals);
    $.SUBRULE(rules.term, { LABEL: "value" });
  });
}

/**
 * A value in a list, map, set, IN list, function call or VALUES: a literal followed by the
 * separator or closer is taken as the literal token itself rather than through `term`. Most values
 * there are literals, and a `term` node for each would be a fifth of all tree nodes. The label
 * holds tokens and `term` nodes alike, in source order (see to-ast-expressions.ts `valueTerm`).
 */
export function literalOrTerm(grammar: Grammar, occurrence: number, label: string): OrMethodOpts<unknown> {
  const { $, rules } = grammar;
  return {
    MAX_LOOKAHEAD: 1,
    IGNORE_AMBIGUITIES: true,
    DEF: [
      { GATE: () => ENDS_A_VALUE[$.LA(2).tokenTypeIdx] === true, ALT: () => $.consume(occurrence, T.Constant, { LABEL: label }) },
      { ALT: () => $.subrule(occurrence, rules.term!, { LABEL: label }) },
    ],
  };
}

/** By tokenTypeIdx: what may follow a value in those places (chevrotain's lookahead stops at the value). */
const ENDS_A_VALUE: boolean[] = [];
for (const type of [T.Comma, T.Colon, T.RParen, T.RBracket, T.RBrace, T.As]) ENDS_A_VALUE[type.tokenTypeIdx!] = true;
