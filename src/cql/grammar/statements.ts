// The statement dispatcher (Parser.g `cqlStatement`).
import type { OrMethodOpts } from "chevrotain";
import type { Statement } from "../ast.js";
import * as T from "../tokens.js";
import { defineRule, type Grammar, type Rule } from "./api.js";

declare module "./api.js" {
  interface RuleTypes {
    cqlStatement: Statement;
  }
}

/** The statement productions, in the order the dispatcher tries them. */
export const STATEMENT_RULES = [
  "selectStatement",
  "insertStatement",
  "updateStatement",
  "batchStatement",
  "deleteStatement",
  "useStatement",
  "truncateStatement",
  "createKeyspaceStatement",
  "createTableStatement",
  "createIndexStatement",
  "dropKeyspaceStatement",
  "dropTableStatement",
  "dropIndexStatement",
  "alterTableStatement",
  "alterKeyspaceStatement",
  "grantStatement",
  "revokeStatement",
  "listPermissionsStatement",
  "createUserStatement",
  "alterUserStatement",
  "dropUserStatement",
  "listUsersStatement",
  "createTriggerStatement",
  "dropTriggerStatement",
  "createTypeStatement",
  "alterTypeStatement",
  "dropTypeStatement",
  "createFunctionStatement",
  "dropFunctionStatement",
  "createAggregateStatement",
  "dropAggregateStatement",
  "createRoleStatement",
  "alterRoleStatement",
  "dropRoleStatement",
  "listRolesStatement",
  "createMaterializedViewStatement",
  "dropMaterializedViewStatement",
  "alterMaterializedViewStatement",
  "describeStatement",
  "addIdentityStatement",
  "dropIdentityStatement",
  "listSuperUsersStatement",
  "commentOnStatement",
  "securityLabelStatement",
] as const;

export function defineStatementRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  // Four tokens tell CREATE OR REPLACE FUNCTION from CREATE OR REPLACE AGGREGATE.
  const statements: OrMethodOpts<Statement> = {
    MAX_LOOKAHEAD: 4,
    IGNORE_AMBIGUITIES: true,
    // Every statement production returns its Statement (ast.ts), without the `;`.
    DEF: STATEMENT_RULES.map((name) => ({ ALT: () => $.SUBRULE(rules[name] as Rule<Statement>) })),
  };
  const semicolon = () => $.CONSUME(T.Semicolon);
  defineRule(grammar, "cqlStatement", () => {
    const statement = $.OR(statements);
    $.OPTION(semicolon);
    return statement;
  });
}
