// The statement dispatcher (Parser.g `cqlStatement`).
import type { OrMethodOpts } from "chevrotain";
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";

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

const STATEMENT_LABEL = { LABEL: "statement" };

export function defineStatementRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  // Four tokens tell CREATE OR REPLACE FUNCTION from CREATE OR REPLACE AGGREGATE.
  const statements: OrMethodOpts<unknown> = {
    MAX_LOOKAHEAD: 4,
    IGNORE_AMBIGUITIES: true,
    // One label for every statement: the AST finds it without searching the node's children.
    DEF: STATEMENT_RULES.map((name) => ({ ALT: () => $.SUBRULE(rules[name]!, STATEMENT_LABEL) })),
  };
  const semicolon = () => $.CONSUME(T.Semicolon);
  defineRule(grammar, "cqlStatement", () => {
    $.OR(statements);
    $.OPTION(semicolon);
  });
}
