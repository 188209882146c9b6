// Roles, users, permissions and identities (Parser.g `createRoleStatement`, `alterRoleStatement`,
// `dropRoleStatement`, `listRolesStatement`, `createUserStatement`, `alterUserStatement`,
// `dropUserStatement`, `listUsersStatement`, `listSuperUsersStatement`, `grantPermissionsStatement`
// and `grantRoleStatement` (as grantStatement), `revokePermissionsStatement` and
// `revokeRoleStatement` (as revokeStatement), `listPermissionsStatement`, `addIdentityStatement`,
// `dropIdentityStatement`).
import type { IOrAlt } from "chevrotain";
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";
import { permissionAhead } from "./lookahead.js";

export function defineAccessControlRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  const ifNotExists = () =>
    $.OPTION8(() => {
      $.CONSUME8(T.If);
      $.CONSUME8(T.Not);
      $.CONSUME8(T.Exists);
    });
  const ifExists = () =>
    $.OPTION7(() => {
      $.CONSUME7(T.If);
      $.CONSUME7(T.Exists);
    });

  // Parser.g `roleName` / `username`: a name or a string.
  defineRule(grammar, "roleName", () => {
    $.OR([
      { ALT: () => $.CONSUME(T.Name, { LABEL: "name" }) },
      { ALT: () => $.CONSUME(T.StringLiteral, { LABEL: "name" }) },
    ]);
  });

  defineRule(grammar, "createRoleStatement", () => {
    $.CONSUME(T.Create);
    $.CONSUME(T.Role);
    ifNotExists();
    $.SUBRULE(rules.roleName);
    $.OPTION(() => {
      $.CONSUME(T.With);
      $.SUBRULE(rules.roleOptions);
    });
  });

  defineRule(grammar, "alterRoleStatement", () => {
    $.CONSUME(T.Alter);
    $.CONSUME(T.Role);
    ifExists();
    $.SUBRULE(rules.roleName);
    $.OPTION(() => {
      $.CONSUME(T.With);
      $.SUBRULE(rules.roleOptions);
    });
  });

  defineRule(grammar, "dropRoleStatement", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.Role);
    ifExists();
    $.SUBRULE(rules.roleName);
  });

  defineRule(grammar, "roleOptions", () => {
    $.SUBRULE(rules.roleOption);
    $.MANY(() => {
      $.CONSUME(T.And);
      $.SUBRULE1(rules.roleOption);
    });
  });

  // PASSWORD, HASHED PASSWORD, GENERATED PASSWORD, LOGIN, SUPERUSER, OPTIONS, ACCESS TO/FROM …;
  // values are terms, judged by Cassandra, not here.
  defineRule(grammar, "roleOption", () => {
    $.OR([
      {
        ALT: () => {
          $.OR1([
            { ALT: () => $.CONSUME(T.Password, { LABEL: "option" }) },
            { ALT: () => $.CONSUME(T.Login, { LABEL: "option" }) },
            { ALT: () => $.CONSUME(T.Superuser, { LABEL: "option" }) },
            { ALT: () => $.CONSUME(T.Options, { LABEL: "option" }) },
          ]);
          $.CONSUME(T.Equals);
          $.SUBRULE(rules.term, { LABEL: "value" });
        },
      },
      {
        ALT: () => {
          $.CONSUME(T.Hashed, { LABEL: "option" });
          $.CONSUME1(T.Password);
          $.CONSUME1(T.Equals);
          $.SUBRULE1(rules.term, { LABEL: "value" });
        },
      },
      {
        ALT: () => {
          $.CONSUME(T.Generated, { LABEL: "option" });
          $.CONSUME2(T.Password);
        },
      },
      {
        ALT: () => {
          $.CONSUME(T.Access, { LABEL: "option" });
          $.OR2([
            { ALT: () => $.CONSUME(T.To) },
            { ALT: () => $.CONSUME(T.From) },
          ]);
          $.OR3([
            {
              ALT: () => {
                $.CONSUME(T.All);
                $.OR4([
                  { ALT: () => $.CONSUME(T.Datacenters) },
                  { ALT: () => $.CONSUME(T.Cidrs) },
                ]);
              },
            },
            {
              ALT: () => {
                $.OR5([
                  { ALT: () => $.CONSUME1(T.Datacenters) },
                  { ALT: () => $.CONSUME1(T.Cidrs) },
                ]);
                $.SUBRULE2(rules.term, { LABEL: "value" });
              },
            },
          ]);
        },
      },
    ]);
  });

  const userOptions = () => {
    $.OPTION(() => {
      $.CONSUME(T.With);
      $.OR([
        {
          ALT: () => {
            $.OPTION1(() => $.CONSUME(T.Hashed));
            $.CONSUME(T.Password);
            $.CONSUME(T.StringLiteral, { LABEL: "password" });
          },
        },
        {
          ALT: () => {
            $.CONSUME(T.Generated);
            $.CONSUME1(T.Password);
          },
        },
      ]);
    });
    $.OPTION2(() => {
      $.OR1([
        { ALT: () => $.CONSUME(T.Superuser) },
        { ALT: () => $.CONSUME(T.Nosuperuser) },
      ]);
    });
  };

  defineRule(grammar, "createUserStatement", () => {
    $.CONSUME(T.Create);
    $.CONSUME(T.User);
    ifNotExists();
    $.SUBRULE(rules.roleName);
    userOptions();
  });

  defineRule(grammar, "alterUserStatement", () => {
    $.CONSUME(T.Alter);
    $.CONSUME(T.User);
    ifExists();
    $.SUBRULE(rules.roleName);
    userOptions();
  });

  defineRule(grammar, "dropUserStatement", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.User);
    ifExists();
    $.SUBRULE(rules.roleName);
  });

  defineRule(grammar, "listRolesStatement", () => {
    $.CONSUME(T.ListKw);
    $.CONSUME(T.Roles);
    $.OPTION(() => {
      $.CONSUME(T.Of);
      $.SUBRULE(rules.roleName);
    });
    $.OPTION1(() => $.CONSUME(T.Norecursive));
  });

  defineRule(grammar, "listUsersStatement", () => {
    $.CONSUME(T.ListKw);
    $.CONSUME(T.Users);
  });

  defineRule(grammar, "listSuperUsersStatement", () => {
    $.CONSUME(T.ListKw);
    $.CONSUME(T.Superusers);
  });

  // Deviation: Parser.g has grantPermissionsStatement and grantRoleStatement (and the same for
  // REVOKE); they share their first word, and one rule with a gated choice keeps the statement
  // dispatcher free of predicates, which makes every statement cheaper to dispatch.
  const grantedThing: IOrAlt<unknown>[] = [
    {
      GATE: () => permissionAhead($, 1),
      ALT: () => {
        $.SUBRULE(rules.permissionOrAll);
        $.CONSUME(T.On);
        $.SUBRULE(rules.resource);
      },
    },
    { ALT: () => $.SUBRULE(rules.roleName, { LABEL: "granted" }) },
  ];
  defineRule(grammar, "grantStatement", () => {
    $.CONSUME(T.Grant);
    $.OR(grantedThing);
    $.CONSUME(T.To);
    $.SUBRULE1(rules.roleName);
  });

  defineRule(grammar, "revokeStatement", () => {
    $.CONSUME(T.Revoke);
    $.OR(grantedThing);
    $.CONSUME(T.From);
    $.SUBRULE1(rules.roleName);
  });

  defineRule(grammar, "listPermissionsStatement", () => {
    $.CONSUME(T.ListKw);
    $.SUBRULE(rules.permissionOrAll);
    $.OPTION(() => {
      $.CONSUME(T.On);
      $.SUBRULE(rules.resource);
    });
    $.OPTION1(() => {
      $.CONSUME(T.Of);
      $.SUBRULE(rules.roleName);
    });
    $.OPTION2(() => $.CONSUME(T.Norecursive));
  });

  defineRule(grammar, "permissionOrAll", () => {
    $.OR([
      {
        ALT: () => {
          $.CONSUME(T.All);
          $.OPTION(() => $.CONSUME(T.Permissions));
        },
      },
      {
        ALT: () => {
          $.SUBRULE(rules.permission);
          $.OPTION1(() => $.CONSUME(T.Permission));
          $.MANY(() => {
            $.CONSUME(T.Comma);
            $.SUBRULE1(rules.permission);
            $.OPTION2(() => $.CONSUME1(T.Permission));
          });
        },
      },
    ]);
  });

  defineRule(grammar, "permission", () => {
    $.OR([
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
    ]);
  });

  // Parser.g `resource`: data, role, function and JMX resources. Several resource keywords are
  // also names, so the keyword forms come first and a plain table name is tried last.
  defineRule(grammar, "resource", () => {
    $.OR({
      MAX_LOOKAHEAD: 2,
      IGNORE_AMBIGUITIES: true,
      DEF: [
        {
          ALT: () => {
            $.CONSUME(T.All);
            $.OR1([
              { ALT: () => $.CONSUME(T.Keyspaces) },
              {
                ALT: () => {
                  $.CONSUME(T.Tables);
                  $.CONSUME(T.In);
                  $.CONSUME(T.Keyspace);
                  $.CONSUME(T.Name, { LABEL: "keyspace" });
                },
              },
              {
                ALT: () => {
                  $.CONSUME(T.Functions);
                  $.OPTION(() => {
                    $.CONSUME1(T.In);
                    $.CONSUME1(T.Keyspace);
                    $.CONSUME1(T.Name, { LABEL: "keyspace" });
                  });
                },
              },
              { ALT: () => $.CONSUME(T.Roles) },
              { ALT: () => $.CONSUME(T.Mbeans) },
            ]);
          },
        },
        {
          ALT: () => {
            $.CONSUME2(T.Keyspace);
            $.CONSUME2(T.Name, { LABEL: "keyspace" });
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
            $.OR2([
              { ALT: () => $.CONSUME(T.Mbean) },
              { ALT: () => $.CONSUME1(T.Mbeans) },
            ]);
            $.CONSUME(T.StringLiteral, { LABEL: "mbean" });
          },
        },
        {
          ALT: () => {
            $.OPTION1(() => $.CONSUME(T.Table));
            $.SUBRULE(rules.qualifiedName, { LABEL: "table" });
          },
        },
      ],
    });
  });

  defineRule(grammar, "addIdentityStatement", () => {
    $.CONSUME(T.Add);
    $.CONSUME(T.Identity);
    ifNotExists();
    $.CONSUME(T.StringLiteral, { LABEL: "identity" });
    $.CONSUME(T.To);
    $.CONSUME(T.Role);
    $.SUBRULE(rules.roleName);
  });

  defineRule(grammar, "dropIdentityStatement", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.Identity);
    ifExists();
    $.CONSUME(T.StringLiteral, { LABEL: "identity" });
  });
}
