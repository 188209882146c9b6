// What src/code reads out of application code: CQL statements passed to a Cassandra driver, and
// the places where a statement is built at run time (listed, never guessed).
import type { SourceRange } from "../cql/ast.js";
import type { BindSite } from "../manifest/types.js";

export type CodeLanguage = "java" | "kotlin" | "go" | "python" | "javascript" | "typescript" | "tsx";

/** A statement whose whole text is known from the source: literals and constants only. */
export interface CodeStatement {
  /** stable across unrelated edits: the calling file and function, `path#Class.method` (`~2` for the second in one function) */
  id: string;
  language: CodeLanguage;
  /** the CQL text as the driver receives it */
  cql: string;
  /** where the text is written (its first string literal): a constant's definition, or the call's argument */
  file: string;
  range: SourceRange;
  /** the driver or framework entry point, e.g. `session.execute`, `@Query` */
  api: string;
  /** where the driver is called with it, when that is elsewhere than the text */
  call?: { file: string; line: number };
  /** every call that runs it adds it to a batch read whole (its own BATCH statement): it is no write of its own */
  batchOnly?: true;
  /** every place the code binds its markers, with the values (bind-arguments.ts); unset when a call's values are not read */
  binds?: BindSite[];
  /**
   * the functions that bind or execute it (`path#Class.method`), for a statement prepared into a
   * field or file-level variable (a DAO's constructor) and run elsewhere; its id still names the field
   */
  executedIn?: string[];
}

/** A driver call whose statement is computed at run time: not analysed, with the reason. */
export interface DynamicStatement {
  id: string;
  language: CodeLanguage;
  file: string;
  /** the first literal piece of the statement (its template) */
  range: SourceRange;
  api: string;
  /** why it is not analysed, e.g. "formatted with fmt.Sprintf" */
  reason: string;
  /** set when the text is fixed but something other than Cassandra's planner answers it (DSE Search): `reason` then says what */
  answeredElsewhere?: true;
  /** the statement's first literal piece, for messages */
  start: string;
}

/**
 * A table as an entity class maps it (Spring Data Cassandra, the DataStax Java mapper, cqlengine): names are
 * the CQL names the framework derives, in lower case unless the code quotes them.
 */
export interface CodeTable {
  framework: "spring-data" | "datastax-mapper-4" | "datastax-mapper-3" | "cqlengine";
  /** the entity class */
  entity: string;
  keyspace?: string;
  name: string;
  file: string;
  /** the class's name */
  range: SourceRange;
  /** in key order; undefined when the code leaves it open (a key in a superclass not read) */
  partitionKey?: string[];
  /** in key order, with the order when the framework states one (Spring Data's `ordering`) */
  clustering?: { name: string; order?: "asc" | "desc" }[];
  /** every mapped property, keys included, each at its field's name; `property` is its Java path (`key.userId` in a key class) */
  columns: {
    name: string;
    property: string;
    range: SourceRange;
    /** the file the property is declared in, when it is not the entity's (a key class, a superclass) */
    file?: string;
    collection?: true;
    counter?: true;
    declared?: DeclaredType;
    /** the property's declared type as written (`OrderStatus`, `UserSessionModel.State`), type arguments left out */
    type?: string;
    /** the enum of the code read that the property's type names: its distinct values are its constants */
    enum?: { name: string; constants: number; file: string; line: number };
  }[];
  /** whether the code fixes the order of each key part; without ordinals it is the framework's choice, and only names compare */
  keyOrderKnown: { partition: boolean; clustering: boolean };
}

/**
 * A mapped property's type as the entity class declares it (Java and Kotlin), for drafting a
 * schema from entities that have none: the type as written, `List<String>`, and what the
 * sources say about the names in it.
 */
export interface DeclaredType {
  /** the declared type as written, annotations inside it left out (`Map<String, Integer>`) */
  text: string;
  /** the text of the property's `@CassandraType(...)` annotation, which overrides the type's default mapping */
  cassandraType?: string;
  /** `@Frozen` on the property */
  frozen?: true;
  /** class names in `text` the sources read declare: an enum, or a user-defined type (`@UserDefinedType`) by its CQL name */
  named?: Record<string, DeclaredName>;
}

/**
 * A class a declared type names: an enum, or a user-defined type with its fields (each field's
 * own `named` lists enums and user types by name only, so a type that holds itself ends).
 */
export type DeclaredName = { enum: true } | { userType: string; fields?: { name: string; declared: DeclaredType }[] };

export interface CodeExtraction {
  /** code files read, with their language */
  files: { path: string; language: CodeLanguage }[];
  statements: CodeStatement[];
  dynamic: DynamicStatement[];
  /** tables defined by entity classes */
  tables: CodeTable[];
  /** files that could not be read (parse budget, grammar failure), with why; `failed` when cql-review itself failed (a grammar did not load), not a limit */
  skipped: { file: string; reason: string; failed?: true }[];
  /** `cql-review-…` suppression comments of the code files (src/rule-engine/suppression.ts reads them) */
  directives?: CodeDirective[];
}

/** A comment `// cql-review-disable-next-line <rule> -- reason` (`#` in Python) in application code. */
export interface CodeDirective {
  file: string;
  /** the comment without its markers (line, `#` or block comment) */
  text: string;
  range: SourceRange;
  /** the lines a `disable-next-line` looks at: the next line, and the annotations and comments after it up to the next other line */
  nextLines: { from: number; to: number };
  /** the end of the file, for `disable` (the rest of the file) */
  endOffset: number;
}

export interface CodeFile {
  path: string;
  content: string;
}

const EXTENSIONS: [string, CodeLanguage][] = [
  [".java", "java"],
  [".kt", "kotlin"],
  [".kts", "kotlin"],
  [".go", "go"],
  [".py", "python"],
  [".js", "javascript"],
  [".mjs", "javascript"],
  [".cjs", "javascript"],
  [".jsx", "javascript"],
  [".ts", "typescript"],
  [".mts", "typescript"],
  [".cts", "typescript"],
  [".tsx", "tsx"],
];

/** The host language of a path, by its extension; undefined for anything else (and for `.d.ts`). */
export function languageOf(path: string): CodeLanguage | undefined {
  if (path.endsWith(".d.ts")) return undefined;
  for (const [extension, language] of EXTENSIONS) if (path.endsWith(extension)) return language;
  return undefined;
}
