// Tables (Parser.g `createTableStatement`, `cfamDefinition`, `cfamColumns`, `pkDef`, `cfamProperty`,
// `cfamOrdering`, `alterTableStatement`, `dropTableStatement`, `truncateStatement`).
import type { IOrAlt, OrMethodOpts } from "chevrotain";
import * as T from "../tokens.js";
import { defineRule, type Grammar } from "./api.js";

export function defineTableRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  defineRule(grammar, "createTableStatement", () => {
    $.CONSUME(T.Create);
    $.CONSUME(T.Table);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Not);
      $.CONSUME(T.Exists);
    });
    $.SUBRULE(rules.qualifiedName, { LABEL: "name" });
    $.OR([
      { ALT: () => $.SUBRULE(rules.cfamDefinition) },
      {
        // Cassandra 5.0: CREATE TABLE t LIKE other [WITH …] (Parser.g `copyTableStatement`).
        ALT: () => {
          $.CONSUME(T.Like);
          $.SUBRULE1(rules.qualifiedName, { LABEL: "like" });
          $.OPTION1(() => $.SUBRULE(rules.tableProperties));
        },
      },
    ]);
  });

  // `( column, …, PRIMARY KEY (…) ) [WITH …]`; like Parser.g, empty entries between commas are
  // accepted, which is what lets a trailing comma through.
  // Alternatives and repetition bodies are built once, not on every call: these rules run for
  // every column of every table. Deviation: Parser.g's `cfamColumns` (a column or the PRIMARY KEY
  // clause) is written out here, one tree node less per column.
  const firstEntry: IOrAlt<unknown>[] = [
    { ALT: () => $.SUBRULE(rules.primaryKeyDefinition) },
    { ALT: () => $.SUBRULE(rules.columnDefinition) },
  ];
  const laterEntry: IOrAlt<unknown>[] = [
    { ALT: () => $.SUBRULE1(rules.primaryKeyDefinition) },
    { ALT: () => $.SUBRULE1(rules.columnDefinition) },
  ];
  const optionalEntry = () => $.OR1(laterEntry);
  const moreEntries = () => {
    $.CONSUME(T.Comma);
    $.OPTION(optionalEntry);
  };
  const withProperties = () => $.SUBRULE(rules.tableProperties);
  defineRule(grammar, "cfamDefinition", () => {
    $.CONSUME(T.LParen, { LABEL: "open" });
    $.OR(firstEntry);
    $.MANY(moreEntries);
    $.CONSUME(T.RParen, { LABEL: "close" });
    $.OPTION1(withProperties);
  });

  // `name type [STATIC] [PRIMARY KEY] [MASKED WITH …]`, modifiers in any order (a superset).
  // A native type is read here directly rather than through comparatorType: most columns have
  // one, and it saves a tree node each.
  const columnTypes: OrMethodOpts<unknown> = {
    IGNORE_AMBIGUITIES: true,
    DEF: [
      { ALT: () => $.CONSUME(T.NativeTypeKeyword, { LABEL: "nativeType" }) },
      { ALT: () => $.SUBRULE(rules.comparatorType, { LABEL: "type" }) },
    ],
  };
  const columnModifiers: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.Static, { LABEL: "static" }) },
    {
      ALT: () => {
        $.CONSUME(T.Primary, { LABEL: "primary" });
        $.CONSUME(T.Key);
      },
    },
    { ALT: () => $.SUBRULE(rules.columnMask) },
  ];
  const columnModifier = () => $.OR(columnModifiers);
  defineRule(grammar, "columnDefinition", () => {
    $.CONSUME(T.Name, { LABEL: "name" });
    $.OR1(columnTypes);
    $.MANY(columnModifier);
  });

  // Cassandra 5.0 dynamic data masking: `MASKED WITH DEFAULT` or `MASKED WITH fn(args)`.
  const maskForms: OrMethodOpts<unknown> = {
    IGNORE_AMBIGUITIES: true,
    DEF: [
      { GATE: () => $.LA(2).tokenType !== T.LParen, ALT: () => $.CONSUME(T.Default, { LABEL: "default" }) },
      {
        ALT: () => {
          $.SUBRULE(rules.functionName);
          $.SUBRULE(rules.functionArgs);
        },
      },
    ],
  };
  defineRule(grammar, "columnMask", () => {
    $.CONSUME(T.Masked);
    $.CONSUME(T.With);
    $.OR(maskForms);
  });

  // Deviation: Parser.g inlines `PRIMARY KEY '(' pkDef (',' ident)* ')'` in cfamColumns; a rule of
  // its own lets messages say which parenthesis is missing and lets views share it.
  const clusteringColumn = () => {
    $.CONSUME(T.Comma);
    $.CONSUME(T.Name, { LABEL: "clustering" });
  };
  defineRule(grammar, "primaryKeyDefinition", () => {
    $.CONSUME(T.Primary);
    $.CONSUME(T.Key);
    $.CONSUME(T.LParen);
    $.SUBRULE(rules.pkDef);
    $.MANY(clusteringColumn);
    $.CONSUME(T.RParen);
  });

  // The partition key: one column, or `(a, b)` for a composite key.
  const morePartitionColumns = () => {
    $.CONSUME(T.Comma);
    $.CONSUME2(T.Name, { LABEL: "partition" });
  };
  const partitionKeyForms: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.Name, { LABEL: "partition" }) },
    {
      ALT: () => {
        $.CONSUME(T.LParen);
        $.CONSUME1(T.Name, { LABEL: "partition" });
        $.MANY(morePartitionColumns);
        $.CONSUME(T.RParen);
      },
    },
  ];
  defineRule(grammar, "pkDef", () => {
    $.OR(partitionKeyForms);
  });

  // `WITH property AND …` for tables and views.
  const moreTableProperties = () => {
    $.CONSUME(T.And);
    $.SUBRULE1(rules.cfamProperty);
  };
  defineRule(grammar, "tableProperties", () => {
    $.CONSUME(T.With);
    $.SUBRULE(rules.cfamProperty);
    $.MANY(moreTableProperties);
  });

  const moreOrderings = () => {
    $.CONSUME(T.Comma);
    $.SUBRULE1(rules.cfamOrdering);
  };
  // COMPACT and CLUSTERING are also names (`compact = …` would be an option): two tokens decide.
  const tablePropertyForms: OrMethodOpts<unknown> = {
    MAX_LOOKAHEAD: 2,
    DEF: [
    {
      ALT: () => {
        $.CONSUME(T.Compact, { LABEL: "compact" });
        $.CONSUME(T.Storage);
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Clustering, { LABEL: "clustering" });
        $.CONSUME(T.Order);
        $.CONSUME(T.By);
        $.CONSUME(T.LParen);
        $.SUBRULE(rules.cfamOrdering);
        $.MANY(moreOrderings);
        $.CONSUME(T.RParen, { LABEL: "close" });
      },
    },
    // `name = value`, as Parser.g's `property`, written out (one tree node less per option)
    {
      ALT: () => {
        $.CONSUME(T.Name, { LABEL: "name" });
        $.CONSUME(T.Equals);
        $.SUBRULE(rules.term, { LABEL: "value" });
      },
    },
    ],
  };
  defineRule(grammar, "cfamProperty", () => {
    $.OR(tablePropertyForms);
  });

  const directions: IOrAlt<unknown>[] = [
    { ALT: () => $.CONSUME(T.Asc, { LABEL: "direction" }) },
    { ALT: () => $.CONSUME(T.Desc, { LABEL: "direction" }) },
  ];
  defineRule(grammar, "cfamOrdering", () => {
    $.CONSUME(T.Name, { LABEL: "column" });
    $.OR(directions);
  });

  defineRule(grammar, "alterTableStatement", () => {
    $.CONSUME(T.Alter);
    $.CONSUME(T.Table);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Exists);
    });
    $.SUBRULE(rules.qualifiedName, { LABEL: "name" });
    // Deviation: Parser.g inlines the actions; one rule each keeps the tree self-describing.
    $.OR([
      { ALT: () => $.SUBRULE(rules.alterColumnAction) },
      { ALT: () => $.SUBRULE(rules.addColumnsAction) },
      {
        GATE: () => $.LA(2).tokenType === T.Compact && $.LA(3).tokenType === T.Storage,
        ALT: () => $.SUBRULE(rules.dropCompactStorageAction),
      },
      { ALT: () => $.SUBRULE(rules.dropColumnsAction) },
      { ALT: () => $.SUBRULE(rules.renameColumnsAction) },
      { ALT: () => $.SUBRULE(rules.alterOptionsAction) },
    ]);
  });

  // `ALTER col TYPE t`, `ALTER col MASKED WITH …`, `ALTER col DROP MASKED`.
  defineRule(grammar, "alterColumnAction", () => {
    $.CONSUME(T.Alter);
    $.CONSUME(T.Name, { LABEL: "column" });
    $.OR([
      {
        ALT: () => {
          $.CONSUME(T.Type);
          $.SUBRULE(rules.comparatorType, { LABEL: "type" });
        },
      },
      { ALT: () => $.SUBRULE(rules.columnMask) },
      {
        ALT: () => {
          $.CONSUME(T.Drop, { LABEL: "dropMask" });
          $.CONSUME(T.Masked);
        },
      },
    ]);
  });

  defineRule(grammar, "addColumnsAction", () => {
    $.CONSUME(T.Add);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Not);
      $.CONSUME(T.Exists);
    });
    $.OR([
      {
        ALT: () => {
          $.CONSUME(T.LParen);
          $.SUBRULE(rules.columnDefinition);
          $.MANY(() => {
            $.CONSUME(T.Comma);
            $.SUBRULE1(rules.columnDefinition);
          });
          $.CONSUME(T.RParen);
        },
      },
      { ALT: () => $.SUBRULE2(rules.columnDefinition) },
    ]);
  });

  defineRule(grammar, "dropCompactStorageAction", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.Compact);
    $.CONSUME(T.Storage);
  });

  defineRule(grammar, "dropColumnsAction", () => {
    $.CONSUME(T.Drop);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Exists);
    });
    $.OR([
      {
        ALT: () => {
          $.CONSUME(T.LParen);
          $.CONSUME(T.Name, { LABEL: "column" });
          $.MANY(() => {
            $.CONSUME(T.Comma);
            $.CONSUME1(T.Name, { LABEL: "column" });
          });
          $.CONSUME(T.RParen);
        },
      },
      { ALT: () => $.CONSUME2(T.Name, { LABEL: "column" }) },
    ]);
    $.OPTION1(() => {
      $.CONSUME(T.Using);
      $.CONSUME(T.Timestamp);
      $.SUBRULE(rules.term, { LABEL: "timestamp" });
    });
  });

  defineRule(grammar, "renameColumnsAction", () => {
    $.CONSUME(T.Rename);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Exists);
    });
    $.SUBRULE(rules.renamePair);
    $.MANY(() => {
      $.CONSUME(T.And);
      $.SUBRULE1(rules.renamePair);
    });
  });

  defineRule(grammar, "renamePair", () => {
    $.CONSUME(T.Name, { LABEL: "from" });
    $.CONSUME(T.To);
    $.CONSUME1(T.Name, { LABEL: "to" });
  });

  defineRule(grammar, "alterOptionsAction", () => {
    $.CONSUME(T.With);
    $.SUBRULE(rules.properties);
  });

  defineRule(grammar, "dropTableStatement", () => {
    $.CONSUME(T.Drop);
    $.CONSUME(T.Table);
    $.OPTION(() => {
      $.CONSUME(T.If);
      $.CONSUME(T.Exists);
    });
    $.SUBRULE(rules.qualifiedName, { LABEL: "name" });
  });

  defineRule(grammar, "truncateStatement", () => {
    $.CONSUME(T.Truncate);
    $.OPTION(() => $.CONSUME(T.Table));
    $.SUBRULE(rules.qualifiedName, { LABEL: "name" });
  });
}
