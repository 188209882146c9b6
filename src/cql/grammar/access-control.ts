// Roles, users, permissions and identities (Parser.g `createRoleStatement`, `alterRoleStatement`,
// `dropRoleStatement`, `listRolesStatement`, `createUserStatement`, `alterUserStatement`,
// `dropUserStatement`, `listUsersStatement`, `listSuperUsersStatement`, `grantPermissionsStatement`
// and `grantRoleStatement` (as grantStatement), `revokePermissionsStatement` and
// `revokeRoleStatement` (as revokeStatement), `listPermissionsStatement`, `addIdentityStatement`,
// `dropIdentityStatement`).
//
// The AST keeps these statements with their verb and the principal they are about (the role or
// user, the grantee, the role listed, or the identity); options, permissions and resources are
// recognised but not kept.
import type { IOrAlt, IToken, OrMethodOpts } from "chevrotain";
import type { AccessControlStatement, DropStatement, Identifier, Literal } from "../ast.js";
import * as T from "../tokens.js";
import { defineRule, ifExistsClause, ifNotExistsClause, rangeFrom, RECORDING, required, requiredToken, type Grammar } from "./api.js";
import { bareQualifiedName, identifier, literal, statementBase } from "./build.js";
import { permissionAhead } from "./lookahead.js";

declare module "./api.js" {
  interface RuleTypes {
    roleName: IToken;
    createRoleStatement: AccessControlStatement;
    alterRoleStatement: AccessControlStatement;
    dropRoleStatement: DropStatement;
    roleOptions: void;
    roleOption: void;
    createUserStatement: AccessControlStatement;
    alterUserStatement: AccessControlStatement;
    dropUserStatement: DropStatement;
    listRolesStatement: AccessControlStatement;
    listUsersStatement: AccessControlStatement;
    listSuperUsersStatement: AccessControlStatement;
    grantStatement: AccessControlStatement;
    revokeStatement: AccessControlStatement;
    listPermissionsStatement: AccessControlStatement;
    permissionOrAll: void;
    permission: void;
    resource: void;
    addIdentityStatement: AccessControlStatement;
    dropIdentityStatement: AccessControlStatement;
  }
}

export function defineAccessControlRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  /** The statement from its first token to the last one consumed. */
  const accessControl = (verb: string, name: Identifier | Literal | undefined, start: IToken): AccessControlStatement => {
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    if (name === undefined) return { kind: "access-control", verb, range, text };
    return { kind: "access-control", verb, name, range, text };
  };
  /** A role or user named by a roleName result. */
  const roleIdentifier = (role: IToken | undefined): Identifier => identifier(requiredToken(required(role, "role name"), "name"));

  const ifNotExistsWords = ifNotExistsClause($, 8);
  const ifNotExists = () => $.OPTION8(ifNotExistsWords);
  const ifExistsWords = ifExistsClause($, 7);
  const ifExists = () => $.OPTION7(ifExistsWords);

  // Parser.g `roleName` / `username`: a name or a string; returns that token.
  const roleNames: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.Name) }, { ALT: () => $.CONSUME(T.StringLiteral) }];
  defineRule(grammar, "roleName", () => $.OR(roleNames));

  const withRoleOptions = () => {
    $.CONSUME(T.With);
    $.SUBRULE(rules.roleOptions);
  };
  defineRule(grammar, "createRoleStatement", () => {
    const start = $.CONSUME(T.Create);
    $.CONSUME(T.Role);
    ifNotExists();
    const role = $.SUBRULE(rules.roleName);
    $.OPTION(withRoleOptions);
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl("create-role", roleIdentifier(role), start);
  });

  defineRule(grammar, "alterRoleStatement", () => {
    const start = $.CONSUME(T.Alter);
    $.CONSUME(T.Role);
    ifExists();
    const role = $.SUBRULE(rules.roleName);
    $.OPTION(withRoleOptions);
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl("alter-role", roleIdentifier(role), start);
  });

  /** DROP ROLE and DROP USER: the same statement but for the keyword. */
  const dropRole = (kind: "drop-role" | "drop-user", keyword: typeof T.Role): DropStatement => {
    const start = $.CONSUME(T.Drop);
    $.CONSUME(keyword);
    const exists = ifExists();
    const role = $.SUBRULE(rules.roleName);
    if ($.RECORDING_PHASE) return RECORDING;
    const name = bareQualifiedName(requiredToken(required(role, "role name"), "name"));
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return { kind, name, ifExists: exists !== undefined, range, text };
  };
  defineRule(grammar, "dropRoleStatement", () => dropRole("drop-role", T.Role));

  const moreRoleOptions = () => {
    $.CONSUME(T.And);
    $.SUBRULE1(rules.roleOption);
  };
  defineRule(grammar, "roleOptions", () => {
    $.SUBRULE(rules.roleOption);
    $.MANY(moreRoleOptions);
  });

  // PASSWORD, HASHED PASSWORD, GENERATED PASSWORD, LOGIN, SUPERUSER, OPTIONS, ACCESS TO/FROM …;
  // values are terms, judged by Cassandra, not here.
  const assignedRoleOptions: IOrAlt<IToken>[] = [
    { ALT: () => $.CONSUME(T.Password) },
    { ALT: () => $.CONSUME(T.Login) },
    { ALT: () => $.CONSUME(T.Superuser) },
    { ALT: () => $.CONSUME(T.Options) },
  ];
  const accessDirections: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.To) }, { ALT: () => $.CONSUME(T.From) }];
  const allAccessScopes: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.Datacenters) }, { ALT: () => $.CONSUME(T.Cidrs) }];
  const listedAccessScopes: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME1(T.Datacenters) }, { ALT: () => $.CONSUME1(T.Cidrs) }];
  const accessTargets: IOrAlt<void>[] = [
    {
      ALT: () => {
        $.CONSUME(T.All);
        $.OR4(allAccessScopes);
      },
    },
    {
      ALT: () => {
        $.OR5(listedAccessScopes);
        $.SUBRULE2(rules.term);
      },
    },
  ];
  const roleOptionForms: IOrAlt<void>[] = [
    {
      ALT: () => {
        $.OR1(assignedRoleOptions);
        $.CONSUME(T.Equals);
        $.SUBRULE(rules.term);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Hashed);
        $.CONSUME1(T.Password);
        $.CONSUME1(T.Equals);
        $.SUBRULE1(rules.term);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Generated);
        $.CONSUME2(T.Password);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Access);
        $.OR2(accessDirections);
        $.OR3(accessTargets);
      },
    },
  ];
  defineRule(grammar, "roleOption", () => {
    $.OR(roleOptionForms);
  });

  const hashed = () => $.CONSUME(T.Hashed);
  const userPasswords: IOrAlt<void>[] = [
    {
      ALT: () => {
        $.OPTION1(hashed);
        $.CONSUME(T.Password);
        $.CONSUME(T.StringLiteral);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Generated);
        $.CONSUME1(T.Password);
      },
    },
  ];
  const userPassword = () => {
    $.CONSUME(T.With);
    $.OR(userPasswords);
  };
  const superuserFlags: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.Superuser) }, { ALT: () => $.CONSUME(T.Nosuperuser) }];
  const superuserFlag = () => $.OR1(superuserFlags);
  const userOptions = () => {
    $.OPTION(userPassword);
    $.OPTION2(superuserFlag);
  };

  defineRule(grammar, "createUserStatement", () => {
    const start = $.CONSUME(T.Create);
    $.CONSUME(T.User);
    ifNotExists();
    const user = $.SUBRULE(rules.roleName);
    userOptions();
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl("create-user", roleIdentifier(user), start);
  });

  defineRule(grammar, "alterUserStatement", () => {
    const start = $.CONSUME(T.Alter);
    $.CONSUME(T.User);
    ifExists();
    const user = $.SUBRULE(rules.roleName);
    userOptions();
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl("alter-user", roleIdentifier(user), start);
  });

  defineRule(grammar, "dropUserStatement", () => dropRole("drop-user", T.User));

  const ofRole = () => {
    $.CONSUME(T.Of);
    return $.SUBRULE(rules.roleName);
  };
  const noRecursion = () => $.CONSUME(T.Norecursive);
  defineRule(grammar, "listRolesStatement", () => {
    const start = $.CONSUME(T.ListKw);
    $.CONSUME(T.Roles);
    const role = $.OPTION(ofRole);
    $.OPTION1(noRecursion);
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl("list-roles", role === undefined ? undefined : roleIdentifier(role), start);
  });

  defineRule(grammar, "listUsersStatement", () => {
    const start = $.CONSUME(T.ListKw);
    $.CONSUME(T.Users);
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl("list-users", undefined, start);
  });

  defineRule(grammar, "listSuperUsersStatement", () => {
    const start = $.CONSUME(T.ListKw);
    $.CONSUME(T.Superusers);
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl("list-superusers", undefined, start);
  });

  // Deviation: Parser.g has grantPermissionsStatement and grantRoleStatement (and the same for
  // REVOKE); they share their first word, and one rule with a gated choice keeps the statement
  // dispatcher free of predicates, which makes every statement cheaper to dispatch. The choice
  // returns what is granted, which completes the verb (grant-permission, grant-role).
  const grantedThing: IOrAlt<"permission" | "role">[] = [
    {
      GATE: () => permissionAhead($, 1),
      ALT: () => {
        $.SUBRULE(rules.permissionOrAll);
        $.CONSUME(T.On);
        $.SUBRULE(rules.resource);
        return "permission";
      },
    },
    {
      ALT: () => {
        $.SUBRULE(rules.roleName);
        return "role";
      },
    },
  ];
  defineRule(grammar, "grantStatement", () => {
    const start = $.CONSUME(T.Grant);
    const granted = $.OR(grantedThing);
    $.CONSUME(T.To);
    const grantee = $.SUBRULE1(rules.roleName);
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl(`grant-${granted}`, roleIdentifier(grantee), start);
  });

  defineRule(grammar, "revokeStatement", () => {
    const start = $.CONSUME(T.Revoke);
    const revoked = $.OR(grantedThing);
    $.CONSUME(T.From);
    const revokee = $.SUBRULE1(rules.roleName);
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl(`revoke-${revoked}`, roleIdentifier(revokee), start);
  });

  const onResource = () => {
    $.CONSUME(T.On);
    $.SUBRULE(rules.resource);
  };
  defineRule(grammar, "listPermissionsStatement", () => {
    const start = $.CONSUME(T.ListKw);
    $.SUBRULE(rules.permissionOrAll);
    $.OPTION(onResource);
    const role = $.OPTION1(ofRole);
    $.OPTION2(noRecursion);
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl("list-permissions", role === undefined ? undefined : roleIdentifier(role), start);
  });

  const permissionsWord = () => $.CONSUME(T.Permissions);
  const permissionWord = () => $.CONSUME(T.Permission);
  const laterPermissionWord = () => $.CONSUME1(T.Permission);
  const morePermissions = () => {
    $.CONSUME(T.Comma);
    $.SUBRULE1(rules.permission);
    $.OPTION2(laterPermissionWord);
  };
  const permissionLists: IOrAlt<void>[] = [
    {
      ALT: () => {
        $.CONSUME(T.All);
        $.OPTION(permissionsWord);
      },
    },
    {
      ALT: () => {
        $.SUBRULE(rules.permission);
        $.OPTION1(permissionWord);
        $.MANY(morePermissions);
      },
    },
  ];
  defineRule(grammar, "permissionOrAll", () => {
    $.OR(permissionLists);
  });

  const permissions: IOrAlt<IToken>[] = [
    { ALT: () => $.CONSUME(T.Create) },
    { ALT: () => $.CONSUME(T.Alter) },
    { ALT: () => $.CONSUME(T.Drop) },
    { ALT: () => $.CONSUME(T.Select) },
    { ALT: () => $.CONSUME(T.Modify) },
    { ALT: () => $.CONSUME(T.Authorize) },
    { ALT: () => $.CONSUME(T.Describe) },
    { ALT: () => $.CONSUME(T.Execute) },
    { ALT: () => $.CONSUME(T.Unmask) },
    { ALT: () => $.CONSUME(T.SelectMasked) },
  ];
  defineRule(grammar, "permission", () => {
    $.OR(permissions);
  });

  // Parser.g `resource`: data, role, function and JMX resources. Several resource keywords are
  // also names, so the keyword forms come first and a plain table name is tried last.
  const keyspaceFunctions = () => {
    $.CONSUME1(T.In);
    $.CONSUME1(T.Keyspace);
    $.CONSUME1(T.Name);
  };
  const allResources: IOrAlt<void>[] = [
    { ALT: () => $.CONSUME(T.Keyspaces) },
    {
      ALT: () => {
        $.CONSUME(T.Tables);
        $.CONSUME(T.In);
        $.CONSUME(T.Keyspace);
        $.CONSUME(T.Name);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Functions);
        $.OPTION(keyspaceFunctions);
      },
    },
    { ALT: () => $.CONSUME(T.Roles) },
    { ALT: () => $.CONSUME(T.Mbeans) },
  ];
  const mbeanWords: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.Mbean) }, { ALT: () => $.CONSUME1(T.Mbeans) }];
  const tableWord = () => $.CONSUME(T.Table);
  const resources: OrMethodOpts<void> = {
    MAX_LOOKAHEAD: 2,
    IGNORE_AMBIGUITIES: true,
    DEF: [
      {
        ALT: () => {
          $.CONSUME(T.All);
          $.OR1(allResources);
        },
      },
      {
        ALT: () => {
          $.CONSUME2(T.Keyspace);
          $.CONSUME2(T.Name);
        },
      },
      {
        ALT: () => {
          $.CONSUME(T.FunctionKw);
          $.SUBRULE(rules.functionName);
          $.SUBRULE(rules.typeList);
        },
      },
      {
        ALT: () => {
          $.CONSUME(T.Role);
          $.SUBRULE(rules.roleName);
        },
      },
      {
        ALT: () => {
          $.OR2(mbeanWords);
          $.CONSUME(T.StringLiteral);
        },
      },
      {
        ALT: () => {
          $.OPTION1(tableWord);
          $.SUBRULE(rules.qualifiedName);
        },
      },
    ],
  };
  defineRule(grammar, "resource", () => {
    $.OR(resources);
  });

  const identity = () => $.CONSUME(T.StringLiteral);
  defineRule(grammar, "addIdentityStatement", () => {
    const start = $.CONSUME(T.Add);
    $.CONSUME(T.Identity);
    ifNotExists();
    const name = identity();
    $.CONSUME(T.To);
    $.CONSUME(T.Role);
    $.SUBRULE(rules.roleName);
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl("add-identity", literal(requiredToken(name, "identity")), start);
  });

  defineRule(grammar, "dropIdentityStatement", () => {
    const start = $.CONSUME(T.Drop);
    $.CONSUME(T.Identity);
    ifExists();
    const name = identity();
    if ($.RECORDING_PHASE) return RECORDING;
    return accessControl("drop-identity", literal(requiredToken(name, "identity")), start);
  });
}
