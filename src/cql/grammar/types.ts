// CQL types (Parser.g `comparatorType`, `native_type`, `collection_type`, `tuple_type`, `vector_type`).
import type { IOrAlt, OrMethodOpts } from "chevrotain";
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";

export function defineTypeRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  const singleArgumentTypes: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.ListKw, { LABEL: "list" }) },
    { ALT: () => $.CONSUME(T.SetKw, { LABEL: "set" }) },
    { ALT: () => $.CONSUME(T.Frozen, { LABEL: "frozen" }) },
  ];
  const moreTupleElements = () => {
    $.CONSUME1(T.Comma);
    $.SUBRULE4(rules.comparatorType, { LABEL: "element" });
  };
  // Native type names are also names, so `text` could be read as a user type called text: the
  // alternatives are ordered (native types first) and that order settles it, as in Parser.g.
  // Built once: rule bodies run for every column.
  const typeForms: OrMethodOpts<unknown> = {
    IGNORE_AMBIGUITIES: true,
    DEF: [
      { ALT: () => $.CONSUME(T.NativeTypeKeyword, { LABEL: "native" }) },
      {
        ALT: () => {
          $.CONSUME(T.MapKw, { LABEL: "map" });
          $.CONSUME(T.Less);
          $.SUBRULE(rules.comparatorType, { LABEL: "element" });
          $.CONSUME(T.Comma);
          $.SUBRULE1(rules.comparatorType, { LABEL: "element" });
          $.CONSUME(T.Greater);
        },
      },
      {
        ALT: () => {
          $.OR1(singleArgumentTypes);
          $.CONSUME1(T.Less);
          $.SUBRULE2(rules.comparatorType, { LABEL: "element" });
          $.CONSUME1(T.Greater);
        },
      },
      {
        ALT: () => {
          $.CONSUME(T.Tuple, { LABEL: "tuple" });
          $.CONSUME2(T.Less);
          $.SUBRULE3(rules.comparatorType, { LABEL: "element" });
          $.MANY(moreTupleElements);
          $.CONSUME2(T.Greater);
        },
      },
      {
        ALT: () => {
          $.CONSUME(T.Vector, { LABEL: "vector" });
          $.CONSUME3(T.Less);
          $.SUBRULE5(rules.comparatorType, { LABEL: "element" });
          $.CONSUME2(T.Comma);
          $.CONSUME(T.IntegerLiteral, { LABEL: "dimension" });
          $.CONSUME3(T.Greater);
        },
      },
      // A custom type given by its class name, e.g. 'org.apache.cassandra.db.marshal.DynamicCompositeType'.
      { ALT: () => $.CONSUME(T.StringLiteral, { LABEL: "custom" }) },
      { ALT: () => $.SUBRULE(rules.qualifiedName, { LABEL: "user" }) },
    ],
  };

  defineRule(grammar, "comparatorType", () => {
    $.OR(typeForms);
  });
}
