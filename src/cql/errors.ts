// Syntax error messages that say what was expected, where, and what was found:
// "expected `)` to close PRIMARY KEY, found `;`". Chevrotain calls the provider while parsing; the
// provider also remembers which token a "no viable alternative" error is really about (the first
// token that no alternative accepts, not the first token of the decision), for the facade.
import { EOF, tokenMatcher, type IParserErrorMessageProvider, type IToken, type TokenType } from "chevrotain";
import * as T from "./tokens.js";

/** What each production is, in the words of a message ("… in <context>"). */
const RULE_CONTEXT: Record<string, string> = {
  cqlStatement: "a statement",
  createKeyspaceStatement: "CREATE KEYSPACE",
  alterKeyspaceStatement: "ALTER KEYSPACE",
  dropKeyspaceStatement: "DROP KEYSPACE",
  useStatement: "USE",
  createTableStatement: "CREATE TABLE",
  cfamDefinition: "the column list of CREATE TABLE",
  columnDefinition: "the column definition",
  columnMask: "MASKED WITH",
  primaryKeyDefinition: "PRIMARY KEY",
  pkDef: "the partition key",
  tableProperties: "the table options",
  cfamProperty: "the table options",
  cfamOrdering: "CLUSTERING ORDER BY",
  alterTableStatement: "ALTER TABLE",
  alterColumnAction: "ALTER TABLE … ALTER",
  addColumnsAction: "ALTER TABLE … ADD",
  dropColumnsAction: "ALTER TABLE … DROP",
  dropCompactStorageAction: "ALTER TABLE … DROP COMPACT STORAGE",
  renameColumnsAction: "ALTER TABLE … RENAME",
  renamePair: "RENAME",
  alterOptionsAction: "ALTER TABLE … WITH",
  dropTableStatement: "DROP TABLE",
  truncateStatement: "TRUNCATE",
  createTypeStatement: "CREATE TYPE",
  typeColumns: "the field definition",
  alterTypeStatement: "ALTER TYPE",
  dropTypeStatement: "DROP TYPE",
  createIndexStatement: "CREATE INDEX",
  indexIdent: "the index target",
  dropIndexStatement: "DROP INDEX",
  createMaterializedViewStatement: "CREATE MATERIALIZED VIEW",
  alterMaterializedViewStatement: "ALTER MATERIALIZED VIEW",
  dropMaterializedViewStatement: "DROP MATERIALIZED VIEW",
  createFunctionStatement: "CREATE FUNCTION",
  functionParameter: "the function parameter",
  typeList: "the argument types",
  dropFunctionStatement: "DROP FUNCTION",
  createAggregateStatement: "CREATE AGGREGATE",
  dropAggregateStatement: "DROP AGGREGATE",
  createTriggerStatement: "CREATE TRIGGER",
  dropTriggerStatement: "DROP TRIGGER",
  roleName: "the role name",
  createRoleStatement: "CREATE ROLE",
  alterRoleStatement: "ALTER ROLE",
  dropRoleStatement: "DROP ROLE",
  roleOptions: "the role options",
  roleOption: "the role options",
  createUserStatement: "CREATE USER",
  alterUserStatement: "ALTER USER",
  dropUserStatement: "DROP USER",
  listRolesStatement: "LIST ROLES",
  listUsersStatement: "LIST USERS",
  listSuperUsersStatement: "LIST SUPERUSERS",
  grantStatement: "GRANT",
  revokeStatement: "REVOKE",
  listPermissionsStatement: "LIST",
  permissionOrAll: "the permission list",
  permission: "the permission list",
  resource: "the resource",
  addIdentityStatement: "ADD IDENTITY",
  dropIdentityStatement: "DROP IDENTITY",
  describeStatement: "DESCRIBE",
  commentOnStatement: "COMMENT ON",
  securityLabelStatement: "SECURITY LABEL",
  describedObject: "the described object",
  selectStatement: "SELECT",
  selectClause: "the selection",
  selector: "the selection",
  orderByClause: "ORDER BY",
  whereClause: "WHERE",
  relationOrExpression: "WHERE",
  columnCondition: "the condition",
  relationOperation: "the relation",
  tupleOfIdentifiers: "the column tuple",
  customIndexExpression: "expr(…)",
  inValues: "the IN list",
  insertStatement: "INSERT",
  normalInsertStatement: "INSERT",
  jsonInsertStatement: "INSERT JSON",
  insertOptions: "INSERT",
  usingClause: "USING",
  usingClauseObjective: "USING",
  updateStatement: "UPDATE",
  columnOperation: "the assignment",
  updateConditions: "IF",
  deleteStatement: "DELETE",
  deleteOp: "the deleted column",
  batchStatement: "BATCH",
  batchStatementObjective: "BATCH",
  comparatorType: "the type",
  term: "the value",
  operand: "the value",
  parenthesizedTerm: "the parentheses",
  listLiteral: "the list literal",
  braceLiteral: "the map, set or user type literal",
  functionArgs: "the function call",
  subscript: "the element selection",
  properties: "the options",
  property: "the option",
  qualifiedName: "the name",
  functionName: "the function name",
};

const CLOSERS = new Map<TokenType, string>([
  [T.RParen, ")"],
  [T.RBracket, "]"],
  [T.RBrace, "}"],
  [T.Greater, ">"],
]);

const CATEGORY_WORDS = new Map<TokenType, string>([
  [T.Name, "a name"],
  [T.Identifier, "a name"],
  [T.QuotedIdentifier, "a quoted name"],
  [T.UnreservedKeyword, "a name"],
  [T.NativeTypeKeyword, "a type"],
  [T.Constant, "a literal"],
  [T.StringLiteral, "a string"],
  [T.DollarStringLiteral, "a $$ string"],
  [T.IntegerLiteral, "an integer"],
  [T.FloatLiteral, "a number"],
  [T.UuidLiteral, "a uuid"],
  [T.BlobLiteral, "a blob"],
  [T.DurationLiteral, "a duration"],
  [T.IsoDurationLiteral, "a duration"],
]);

/** How a kind of token is named in "expected …". */
export function describeExpected(type: TokenType): string {
  const word = CATEGORY_WORDS.get(type);
  if (word) return word;
  if (type === EOF) return "the end of the statement";
  if (type === T.Semicolon) return "`;`";
  if ((type.CATEGORIES ?? []).includes(T.Keyword)) return `\`${type.name}\``;
  const pattern = type.PATTERN;
  if (typeof pattern === "string") return `\`${pattern}\``;
  return type.name;
}

const UNTERMINATED_WORDS = new Map<TokenType, string>([
  [T.UnterminatedString, "an unterminated string"],
  [T.UnterminatedDollarString, "an unterminated $$ string"],
  [T.UnterminatedQuotedIdentifier, "an unterminated quoted name"],
  [T.UnterminatedBlockComment, "an unterminated /* comment"],
]);

/** How a token that was found is named in "…, found …". */
export function describeFound(token: IToken): string {
  if (token.tokenType === EOF) return "the end of the statement";
  const unterminated = UNTERMINATED_WORDS.get(token.tokenType);
  if (unterminated) return unterminated;
  const image = token.image.length > 24 ? `${token.image.slice(0, 21)}…` : token.image;
  return `\`${image.replace(/\s+/g, " ")}\``;
}

function context(ruleName: string): string {
  return RULE_CONTEXT[ruleName] ?? ruleName;
}

/** Rules too small to name in a message ("expected a name, found `$`" says enough). */
const GENERIC_RULES = new Set(["cqlStatement", "qualifiedName", "functionName", "term", "operand", "comparatorType", "property", "properties"]);

function inContext(ruleName: string): string {
  return GENERIC_RULES.has(ruleName) ? "" : ` in ${context(ruleName)}`;
}

function listExpected(types: Iterable<TokenType>): string {
  const words = [...new Set([...types].map(describeExpected))];
  if (words.length <= 1) return words[0] ?? "something else";
  const shown = words.slice(0, 6);
  const more = words.length > shown.length ? ", …" : "";
  return `${shown.slice(0, -1).join(", ")}${more ? `, ${shown.at(-1)}${more}` : ` or ${shown.at(-1)}`}`;
}

/**
 * Among the k-token paths of a decision, the tokens that could come where the input stops matching,
 * and the token found there.
 */
function firstMismatch(paths: TokenType[][], actual: IToken[]): { expected: TokenType[]; index: number } {
  let best = 0;
  const matched = paths.map((path) => {
    let n = 0;
    while (n < path.length && n < actual.length && tokenMatcher(actual[n]!, path[n]!)) n++;
    if (n < path.length && n > best) best = n;
    return n;
  });
  const expected: TokenType[] = [];
  paths.forEach((path, i) => {
    if (matched[i] === best && path.length > best) expected.push(path[best]!);
  });
  return { expected, index: Math.min(best, actual.length - 1) };
}

/**
 * What may follow the first word of a statement. The dispatcher decides with 4 tokens of
 * lookahead, but chevrotain reports its paths with the global lookahead of 1, which would only
 * say "expected a statement, found CREATE".
 */
const STATEMENT_SECOND_WORDS = new Map<TokenType, string>([
  [T.Create, "KEYSPACE, TABLE, TYPE, INDEX, CUSTOM INDEX, MATERIALIZED VIEW, FUNCTION, AGGREGATE, TRIGGER, ROLE or USER"],
  [T.Alter, "KEYSPACE, TABLE, TYPE, MATERIALIZED VIEW, ROLE or USER"],
  [T.Drop, "KEYSPACE, TABLE, TYPE, INDEX, MATERIALIZED VIEW, FUNCTION, AGGREGATE, TRIGGER, ROLE, USER or IDENTITY"],
  [T.ListKw, "ROLES, USERS, SUPERUSERS or a permission"],
  [T.Begin, "BATCH, UNLOGGED BATCH or COUNTER BATCH"],
  [T.Add, "IDENTITY"],
  [T.Comment, "ON"],
  [T.Security, "LABEL"],
]);

export class CqlErrorMessageProvider implements IParserErrorMessageProvider {
  /** for each "no viable alternative" / "early exit" error, in order: the token it is about */
  readonly focusTokens: IToken[] = [];
  /**
   * The tokens being parsed. Chevrotain passes only as many tokens as the global lookahead (1)
   * to the messages, while the statement dispatcher looks 4 ahead: the rest are read from here.
   */
  input: IToken[] = [];

  private lookahead(actual: IToken[], count: number): IToken[] {
    const first = actual[0];
    if (!first || actual.length >= count) return actual;
    const at = this.input.indexOf(first);
    if (at < 0) return actual;
    const tokens = this.input.slice(at, at + count);
    return tokens.length > 0 ? tokens : actual;
  }

  buildMismatchTokenMessage(options: { expected: TokenType; actual: IToken; previous: IToken; ruleName: string }): string {
    const { expected, actual, ruleName } = options;
    const closer = CLOSERS.get(expected);
    if (closer) return `expected \`${closer}\` to close ${context(ruleName)}, found ${describeFound(actual)}`;
    return `expected ${describeExpected(expected)}${inContext(ruleName)}, found ${describeFound(actual)}`;
  }

  buildNotAllInputParsedMessage(options: { firstRedundant: IToken; ruleName: string }): string {
    return `expected \`;\` after the statement, found ${describeFound(options.firstRedundant)}`;
  }

  buildNoViableAltMessage(options: {
    expectedPathsPerAlt: TokenType[][][];
    actual: IToken[];
    previous: IToken;
    customUserDescription?: string;
    ruleName: string;
  }): string {
    const paths = options.expectedPathsPerAlt.flat();
    const actual = this.lookahead(options.actual, Math.max(2, ...paths.map((p) => p.length)));
    if (options.ruleName === "cqlStatement") {
      const first = actual[0]!;
      const words = STATEMENT_SECOND_WORDS.get(first.tokenType);
      const second = actual[1];
      if (words && second) {
        this.focusTokens.push(second);
        return `expected ${words} after ${describeFound(first)}, found ${describeFound(second)}`;
      }
    }
    const { expected, index } = firstMismatch(paths, actual);
    const found = actual[index] ?? options.actual[0]!;
    this.focusTokens.push(found);
    if (options.ruleName === "cqlStatement" && index === 0) {
      return `expected a statement (SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, …), found ${describeFound(found)}`;
    }
    const after = index > 0 ? ` after ${describeFound(actual[index - 1]!)}` : "";
    return `expected ${listExpected(expected)}${after}${inContext(options.ruleName)}, found ${describeFound(found)}`;
  }

  buildEarlyExitMessage(options: {
    expectedIterationPaths: TokenType[][];
    actual: IToken[];
    previous: IToken;
    customUserDescription?: string;
    ruleName: string;
  }): string {
    const actual = this.lookahead(options.actual, Math.max(1, ...options.expectedIterationPaths.map((p) => p.length)));
    const { expected, index } = firstMismatch(options.expectedIterationPaths, actual);
    const found = actual[index] ?? options.actual[0]!;
    this.focusTokens.push(found);
    return `expected ${listExpected(expected)}${inContext(options.ruleName)}, found ${describeFound(found)}`;
  }
}
