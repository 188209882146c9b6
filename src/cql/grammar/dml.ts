// Writes (Parser.g `insertStatement`, `normalInsertStatement`, `jsonInsertStatement`,
// `usingClause`, `updateStatement`, `columnOperation`, `deleteStatement`, `deleteSelection`,
// `batchStatement`, `updateConditions`).
import type { IOrAlt, IToken } from "chevrotain";
import type {
  Assignment,
  BatchStatement,
  ColumnRelation,
  DeleteSelection,
  DeleteStatement,
  Identifier,
  InsertStatement,
  SourceRange,
  Term,
  UpdateStatement,
  UsingClause,
} from "../ast.js";
import { spanBetween, tokenSpan } from "../source-span.js";
import * as T from "../tokens.js";
import { AstSyntaxError, defineRule, isRealToken, rangeFrom, RECORDING, required, requiredToken, type AstContext, type Grammar } from "./api.js";
import { identifier, statementBase } from "./build.js";
import { ifExistsAhead } from "./lookahead.js";
import { literalOrTerm } from "./terms.js";

type BatchMember = InsertStatement | UpdateStatement | DeleteStatement;

declare module "./api.js" {
  interface RuleTypes {
    insertStatement: InsertStatement;
    normalInsertStatement: InsertForm;
    jsonInsertStatement: InsertForm;
    insertOptions: InsertOptions;
    usingClause: UsingClauseParts;
    usingClauseObjective: UsingObjective;
    updateStatement: UpdateStatement;
    columnOperation: Assignment;
    updateConditions: UpdateConditions;
    deleteStatement: DeleteStatement;
    deleteOp: DeleteSelection;
    batchStatement: BatchStatement;
    batchStatementObjective: BatchMember;
  }
}

/** What follows `INSERT INTO table`: the VALUES form (json absent) or the JSON form. */
export interface InsertForm {
  columns: Identifier[];
  values: Term[];
  json?: Term;
  jsonDefault?: "null" | "unset";
  options: InsertOptions;
}

/** `[IF NOT EXISTS] [USING …]` of an INSERT, in either order. */
export interface InsertOptions {
  ifNotExists: boolean;
  using: UsingClauseParts[];
}

/** One `USING … AND …` clause as written; statements merge theirs with `usingClause()`. */
export interface UsingClauseParts {
  objectives: UsingObjective[];
  range: SourceRange;
}

/** `TTL t`, `TIMESTAMP t` or `TIMEOUT t`; `kind` is the keyword. */
export interface UsingObjective {
  kind: IToken;
  value: Term;
  range: SourceRange;
}

export interface UpdateConditions {
  conditions: ColumnRelation[];
  ifExists: boolean;
}

/** `[key]` or `.field` after the column of an assignment or a deletion. */
type ElementOrField = { key: Term } | { field: IToken };

/**
 * `USING TTL … AND TIMESTAMP …` of a statement; several clauses (INSERT allows USING before and
 * after IF NOT EXISTS) merge into one. SELECT takes only TIMEOUT, a ScyllaDB clause that is noted
 * wherever it appears.
 */
export function usingClause(clauses: readonly UsingClauseParts[], statement: "select" | "insert" | "update" | "delete" | "batch", context: AstContext): UsingClause | undefined {
  if (clauses.length === 0) return undefined;
  const first = required(clauses[0], "USING clause");
  const clause: UsingClause = { range: spanBetween(first.range, required(clauses[clauses.length - 1], "USING clause").range) };
  for (const parts of clauses) {
    for (const objective of required(parts, "USING clause").objectives) {
      const { kind, value, range } = required(objective, "USING objective");
      if (kind.tokenType === T.Ttl) {
        if (statement === "select") throw new AstSyntaxError("USING TTL is not allowed in SELECT", range);
        clause.ttl = value;
      } else if (kind.tokenType === T.Timestamp) {
        if (statement === "select") throw new AstSyntaxError("USING TIMESTAMP is not allowed in SELECT", range);
        clause.timestamp = value;
      } else {
        clause.timeout = value;
        context.notes.push({
          code: "cql-unsupported-statement",
          severity: "info",
          message: "USING TIMEOUT is a ScyllaDB clause; Apache Cassandra does not accept it",
          range,
        });
      }
    }
  }
  return clause;
}

export function defineDmlRules(grammar: Grammar): void {
  const { $, rules } = grammar;

  // Alternatives and option bodies are built once, not on every call.
  const insertForms: IOrAlt<InsertForm>[] = [
    { ALT: () => $.SUBRULE(rules.normalInsertStatement) },
    { ALT: () => $.SUBRULE(rules.jsonInsertStatement) },
  ];
  defineRule(grammar, "insertStatement", () => {
    const start = $.CONSUME(T.Insert);
    $.CONSUME(T.Into);
    const table = $.SUBRULE(rules.qualifiedName);
    const form = $.OR(insertForms);
    if ($.RECORDING_PHASE) return RECORDING;
    const { options } = required(form, "insert form");
    const name = required(table, "table");
    const using = usingClause(options.using, "insert", grammar.context);
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const insert: InsertStatement =
      form.json === undefined
        ? { kind: "insert", table: name, ifNotExists: options.ifNotExists, columns: form.columns, values: form.values, range, text }
        : { kind: "insert", table: name, ifNotExists: options.ifNotExists, columns: form.columns, values: form.values, json: form.json, range, text };
    // Optional members are assigned, not spread into the literal: spreading costs a copy per node.
    if (form.jsonDefault) insert.jsonDefault = form.jsonDefault;
    if (using) insert.using = using;
    return insert;
  });

  const firstValue = literalOrTerm(grammar, 1);
  const laterValue = literalOrTerm(grammar, 2);
  defineRule(grammar, "normalInsertStatement", () => {
    $.CONSUME(T.LParen);
    const columns = [$.CONSUME(T.Name)];
    $.MANY(() => {
      $.CONSUME(T.Comma);
      columns.push($.CONSUME1(T.Name));
    });
    $.CONSUME(T.RParen);
    $.CONSUME(T.Values);
    const valuesOpen = $.CONSUME1(T.LParen);
    const values = [$.or(1, firstValue)];
    $.MANY1(() => {
      $.CONSUME1(T.Comma);
      values.push($.or(2, laterValue));
    });
    const valuesClose = $.CONSUME1(T.RParen);
    const options = $.SUBRULE(rules.insertOptions);
    if ($.RECORDING_PHASE) return RECORDING;
    const names = columns.map(identifier);
    if (names.length !== values.length) {
      const open = requiredToken(valuesOpen, "VALUES (");
      // A `)` inserted by error recovery has no position: the range then ends at the `(`.
      const close = isRealToken(valuesClose) ? valuesClose : open;
      throw new AstSyntaxError(
        `INSERT names ${names.length} column${names.length === 1 ? "" : "s"} but gives ${values.length} value${values.length === 1 ? "" : "s"}`,
        spanBetween(tokenSpan(open), tokenSpan(close)),
      );
    }
    return { columns: names, values, options: required(options, "insert options") };
  });

  const jsonDefaults: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.Null) }, { ALT: () => $.CONSUME(T.Unset) }];
  const jsonDefault = () => {
    $.CONSUME(T.Default);
    return $.OR(jsonDefaults);
  };
  defineRule(grammar, "jsonInsertStatement", () => {
    $.CONSUME(T.Json);
    const json = $.SUBRULE(rules.term);
    const fallback = $.OPTION(jsonDefault);
    const options = $.SUBRULE(rules.insertOptions);
    if ($.RECORDING_PHASE) return RECORDING;
    const form: InsertForm = { columns: [], values: [], json: required(json, "JSON value"), options: required(options, "insert options") };
    if (fallback) form.jsonDefault = fallback.tokenType === T.Null ? "null" : "unset";
    return form;
  });

  // `[IF NOT EXISTS] [USING …]`, in either order (Scylla and old drivers write USING first).
  const insertOptionForms: IOrAlt<UsingClauseParts | "if-not-exists">[] = [
    {
      ALT: () => {
        $.CONSUME(T.If);
        $.CONSUME(T.Not);
        $.CONSUME(T.Exists);
        return "if-not-exists";
      },
    },
    { ALT: () => $.SUBRULE(rules.usingClause) },
  ];
  defineRule(grammar, "insertOptions", () => {
    const options: InsertOptions = { ifNotExists: false, using: [] };
    $.MANY(() => {
      const option = $.OR(insertOptionForms);
      if (option === "if-not-exists") options.ifNotExists = true;
      else options.using.push(option);
    });
    if ($.RECORDING_PHASE) return RECORDING;
    return options;
  });

  defineRule(grammar, "usingClause", () => {
    const start = $.CONSUME(T.Using);
    const objectives = [$.SUBRULE(rules.usingClauseObjective)];
    $.MANY(() => {
      $.CONSUME(T.And);
      objectives.push($.SUBRULE1(rules.usingClauseObjective));
    });
    if ($.RECORDING_PHASE) return RECORDING;
    return { objectives, range: rangeFrom($, start) };
  });

  // `TIMESTAMP t`, `TTL n`, and ScyllaDB's `TIMEOUT d` (recognised to be reported).
  const usingKinds: IOrAlt<IToken>[] = [
    { ALT: () => $.CONSUME(T.Timestamp) },
    { ALT: () => $.CONSUME(T.Ttl) },
    { ALT: () => $.CONSUME(T.Timeout) },
  ];
  defineRule(grammar, "usingClauseObjective", () => {
    const kind = $.OR(usingKinds);
    const value = $.SUBRULE(rules.term);
    if ($.RECORDING_PHASE) return RECORDING;
    return { kind: requiredToken(kind, "USING kind"), value: required(value, "USING value"), range: rangeFrom($, kind) };
  });

  const optionalUsing = () => $.SUBRULE(rules.usingClause);
  const optionalConditions = () => $.SUBRULE(rules.updateConditions);
  defineRule(grammar, "updateStatement", () => {
    const start = $.CONSUME(T.Update);
    const table = $.SUBRULE(rules.qualifiedName);
    const using = $.OPTION(optionalUsing);
    $.CONSUME(T.SetKw);
    const assignments = [$.SUBRULE(rules.columnOperation)];
    $.MANY(() => {
      $.CONSUME(T.Comma);
      assignments.push($.SUBRULE1(rules.columnOperation));
    });
    $.CONSUME(T.Where);
    const where = $.SUBRULE(rules.whereClause);
    const conditions = $.OPTION1(optionalConditions);
    if ($.RECORDING_PHASE) return RECORDING;
    const merged = using === undefined ? undefined : usingClause([using], "update", grammar.context);
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const update = { kind: "update", table: required(table, "table") } as UpdateStatement;
    // Optional members are assigned in the order of the type, so the JSON of a tree keeps its shape.
    if (merged) update.using = merged;
    update.assignments = assignments;
    update.where = required(where, "WHERE clause");
    update.conditions = conditions ? conditions.conditions : [];
    update.ifExists = conditions ? conditions.ifExists : false;
    update.range = range;
    update.text = text;
    return update;
  });

  // `c = v`, `c = c + 1`, `c += v`, `m[k] = v`, `u.f = v` (Parser.g `columnOperation`).
  const elementOrFieldForms: IOrAlt<ElementOrField>[] = [
    {
      ALT: () => {
        $.CONSUME(T.LBracket);
        const key = $.SUBRULE(rules.term);
        $.CONSUME(T.RBracket);
        return { key };
      },
    },
    {
      ALT: () => {
        $.CONSUME(T.Dot);
        return { field: $.CONSUME1(T.Name) };
      },
    },
  ];
  const elementOrField = () => $.OR(elementOrFieldForms);
  const assignmentOperators: IOrAlt<IToken>[] = [
    { ALT: () => $.CONSUME(T.Equals) },
    { ALT: () => $.CONSUME(T.PlusEquals) },
    { ALT: () => $.CONSUME(T.MinusEquals) },
  ];
  defineRule(grammar, "columnOperation", () => {
    const column = $.CONSUME(T.Name);
    const selector = $.OPTION(elementOrField);
    const operatorToken = $.OR1(assignmentOperators);
    const valueTerm = $.SUBRULE1(rules.term);
    if ($.RECORDING_PHASE) return RECORDING;
    const name = identifier(column);
    const operator = requiredToken(operatorToken, "operator").image as Assignment["operator"];
    const value = required(valueTerm, "value");
    const range = rangeFrom($, column);
    if (selector === undefined) return { column: name, operator, value, range };
    if ("key" in selector) return { column: name, key: required(selector.key, "key"), operator, value, range };
    return { column: name, field: identifier(selector.field), operator, value, range };
  });

  // `IF EXISTS` or `IF cond AND …` (Parser.g `updateConditions`).
  const conditionForms: IOrAlt<UpdateConditions>[] = [
    {
      GATE: () => ifExistsAhead($),
      ALT: () => {
        $.CONSUME(T.Exists);
        return { conditions: [], ifExists: true };
      },
    },
    {
      ALT: () => {
        const conditions = [$.SUBRULE(rules.columnCondition)];
        $.MANY(() => {
          $.CONSUME(T.And);
          conditions.push($.SUBRULE1(rules.columnCondition));
        });
        return { conditions, ifExists: false };
      },
    },
  ];
  defineRule(grammar, "updateConditions", () => {
    $.CONSUME(T.If);
    return $.OR(conditionForms);
  });

  defineRule(grammar, "deleteStatement", () => {
    const start = $.CONSUME(T.Delete);
    const selections: DeleteSelection[] = [];
    $.OPTION(() => {
      selections.push($.SUBRULE(rules.deleteOp));
      $.MANY(() => {
        $.CONSUME(T.Comma);
        selections.push($.SUBRULE1(rules.deleteOp));
      });
    });
    $.CONSUME(T.From);
    const table = $.SUBRULE(rules.qualifiedName);
    const using = $.OPTION1(optionalUsing);
    $.CONSUME(T.Where);
    const where = $.SUBRULE(rules.whereClause);
    const conditions = $.OPTION2(optionalConditions);
    if ($.RECORDING_PHASE) return RECORDING;
    const merged = using === undefined ? undefined : usingClause([using], "delete", grammar.context);
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const deletion = { kind: "delete", table: required(table, "table"), selections } as DeleteStatement;
    if (merged) deletion.using = merged;
    deletion.where = required(where, "WHERE clause");
    deletion.conditions = conditions ? conditions.conditions : [];
    deletion.ifExists = conditions ? conditions.ifExists : false;
    deletion.range = range;
    deletion.text = text;
    return deletion;
  });

  // `col`, `col[key]`, `col.field` (Parser.g `deleteOp`).
  defineRule(grammar, "deleteOp", () => {
    const column = $.CONSUME(T.Name);
    const selector = $.OPTION(elementOrField);
    if ($.RECORDING_PHASE) return RECORDING;
    const name = identifier(column);
    const range = rangeFrom($, column);
    if (selector === undefined) return { column: name, range };
    if ("key" in selector) return { column: name, key: required(selector.key, "key"), range };
    return { column: name, field: identifier(selector.field), range };
  });

  const batchTypes: IOrAlt<IToken>[] = [{ ALT: () => $.CONSUME(T.Unlogged) }, { ALT: () => $.CONSUME(T.Counter) }];
  const batchType = () => $.OR(batchTypes);
  const separator = () => $.CONSUME(T.Semicolon);
  defineRule(grammar, "batchStatement", () => {
    const start = $.CONSUME(T.Begin);
    const type = $.OPTION(batchType);
    $.CONSUME(T.Batch);
    const using = $.OPTION1(optionalUsing);
    const statements: BatchMember[] = [];
    $.MANY(() => {
      statements.push($.SUBRULE(rules.batchStatementObjective));
      $.OPTION2(separator);
    });
    $.CONSUME(T.Apply);
    $.CONSUME1(T.Batch);
    if ($.RECORDING_PHASE) return RECORDING;
    const merged = using === undefined ? undefined : usingClause([using], "batch", grammar.context);
    const { range, text } = statementBase(rangeFrom($, start), grammar.context);
    const batch = {
      kind: "batch",
      batchType: type === undefined ? "logged" : type.tokenType === T.Unlogged ? "unlogged" : "counter",
    } as BatchStatement;
    if (merged) batch.using = merged;
    for (const member of statements) required(member, "batch member");
    batch.statements = statements;
    batch.range = range;
    batch.text = text;
    return batch;
  });

  // The statements a batch holds, each the same production (and AST) as on its own.
  const batchMembers: IOrAlt<BatchMember>[] = [
    { ALT: () => $.SUBRULE(rules.insertStatement) },
    { ALT: () => $.SUBRULE(rules.updateStatement) },
    { ALT: () => $.SUBRULE(rules.deleteStatement) },
  ];
  defineRule(grammar, "batchStatementObjective", () => $.OR(batchMembers));
}
