// Terms and relations (Parser.g `term`, `value`, `function`, `selector`, `relation`, `whereClause`).
//
// Deviation from Parser.g: one expression grammar serves terms and selectors (a superset: a bare
// column is a term here; whether it is allowed in a given place is judged later, not by the parser).
// Binary operators are read as a flat list and given their precedence when the term is built,
// which keeps the recursion shallow and every decision LL(1).
import type { DSLMethodOpts, IOrAlt, IToken, OrMethodOpts } from "chevrotain";
import type {
  BindMarker,
  ColumnRelation,
  CqlType,
  FunctionCall,
  Identifier,
  LiteralType,
  MultiColumnRelation,
  OptionEntry,
  QualifiedName,
  Relation,
  RelationOperator,
  SourceRange,
  Term,
  TokenRelation,
  WhereClause,
} from "../ast.js";
import { spanBetween, tokenSpan } from "../source-span.js";
import * as T from "../tokens.js";
import { AstSyntaxError, defineRule, IncompleteTreeError, rangeFrom, RECORDING, required, requiredToken, type Grammar } from "./api.js";
import { bareQualifiedName, bindMarker, identifier, literal } from "./build.js";
import { customIndexExpressionAhead, relationGroupAhead, typeHintAhead } from "./lookahead.js";

declare module "./api.js" {
  interface RuleTypes {
    term: Term;
    operand: Term;
    subscript: Subscript;
    parenthesizedTerm: Term;
    listLiteral: Term;
    braceLiteral: Term;
    functionArgs: FunctionArguments;
    whereClause: WhereClause;
    /** a relation, or a parenthesised group of relations (flattened into the enclosing clause) */
    relationOrExpression: Relation | WhereClause;
    customIndexExpression: Relation;
    tupleOfIdentifiers: Identifier[];
    columnCondition: ColumnRelation;
    relationOperation: Operation;
    /** `IN ?` / `IN :name` (a marker for the whole list), or the values of `IN (…)` */
    inValues: BindMarker | Term[];
    properties: OptionEntry[];
    property: OptionEntry;
  }
}

/** The parenthesised arguments of a call. */
export interface FunctionArguments {
  /** `(*)`, as in count(*) */
  star?: IToken;
  arguments: Term[];
  /** `AS type` after the first argument: only CAST(value AS type) has it */
  castType?: CqlType;
  castTypeRange?: SourceRange;
  range: SourceRange;
}

/** What is between the brackets of `[key]` or `[from..to]` (either bound optional). */
interface SubscriptBounds {
  /** the brackets hold `..` */
  slice: boolean;
  from?: Term | undefined;
  to?: Term | undefined;
}

/** `[key]` or `[from..to]` after a value. */
interface Subscript extends SubscriptBounds {
  range: SourceRange;
}

/** A postfix accessor: `.field` (its name token) or a subscript. */
type Accessor = IToken | Subscript;

/** `+ operand`, `* operand`, … after a term's first operand. */
interface BinaryStep {
  operator: IToken;
  operand: Term;
}

/** The operator and right-hand side of a relation or condition (see ast.ts RelationRightHandSide). */
interface Operation {
  operator: RelationOperator;
  value?: Term;
  values?: Term[];
}

/** The values after the first key of a brace literal: map values, or further set elements. */
interface BraceRest {
  values: Term[] | undefined;
  moreKeys: Term[];
}

/** What the argument list of a call holds, before its parentheses are known. */
interface ArgumentList {
  arguments: Term[];
  castType: CqlType | undefined;
}

/**
 * In a multi-column relation `(a) = (1)` the `(1)` is a one-element tuple, though elsewhere it is
 * just a parenthesised 1 (see tupleValue), and the AST of `(1)` is the literal alone. So the
 * productions note here which terms were one parenthesised operand (a `(x)` or a type hint, maybe
 * with accessors, without binary operators), with the range of those parentheses. Every other
 * term is a fresh object, never in the map.
 */
const parenthesizedRanges = new WeakMap<Term, SourceRange>();

export function defineTermRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  // Alternatives are built once, not on every call: rule bodies run for every token.
  const binaryOperators: IOrAlt<IToken>[] = [
    { ALT: () => $.CONSUME9(T.Plus) },
    { ALT: () => $.CONSUME9(T.Minus) },
    { ALT: () => $.CONSUME9(T.Star) },
    { ALT: () => $.CONSUME9(T.Slash) },
    { ALT: () => $.CONSUME9(T.Percent) },
  ];
  const binaryOperation = (): BinaryStep => {
    const operator = $.OR2(binaryOperators);
    const operand = $.SUBRULE1(rules.operand);
    return { operator, operand };
  };

  const qualifiedCall: DSLMethodOpts<IToken> = {
    GATE: () => $.LA(1).tokenType === T.Dot && $.LA(3).tokenType === T.LParen,
    DEF: () => {
      $.CONSUME(T.Dot);
      return $.CONSUME2(T.Name);
    },
  };
  const callArguments = () => $.SUBRULE1(rules.functionArgs);
  const constant = (token: IToken): Term => ($.RECORDING_PHASE ? RECORDING : literal(token));
  // Each alternative builds its own value, after the recording check (see api.ts).
  // `?` and `:name`, in terms and after IN.
  const bindMarkers: IOrAlt<BindMarker>[] = [
    {
      ALT: () => {
        const marker = $.CONSUME(T.QuestionMark);
        return $.RECORDING_PHASE ? RECORDING : bindMarker(marker, undefined);
      },
    },
    {
      ALT: () => {
        const marker = $.CONSUME(T.Colon);
        const name = $.CONSUME(T.Name);
        return $.RECORDING_PHASE ? RECORDING : bindMarker(marker, name);
      },
    },
  ];
  const primaries: OrMethodOpts<Term> = {
    IGNORE_AMBIGUITIES: true,
    DEF: [
      {
        ALT: () => {
          const negate = $.CONSUME(T.Minus);
          const negated = $.SUBRULE(rules.operand);
          if ($.RECORDING_PHASE) return RECORDING;
          return negation(negate, required(negated, "negated value"));
        },
      },
      { ALT: () => constant($.CONSUME(T.Constant)) },
      { ALT: () => constant($.CONSUME(T.Null)) },
      { ALT: () => constant($.CONSUME(T.NanKw)) },
      { ALT: () => constant($.CONSUME(T.InfinityKw)) },
      ...bindMarkers,
      { ALT: () => $.SUBRULE(rules.parenthesizedTerm) },
      { ALT: () => $.SUBRULE(rules.listLiteral) },
      { ALT: () => $.SUBRULE(rules.braceLiteral) },
      {
        // `token(a, b)`: TOKEN is reserved but is a function in selectors and relations.
        ALT: () => {
          const name = $.CONSUME(T.Token);
          const args = $.SUBRULE(rules.functionArgs);
          if ($.RECORDING_PHASE) return RECORDING;
          const qualified = bareQualifiedName(name);
          const list = required(args, "arguments");
          // The call spans `token(…)` only, not the rest of the term it starts.
          return functionCall(qualified, list, spanBetween(qualified.range, list.range));
        },
      },
      {
        // a column, `fn(…)` or `ks.fn(…)`; `CAST(x AS type)` is a call whose argument has `AS type`.
        ALT: () => {
          const first = $.CONSUME1(T.Name);
          const second = $.OPTION(qualifiedCall);
          const args = $.OPTION1(callArguments);
          if ($.RECORDING_PHASE) return RECORDING;
          return nameOrCall(first, second, args);
        },
      },
    ],
  };

  const accessors: IOrAlt<Accessor>[] = [
    {
      ALT: () => {
        $.CONSUME1(T.Dot);
        return $.CONSUME3(T.Name);
      },
    },
    { ALT: () => $.SUBRULE(rules.subscript) },
  ];

  // A primary value with its postfix accessors (`.field`, `[key]`, `[from..to]`).
  defineRule(grammar, "operand", () => {
    const base = $.OR(primaries);
    const found: Accessor[] = [];
    $.MANY(() => {
      found.push($.OR1(accessors));
    });
    if ($.RECORDING_PHASE) return RECORDING;
    let operand = required(base, "operand");
    for (const accessor of found) operand = applyAccessor(operand, accessor);
    return operand;
  });

  // Operands joined by binary operators. The first operand is written out here rather than called
  // as a subrule: most terms are a single value, and this saves a rule call for each of them.
  // Accessors here can only follow the first operand (a later operand takes its own), so one
  // loop serves both: one loop exit per term instead of two.
  const termContinuations: IOrAlt<Accessor | BinaryStep>[] = [...accessors, { ALT: binaryOperation }];
  defineRule(grammar, "term", () => {
    const first = $.OR(primaries);
    const steps: (Accessor | BinaryStep)[] = [];
    $.MANY(() => {
      steps.push($.OR3(termContinuations));
    });
    if ($.RECORDING_PHASE) return RECORDING;
    const leading = required(first, "operand");
    return steps.length === 0 ? leading : termWithSteps(leading, steps);
  });

  // `[key]`, `[from..to]`, `[..to]`, `[from..]` (Parser.g `collectionSubSelection`).
  const sliceEnd = () => $.SUBRULE2(rules.term);
  const sliceTail = (): SubscriptBounds => {
    $.CONSUME1(T.Range);
    return { slice: true, to: $.OPTION1(sliceEnd) };
  };
  const subscriptForms: IOrAlt<SubscriptBounds>[] = [
    {
      ALT: () => {
        $.CONSUME(T.Range);
        return { slice: true, to: $.SUBRULE(rules.term) };
      },
    },
    {
      ALT: () => {
        const from = $.SUBRULE1(rules.term);
        const tail = $.OPTION(sliceTail);
        return { slice: tail !== undefined, from, to: tail?.to };
      },
    },
  ];
  defineRule(grammar, "subscript", () => {
    const start = $.CONSUME(T.LBracket);
    const bounds = $.OR(subscriptForms);
    $.CONSUME(T.RBracket);
    if ($.RECORDING_PHASE) return RECORDING;
    return { slice: bounds.slice, from: bounds.from, to: bounds.to, range: rangeFrom($, start) };
  });

  // `( … )`: a type hint `(int) ?`, a tuple `(1, 'a')`, or a parenthesised expression.
  // Both forms start with `(` and a name; the gate decides, so one token of lookahead is enough.
  const parenthesizedForms: OrMethodOpts<Term> = {
    MAX_LOOKAHEAD: 1,
    IGNORE_AMBIGUITIES: true,
    DEF: [
      {
        GATE: () => typeHintAhead($),
        ALT: () => {
          const start = $.CONSUME(T.LParen);
          const type = $.SUBRULE(rules.comparatorType);
          $.CONSUME(T.RParen);
          const hinted = $.SUBRULE(rules.operand);
          if ($.RECORDING_PHASE) return RECORDING;
          const hint: Term = { kind: "type-hint", type: required(type, "type"), value: required(hinted, "hinted value"), range: rangeFrom($, start) };
          parenthesizedRanges.set(hint, hint.range);
          return hint;
        },
      },
      {
        ALT: () => {
          const start = $.CONSUME1(T.LParen);
          const elements = [$.SUBRULE(rules.term)];
          $.MANY(() => {
            $.CONSUME(T.Comma);
            elements.push($.SUBRULE1(rules.term));
          });
          $.CONSUME1(T.RParen);
          if ($.RECORDING_PHASE) return RECORDING;
          for (const element of elements) required(element, "element");
          const range = rangeFrom($, start);
          if (elements.length > 1) return { kind: "tuple", elements, range };
          const only = elements[0]!;
          parenthesizedRanges.set(only, range);
          return only;
        },
      },
    ],
  };
  defineRule(grammar, "parenthesizedTerm", () => $.OR(parenthesizedForms));

  const listValue = literalOrTerm(grammar, 1);
  const laterListValue = literalOrTerm(grammar, 2);
  defineRule(grammar, "listLiteral", () => {
    const start = $.CONSUME(T.LBracket);
    const elements: Term[] = [];
    $.OPTION(() => {
      elements.push($.or(1, listValue));
      $.MANY(() => {
        $.CONSUME(T.Comma);
        elements.push($.or(2, laterListValue));
      });
    });
    $.CONSUME(T.RBracket);
    if ($.RECORDING_PHASE) return RECORDING;
    for (const element of elements) required(element, "element");
    return { kind: "list", elements, range: rangeFrom($, start) };
  });

  // `{}`, `{a, b}` (set), `{k: v, …}` (map, or a user type literal when every key is a bare name).
  const laterKey = literalOrTerm(grammar, 2);
  const laterValue = literalOrTerm(grammar, 3);
  const laterElement = literalOrTerm(grammar, 4);
  const firstValue = literalOrTerm(grammar, 1);
  const braceForms: IOrAlt<BraceRest>[] = [
    {
      ALT: () => {
        $.CONSUME(T.Colon);
        const values = [$.or(1, firstValue)];
        const moreKeys: Term[] = [];
        $.MANY(() => {
          $.CONSUME(T.Comma);
          moreKeys.push($.or(2, laterKey));
          $.CONSUME1(T.Colon);
          values.push($.or(3, laterValue));
        });
        return { values, moreKeys };
      },
    },
    {
      ALT: () => {
        const moreKeys: Term[] = [];
        $.MANY1(() => {
          $.CONSUME1(T.Comma);
          moreKeys.push($.or(4, laterElement));
        });
        return { values: undefined, moreKeys };
      },
    },
  ];
  const firstKey = literalOrTerm(grammar, 5);
  const braceContent = (): [Term, BraceRest] => [$.or(5, firstKey), $.OR(braceForms)];
  defineRule(grammar, "braceLiteral", () => {
    const start = $.CONSUME(T.LBrace);
    const content = $.OPTION(braceContent);
    $.CONSUME(T.RBrace);
    if ($.RECORDING_PHASE) return RECORDING;
    const range = rangeFrom($, start);
    if (content === undefined) return { kind: "map", entries: [], range };
    const [firstKeyValue, rest] = content;
    const keys = [required(firstKeyValue, "key")];
    for (const key of required(rest, "brace content").moreKeys) keys.push(required(key, "key"));
    const values = rest.values;
    if (values === undefined) return { kind: "set", elements: keys, range };
    if (values.length !== keys.length) throw new IncompleteTreeError("map entry without value");
    for (const value of values) required(value, "value");
    // `{street: 'x'}`: bare names as keys make a user type literal (Parser.g `usertypeLiteral`).
    if (keys.every((key) => key.kind === "column")) {
      return { kind: "udt", fields: keys.map((key, i) => ({ name: (key as { name: Identifier }).name, value: values[i]! })), range };
    }
    return { kind: "map", entries: keys.map((key, i) => ({ key, value: values[i]! })), range };
  });

  // `( [* | term [AS type] (, term)*] )`: `count(*)`, `cast(x AS int)` and ordinary calls.
  const castType = () => {
    $.CONSUME(T.As);
    return $.SUBRULE(rules.comparatorType);
  };
  const laterArgument = literalOrTerm(grammar, 2);
  const firstArgument = literalOrTerm(grammar, 1);
  const argumentForms: IOrAlt<IToken | ArgumentList>[] = [
    { ALT: () => $.CONSUME(T.Star) },
    {
      ALT: () => {
        const args = [$.or(1, firstArgument)];
        const cast = $.OPTION1(castType);
        $.MANY(() => {
          $.CONSUME(T.Comma);
          args.push($.or(2, laterArgument));
        });
        return { arguments: args, castType: cast };
      },
    },
  ];
  const argumentList = () => $.OR(argumentForms);
  defineRule(grammar, "functionArgs", () => {
    const start = $.CONSUME(T.LParen);
    const content = $.OPTION(argumentList);
    $.CONSUME(T.RParen);
    if ($.RECORDING_PHASE) return RECORDING;
    const range = rangeFrom($, start);
    if (content === undefined) return { arguments: [], range };
    if (isToken(content)) return { star: content, arguments: [], range };
    for (const argument of content.arguments) required(argument, "argument");
    const args: FunctionArguments = { arguments: content.arguments, range };
    if (content.castType) {
      args.castType = content.castType;
      args.castTypeRange = content.castType.range;
    }
    return args;
  });

  // -------------------------------------------------------------------------------------------
  // WHERE (Parser.g `whereClause`, `relationOrExpression`, `relation`)

  // Relations joined by AND. OR is not CQL (3.11–5.0) but SAI users write it: it is parsed and
  // recorded so the planner can explain the rejection, instead of failing the whole statement.
  const connectives: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.And) }, { ALT: () => $.CONSUME(T.Or) }];
  defineRule(grammar, "whereClause", () => {
    const start = $.LA(1);
    const items = [$.SUBRULE(rules.relationOrExpression)];
    const joins: IToken[] = [];
    $.MANY(() => {
      joins.push($.OR(connectives));
      items.push($.SUBRULE1(rules.relationOrExpression));
    });
    if ($.RECORDING_PHASE) return RECORDING;
    const relations: Relation[] = [];
    const or: SourceRange[] = [];
    for (let i = 0; i < items.length; i++) {
      const join = joins[i - 1];
      if (join !== undefined && join.tokenType === T.Or) or.push(tokenSpan(join));
      const item = required(items[i], "relation");
      if ("relations" in item) {
        // Groups `( … )` are flattened: their relations and OR positions join this clause.
        for (const relation of item.relations) relations.push(relation);
        for (const range of item.or) or.push(range);
      } else {
        relations.push(item);
      }
    }
    return { relations, or, range: rangeFrom($, start) };
  });

  // Gates decide between a custom expression, a group and a relation; one token of lookahead.
  // Deviation: Parser.g's `relation` is written out here (one rule call less per relation).
  const relationForms: OrMethodOpts<Relation | WhereClause> = {
    MAX_LOOKAHEAD: 1,
    IGNORE_AMBIGUITIES: true,
    DEF: [
      { GATE: () => customIndexExpressionAhead($), ALT: () => $.SUBRULE(rules.customIndexExpression) },
      {
        GATE: () => $.LA(1).tokenType === T.LParen && relationGroupAhead($),
        ALT: () => {
          $.CONSUME(T.LParen);
          const group = $.SUBRULE(rules.whereClause);
          $.CONSUME(T.RParen);
          return $.RECORDING_PHASE ? RECORDING : required(group, "group");
        },
      },
      {
        ALT: () => {
          const start = $.CONSUME(T.Token);
          const columns = $.SUBRULE(rules.tupleOfIdentifiers);
          const operation = $.SUBRULE(rules.relationOperation);
          if ($.RECORDING_PHASE) return RECORDING;
          return tokenRelation(required(columns, "columns"), required(operation, "operator"), rangeFrom($, start));
        },
      },
      {
        ALT: () => {
          const start = $.LA(1);
          const columns = $.SUBRULE1(rules.tupleOfIdentifiers);
          const operation = $.SUBRULE1(rules.relationOperation);
          if ($.RECORDING_PHASE) return RECORDING;
          return multiColumnRelation(required(columns, "columns"), required(operation, "operator"), rangeFrom($, start));
        },
      },
      { ALT: () => $.SUBRULE(rules.columnCondition) },
    ],
  };
  defineRule(grammar, "relationOrExpression", () => $.OR(relationForms));

  defineRule(grammar, "customIndexExpression", () => {
    const start = $.CONSUME(T.Identifier);
    $.CONSUME(T.LParen);
    const index = $.SUBRULE(rules.qualifiedName);
    $.CONSUME(T.Comma);
    const expression = $.SUBRULE(rules.term);
    $.CONSUME(T.RParen);
    if ($.RECORDING_PHASE) return RECORDING;
    return {
      kind: "custom-index-expression",
      index: required(index, "index"),
      expression: required(expression, "expression"),
      range: rangeFrom($, start),
    };
  });

  defineRule(grammar, "tupleOfIdentifiers", () => {
    $.CONSUME(T.LParen);
    const columns = [$.CONSUME(T.Name)];
    $.MANY(() => {
      $.CONSUME(T.Comma);
      columns.push($.CONSUME1(T.Name));
    });
    $.CONSUME(T.RParen);
    if ($.RECORDING_PHASE) return RECORDING;
    return columns.map(identifier);
  });

  // `col op …`, `col[key] op …`, `col.field op …`: relations in WHERE and conditions in IF
  // (Parser.g `columnCondition`, and the single-column forms of `relation`).
  const elementOrField: IOrAlt<Term | IToken>[] = [
    {
      ALT: () => {
        $.CONSUME(T.LBracket);
        const key = $.SUBRULE6(rules.term);
        $.CONSUME(T.RBracket);
        return $.RECORDING_PHASE ? RECORDING : required(key, "key");
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Dot);
        return $.CONSUME1(T.Name);
      },
    },
  ];
  const columnSelector = () => $.OR3(elementOrField);

  // The operator and right-hand side (Parser.g `relationType`, `inOperator`, `containsOperator`, …).
  // Each alternative builds its Operation after the recording check.
  const comparisons: IOrAlt<IToken>[] = [
    { ALT: () => $.CONSUME(T.Equals) },
    { ALT: () => $.CONSUME(T.NotEquals) },
    { ALT: () => $.CONSUME(T.Less) },
    { ALT: () => $.CONSUME(T.LessEquals) },
    { ALT: () => $.CONSUME(T.Greater) },
    { ALT: () => $.CONSUME(T.GreaterEquals) },
  ];
  const containsKey = () => $.CONSUME(T.Key);
  const containsKeyAgain = () => $.CONSUME1(T.Key);
  const negatedOperations: IOrAlt<Operation>[] = [
    {
      ALT: () => {
        $.CONSUME1(T.In);
        const values = $.SUBRULE1(rules.inValues);
        return $.RECORDING_PHASE ? RECORDING : inOperation("NOT IN", values);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Contains);
        const key = $.OPTION(containsKey);
        const value = $.SUBRULE1(rules.term);
        if ($.RECORDING_PHASE) return RECORDING;
        return { operator: key ? "NOT CONTAINS KEY" : "NOT CONTAINS", value: required(value, "value") };
      },
    },
  ];
  const operations: IOrAlt<Operation>[] = [
    {
      ALT: () => {
        const operator = $.OR1(comparisons);
        const value = $.SUBRULE(rules.term);
        if ($.RECORDING_PHASE) return RECORDING;
        return { operator: requiredToken(operator, "operator").image as RelationOperator, value: required(value, "value") };
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.In);
        const values = $.SUBRULE(rules.inValues);
        return $.RECORDING_PHASE ? RECORDING : inOperation("IN", values);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Not);
        return $.OR2(negatedOperations);
      },
    },
    {
      ALT: () => {
        $.CONSUME1(T.Contains);
        const key = $.OPTION1(containsKeyAgain);
        const value = $.SUBRULE2(rules.term);
        if ($.RECORDING_PHASE) return RECORDING;
        return { operator: key ? "CONTAINS KEY" : "CONTAINS", value: required(value, "value") };
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Like);
        const value = $.SUBRULE3(rules.term);
        if ($.RECORDING_PHASE) return RECORDING;
        return { operator: "LIKE", value: required(value, "value") };
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Is);
        $.CONSUME2(T.Not);
        $.CONSUME(T.Null);
        return IS_NOT_NULL;
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Between);
        const low = $.SUBRULE4(rules.term);
        $.CONSUME(T.And);
        const high = $.SUBRULE5(rules.term);
        if ($.RECORDING_PHASE) return RECORDING;
        return { operator: "BETWEEN", values: [required(low, "lower bound"), required(high, "upper bound")] };
      },
    },
  ];

  // Deviation: the operator and value (relationOperation) are written out here, one rule call
  // less per relation; relationOperation remains for token and multi-column relations.
  defineRule(grammar, "columnCondition", () => {
    const column = $.CONSUME(T.Name);
    const selector = $.OPTION2(columnSelector);
    const operation = $.OR(operations);
    if ($.RECORDING_PHASE) return RECORDING;
    // Fields in the order of ast.ts, optional ones only when present (snapshots compare JSON).
    const relation = { kind: "column", column: identifier(column) } as ColumnRelation;
    if (selector !== undefined) {
      if (isToken(selector)) relation.field = identifier(selector);
      else relation.key = selector;
    }
    copyOperation(relation, required(operation, "operator"));
    relation.range = rangeFrom($, column);
    return relation;
  });

  defineRule(grammar, "relationOperation", () => $.OR(operations));

  // `(a, b, …)`, `()`, `?`, `:name` after IN (Parser.g `singleColumnInValues`, `multiColumnInValues`).
  const firstInValue = literalOrTerm(grammar, 1);
  const laterInValue = literalOrTerm(grammar, 2);
  const inListElements = (): Term[] => {
    const elements = [$.or(1, firstInValue)];
    $.MANY(() => {
      $.CONSUME(T.Comma);
      elements.push($.or(2, laterInValue));
    });
    return elements;
  };
  const inValueForms: IOrAlt<BindMarker | Term[]>[] = [
    {
      ALT: () => {
        $.CONSUME(T.LParen);
        const elements = $.OPTION(inListElements);
        $.CONSUME(T.RParen);
        if ($.RECORDING_PHASE) return RECORDING;
        if (elements === undefined) return [];
        for (const element of elements) required(element, "value");
        return elements;
      },
    },
    ...bindMarkers,
  ];
  defineRule(grammar, "inValues", () => $.OR(inValueForms));

  // `name = term AND …` (Parser.g `properties`, `property`); values are any term, judged later.
  defineRule(grammar, "properties", () => {
    const entries = [$.SUBRULE(rules.property)];
    $.MANY(() => {
      $.CONSUME(T.And);
      entries.push($.SUBRULE1(rules.property));
    });
    if ($.RECORDING_PHASE) return RECORDING;
    for (const entry of entries) required(entry, "option");
    return entries;
  });

  defineRule(grammar, "property", () => {
    const name = $.CONSUME(T.Name);
    $.CONSUME(T.Equals);
    const value = $.SUBRULE(rules.term);
    if ($.RECORDING_PHASE) return RECORDING;
    return { name: identifier(name), value: required(value, "value"), range: rangeFrom($, name) };
  });
}

/**
 * A value in a list, map, set, IN list, function call or VALUES: a literal followed by the
 * separator or closer is read as the literal token itself rather than through `term`. Most values
 * there are literals, and this saves a rule call and a lookahead decision for each of them.
 */
export function literalOrTerm(grammar: Grammar, occurrence: number): OrMethodOpts<Term> {
  const { $, rules } = grammar;
  return {
    MAX_LOOKAHEAD: 1,
    IGNORE_AMBIGUITIES: true,
    DEF: [
      {
        GATE: () => ENDS_A_VALUE[$.LA(2).tokenTypeIdx] === true,
        ALT: () => {
          const token = $.consume(occurrence, T.Constant);
          return $.RECORDING_PHASE ? RECORDING : literal(token);
        },
      },
      { ALT: () => $.subrule(occurrence, rules.term) },
    ],
  };
}

/** By tokenTypeIdx: what may follow a value in those places (chevrotain's lookahead stops at the value). */
const ENDS_A_VALUE: boolean[] = [];
for (const type of [T.Comma, T.Colon, T.RParen, T.RBracket, T.RBrace, T.As]) ENDS_A_VALUE[type.tokenTypeIdx!] = true;

/** Shared: an Operation is copied into its relation, never kept. */
const IS_NOT_NULL: Operation = { operator: "IS NOT NULL" };

function isToken(value: object): value is IToken {
  return (value as IToken).tokenType !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Building terms

const NEGATABLE: ReadonlySet<LiteralType> = new Set(["integer", "float", "duration", "nan", "infinity"]);

function negation(minus: IToken, operand: Term): Term {
  const range = spanBetween(tokenSpan(minus), operand.range);
  // `-12`, `-1.5`, `-1h`, `-NaN`: a negative literal, as Cassandra's lexer reads it.
  if (operand.kind === "literal" && NEGATABLE.has(operand.type) && !operand.value.startsWith("-")) {
    return { kind: "literal", type: operand.type, value: `-${operand.value}`, range };
  }
  return { kind: "negate", operand, range };
}

/** A bare name is a column; with arguments it is a call to `name` or `keyspace.name`. */
function nameOrCall(first: IToken, second: IToken | undefined, args: FunctionArguments | undefined): Term {
  if (!args) {
    const name = identifier(first);
    return { kind: "column", name, range: name.range };
  }
  const qualified: QualifiedName = second
    ? { keyspace: identifier(first), name: identifier(second), range: spanBetween(tokenSpan(first), tokenSpan(second)) }
    : bareQualifiedName(first);
  return functionCall(qualified, args, spanBetween(qualified.range, args.range));
}

/** A call `name(args)` over `range`: a FunctionCall, or a CastExpression; throws AstSyntaxError for a misplaced `AS type`. */
export function functionCall(name: QualifiedName, args: FunctionArguments, range: SourceRange): Term {
  const castType = args.castType;
  if (castType) {
    if (name.keyspace || name.name.quoted || name.name.name !== "cast" || args.arguments.length !== 1) {
      throw new AstSyntaxError("`AS type` is only valid in CAST(value AS type)", args.castTypeRange ?? castType.range);
    }
    return { kind: "cast", value: args.arguments[0]!, type: castType, range };
  }
  const callArgs: Term[] = args.star ? [{ kind: "star", range: tokenSpan(args.star) }] : args.arguments;
  const call: FunctionCall = { kind: "function", name, args: callArgs, range };
  return call;
}

function applyAccessor(target: Term, accessor: Accessor | undefined): Term {
  const found = required(accessor, "accessor");
  if (isToken(found)) {
    const field = identifier(found);
    return { kind: "field", target, field, range: spanBetween(target.range, field.range) };
  }
  const subscript = found;
  const range = spanBetween(target.range, subscript.range);
  if (!subscript.slice) return { kind: "element", target, index: required(subscript.from, "index"), range };
  // Bounds only when written (ast.ts: either may be absent), in the order of SliceAccess.
  const { from, to } = subscript;
  if (from && to) return { kind: "slice", target, from, to, range };
  if (from) return { kind: "slice", target, from, range };
  if (to) return { kind: "slice", target, to, range };
  return { kind: "slice", target, range };
}

type BinaryOperator = "+" | "-" | "*" | "/" | "%";
const BINARY_PRECEDENCE: Record<string, number> = { "+": 1, "-": 1, "*": 2, "/": 2, "%": 2 };

/**
 * `a.b + c * d`: accessors of the first operand, then binary operators read as a flat list, given
 * their precedence and left associativity here (shunting-yard over two levels).
 */
function termWithSteps(leading: Term, steps: (Accessor | BinaryStep)[]): Term {
  // A later operand reads its own accessors (see the term rule), so accessors here follow the first.
  const operands: Term[] = [leading];
  const operators: BinaryOperator[] = [];
  for (const found of steps) {
    // undefined where recovery gave up on a subscript
    const step = required(found, "accessor");
    if ("operand" in step) {
      operators.push(requiredToken(step.operator, "operator").image as BinaryOperator);
      operands.push(required(step.operand, "operand"));
    } else {
      operands.push(applyAccessor(operands.pop()!, step));
    }
  }
  if (operators.length === 0) {
    // Accessors only: still one parenthesised operand when the first was (see tupleValue).
    const accessed = operands[0]!;
    const parenthesized = parenthesizedRanges.get(leading);
    if (parenthesized) parenthesizedRanges.set(accessed, parenthesized);
    return accessed;
  }
  const output: Term[] = [operands[0]!];
  const pending: BinaryOperator[] = [];
  const reduce = () => {
    const operator = pending.pop()!;
    const right = output.pop()!;
    const left = output.pop()!;
    output.push({ kind: "binary", operator, left, right, range: spanBetween(left.range, right.range) });
  };
  operators.forEach((operator, i) => {
    while (pending.length > 0 && BINARY_PRECEDENCE[pending.at(-1)!]! >= BINARY_PRECEDENCE[operator]!) reduce();
    pending.push(operator);
    output.push(operands[i + 1]!);
  });
  while (pending.length > 0) reduce();
  return output[0]!;
}

// ---------------------------------------------------------------------------------------------
// Building relations

/**
 * A value in a multi-column relation is a tuple: in `(a) = (1)` the `(1)` is a one-element tuple,
 * though elsewhere it is just a parenthesised 1.
 */
function tupleValue(value: Term): Term {
  if (value.kind === "tuple" || value.kind === "bind") return value;
  const parenthesized = parenthesizedRanges.get(value);
  if (!parenthesized) return value;
  return { kind: "tuple", elements: [value], range: parenthesized };
}

function inOperation(operator: "IN" | "NOT IN", values: BindMarker | Term[]): Operation {
  const list = required(values, "IN values");
  return Array.isArray(list) ? { operator, values: list } : { operator, value: list };
}

/** Adds the operator and right-hand side, in the order of ast.ts RelationRightHandSide. */
function copyOperation(relation: Operation, operation: Operation): void {
  relation.operator = operation.operator;
  if (operation.value !== undefined) relation.value = operation.value;
  if (operation.values !== undefined) relation.values = operation.values;
}

function tokenRelation(columns: Identifier[], operation: Operation, range: SourceRange): TokenRelation {
  const relation = { kind: "token", columns } as TokenRelation;
  copyOperation(relation, operation);
  relation.range = range;
  return relation;
}

/** Multi-column values are tuples (or markers), even when written `(1)`. */
function multiColumnRelation(columns: Identifier[], operation: Operation, range: SourceRange): MultiColumnRelation {
  const relation: MultiColumnRelation = { kind: "multi-column", columns, operator: operation.operator, range };
  if (operation.values !== undefined) relation.values = operation.values.map(tupleValue);
  else if (operation.value !== undefined) relation.value = tupleValue(operation.value);
  return relation;
}
