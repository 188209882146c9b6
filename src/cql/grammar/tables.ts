// Tables (Parser.g `createTableStatement`, `cfamDefinition`, `cfamColumns`, `pkDef`, `cfamProperty`,
// `cfamOrdering`, `alterTableStatement`, `dropTableStatement`, `truncateStatement`).
import type { IOrAlt, IToken, OrMethodOpts } from "chevrotain";
import type {
  AlterTableAction,
  AlterTableStatement,
  ClusteringOrder,
  ColumnDefinition,
  CqlType,
  CreateTableStatement,
  DropStatement,
  Identifier,
  OptionEntry,
  PrimaryKeyDefinition,
  QualifiedName,
  SourceRange,
  TableProperties,
  Term,
  TruncateStatement,
} from "../ast.js";
import { pointAfter, pointBefore, spanBetween } from "../source-span.js";
import * as T from "../tokens.js";
import { AstSyntaxError, defineRule, ifExistsClause, ifNotExistsClause, isRealToken, rangeFrom, RECORDING, required, type Grammar } from "./api.js";
import { identifier, nativeType, noteVendorOptions, statementBase } from "./build.js";
import { functionCall } from "./terms.js";
import { append } from "../../arrays.js";

export type ColumnMask = NonNullable<ColumnDefinition["mask"]>;
type AddColumnsAction = Extract<AlterTableAction, { kind: "add" }>;
type DropColumnsAction = Extract<AlterTableAction, { kind: "drop" }>;
type RenameColumnsAction = Extract<AlterTableAction, { kind: "rename" }>;
type AlterOptionsAction = Extract<AlterTableAction, { kind: "with" }>;

/** `from TO to` of ALTER TABLE / ALTER TYPE … RENAME. */
export interface RenamePair {
  from: Identifier;
  to: Identifier;
}

/** The parenthesised part of CREATE TABLE and the WITH clause after it. */
export interface TableDefinition {
  columns: ColumnDefinition[];
  /** every `PRIMARY KEY (…)` clause: more than one is rejected by the statement */
  keys: PrimaryKeyDefinition[];
  /** between the parentheses */
  bodyRange: SourceRange;
  properties: TableProperties | undefined;
}

/** `CREATE TABLE t LIKE other [WITH …]`. */
interface TableCopy {
  like: QualifiedName;
  properties: TableProperties | undefined;
}

/** One entry of a table's WITH clause. */
export type TableProperty =
  | { kind: "option"; option: OptionEntry }
  | { kind: "compact-storage"; range: SourceRange }
  | { kind: "clustering-order"; orderings: ClusteringOrder[]; range: SourceRange };

/** What a column modifier alternative returns: the STATIC or PRIMARY token, or the mask. */
type ColumnModifier = IToken | ColumnMask;

/** What ALTER TABLE … ALTER col does to the column. */
type ColumnChange = { type: CqlType } | { mask: ColumnMask } | { dropMask: true };

declare module "./api.js" {
  interface RuleTypes {
    createTableStatement: CreateTableStatement;
    cfamDefinition: TableDefinition;
    columnDefinition: ColumnDefinition;
    columnMask: ColumnMask;
    primaryKeyDefinition: PrimaryKeyDefinition;
    pkDef: Identifier[];
    tableProperties: TableProperties;
    cfamProperty: TableProperty;
    cfamOrdering: ClusteringOrder;
    alterTableStatement: AlterTableStatement;
    alterColumnAction: AlterTableAction;
    addColumnsAction: AddColumnsAction;
    dropCompactStorageAction: AlterTableAction;
    dropColumnsAction: DropColumnsAction;
    renameColumnsAction: RenameColumnsAction;
    renamePair: RenamePair;
    alterOptionsAction: AlterOptionsAction;
    dropTableStatement: DropStatement;
    truncateStatement: TruncateStatement;
  }
}

/**
 * Completes a CREATE TABLE / VIEW statement whose leading fields are set: the WITH clause's parts
 * (its optional ranges in the order the clauses appear), then range and text, so the fields come
 * in the order the statement reads.
 */
export function withTableProperties<S extends TableProperties & { range: SourceRange; text: string }>(
  head: Omit<S, keyof TableProperties | "range" | "text">,
  properties: TableProperties | undefined,
  range: SourceRange,
  text: string,
): S {
  const statement = Object.assign(head, properties ?? { options: [], clusteringOrder: [], compactStorage: false }) as unknown as S;
  statement.range = range;
  statement.text = text;
  return statement;
}

export function defineTableRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  const ifNotExists = ifNotExistsClause($);
  const ifExists = ifExistsClause($);

  const withProperties = () => $.SUBRULE(rules.tableProperties);
  const tableBodies: IOrAlt<TableDefinition | TableCopy>[] = [
    { ALT: () => $.SUBRULE(rules.cfamDefinition) },
    {
      // Cassandra 5.0: CREATE TABLE t LIKE other [WITH …] (Parser.g `copyTableStatement`).
      ALT: () => {
        $.CONSUME(T.Like);
        const like = $.SUBRULE1(rules.qualifiedName);
        const properties = $.OPTION1(withProperties);
        return { like, properties };
      },
    },
  ];
  defineRule(grammar, "createTableStatement", () => {
    const start = $.CONSUME(T.Create);
    $.CONSUME(T.Table);
    const existence = $.OPTION(ifNotExists);
    const name = $.SUBRULE(rules.qualifiedName);
    const body = $.OR(tableBodies);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const table = required(name, "table name");
    const definition = required(body, "table definition");
    if ("like" in definition) {
      return withTableProperties<CreateTableStatement>(
        { kind: "create-table", name: table, ifNotExists: existence !== undefined, columns: [], like: required(definition.like, "table name") },
        definition.properties,
        range,
        text,
      );
    }
    const { keys } = definition;
    // Checked once the whole statement is read, so a syntax error later in it is reported first.
    if (keys.length > 1) throw new AstSyntaxError("a table has one PRIMARY KEY clause", keys[1]!.range);
    const head: Omit<CreateTableStatement, keyof TableProperties | "range" | "text"> = {
      kind: "create-table",
      name: table,
      ifNotExists: existence !== undefined,
      columns: definition.columns,
    };
    if (keys[0]) head.primaryKey = keys[0];
    head.bodyRange = definition.bodyRange;
    return withTableProperties<CreateTableStatement>(head, definition.properties, range, text);
  });

  // `( column, …, PRIMARY KEY (…) ) [WITH …]`; like Parser.g, empty entries between commas are
  // accepted, which is what lets a trailing comma through.
  // Alternatives are built once, not on every call: these rules run for every column of every
  // table. Deviation: Parser.g's `cfamColumns` (a column or the PRIMARY KEY clause) is written out
  // here, one rule call less per column.
  const firstEntry: IOrAlt<ColumnDefinition | PrimaryKeyDefinition>[] = [
    { ALT: () => $.SUBRULE(rules.primaryKeyDefinition) },
    { ALT: () => $.SUBRULE(rules.columnDefinition) },
  ];
  const laterEntry: IOrAlt<ColumnDefinition | PrimaryKeyDefinition>[] = [
    { ALT: () => $.SUBRULE1(rules.primaryKeyDefinition) },
    { ALT: () => $.SUBRULE1(rules.columnDefinition) },
  ];
  const optionalEntry = () => $.OR1(laterEntry);
  defineRule(grammar, "cfamDefinition", () => {
    const open = $.CONSUME(T.LParen);
    const entries = [$.OR(firstEntry)];
    $.MANY(() => {
      $.CONSUME(T.Comma);
      // undefined for an empty entry, or for one recovery gave up on (its statement is dropped)
      const entry = $.OPTION(optionalEntry);
      if (entry !== undefined) entries.push(entry);
    });
    const close = $.CONSUME(T.RParen);
    const properties = $.OPTION1(withProperties);
    if ($.RECORDING_PHASE) return RECORDING;
    const columns: ColumnDefinition[] = [];
    const keys: PrimaryKeyDefinition[] = [];
    for (const entry of entries) {
      const defined = required(entry, "column definition");
      if ("partitionKey" in defined) keys.push(defined);
      else columns.push(defined);
    }
    // A `)` inserted by error recovery has no position: the body then ends with its last entry.
    const lastEntry = entries.at(-1);
    const bodyEnd = isRealToken(close) ? pointBefore(close) : lastEntry ? lastEntry.range : pointAfter(open);
    return { columns, keys, bodyRange: spanBetween(pointAfter(open), bodyEnd), properties };
  });

  // `name type [STATIC] [PRIMARY KEY] [MASKED WITH …]`, modifiers in any order (a superset).
  // A native type is read here directly rather than through comparatorType: most columns have
  // one, and it saves a rule call each.
  const columnTypes: OrMethodOpts<CqlType> = {
    IGNORE_AMBIGUITIES: true,
    DEF: [
      {
        ALT: () => {
          const token = $.CONSUME(T.NativeTypeKeyword);
          return $.RECORDING_PHASE ? RECORDING : nativeType(token);
        },
      },
      { ALT: () => $.SUBRULE(rules.comparatorType) },
    ],
  };
  const columnModifiers: IOrAlt<ColumnModifier>[] = [
    { ALT: () => $.CONSUME(T.Static) },
    {
      ALT: () => {
        const primary = $.CONSUME(T.Primary);
        $.CONSUME(T.Key);
        return primary;
      },
    },
    { ALT: () => $.SUBRULE(rules.columnMask) },
  ];
  defineRule(grammar, "columnDefinition", () => {
    const name = $.CONSUME(T.Name);
    const type = $.OR1(columnTypes);
    // Most columns have no modifier: the list is made for those that do.
    let modifiers: (ColumnModifier | undefined)[] | undefined;
    $.MANY(() => {
      (modifiers ??= []).push($.OR(columnModifiers));
    });
    if ($.RECORDING_PHASE) return RECORDING;
    const definition: ColumnDefinition = {
      name: identifier(name),
      type: required(type, "column type"),
      isStatic: false,
      isPrimaryKey: false,
      range: rangeFrom($, name),
    };
    if (modifiers) {
      let mask: ColumnMask | undefined;
      for (const modifier of modifiers) {
        const defined = required(modifier, "column modifier");
        if ("default" in defined) mask ??= defined;
        else if (defined.tokenType === T.Static) definition.isStatic = true;
        else definition.isPrimaryKey = true;
      }
      // Optional members are assigned, not spread: spreading into a literal is several times slower.
      if (mask) definition.mask = mask;
    }
    return definition;
  });

  // Cassandra 5.0 dynamic data masking: `MASKED WITH DEFAULT` or `MASKED WITH fn(args)`. The
  // DEFAULT form yields undefined, the other the call.
  const maskForms: OrMethodOpts<Term | undefined> = {
    IGNORE_AMBIGUITIES: true,
    DEF: [
      {
        GATE: () => $.LA(2).tokenType !== T.LParen,
        ALT: () => {
          $.CONSUME(T.Default);
          return undefined;
        },
      },
      {
        ALT: () => {
          const name = $.SUBRULE(rules.functionName);
          const args = $.SUBRULE(rules.functionArgs);
          if ($.RECORDING_PHASE) return RECORDING;
          const callee = required(name, "mask function");
          const callArgs = required(args, "mask arguments");
          return functionCall(callee, callArgs, spanBetween(callee.range, callArgs.range));
        },
      },
    ],
  };
  defineRule(grammar, "columnMask", () => {
    const start = $.CONSUME(T.Masked);
    $.CONSUME(T.With);
    const call = $.OR(maskForms);
    if ($.RECORDING_PHASE) return RECORDING;
    const range = rangeFrom($, start);
    if (call === undefined) return { default: true, range };
    if (call.kind !== "function") throw new AstSyntaxError("a mask is a function call", range);
    return { function: call, default: false, range };
  });

  // Deviation: Parser.g inlines `PRIMARY KEY '(' pkDef (',' ident)* ')'` in cfamColumns; a rule of
  // its own lets messages say which parenthesis is missing and lets views share it.
  defineRule(grammar, "primaryKeyDefinition", () => {
    const start = $.CONSUME(T.Primary);
    $.CONSUME(T.Key);
    $.CONSUME(T.LParen);
    const partitionKey = $.SUBRULE(rules.pkDef);
    const clustering: IToken[] = [];
    $.MANY(() => {
      $.CONSUME(T.Comma);
      clustering.push($.CONSUME(T.Name));
    });
    $.CONSUME(T.RParen);
    if ($.RECORDING_PHASE) return RECORDING;
    return { partitionKey: required(partitionKey, "partition key"), clustering: clustering.map(identifier), range: rangeFrom($, start) };
  });

  // The partition key: one column, or `(a, b)` for a composite key.
  const partitionKeyForms: IOrAlt<Identifier[]>[] = [
    {
      ALT: () => {
        const column = $.CONSUME(T.Name);
        return $.RECORDING_PHASE ? RECORDING : [identifier(column)];
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.LParen);
        const columns = [$.CONSUME1(T.Name)];
        $.MANY(() => {
          $.CONSUME(T.Comma);
          columns.push($.CONSUME2(T.Name));
        });
        $.CONSUME(T.RParen);
        return $.RECORDING_PHASE ? RECORDING : columns.map(identifier);
      },
    },
  ];
  defineRule(grammar, "pkDef", () => $.OR(partitionKeyForms));

  // `WITH property AND …` for tables and views.
  defineRule(grammar, "tableProperties", () => {
    const start = $.CONSUME(T.With);
    const entries = [$.SUBRULE(rules.cfamProperty)];
    $.MANY(() => {
      $.CONSUME(T.And);
      entries.push($.SUBRULE1(rules.cfamProperty));
    });
    if ($.RECORDING_PHASE) return RECORDING;
    const result: TableProperties = { options: [], clusteringOrder: [], compactStorage: false };
    result.withRange = rangeFrom($, start);
    for (const entry of entries) {
      const property = required(entry, "table option");
      if (property.kind === "option") {
        result.options.push(property.option);
      } else if (property.kind === "compact-storage") {
        result.compactStorage = true;
        result.compactStorageRange = property.range;
      } else {
        append(result.clusteringOrder, property.orderings);
        result.clusteringOrderRange = property.range;
      }
    }
    noteVendorOptions(result.options, grammar.context);
    return result;
  });

  // COMPACT and CLUSTERING are also names (`compact = …` would be an option): two tokens decide.
  const tablePropertyForms: OrMethodOpts<TableProperty> = {
    MAX_LOOKAHEAD: 2,
    DEF: [
      {
        ALT: () => {
          const start = $.CONSUME(T.Compact);
          $.CONSUME(T.Storage);
          return $.RECORDING_PHASE ? RECORDING : { kind: "compact-storage", range: rangeFrom($, start) };
        },
      },
      {
        ALT: () => {
          const start = $.CONSUME(T.Clustering);
          $.CONSUME(T.Order);
          $.CONSUME(T.By);
          $.CONSUME(T.LParen);
          const orderings = [$.SUBRULE(rules.cfamOrdering)];
          $.MANY(() => {
            $.CONSUME(T.Comma);
            orderings.push($.SUBRULE1(rules.cfamOrdering));
          });
          $.CONSUME(T.RParen);
          if ($.RECORDING_PHASE) return RECORDING;
          return {
            kind: "clustering-order",
            orderings: orderings.map((ordering) => required(ordering, "clustering order")),
            range: rangeFrom($, start),
          };
        },
      },
      // `name = value`, as Parser.g's `property`, written out (one rule call less per option)
      {
        ALT: () => {
          const name = $.CONSUME(T.Name);
          $.CONSUME(T.Equals);
          const value = $.SUBRULE(rules.term);
          if ($.RECORDING_PHASE) return RECORDING;
          return { kind: "option", option: { name: identifier(name), value: required(value, "option value"), range: rangeFrom($, name) } };
        },
      },
    ],
  };
  defineRule(grammar, "cfamProperty", () => $.OR(tablePropertyForms));

  const directions: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.Asc) }, { ALT: () => $.CONSUME(T.Desc) }];
  defineRule(grammar, "cfamOrdering", () => {
    const column = $.CONSUME(T.Name);
    const direction = $.OR(directions);
    if ($.RECORDING_PHASE) return RECORDING;
    return { column: identifier(column), direction: direction.tokenType === T.Desc ? "desc" : "asc", range: rangeFrom($, column) };
  });

  const alterTableActions: IOrAlt<AlterTableAction>[] = [
    { ALT: () => $.SUBRULE(rules.alterColumnAction) },
    { ALT: () => $.SUBRULE(rules.addColumnsAction) },
    {
      GATE: () => $.LA(2).tokenType === T.Compact && $.LA(3).tokenType === T.Storage,
      ALT: () => $.SUBRULE(rules.dropCompactStorageAction),
    },
    { ALT: () => $.SUBRULE(rules.dropColumnsAction) },
    { ALT: () => $.SUBRULE(rules.renameColumnsAction) },
    { ALT: () => $.SUBRULE(rules.alterOptionsAction) },
  ];
  defineRule(grammar, "alterTableStatement", () => {
    const start = $.CONSUME(T.Alter);
    $.CONSUME(T.Table);
    const existence = $.OPTION(ifExists);
    const name = $.SUBRULE(rules.qualifiedName);
    // Deviation: Parser.g inlines the actions; a rule each builds its action with its own range.
    const action = $.OR(alterTableActions);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return {
      kind: "alter-table",
      name: required(name, "table name"),
      ifExists: existence !== undefined,
      action: required(action, "ALTER TABLE action"),
      range,
      text,
    };
  });

  // `ALTER col TYPE t`, `ALTER col MASKED WITH …`, `ALTER col DROP MASKED`.
  const columnChanges: IOrAlt<ColumnChange>[] = [
    {
      ALT: () => {
        $.CONSUME(T.Type);
        return { type: $.SUBRULE(rules.comparatorType) };
      },
    },
    { ALT: () => ({ mask: $.SUBRULE(rules.columnMask) }) },
    {
      ALT: () => {
        $.CONSUME(T.Drop);
        $.CONSUME(T.Masked);
        return { dropMask: true };
      },
    },
  ];
  defineRule(grammar, "alterColumnAction", () => {
    const start = $.CONSUME(T.Alter);
    // 5.0: `ALTER [IF EXISTS] c MASKED WITH …` (IF EXISTS is refused with TYPE, as by Cassandra's grammar).
    const existence = $.OPTION(ifExists);
    const name = $.CONSUME(T.Name);
    const change = $.OR(columnChanges);
    if ($.RECORDING_PHASE) return RECORDING;
    const range = rangeFrom($, start);
    const column = identifier(name);
    if ("type" in change) {
      if (existence !== undefined) throw new AstSyntaxError("IF EXISTS applies to ALTER … MASKED WITH and DROP MASKED, not to ALTER … TYPE", range);
      return { kind: "alter-type", column, type: required(change.type, "column type"), range };
    }
    // Members in the order of the type, so the JSON of a tree keeps its shape.
    const mask = "mask" in change ? { mask: required(change.mask, "mask") } : {};
    return existence !== undefined ? { kind: "mask", column, ifExists: true, ...mask, range } : { kind: "mask", column, ...mask, range };
  });

  const addedColumns: IOrAlt<ColumnDefinition[]>[] = [
    {
      ALT: () => {
        $.CONSUME(T.LParen);
        const columns = [$.SUBRULE(rules.columnDefinition)];
        $.MANY(() => {
          $.CONSUME(T.Comma);
          columns.push($.SUBRULE1(rules.columnDefinition));
        });
        $.CONSUME(T.RParen);
        return columns;
      },
    },
    { ALT: () => [$.SUBRULE2(rules.columnDefinition)] },
  ];
  defineRule(grammar, "addColumnsAction", () => {
    const start = $.CONSUME(T.Add);
    const existence = $.OPTION(ifNotExists);
    const columns = $.OR(addedColumns);
    if ($.RECORDING_PHASE) return RECORDING;
    return {
      kind: "add",
      columns: columns.map((column) => required(column, "column definition")),
      ifNotExists: existence !== undefined,
      range: rangeFrom($, start),
    };
  });

  defineRule(grammar, "dropCompactStorageAction", () => {
    const start = $.CONSUME(T.Drop);
    $.CONSUME(T.Compact);
    $.CONSUME(T.Storage);
    if ($.RECORDING_PHASE) return RECORDING;
    return { kind: "drop-compact-storage", range: rangeFrom($, start) };
  });

  const droppedColumns: IOrAlt<IToken[]>[] = [
    {
      ALT: () => {
        $.CONSUME(T.LParen);
        const columns = [$.CONSUME(T.Name)];
        $.MANY(() => {
          $.CONSUME(T.Comma);
          columns.push($.CONSUME1(T.Name));
        });
        $.CONSUME(T.RParen);
        return columns;
      },
    },
    { ALT: () => [$.CONSUME2(T.Name)] },
  ];
  const dropTimestamp = () => {
    $.CONSUME(T.Using);
    $.CONSUME(T.Timestamp);
    return $.SUBRULE(rules.term);
  };
  defineRule(grammar, "dropColumnsAction", () => {
    const start = $.CONSUME(T.Drop);
    const existence = $.OPTION(ifExists);
    const columns = $.OR(droppedColumns);
    const timestamp = $.OPTION1(dropTimestamp);
    if ($.RECORDING_PHASE) return RECORDING;
    const range = rangeFrom($, start);
    const dropped = columns.map(identifier);
    if (timestamp) return { kind: "drop", columns: dropped, ifExists: existence !== undefined, timestamp, range };
    return { kind: "drop", columns: dropped, ifExists: existence !== undefined, range };
  });

  defineRule(grammar, "renameColumnsAction", () => {
    const start = $.CONSUME(T.Rename);
    const existence = $.OPTION(ifExists);
    const renames = [$.SUBRULE(rules.renamePair)];
    $.MANY(() => {
      $.CONSUME(T.And);
      renames.push($.SUBRULE1(rules.renamePair));
    });
    if ($.RECORDING_PHASE) return RECORDING;
    return {
      kind: "rename",
      renames: renames.map((pair) => required(pair, "RENAME pair")),
      ifExists: existence !== undefined,
      range: rangeFrom($, start),
    };
  });

  defineRule(grammar, "renamePair", () => {
    const from = $.CONSUME(T.Name);
    $.CONSUME(T.To);
    const to = $.CONSUME1(T.Name);
    if ($.RECORDING_PHASE) return RECORDING;
    return { from: identifier(from), to: identifier(to) };
  });

  defineRule(grammar, "alterOptionsAction", () => {
    const start = $.CONSUME(T.With);
    const properties = $.SUBRULE(rules.properties);
    if ($.RECORDING_PHASE) return RECORDING;
    const options = required(properties, "table options");
    noteVendorOptions(options, grammar.context);
    return { kind: "with", options, range: rangeFrom($, start) };
  });

  defineRule(grammar, "dropTableStatement", () => {
    const start = $.CONSUME(T.Drop);
    $.CONSUME(T.Table);
    const existence = $.OPTION(ifExists);
    const name = $.SUBRULE(rules.qualifiedName);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return { kind: "drop-table", name: required(name, "table name"), ifExists: existence !== undefined, range, text };
  });

  const tableKeyword = () => $.CONSUME(T.Table);
  defineRule(grammar, "truncateStatement", () => {
    const start = $.CONSUME(T.Truncate);
    $.OPTION(tableKeyword);
    const name = $.SUBRULE(rules.qualifiedName);
    if ($.RECORDING_PHASE) return RECORDING;
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    return { kind: "truncate", name: required(name, "table name"), range, text };
  });
}
