// CQL types (Parser.g `comparatorType`, `native_type`, `collection_type`, `tuple_type`, `vector_type`).
import type { IOrAlt, IToken, OrMethodOpts } from "chevrotain";
import type { CqlType } from "../ast.js";
import * as T from "../tokens.js";
import { defineRule, IncompleteTreeError, rangeFrom, RECORDING, required, requiredToken, type Grammar } from "./api.js";
import { nativeType, unquoteString } from "./build.js";

declare module "./api.js" {
  interface RuleTypes {
    comparatorType: CqlType;
  }
}

export function defineTypeRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  const singleArgumentTypes: IOrAlt<IToken>[] = [
    { ALT: () => $.CONSUME(T.ListKw) },
    { ALT: () => $.CONSUME(T.SetKw) },
    { ALT: () => $.CONSUME(T.Frozen) },
  ];
  // Native type names are also names, so `text` could be read as a user type called text: the
  // alternatives are ordered (native types first) and that order settles it, as in Parser.g.
  // Each alternative builds its own type, after the recording check (see api.ts). Built once:
  // rule bodies run for every column.
  const typeForms: OrMethodOpts<CqlType> = {
    IGNORE_AMBIGUITIES: true,
    DEF: [
      {
        ALT: () => {
          const token = $.CONSUME(T.NativeTypeKeyword);
          return $.RECORDING_PHASE ? RECORDING : nativeType(token);
        },
      },
      {
        ALT: () => {
          const start = $.CONSUME(T.MapKw);
          $.CONSUME(T.Less);
          const key = $.SUBRULE(rules.comparatorType);
          $.CONSUME(T.Comma);
          const value = $.SUBRULE1(rules.comparatorType);
          $.CONSUME(T.Greater);
          if ($.RECORDING_PHASE) return RECORDING;
          return { kind: "collection", collection: "map", elements: [required(key, "key type"), required(value, "value type")], range: rangeFrom($, start) };
        },
      },
      {
        ALT: () => {
          const start = $.OR1(singleArgumentTypes);
          $.CONSUME1(T.Less);
          const element = $.SUBRULE2(rules.comparatorType);
          $.CONSUME1(T.Greater);
          if ($.RECORDING_PHASE) return RECORDING;
          const range = rangeFrom($, start);
          const inner = required(element, "element type");
          if (start.tokenType === T.Frozen) return { kind: "frozen", inner, range };
          return { kind: "collection", collection: start.tokenType === T.ListKw ? "list" : "set", elements: [inner], range };
        },
      },
      {
        ALT: () => {
          const start = $.CONSUME(T.Tuple);
          $.CONSUME2(T.Less);
          const elements = [$.SUBRULE3(rules.comparatorType)];
          $.MANY(() => {
            $.CONSUME1(T.Comma);
            elements.push($.SUBRULE4(rules.comparatorType));
          });
          $.CONSUME2(T.Greater);
          if ($.RECORDING_PHASE) return RECORDING;
          return { kind: "tuple", elements: elements.map((element) => required(element, "element type")), range: rangeFrom($, start) };
        },
      },
      {
        ALT: () => {
          const start = $.CONSUME(T.Vector);
          $.CONSUME3(T.Less);
          const element = $.SUBRULE5(rules.comparatorType);
          $.CONSUME2(T.Comma);
          const dimension = $.CONSUME(T.IntegerLiteral);
          $.CONSUME3(T.Greater);
          if ($.RECORDING_PHASE) return RECORDING;
          return {
            kind: "vector",
            element: required(element, "element type"),
            dimension: Number.parseInt(requiredToken(dimension, "dimension").image, 10),
            range: rangeFrom($, start),
          };
        },
      },
      {
        // A custom type given by its class name, e.g. 'org.apache.cassandra.db.marshal.DynamicCompositeType'.
        ALT: () => {
          const custom = $.CONSUME(T.StringLiteral);
          if ($.RECORDING_PHASE) return RECORDING;
          if (custom.isInsertedInRecovery) throw new IncompleteTreeError("custom type");
          return { kind: "custom", className: unquoteString(custom.image), range: rangeFrom($, custom) };
        },
      },
      {
        ALT: () => {
          const name = $.SUBRULE(rules.qualifiedName);
          if ($.RECORDING_PHASE) return RECORDING;
          const user = required(name, "type name");
          return { kind: "user", name: user, range: user.range };
        },
      },
    ],
  };

  defineRule(grammar, "comparatorType", () => $.OR(typeForms));
}
