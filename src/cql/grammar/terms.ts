// Terms and relations (Parser.g `term`, `value`, `function`, `selector`, `relation`, `whereClause`).
//
// Deviation from Parser.g: one expression grammar serves terms and selectors (a superset: a bare
// column is a term here; whether it is allowed in a given place is judged later, not by the parser).
// Binary operators are read as a flat list and given their precedence in to-ast.ts, which keeps the
// tree shallow and every decision LL(1).
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";
import { customIndexExpressionAhead, relationGroupAhead, typeHintAhead } from "./lookahead.js";

export function defineTermRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  defineRule(grammar, "term", () => {
    $.SUBRULE(rules.operand);
    $.MANY(() => {
      $.OR([
        { ALT: () => $.CONSUME(T.Plus, { LABEL: "operator" }) },
        { ALT: () => $.CONSUME(T.Minus, { LABEL: "operator" }) },
        { ALT: () => $.CONSUME(T.Star, { LABEL: "operator" }) },
        { ALT: () => $.CONSUME(T.Slash, { LABEL: "operator" }) },
        { ALT: () => $.CONSUME(T.Percent, { LABEL: "operator" }) },
      ]);
      $.SUBRULE1(rules.operand);
    });
  });

  // A primary value with its postfix accessors (`.field`, `[key]`, `[from..to]`).
  defineRule(grammar, "operand", () => {
    $.OR({
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
            $.OPTION({
              GATE: () => $.LA(1).tokenType === T.Dot && $.LA(3).tokenType === T.LParen,
              DEF: () => {
                $.CONSUME(T.Dot, { LABEL: "qualifier" });
                $.CONSUME2(T.Name, { LABEL: "name" });
              },
            });
            $.OPTION1(() => $.SUBRULE1(rules.functionArgs));
          },
        },
      ],
    });
    $.MANY(() => {
      $.OR1([
        {
          ALT: () => {
            $.CONSUME1(T.Dot, { LABEL: "fieldDot" });
            $.CONSUME3(T.Name, { LABEL: "field" });
          },
        },
        { ALT: () => $.SUBRULE(rules.subscript) },
      ]);
    });
  });

  // `[key]`, `[from..to]`, `[..to]`, `[from..]` (Parser.g `collectionSubSelection`).
  defineRule(grammar, "subscript", () => {
    $.CONSUME(T.LBracket);
    $.OR([
      {
        ALT: () => {
          $.CONSUME(T.Range);
          $.SUBRULE(rules.term, { LABEL: "to" });
        },
      },
      {
        ALT: () => {
          $.SUBRULE1(rules.term, { LABEL: "from" });
          $.OPTION(() => {
            $.CONSUME1(T.Range);
            $.OPTION1(() => $.SUBRULE2(rules.term, { LABEL: "to" }));
          });
        },
      },
    ]);
    $.CONSUME(T.RBracket);
  });

  // `( … )`: a type hint `(int) ?`, a tuple `(1, 'a')`, or a parenthesised expression.
  defineRule(grammar, "parenthesizedTerm", () => {
    $.OR([
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
          $.MANY(() => {
            $.CONSUME(T.Comma);
            $.SUBRULE1(rules.term, { LABEL: "element" });
          });
          $.CONSUME1(T.RParen);
        },
      },
    ]);
  });

  defineRule(grammar, "listLiteral", () => {
    $.CONSUME(T.LBracket);
    $.OPTION(() => {
      $.SUBRULE(rules.term, { LABEL: "element" });
      $.MANY(() => {
        $.CONSUME(T.Comma);
        $.SUBRULE1(rules.term, { LABEL: "element" });
      });
    });
    $.CONSUME(T.RBracket);
  });

  // `{}`, `{a, b}` (set), `{k: v, …}` (map, or a user type literal when every key is a bare name).
  defineRule(grammar, "braceLiteral", () => {
    $.CONSUME(T.LBrace);
    $.OPTION(() => {
      $.SUBRULE(rules.term, { LABEL: "key" });
      $.OR([
        {
          ALT: () => {
            $.CONSUME(T.Colon);
            $.SUBRULE1(rules.term, { LABEL: "value" });
            $.MANY(() => {
              $.CONSUME(T.Comma);
              $.SUBRULE2(rules.term, { LABEL: "key" });
              $.CONSUME1(T.Colon);
              $.SUBRULE3(rules.term, { LABEL: "value" });
            });
          },
        },
        {
          ALT: () => {
            $.MANY1(() => {
              $.CONSUME1(T.Comma);
              $.SUBRULE4(rules.term, { LABEL: "key" });
            });
          },
        },
      ]);
    });
    $.CONSUME(T.RBrace);
  });

  // `( [* | term [AS type] (, term)*] )`: `count(*)`, `cast(x AS int)` and ordinary calls.
  defineRule(grammar, "functionArgs", () => {
    $.CONSUME(T.LParen);
    $.OPTION(() => {
      $.OR([
        { ALT: () => $.CONSUME(T.Star, { LABEL: "star" }) },
        {
          ALT: () => {
            $.SUBRULE(rules.term, { LABEL: "argument" });
            $.OPTION1(() => {
              $.CONSUME(T.As);
              $.SUBRULE(rules.comparatorType, { LABEL: "castType" });
            });
            $.MANY(() => {
              $.CONSUME(T.Comma);
              $.SUBRULE1(rules.term, { LABEL: "argument" });
            });
          },
        },
      ]);
    });
    $.CONSUME(T.RParen);
  });

  // -------------------------------------------------------------------------------------------
  // WHERE (Parser.g `whereClause`, `relationOrExpression`, `relation`)

  // Relations joined by AND. OR is not CQL (3.11–5.0) but SAI users write it: it is parsed and
  // recorded so the planner can explain the rejection, instead of failing the whole statement.
  defineRule(grammar, "whereClause", () => {
    $.SUBRULE(rules.relationOrExpression);
    $.MANY(() => {
      $.OR([
        { ALT: () => $.CONSUME(T.And) },
        { ALT: () => $.CONSUME(T.Or, { LABEL: "or" }) },
      ]);
      $.SUBRULE1(rules.relationOrExpression);
    });
  });

  defineRule(grammar, "relationOrExpression", () => {
    $.OR([
      { GATE: () => customIndexExpressionAhead($), ALT: () => $.SUBRULE(rules.customIndexExpression) },
      {
        GATE: () => $.LA(1).tokenType === T.LParen && relationGroupAhead($),
        ALT: () => {
          $.CONSUME(T.LParen, { LABEL: "groupOpen" });
          $.SUBRULE(rules.whereClause, { LABEL: "group" });
          $.CONSUME(T.RParen);
        },
      },
      { ALT: () => $.SUBRULE(rules.relation) },
    ]);
  });

  defineRule(grammar, "customIndexExpression", () => {
    $.CONSUME(T.Identifier, { LABEL: "expr" });
    $.CONSUME(T.LParen);
    $.SUBRULE(rules.qualifiedName, { LABEL: "index" });
    $.CONSUME(T.Comma);
    $.SUBRULE(rules.term, { LABEL: "expression" });
    $.CONSUME(T.RParen);
  });

  defineRule(grammar, "relation", () => {
    $.OR([
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
    ]);
  });

  defineRule(grammar, "tupleOfIdentifiers", () => {
    $.CONSUME(T.LParen);
    $.CONSUME(T.Name, { LABEL: "column" });
    $.MANY(() => {
      $.CONSUME(T.Comma);
      $.CONSUME1(T.Name, { LABEL: "column" });
    });
    $.CONSUME(T.RParen);
  });

  // `col op …`, `col[key] op …`, `col.field op …`: relations in WHERE and conditions in IF
  // (Parser.g `columnCondition`, and the single-column forms of `relation`).
  defineRule(grammar, "columnCondition", () => {
    $.CONSUME(T.Name, { LABEL: "column" });
    $.OPTION(() => {
      $.OR([
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
      ]);
    });
    $.SUBRULE(rules.relationOperation);
  });

  // The operator and right-hand side (Parser.g `relationType`, `inOperator`, `containsOperator`, …).
  defineRule(grammar, "relationOperation", () => {
    $.OR([
      {
        ALT: () => {
          $.OR1([
            { ALT: () => $.CONSUME(T.Equals, { LABEL: "operator" }) },
            { ALT: () => $.CONSUME(T.NotEquals, { LABEL: "operator" }) },
            { ALT: () => $.CONSUME(T.Less, { LABEL: "operator" }) },
            { ALT: () => $.CONSUME(T.LessEquals, { LABEL: "operator" }) },
            { ALT: () => $.CONSUME(T.Greater, { LABEL: "operator" }) },
            { ALT: () => $.CONSUME(T.GreaterEquals, { LABEL: "operator" }) },
          ]);
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
          $.OR2([
            {
              ALT: () => {
                $.CONSUME1(T.In, { LABEL: "in" });
                $.SUBRULE1(rules.inValues);
              },
            },
            {
              ALT: () => {
                $.CONSUME(T.Contains, { LABEL: "contains" });
                $.OPTION(() => $.CONSUME(T.Key, { LABEL: "key" }));
                $.SUBRULE1(rules.term, { LABEL: "value" });
              },
            },
          ]);
        },
      },
      {
        ALT: () => {
          $.CONSUME1(T.Contains, { LABEL: "contains" });
          $.OPTION1(() => $.CONSUME1(T.Key, { LABEL: "key" }));
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
    ]);
  });

  // `(a, b, …)`, `()`, `?`, `:name` after IN (Parser.g `singleColumnInValues`, `multiColumnInValues`).
  defineRule(grammar, "inValues", () => {
    $.OR([
      {
        ALT: () => {
          $.CONSUME(T.LParen);
          $.OPTION(() => {
            $.SUBRULE(rules.term, { LABEL: "element" });
            $.MANY(() => {
              $.CONSUME(T.Comma);
              $.SUBRULE1(rules.term, { LABEL: "element" });
            });
          });
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
    ]);
  });

  // `name = term AND …` (Parser.g `properties`, `property`); values are any term, judged later.
  defineRule(grammar, "properties", () => {
    $.SUBRULE(rules.property);
    $.MANY(() => {
      $.CONSUME(T.And);
      $.SUBRULE1(rules.property);
    });
  });

  defineRule(grammar, "property", () => {
    $.CONSUME(T.Name, { LABEL: "name" });
    $.CONSUME(T.Equals);
    $.SUBRULE(rules.term, { LABEL: "value" });
  });
}
