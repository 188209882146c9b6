// The typed AST of CQL, as produced by `parseCql` (src/cql/index.ts).
// Every node carries a source range; names keep their quoting (see Identifier).
// Node and field names follow Cassandra's grammar (src/antlr/Parser.g) where one exists.

/** A place in a file: line and column are 1-based, offset is 0-based (UTF-16 code units). */
export interface Position {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/**
 * `start` is the first character; `end` is just past the last one (exclusive, as in ESLint).
 * Ranges are values: never edit one, make a new one. The parser's are SourceSpans
 * (source-span.ts), which make their positions when read.
 */
export interface SourceRange {
  readonly start: Position;
  readonly end: Position;
}

export interface Node {
  range: SourceRange;
}

/**
 * A name as written. `name` is what Cassandra uses: unquoted names fold to lower case, quoted
 * names keep their case with `""` unescaped. `text` is the exact source text.
 */
export interface Identifier extends Node {
  name: string;
  text: string;
  quoted: boolean;
}

/** `ks.name` or `name`; the keyspace is resolved later through USE or the manifest. */
export interface QualifiedName extends Node {
  keyspace?: Identifier;
  name: Identifier;
}

// ---------------------------------------------------------------------------------------------
// Types (Parser.g `comparatorType`)

export const NATIVE_TYPES = [
  "ascii", "bigint", "blob", "boolean", "counter", "date", "decimal", "double", "duration",
  "float", "inet", "int", "smallint", "text", "time", "timestamp", "timeuuid", "tinyint",
  "uuid", "varchar", "varint",
] as const;
export type NativeTypeName = (typeof NATIVE_TYPES)[number];

export type CqlType =
  | NativeType
  | CollectionType
  | FrozenType
  | TupleType
  | VectorType
  | UserTypeReference
  | CustomType;

export interface NativeType extends Node {
  kind: "native";
  name: NativeTypeName;
}
export interface CollectionType extends Node {
  kind: "collection";
  collection: "list" | "set" | "map";
  /** one element type for list/set, key and value for map */
  elements: CqlType[];
}
export interface FrozenType extends Node {
  kind: "frozen";
  inner: CqlType;
}
export interface TupleType extends Node {
  kind: "tuple";
  elements: CqlType[];
}
export interface VectorType extends Node {
  kind: "vector";
  element: CqlType;
  dimension: number;
}
/** A user-defined type by name (resolved against CREATE TYPE in the schema model). */
export interface UserTypeReference extends Node {
  kind: "user";
  name: QualifiedName;
}
/** A custom class given as a string, e.g. `'org.apache.cassandra.db.marshal.DynamicCompositeType'`. */
export interface CustomType extends Node {
  kind: "custom";
  className: string;
}

// ---------------------------------------------------------------------------------------------
// Terms and expressions (Parser.g `term`, `value`, `function`, `selector`)

export type Term =
  | Literal
  | BindMarker
  | ListLiteral
  | SetLiteral
  | MapLiteral
  | UserTypeLiteral
  | TupleLiteral
  | FunctionCall
  | CastExpression
  | TypeHint
  | ColumnReference
  | FieldAccess
  | ElementAccess
  | SliceAccess
  | BinaryExpression
  | NegateExpression
  | Star;

export type LiteralType =
  | "string" // 'text' and $$text$$; value is the unescaped content
  | "integer"
  | "float" // includes scientific notation
  | "boolean"
  | "uuid"
  | "blob" // 0x…
  | "duration" // 1h30m, P1D, PT2H, P0001-02-03T04:05:06
  | "null"
  | "nan"
  | "infinity";

export interface Literal extends Node {
  kind: "literal";
  type: LiteralType;
  /** For strings the unescaped content; otherwise the source text (e.g. `-12`, `0xcafe`, `true`). */
  value: string;
}
/** `?` (name undefined) or `:name`. */
export interface BindMarker extends Node {
  kind: "bind";
  name?: string;
}
export interface ListLiteral extends Node {
  kind: "list";
  elements: Term[];
}
/** `{a, b}`; an empty `{}` is parsed as an empty MapLiteral (Cassandra decides by the receiver). */
export interface SetLiteral extends Node {
  kind: "set";
  elements: Term[];
}
export interface MapLiteral extends Node {
  kind: "map";
  entries: { key: Term; value: Term }[];
}
/** `{street: '…', city: '…'}`: keys are field names (identifiers), not terms. */
export interface UserTypeLiteral extends Node {
  kind: "udt";
  fields: { name: Identifier; value: Term }[];
}
export interface TupleLiteral extends Node {
  kind: "tuple";
  elements: Term[];
}
export interface FunctionCall extends Node {
  kind: "function";
  name: QualifiedName;
  args: Term[];
}
/** `CAST(x AS type)` */
export interface CastExpression extends Node {
  kind: "cast";
  value: Term;
  type: CqlType;
}
/** `(int) ?` */
export interface TypeHint extends Node {
  kind: "type-hint";
  type: CqlType;
  value: Term;
}
/** A bare name inside an expression: a column in selectors, SET c = c + 1, GROUP BY. */
export interface ColumnReference extends Node {
  kind: "column";
  name: Identifier;
}
/** `udt_col.field` */
export interface FieldAccess extends Node {
  kind: "field";
  target: Term;
  field: Identifier;
}
/** `col[key]` */
export interface ElementAccess extends Node {
  kind: "element";
  target: Term;
  index: Term;
}
/** `col[a..b]`, either bound may be absent */
export interface SliceAccess extends Node {
  kind: "slice";
  target: Term;
  from?: Term;
  to?: Term;
}
export interface BinaryExpression extends Node {
  kind: "binary";
  operator: "+" | "-" | "*" | "/" | "%";
  left: Term;
  right: Term;
}
export interface NegateExpression extends Node {
  kind: "negate";
  operand: Term;
}
/** `*` inside `count(*)` */
export interface Star extends Node {
  kind: "star";
}

// ---------------------------------------------------------------------------------------------
// Relations (Parser.g `relation`) and conditions

export type RelationOperator =
  | "="
  | "!="
  | "<"
  | "<="
  | ">"
  | ">="
  | "IN"
  | "NOT IN"
  | "CONTAINS"
  | "CONTAINS KEY"
  | "NOT CONTAINS"
  | "NOT CONTAINS KEY"
  | "LIKE"
  | "IS NOT NULL"
  | "BETWEEN";

/**
 * How the right-hand side is written:
 * - `value` for single-value operators, for `IN ?` / `IN :name` (a whole-list marker),
 * - `values` for `IN (a, b, …)` (possibly empty) and for `BETWEEN low AND high` ([low, high]),
 * - neither for `IS NOT NULL`.
 */
interface RelationRightHandSide {
  operator: RelationOperator;
  value?: Term;
  values?: Term[];
}

/** `col op …`, `col[key] op …` (map entry), `col.field op …` (only in conditions). */
export interface ColumnRelation extends Node, RelationRightHandSide {
  kind: "column";
  column: Identifier;
  /** `m['key'] = v` */
  key?: Term;
  /** `udt.field = v` (IF conditions) */
  field?: Identifier;
}
/** `(c1, c2) op (…)`; values are TupleLiterals or bind markers. */
export interface MultiColumnRelation extends Node, RelationRightHandSide {
  kind: "multi-column";
  columns: Identifier[];
}
/** `token(a, b) op term` */
export interface TokenRelation extends Node, RelationRightHandSide {
  kind: "token";
  columns: Identifier[];
}
/** `expr(index_name, 'query')` */
export interface CustomIndexExpression extends Node {
  kind: "custom-index-expression";
  index: QualifiedName;
  expression: Term;
}

export type Relation = ColumnRelation | MultiColumnRelation | TokenRelation | CustomIndexExpression;

/** A WHERE clause: relations joined by AND. `OR` is outside Cassandra's grammar and kept as `or`. */
export interface WhereClause extends Node {
  relations: Relation[];
  /** ranges of `OR` keywords found (SAI-style queries); Cassandra 3.11–5.0 reject them */
  or: SourceRange[];
}

// ---------------------------------------------------------------------------------------------
// Options (`WITH name = value AND …`)

export interface OptionEntry extends Node {
  /** lower-cased option name, e.g. `compaction`, `default_time_to_live` */
  name: Identifier;
  value: Term;
}

// ---------------------------------------------------------------------------------------------
// Statements

interface StatementBase extends Node {
  /** the statement's source text, without the final `;` */
  text: string;
}

export interface CreateKeyspaceStatement extends StatementBase {
  kind: "create-keyspace";
  name: Identifier;
  ifNotExists: boolean;
  options: OptionEntry[];
}
export interface AlterKeyspaceStatement extends StatementBase {
  kind: "alter-keyspace";
  name: Identifier;
  ifExists: boolean;
  options: OptionEntry[];
}
export interface UseStatement extends StatementBase {
  kind: "use";
  keyspace: Identifier;
}

export interface ColumnDefinition extends Node {
  name: Identifier;
  type: CqlType;
  isStatic: boolean;
  /** `col type PRIMARY KEY` */
  isPrimaryKey: boolean;
  /** `MASKED WITH fn(args)` or `MASKED WITH DEFAULT` (then `default: true`) */
  mask?: { function?: FunctionCall; default: boolean; range: SourceRange };
}

export interface PrimaryKeyDefinition extends Node {
  partitionKey: Identifier[];
  clustering: Identifier[];
}

export interface ClusteringOrder extends Node {
  column: Identifier;
  direction: "asc" | "desc";
}

/** Options, `CLUSTERING ORDER BY` and `COMPACT STORAGE` of CREATE TABLE / VIEW (Parser.g `cfamProperty`). */
export interface TableProperties {
  options: OptionEntry[];
  clusteringOrder: ClusteringOrder[];
  /** range of the whole `CLUSTERING ORDER BY (…)` clause, for fixes */
  clusteringOrderRange?: SourceRange;
  compactStorage: boolean;
  compactStorageRange?: SourceRange;
  /** range of the `WITH …` clause if any (from WITH to the last option) */
  withRange?: SourceRange;
}

export interface CreateTableStatement extends StatementBase, TableProperties {
  kind: "create-table";
  name: QualifiedName;
  ifNotExists: boolean;
  columns: ColumnDefinition[];
  /** the `PRIMARY KEY (…)` clause; absent when the key is inline (`id uuid PRIMARY KEY`) */
  primaryKey?: PrimaryKeyDefinition;
  /** `CREATE TABLE t LIKE other` (5.0) */
  like?: QualifiedName;
  /** range of the column list body between the parentheses */
  bodyRange?: SourceRange;
}

export type AlterTableAction =
  | { kind: "add"; columns: ColumnDefinition[]; ifNotExists: boolean; range: SourceRange }
  | { kind: "drop"; columns: Identifier[]; ifExists: boolean; timestamp?: Term; range: SourceRange }
  | { kind: "alter-type"; column: Identifier; type: CqlType; range: SourceRange }
  | { kind: "rename"; renames: { from: Identifier; to: Identifier }[]; ifExists: boolean; range: SourceRange }
  | { kind: "with"; options: OptionEntry[]; range: SourceRange }
  | { kind: "drop-compact-storage"; range: SourceRange }
  /** `ALTER [IF EXISTS] c MASKED WITH …` / `… DROP MASKED` (5.0); `ifExists` only when written */
  | { kind: "mask"; column: Identifier; ifExists?: true; mask?: ColumnDefinition["mask"]; range: SourceRange };

export interface AlterTableStatement extends StatementBase {
  kind: "alter-table";
  name: QualifiedName;
  ifExists: boolean;
  action: AlterTableAction;
}
export interface DropStatement extends StatementBase {
  kind: "drop-table" | "drop-keyspace" | "drop-type" | "drop-index" | "drop-materialized-view" | "drop-trigger" | "drop-role" | "drop-user";
  name: QualifiedName;
  ifExists: boolean;
  /** DROP TRIGGER name ON table */
  table?: QualifiedName;
}
export interface TruncateStatement extends StatementBase {
  kind: "truncate";
  name: QualifiedName;
}

export interface CreateTypeStatement extends StatementBase {
  kind: "create-type";
  name: QualifiedName;
  ifNotExists: boolean;
  fields: { name: Identifier; type: CqlType; range: SourceRange }[];
}
export interface AlterTypeStatement extends StatementBase {
  kind: "alter-type";
  name: QualifiedName;
  ifExists: boolean;
  action:
    | { kind: "add"; field: Identifier; type: CqlType; ifNotExists: boolean; range: SourceRange }
    | { kind: "rename"; renames: { from: Identifier; to: Identifier }[]; ifExists: boolean; range: SourceRange }
    | { kind: "alter-type"; field: Identifier; type: CqlType; range: SourceRange };
}

export type IndexTargetKind = "simple" | "values" | "keys" | "entries" | "full";

export interface IndexTarget extends Node {
  column: Identifier;
  kind: IndexTargetKind;
}
export interface CreateIndexStatement extends StatementBase {
  kind: "create-index";
  custom: boolean;
  name?: Identifier;
  ifNotExists: boolean;
  table: QualifiedName;
  targets: IndexTarget[];
  /** `USING 'class'` string as written (e.g. `sai`, `StorageAttachedIndex`, `org.apache…SASIIndex`) */
  using?: string;
  /** `WITH OPTIONS = {…}` */
  options?: Term;
}

export interface CreateMaterializedViewStatement extends StatementBase, TableProperties {
  kind: "create-materialized-view";
  name: QualifiedName;
  ifNotExists: boolean;
  /** selected columns; empty with `star` for `SELECT *` */
  columns: Identifier[];
  star: boolean;
  baseTable: QualifiedName;
  where: WhereClause;
  primaryKey: PrimaryKeyDefinition;
}
export interface AlterMaterializedViewStatement extends StatementBase {
  kind: "alter-materialized-view";
  name: QualifiedName;
  ifExists: boolean;
  options: OptionEntry[];
}

export interface CreateFunctionStatement extends StatementBase {
  kind: "create-function";
  orReplace: boolean;
  ifNotExists: boolean;
  name: QualifiedName;
  parameters: { name: Identifier; type: CqlType }[];
  calledOnNullInput: boolean;
  returns: CqlType;
  language: string;
  body: string;
  /** DSE `DETERMINISTIC` / `MONOTONIC [ON arg]` */
  deterministic: boolean;
  monotonic: boolean;
}
export interface DropFunctionStatement extends StatementBase {
  kind: "drop-function" | "drop-aggregate";
  name: QualifiedName;
  ifExists: boolean;
  /** argument types when a signature is given */
  signature?: CqlType[];
}
export interface CreateAggregateStatement extends StatementBase {
  kind: "create-aggregate";
  orReplace: boolean;
  ifNotExists: boolean;
  name: QualifiedName;
  argumentTypes: CqlType[];
  stateFunction: QualifiedName;
  stateType: CqlType;
  finalFunction?: QualifiedName;
  initialCondition?: Term;
}
export interface CreateTriggerStatement extends StatementBase {
  kind: "create-trigger";
  name: Identifier;
  ifNotExists: boolean;
  table: QualifiedName;
  className: string;
}

/** Roles, users, permissions, identities, LIST …: kept with their verb, not analysed further. */
export interface AccessControlStatement extends StatementBase {
  kind: "access-control";
  /** e.g. `create-role`, `alter-user`, `grant-permission`, `revoke-role`, `list-roles`, `add-identity` */
  verb: string;
  /** the role/user/identity named, if any */
  name?: Identifier | Literal;
}

export interface DescribeStatement extends StatementBase {
  kind: "describe";
  /** e.g. `keyspaces`, `table`, `schema` (lower case) */
  target: string;
  name?: QualifiedName;
}

// DML -----------------------------------------------------------------------------------------

export interface Selector extends Node {
  expression: Term;
  alias?: Identifier;
}

export interface Ordering extends Node {
  column: Identifier;
  direction: "asc" | "desc";
  /** `ORDER BY v ANN OF [..]` */
  ann?: Term;
}

export interface SelectStatement extends StatementBase {
  kind: "select";
  json: boolean;
  distinct: boolean;
  /** `SELECT *` (then `selectors` is empty) */
  star: boolean;
  selectors: Selector[];
  table: QualifiedName;
  where?: WhereClause;
  groupBy: Term[];
  orderBy: Ordering[];
  perPartitionLimit?: Term;
  limit?: Term;
  allowFiltering: boolean;
}

export interface UsingClause extends Node {
  ttl?: Term;
  timestamp?: Term;
  /** ScyllaDB `USING TIMEOUT`, kept so the rule can report it */
  timeout?: Term;
}

export interface InsertStatement extends StatementBase {
  kind: "insert";
  table: QualifiedName;
  /** empty for INSERT JSON */
  columns: Identifier[];
  values: Term[];
  json?: Term;
  jsonDefault?: "null" | "unset";
  ifNotExists: boolean;
  using?: UsingClause;
}

export interface Assignment extends Node {
  column: Identifier;
  /** `m[k] = v` / `l[i] = v` */
  key?: Term;
  /** `u.f = v` */
  field?: Identifier;
  operator: "=" | "+=" | "-=";
  /** right-hand side; `c = c + 1` is a BinaryExpression of a ColumnReference */
  value: Term;
}

export interface UpdateStatement extends StatementBase {
  kind: "update";
  table: QualifiedName;
  using?: UsingClause;
  assignments: Assignment[];
  where: WhereClause;
  /** IF conditions (LWT) */
  conditions: ColumnRelation[];
  ifExists: boolean;
}

/** What DELETE removes: a column, an element `c[k]`, or a field `u.f`. */
export interface DeleteSelection extends Node {
  column: Identifier;
  key?: Term;
  field?: Identifier;
}

export interface DeleteStatement extends StatementBase {
  kind: "delete";
  table: QualifiedName;
  selections: DeleteSelection[];
  using?: UsingClause;
  where: WhereClause;
  conditions: ColumnRelation[];
  ifExists: boolean;
}

export interface BatchStatement extends StatementBase {
  kind: "batch";
  batchType: "logged" | "unlogged" | "counter";
  using?: UsingClause;
  statements: (InsertStatement | UpdateStatement | DeleteStatement)[];
}

export type DmlStatement = SelectStatement | InsertStatement | UpdateStatement | DeleteStatement | BatchStatement;

/**
 * `COMMENT ON … IS '…'` and `SECURITY LABEL [FOR provider] ON … IS '…'` (Cassandra trunk, after 5.0):
 * descriptions attached to schema objects, kept so the schema can show them; not analysed further.
 */
export interface SchemaDescriptionStatement extends StatementBase {
  kind: "comment-on" | "security-label";
  target: "keyspace" | "table" | "column" | "type" | "field";
  /** the keyspace (as `name.name`), table or type described */
  name: QualifiedName;
  /** the column (`column` target) or field (`field` target) */
  member?: Identifier;
  /** the comment or label text; null for `IS NULL`, which removes it */
  value: string | null;
  /** `SECURITY LABEL FOR provider` */
  provider?: Identifier;
}

export type Statement =
  | SchemaDescriptionStatement
  | CreateKeyspaceStatement
  | AlterKeyspaceStatement
  | UseStatement
  | CreateTableStatement
  | AlterTableStatement
  | DropStatement
  | TruncateStatement
  | CreateTypeStatement
  | AlterTypeStatement
  | CreateIndexStatement
  | CreateMaterializedViewStatement
  | AlterMaterializedViewStatement
  | CreateFunctionStatement
  | DropFunctionStatement
  | CreateAggregateStatement
  | CreateTriggerStatement
  | AccessControlStatement
  | DescribeStatement
  | DmlStatement;

export type StatementKind = Statement["kind"];

// ---------------------------------------------------------------------------------------------
// Parse result

export interface Comment extends Node {
  /** the comment text without its markers (line or block comment markers), trimmed */
  text: string;
  style: "--" | "//" | "/*";
}

export type ParseDiagnosticCode = "cql-syntax-error" | "cql-unsupported-statement";

export interface ParseDiagnostic {
  code: ParseDiagnosticCode;
  severity: "error" | "info";
  message: string;
  range: SourceRange;
}

export interface ParseResult {
  statements: Statement[];
  diagnostics: ParseDiagnostic[];
  comments: Comment[];
  /** statements met, broken and skipped ones included */
  attempted?: number;
  /** set when parsing stopped at `maxStatements` (ParseOptions): the rest of the text was not read */
  stopped?: true;
}

export interface ParseOptions {
  /** stop after this many statements, broken and skipped ones included (a file of 100,000 `SELECT ;` is 100,000 errors) */
  maxStatements?: number;
}
