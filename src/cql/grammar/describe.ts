// DESCRIBE (server-side since Cassandra 4.0, Parser.g `describeStatement`) and the schema
// descriptions of Cassandra's trunk: COMMENT ON … and SECURITY LABEL … (Parser.g
// `commentOn*Statement`, `securityLabelOn*Statement`, one rule here for all targets).
import type { IOrAlt, IToken, OrMethodOpts } from "chevrotain";
import type { DescribeStatement, Identifier, QualifiedName, SchemaDescriptionStatement, SourceRange } from "../ast.js";
import * as T from "../tokens.js";
import { AstSyntaxError, defineRule, rangeFrom, RECORDING, required, requiredToken, type Grammar } from "./api.js";
import { spanBetween } from "../source-span.js";
import { identifier, statementBase, unquoteString } from "./build.js";

declare module "./api.js" {
  interface RuleTypes {
    describeStatement: DescribeStatement;
    commentOnStatement: SchemaDescriptionStatement;
    securityLabelStatement: SchemaDescriptionStatement;
    describedObject: DescribedObject;
  }
}

/** `KEYSPACE ks`, `TABLE [ks.]t`, `COLUMN [ks.]t.c`, `TYPE [ks.]t`, `FIELD [ks.]t.f`, as written. */
export interface DescribedObject {
  /** the keyword naming what is described */
  target: IToken;
  /** the dotted name parts, however many were written (checked when the statement is built) */
  parts: IToken[];
  range: SourceRange;
}

/** What DESCRIBE describes: its keywords (none for the generic form) and the name, if any. */
interface DescribeTarget {
  words: IToken[];
  name?: QualifiedName;
}

export function defineDescribeRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  const describeKeywords: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.Describe) }, { ALT: () => $.CONSUME(T.Desc) }];
  const full = () => $.CONSUME(T.Full);
  const only = () => $.CONSUME(T.Only);
  const keyspaceName = () => $.SUBRULE(rules.qualifiedName);
  const namedTargets: IOrAlt<IToken[]>[] = [
    { ALT: () => [$.CONSUME(T.Table)] },
    { ALT: () => [$.CONSUME(T.Type)] },
    { ALT: () => [$.CONSUME(T.FunctionKw)] },
    { ALT: () => [$.CONSUME(T.Aggregate)] },
    { ALT: () => [$.CONSUME(T.Index)] },
    { ALT: () => [$.CONSUME(T.Materialized), $.CONSUME(T.View)] },
  ];
  // Several targets are also names (`DESCRIBE types` vs a table called types): keyword forms
  // first; a bare name is DESCRIBE's generic form.
  const targets: OrMethodOpts<DescribeTarget> = {
    MAX_LOOKAHEAD: 2,
    IGNORE_AMBIGUITIES: true,
    DEF: [
      {
        ALT: () => {
          const fullWord = $.OPTION(full);
          const schema = $.CONSUME(T.Schema);
          return { words: fullWord === undefined ? [schema] : [fullWord, schema] };
        },
      },
      { ALT: () => ({ words: [$.CONSUME(T.Cluster)] }) },
      { ALT: () => ({ words: [$.CONSUME(T.Keyspaces)] }) },
      {
        ALT: () => {
          const onlyWord = $.OPTION1(only);
          const keyspace = $.CONSUME(T.Keyspace);
          const name = $.OPTION2(keyspaceName);
          const words = onlyWord === undefined ? [keyspace] : [onlyWord, keyspace];
          return name === undefined ? { words } : { words, name };
        },
      },
      { ALT: () => ({ words: [$.CONSUME(T.Tables)] }) },
      { ALT: () => ({ words: [$.CONSUME(T.Types)] }) },
      { ALT: () => ({ words: [$.CONSUME(T.Functions)] }) },
      { ALT: () => ({ words: [$.CONSUME(T.Aggregates)] }) },
      {
        ALT: () => {
          const words = $.OR2(namedTargets);
          return { words, name: $.SUBRULE1(rules.qualifiedName) };
        },
      },
      { ALT: () => ({ words: [], name: $.SUBRULE2(rules.qualifiedName) }) },
    ],
  };
  const internalsName = () => {
    $.CONSUME(T.And);
    $.CONSUME(T.Name);
  };
  const withInternals = () => {
    $.CONSUME(T.With);
    $.CONSUME(T.Internals);
    $.MANY(internalsName);
  };
  defineRule(grammar, "describeStatement", () => {
    const start = $.OR(describeKeywords);
    const described = $.OR1(targets);
    $.OPTION3(withInternals);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    // The generic form `DESCRIBE [ks.]name` (keyspace, table, type, function… by that name).
    const target = described.words.length > 0 ? described.words.map((word) => word.image.toLowerCase()).join(" ") : "name";
    if (described.name === undefined) return { kind: "describe", target, range, text };
    return { kind: "describe", target, name: described.name, range, text };
  });

  const descriptionValues: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.StringLiteral) }, { ALT: () => $.CONSUME(T.Null) }];
  defineRule(grammar, "commentOnStatement", () => {
    const start = $.CONSUME(T.Comment);
    $.CONSUME(T.On);
    const object = $.SUBRULE(rules.describedObject);
    $.CONSUME(T.Is);
    const value = $.OR(descriptionValues);
    if ($.RECORDING_PHASE) return RECORDING;
    return schemaDescription("comment-on", object, value, undefined, start);
  });

  const provider = () => {
    $.CONSUME(T.For);
    return $.CONSUME(T.Name);
  };
  defineRule(grammar, "securityLabelStatement", () => {
    const start = $.CONSUME(T.Security);
    $.CONSUME(T.Label);
    const providerName = $.OPTION(provider);
    $.CONSUME(T.On);
    const object = $.SUBRULE(rules.describedObject);
    $.CONSUME(T.Is);
    const value = $.OR(descriptionValues);
    if ($.RECORDING_PHASE) return RECORDING;
    return schemaDescription("security-label", object, value, providerName, start);
  });

  /** Checks the number of name parts for the target and splits off the column or field. */
  const schemaDescription = (
    kind: SchemaDescriptionStatement["kind"],
    object: DescribedObject | undefined,
    valueToken: IToken,
    providerName: IToken | undefined,
    start: IToken,
  ): SchemaDescriptionStatement => {
    const described = required(object, "described object");
    const target = requiredToken(described.target, "target").image.toLowerCase() as SchemaDescriptionStatement["target"];
    const parts = described.parts.map(identifier);
    const expected = target === "column" || target === "field" ? [2, 3] : target === "keyspace" ? [1] : [1, 2];
    if (!expected.includes(parts.length)) {
      throw new AstSyntaxError(`COMMENT ON / SECURITY LABEL ON ${target.toUpperCase()} takes ${expected.join(" or ")} name parts`, described.range);
    }
    const hasMember = target === "column" || target === "field";
    const member = hasMember ? parts[parts.length - 1] : undefined;
    const nameParts: Identifier[] = hasMember ? parts.slice(0, -1) : parts;
    const nameRange = spanBetween(nameParts[0]!.range, nameParts[nameParts.length - 1]!.range);
    const name: QualifiedName = nameParts.length === 2 ? { keyspace: nameParts[0]!, name: nameParts[1]!, range: nameRange } : { name: nameParts[0]!, range: nameRange };
    const value = requiredToken(valueToken, "value");
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const description = { kind, target, name } as SchemaDescriptionStatement;
    // Optional members are assigned in the order of the type, so the JSON of a tree keeps its shape.
    if (member) description.member = member;
    description.value = value.tokenType === T.Null ? null : unquoteString(value.image);
    if (providerName) description.provider = identifier(providerName);
    description.range = range;
    description.text = text;
    return description;
  };

  // KEYSPACE ks | TABLE [ks.]t | COLUMN [ks.]t.c | TYPE [ks.]t | FIELD [ks.]t.f
  const partedTargets: IOrAlt<IToken>[] = [
    { ALT: () => $.CONSUME(T.Table) },
    { ALT: () => $.CONSUME(T.Type) },
    { ALT: () => $.CONSUME(T.Column) },
    { ALT: () => $.CONSUME(T.Field) },
  ];
  const objectForms: IOrAlt<{ target: IToken; parts: IToken[] }>[] = [
    { ALT: () => ({ target: $.CONSUME(T.Keyspace), parts: [$.CONSUME(T.Name)] }) },
    {
      ALT: () => {
        const target = $.OR1(partedTargets);
        const parts = [$.CONSUME1(T.Name)];
        $.MANY(() => {
          $.CONSUME(T.Dot);
          parts.push($.CONSUME2(T.Name));
        });
        return { target, parts };
      },
    },
  ];
  defineRule(grammar, "describedObject", () => {
    const start = $.LA(1);
    const object = $.OR(objectForms);
    if ($.RECORDING_PHASE) return RECORDING;
    return { target: object.target, parts: object.parts, range: rangeFrom($, start) };
  });
}
