// DESCRIBE (server-side since Cassandra 4.0, Parser.g `describeStatement`) and the schema
// descriptions of Cassandra's trunk: COMMENT ON … and SECURITY LABEL … (Parser.g
// `commentOn*Statement`, `securityLabelOn*Statement`, one rule here for all targets).
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";

export function defineDescribeRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  defineRule(grammar, "describeStatement", () => {
    $.OR([{ ALT: () => $.CONSUME(T.Describe) }, { ALT: () => $.CONSUME(T.Desc) }]);
    // Several targets are also names (`DESCRIBE types` vs a table called types): keyword forms
    // first; a bare name is DESCRIBE's generic form.
    $.OR1({
      MAX_LOOKAHEAD: 2,
      IGNORE_AMBIGUITIES: true,
      DEF: [
        {
          ALT: () => {
            $.OPTION(() => $.CONSUME(T.Full, { LABEL: "target" }));
            $.CONSUME(T.Schema, { LABEL: "target" });
          },
        },
        { ALT: () => $.CONSUME(T.Cluster, { LABEL: "target" }) },
        { ALT: () => $.CONSUME(T.Keyspaces, { LABEL: "target" }) },
        {
          ALT: () => {
            $.OPTION1(() => $.CONSUME(T.Only, { LABEL: "target" }));
            $.CONSUME(T.Keyspace, { LABEL: "target" });
            $.OPTION2(() => $.SUBRULE(rules.qualifiedName, { LABEL: "name" }));
          },
        },
        { ALT: () => $.CONSUME(T.Tables, { LABEL: "target" }) },
        { ALT: () => $.CONSUME(T.Types, { LABEL: "target" }) },
        { ALT: () => $.CONSUME(T.Functions, { LABEL: "target" }) },
        { ALT: () => $.CONSUME(T.Aggregates, { LABEL: "target" }) },
        {
          ALT: () => {
            $.OR2([
              { ALT: () => $.CONSUME(T.Table, { LABEL: "target" }) },
              { ALT: () => $.CONSUME(T.Type, { LABEL: "target" }) },
              { ALT: () => $.CONSUME(T.FunctionKw, { LABEL: "target" }) },
              { ALT: () => $.CONSUME(T.Aggregate, { LABEL: "target" }) },
              { ALT: () => $.CONSUME(T.Index, { LABEL: "target" }) },
              {
                ALT: () => {
                  $.CONSUME(T.Materialized, { LABEL: "target" });
                  $.CONSUME(T.View, { LABEL: "target" });
                },
              },
            ]);
            $.SUBRULE1(rules.qualifiedName, { LABEL: "name" });
          },
        },
        { ALT: () => $.SUBRULE2(rules.qualifiedName, { LABEL: "name" }) },
      ],
    });
    $.OPTION3(() => {
      $.CONSUME(T.With);
      $.CONSUME(T.Internals);
      $.MANY(() => {
        $.CONSUME(T.And);
        $.CONSUME(T.Name);
      });
    });
  });

  defineRule(grammar, "commentOnStatement", () => {
    $.CONSUME(T.Comment);
    $.CONSUME(T.On);
    $.SUBRULE(rules.describedObject);
    $.CONSUME(T.Is);
    $.OR([
      { ALT: () => $.CONSUME(T.StringLiteral, { LABEL: "value" }) },
      { ALT: () => $.CONSUME(T.Null, { LABEL: "value" }) },
    ]);
  });

  defineRule(grammar, "securityLabelStatement", () => {
    $.CONSUME(T.Security);
    $.CONSUME(T.Label);
    $.OPTION(() => {
      $.CONSUME(T.For);
      $.CONSUME(T.Name, { LABEL: "provider" });
    });
    $.CONSUME(T.On);
    $.SUBRULE(rules.describedObject);
    $.CONSUME(T.Is);
    $.OR([
      { ALT: () => $.CONSUME(T.StringLiteral, { LABEL: "value" }) },
      { ALT: () => $.CONSUME(T.Null, { LABEL: "value" }) },
    ]);
  });

  // KEYSPACE ks | TABLE [ks.]t | COLUMN [ks.]t.c | TYPE [ks.]t | FIELD [ks.]t.f
  defineRule(grammar, "describedObject", () => {
    $.OR([
      {
        ALT: () => {
          $.CONSUME(T.Keyspace, { LABEL: "target" });
          $.CONSUME(T.Name, { LABEL: "part" });
        },
      },
      {
        ALT: () => {
          $.OR1([
            { ALT: () => $.CONSUME(T.Table, { LABEL: "target" }) },
            { ALT: () => $.CONSUME(T.Type, { LABEL: "target" }) },
            { ALT: () => $.CONSUME(T.Column, { LABEL: "target" }) },
            { ALT: () => $.CONSUME(T.Field, { LABEL: "target" }) },
          ]);
          $.CONSUME1(T.Name, { LABEL: "part" });
          $.MANY(() => {
            $.CONSUME(T.Dot);
            $.CONSUME2(T.Name, { LABEL: "part" });
          });
        },
      },
    ]);
  });
}
