// Token definitions of CQL, after Cassandra's lexer (src/antlr/Lexer.g in apache/cassandra).
//
// Keywords are case-insensitive. Most of them are *unreserved*: Cassandra accepts them as column,
// table and type names (`key`, `type`, `status`-like words such as `date`, `time`, `user`, `ttl`,
// `values`, …). Every unreserved keyword carries the `UnreservedKeyword` category, and the grammar
// accepts `Name` (identifier, quoted identifier or unreserved keyword) wherever a name goes, as
// Parser.g's `cident` / `unreserved_keyword` rules do.
import { createToken, Lexer, type TokenType } from "chevrotain";

// ---------------------------------------------------------------------------------------------
// Categories

/** Anything that can be a name: identifier, quoted identifier, unreserved keyword. */
export const Name = createToken({ name: "Name", pattern: Lexer.NA });
/** Every keyword, reserved or not (used for messages). */
export const Keyword = createToken({ name: "Keyword", pattern: Lexer.NA });
export const UnreservedKeyword = createToken({ name: "UnreservedKeyword", pattern: Lexer.NA, categories: [Name] });
/** The native type names (`int`, `text`, …): unreserved keywords that start a type. */
export const NativeTypeKeyword = createToken({ name: "NativeTypeKeyword", pattern: Lexer.NA });
/** A literal constant (Parser.g `constant`). */
export const Constant = createToken({ name: "Constant", pattern: Lexer.NA });

// ---------------------------------------------------------------------------------------------
// Trivia

export const WhiteSpace = createToken({
  name: "WhiteSpace",
  // A UTF-8 byte order mark reads as U+FEFF; it is trivia like the rest.
  pattern: /[ \t\r\n\f\uFEFF]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});
export const LineComment = createToken({
  name: "LineComment",
  pattern: /(?:--|\/\/)[^\r\n]*/,
  group: "comments",
});
export const BlockComment = createToken({
  name: "BlockComment",
  pattern: /\/\*[\s\S]*?\*\//,
  group: "comments",
  line_breaks: true,
});
/** `/*` without its `*\/`: runs to the end of the file and becomes one error at its start. */
export const UnterminatedBlockComment = createToken({
  name: "UnterminatedBlockComment",
  pattern: /\/\*[\s\S]*/,
  group: "unterminated",
  line_breaks: true,
});

// ---------------------------------------------------------------------------------------------
// Literals

/**
 * `'…'` with `''` as an escaped quote. Like Cassandra's ANTLR lexer, a `''` is always read as an
 * escape, never given back to close the string (`'''` at the end of a file is unterminated, not an
 * empty string and a stray quote): the lookahead-and-backreference makes the repetition atomic.
 */
export const StringLiteral = createToken({
  name: "StringLiteral",
  pattern: /'(?=((?:[^']|'')*))\1'/,
  start_chars_hint: ["'"],
  categories: [Constant],
  line_breaks: true,
});
export const UnterminatedString = createToken({
  name: "UnterminatedString",
  pattern: /'[\s\S]*/,
  group: "unterminated",
  line_breaks: true,
});
/** `$$ … $$` (Parser.g: pg-style string), used for function bodies. */
export const DollarStringLiteral = createToken({
  name: "DollarStringLiteral",
  pattern: /\$\$[\s\S]*?\$\$/,
  categories: [Constant],
  line_breaks: true,
});
export const UnterminatedDollarString = createToken({
  name: "UnterminatedDollarString",
  pattern: /\$\$[\s\S]*/,
  group: "unterminated",
  line_breaks: true,
});
/** `"Name"` with `""` as an escaped quote, read like strings (see StringLiteral). */
export const QuotedIdentifier = createToken({
  name: "QuotedIdentifier",
  pattern: /"(?=((?:[^"]|"")*))\1"/,
  start_chars_hint: ['"'],
  categories: [Name],
  line_breaks: true,
});
export const UnterminatedQuotedIdentifier = createToken({
  name: "UnterminatedQuotedIdentifier",
  pattern: /"[\s\S]*/,
  group: "unterminated",
  line_breaks: true,
});

const NOT_NAME_CHAR = "(?![A-Za-z0-9_])";
export const UuidLiteral = createToken({
  name: "UuidLiteral",
  pattern: new RegExp(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}${NOT_NAME_CHAR}`),
  categories: [Constant],
});
export const BlobLiteral = createToken({
  name: "BlobLiteral",
  pattern: /0[xX][0-9a-fA-F]*/,
  categories: [Constant],
});
/**
 * ISO 8601 durations (`P1Y2M3D`, `PT2H30M`, `P2W`, `P0001-02-03T04:05:06`). Case-sensitive like
 * Cassandra's lexer, and never the prefix of a longer name, so a column called `p1` stays a name.
 */
export const IsoDurationLiteral = createToken({
  name: "IsoDurationLiteral",
  pattern: new RegExp(
    `P(?:\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}|\\d+W|(?=\\d|T\\d)(?:\\d+Y)?(?:\\d+M)?(?:\\d+D)?(?:T(?:\\d+H)?(?:\\d+M)?(?:\\d+S)?)?)${NOT_NAME_CHAR}`,
  ),
  categories: [Constant],
});
const DURATION_UNIT = "(?:y|mo|w|d|h|ms|us|\u00b5s|ns|m|s)";
/** `1h30m`, `12mo`, `500ms`: digits and units (Lexer.g `DURATION`). */
export const DurationLiteral = createToken({
  name: "DurationLiteral",
  pattern: new RegExp(`\\d+${DURATION_UNIT}(?:\\d+${DURATION_UNIT})*${NOT_NAME_CHAR}`, "i"),
  categories: [Constant],
});
/** `1.5`, `1.`, `2e10`, `1.5E-3`; never eats the `..` of a slice (`c[1..5]`). */
export const FloatLiteral = createToken({
  name: "FloatLiteral",
  pattern: /\d+(?:\.(?!\.)\d*(?:[eE][+-]?\d+)?|[eE][+-]?\d+)/,
  categories: [Constant],
});
export const IntegerLiteral = createToken({
  name: "IntegerLiteral",
  pattern: /\d+/,
  categories: [Constant],
});

export const Identifier = createToken({
  name: "Identifier",
  pattern: /[A-Za-z][A-Za-z0-9_]*/,
  categories: [Name],
});

// ---------------------------------------------------------------------------------------------
// Keywords

export const reservedKeywordNames = new Set<string>();
export const keywordTokens: TokenType[] = [];
const keywordByWord = new Map<string, TokenType>();

interface KeywordOptions {
  /** reserved keywords cannot be used as names without quotes */
  reserved?: boolean;
  /** extra categories, e.g. the keyword this one is an alias of */
  categories?: TokenType[];
  /** when the token name differs from the word (e.g. `K_SELECT_MASKED`) */
  word?: string;
}

/**
 * The keyword factory: a case-insensitive pattern that gives way to a longer identifier
 * (`keyspace_name` is a name, not KEYSPACE followed by `_name`).
 */
function keyword(name: string, options: KeywordOptions = {}): TokenType {
  const word = (options.word ?? name).toLowerCase();
  const categories = [Keyword, ...(options.reserved ? [] : [UnreservedKeyword]), ...(options.categories ?? [])];
  const token = createToken({ name, pattern: new RegExp(word, "i"), longer_alt: Identifier });
  // Categories given to createToken are linked one token at a time, each time walking every
  // member of the category so far: quadratic in the 170 keywords (30-50 ms of a new process's
  // CPU). Set here, they are linked once, when the parser (or chevrotain's lexer) is built over
  // the whole vocabulary: matching a token against a category needs the parser, which every
  // such match (the grammar, its error messages) runs inside.
  token.CATEGORIES = categories;
  keywordTokens.push(token);
  keywordByWord.set(word, token);
  if (options.reserved) reservedKeywordNames.add(word);
  return token;
}
const reserved = (name: string, options: KeywordOptions = {}) => keyword(name, { ...options, reserved: true });
const nativeType = (name: string) => keyword(name, { categories: [NativeTypeKeyword] });

// Reserved: Cassandra 5.0's reserved_keywords.txt (CONSTRAINT, LENGTH and CHECK are reserved only
// after 5.0 and stay names here).
export const Add = reserved("ADD");
export const Allow = reserved("ALLOW");
export const Alter = reserved("ALTER");
export const And = reserved("AND");
export const Apply = reserved("APPLY");
export const Asc = reserved("ASC");
export const Authorize = reserved("AUTHORIZE");
export const Batch = reserved("BATCH");
export const Begin = reserved("BEGIN");
export const By = reserved("BY");
export const Table = reserved("TABLE");
/** `COLUMNFAMILY` is the old spelling of TABLE. */
export const ColumnFamily = reserved("COLUMNFAMILY", { categories: [Table] });
export const Create = reserved("CREATE");
export const Delete = reserved("DELETE");
export const Desc = reserved("DESC");
export const Describe = reserved("DESCRIBE");
export const Drop = reserved("DROP");
export const Entries = reserved("ENTRIES");
export const Execute = reserved("EXECUTE");
export const From = reserved("FROM");
export const Full = reserved("FULL");
export const Grant = reserved("GRANT");
export const If = reserved("IF");
export const In = reserved("IN");
export const Index = reserved("INDEX");
export const InfinityKw = reserved("INFINITY");
export const Insert = reserved("INSERT");
export const Into = reserved("INTO");
export const Is = reserved("IS");
export const Keyspace = reserved("KEYSPACE");
/** `SCHEMA` is a synonym of KEYSPACE (and names the whole schema in DESCRIBE). */
export const Schema = reserved("SCHEMA", { categories: [Keyspace] });
export const Limit = reserved("LIMIT");
export const Materialized = reserved("MATERIALIZED");
export const Modify = reserved("MODIFY");
export const NanKw = reserved("NAN");
export const Norecursive = reserved("NORECURSIVE");
export const Not = reserved("NOT");
export const Null = reserved("NULL");
export const Of = reserved("OF");
export const On = reserved("ON");
export const Or = reserved("OR");
export const Order = reserved("ORDER");
export const Primary = reserved("PRIMARY");
export const Rename = reserved("RENAME");
export const Revoke = reserved("REVOKE");
export const Select = reserved("SELECT");
export const SetKw = reserved("SET");
export const To = reserved("TO");
export const Token = reserved("TOKEN");
export const Truncate = reserved("TRUNCATE");
export const Unlogged = reserved("UNLOGGED");
export const Update = reserved("UPDATE");
export const Use = reserved("USE");
export const Using = reserved("USING");
export const View = reserved("VIEW");
export const Where = reserved("WHERE");
export const With = reserved("WITH");
/** `true` / `false` lex before names in Cassandra, so they are reserved in effect. */
export const True = reserved("TRUE", { categories: [Constant] });
export const False = reserved("FALSE", { categories: [Constant] });

// Unreserved (Parser.g `basic_unreserved_keyword`, `unreserved_function_keyword`, `unreserved_keyword`).
export const Key = keyword("KEY");
export const Keys = keyword("KEYS");
export const As = keyword("AS");
export const Cluster = keyword("CLUSTER");
export const Clustering = keyword("CLUSTERING");
export const Compact = keyword("COMPACT");
export const Storage = keyword("STORAGE");
export const Tables = keyword("TABLES");
export const ColumnFamilies = keyword("COLUMNFAMILIES", { categories: [Tables] });
export const Type = keyword("TYPE");
export const Types = keyword("TYPES");
export const Values = keyword("VALUES");
export const MapKw = keyword("MAP");
export const ListKw = keyword("LIST");
export const Filtering = keyword("FILTERING");
export const Permission = keyword("PERMISSION");
export const Permissions = keyword("PERMISSIONS");
export const Keyspaces = keyword("KEYSPACES");
export const All = keyword("ALL");
export const User = keyword("USER");
export const Users = keyword("USERS");
export const Role = keyword("ROLE");
export const Roles = keyword("ROLES");
export const Identity = keyword("IDENTITY");
export const Superuser = keyword("SUPERUSER");
export const Superusers = keyword("SUPERUSERS");
export const Nosuperuser = keyword("NOSUPERUSER");
export const Login = keyword("LOGIN");
export const Nologin = keyword("NOLOGIN");
export const Options = keyword("OPTIONS");
export const Password = keyword("PASSWORD");
export const Generated = keyword("GENERATED");
export const Hashed = keyword("HASHED");
export const Exists = keyword("EXISTS");
export const Custom = keyword("CUSTOM");
export const Trigger = keyword("TRIGGER");
export const Contains = keyword("CONTAINS");
export const Internals = keyword("INTERNALS");
export const Only = keyword("ONLY");
export const Static = keyword("STATIC");
export const Frozen = keyword("FROZEN");
export const Tuple = keyword("TUPLE");
export const FunctionKw = keyword("FUNCTION");
export const Functions = keyword("FUNCTIONS");
export const Aggregate = keyword("AGGREGATE");
export const Aggregates = keyword("AGGREGATES");
export const Sfunc = keyword("SFUNC");
export const Stype = keyword("STYPE");
export const Finalfunc = keyword("FINALFUNC");
export const Initcond = keyword("INITCOND");
export const Returns = keyword("RETURNS");
export const Language = keyword("LANGUAGE");
export const Called = keyword("CALLED");
export const Input = keyword("INPUT");
export const Like = keyword("LIKE");
export const Per = keyword("PER");
export const Partition = keyword("PARTITION");
export const Group = keyword("GROUP");
export const Datacenters = keyword("DATACENTERS");
export const Cidrs = keyword("CIDRS");
export const Access = keyword("ACCESS");
export const Default = keyword("DEFAULT");
export const Mbean = keyword("MBEAN");
export const Mbeans = keyword("MBEANS");
export const Replace = keyword("REPLACE");
export const Unset = keyword("UNSET");
export const Masked = keyword("MASKED");
export const Unmask = keyword("UNMASK");
export const SelectMasked = keyword("SELECT_MASKED");
export const Vector = keyword("VECTOR");
export const Ann = keyword("ANN");
export const Between = keyword("BETWEEN");
export const Ttl = keyword("TTL");
export const Count = keyword("COUNT");
export const Writetime = keyword("WRITETIME");
export const Maxwritetime = keyword("MAXWRITETIME");
export const Cast = keyword("CAST");
export const Json = keyword("JSON");
export const Distinct = keyword("DISTINCT");

// Native types (unreserved function keywords in Parser.g).
export const Ascii = nativeType("ASCII");
export const Bigint = nativeType("BIGINT");
export const Blob = nativeType("BLOB");
export const BooleanKw = nativeType("BOOLEAN");
export const Counter = nativeType("COUNTER");
export const DateKw = nativeType("DATE");
export const Decimal = nativeType("DECIMAL");
export const Double = nativeType("DOUBLE");
export const Duration = nativeType("DURATION");
export const Float = nativeType("FLOAT");
export const Inet = nativeType("INET");
export const Int = nativeType("INT");
export const Smallint = nativeType("SMALLINT");
export const Text = nativeType("TEXT");
export const Time = nativeType("TIME");
export const Timestamp = nativeType("TIMESTAMP");
export const Timeuuid = nativeType("TIMEUUID");
export const Tinyint = nativeType("TINYINT");
export const Uuid = nativeType("UUID");
export const Varchar = nativeType("VARCHAR");
export const Varint = nativeType("VARINT");

// Words that only some statements give a meaning; names everywhere else. DSE function traits,
// statements of Cassandra's trunk (COMMENT ON, SECURITY LABEL) and ScyllaDB clauses that we
// recognise in order to report them.
export const Deterministic = keyword("DETERMINISTIC");
export const Monotonic = keyword("MONOTONIC");
export const Comment = keyword("COMMENT");
export const Security = keyword("SECURITY");
export const Label = keyword("LABEL");
export const For = keyword("FOR");
export const Column = keyword("COLUMN");
export const Field = keyword("FIELD");
export const Timeout = keyword("TIMEOUT");
export const Bypass = keyword("BYPASS");
export const Cache = keyword("CACHE");

// ---------------------------------------------------------------------------------------------
// Punctuation

export const Semicolon = createToken({ name: "Semicolon", pattern: ";" });
export const Comma = createToken({ name: "Comma", pattern: "," });
export const Range = createToken({ name: "Range", pattern: ".." });
export const Dot = createToken({ name: "Dot", pattern: "." });
export const LParen = createToken({ name: "LParen", pattern: "(" });
export const RParen = createToken({ name: "RParen", pattern: ")" });
export const LBracket = createToken({ name: "LBracket", pattern: "[" });
export const RBracket = createToken({ name: "RBracket", pattern: "]" });
export const LBrace = createToken({ name: "LBrace", pattern: "{" });
export const RBrace = createToken({ name: "RBrace", pattern: "}" });
export const LessEquals = createToken({ name: "LessEquals", pattern: "<=" });
export const GreaterEquals = createToken({ name: "GreaterEquals", pattern: ">=" });
export const NotEquals = createToken({ name: "NotEquals", pattern: "!=" });
export const PlusEquals = createToken({ name: "PlusEquals", pattern: "+=" });
export const MinusEquals = createToken({ name: "MinusEquals", pattern: "-=" });
export const Less = createToken({ name: "Less", pattern: "<" });
export const Greater = createToken({ name: "Greater", pattern: ">" });
export const Equals = createToken({ name: "Equals", pattern: "=" });
export const Plus = createToken({ name: "Plus", pattern: "+" });
export const Minus = createToken({ name: "Minus", pattern: "-" });
export const Star = createToken({ name: "Star", pattern: "*" });
export const Slash = createToken({ name: "Slash", pattern: "/" });
export const Percent = createToken({ name: "Percent", pattern: "%" });
export const QuestionMark = createToken({ name: "QuestionMark", pattern: "?" });
export const Colon = createToken({ name: "Colon", pattern: ":" });

/**
 * Not a pattern: characters no CQL token starts with (`#`, `$`, `` ` ``, `@`, …) become one token
 * each run, inserted after lexing, so the parser reports them where they stand.
 */
export const UnknownCharacters = createToken({ name: "UnknownCharacters", pattern: Lexer.NA });

// Longer keywords first, so a keyword that is the prefix of another (`KEY`/`KEYSPACE`) does not win.
const keywordsByLength = [...keywordTokens].sort(
  (a, b) => String((b.PATTERN as RegExp).source).length - String((a.PATTERN as RegExp).source).length,
);

/** The lexer's token list, in matching order. */
export const allTokens: TokenType[] = [
  WhiteSpace,
  LineComment,
  BlockComment,
  UnterminatedBlockComment,
  StringLiteral,
  UnterminatedString,
  DollarStringLiteral,
  UnterminatedDollarString,
  QuotedIdentifier,
  UnterminatedQuotedIdentifier,
  UuidLiteral,
  BlobLiteral,
  IsoDurationLiteral,
  DurationLiteral,
  FloatLiteral,
  IntegerLiteral,
  ...keywordsByLength,
  Identifier,
  Semicolon,
  Comma,
  Range,
  Dot,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  LessEquals,
  GreaterEquals,
  NotEquals,
  PlusEquals,
  MinusEquals,
  Less,
  Greater,
  Equals,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  QuestionMark,
  Colon,
];

/** Every token type the parser may see (the lexer's, categories, and the inserted unknown-characters token). */
export const parserVocabulary: TokenType[] = [
  ...allTokens,
  Name,
  Keyword,
  UnreservedKeyword,
  NativeTypeKeyword,
  Constant,
  UnknownCharacters,
];

/** Keywords by their lower-case and upper-case spellings, the two that real files use. */
const keywordBySpelling = new Map<string, TokenType>();
for (const [word, token] of keywordByWord) {
  keywordBySpelling.set(word, token);
  keywordBySpelling.set(word.toUpperCase(), token);
}
const LONGEST_KEYWORD = Math.max(...[...keywordByWord.keys()].map((word) => word.length));

/** The keyword token for a word, if the word is a keyword (any case). */
export function keywordFor(word: string): TokenType | undefined {
  if (word.length > LONGEST_KEYWORD) return undefined;
  return keywordBySpelling.get(word) ?? keywordByWord.get(word.toLowerCase());
}

/** The hash the lexer computes while it scans a word: over the word's characters in lower case. */
export function wordHash(hash: number, char: number): number {
  return (Math.imul(hash, 31) + (char | 0x20)) | 0;
}

interface KeywordEntry {
  lower: string;
  upper: string;
  type: TokenType;
}

/** Open addressing by wordHash: the lexer finds a keyword in the text without copying the word. */
const KEYWORD_TABLE_SIZE = 2048;
const keywordTable: (KeywordEntry | undefined)[] = new Array<KeywordEntry | undefined>(KEYWORD_TABLE_SIZE).fill(undefined);
for (const [word, type] of keywordByWord) {
  let hash = 0;
  for (let i = 0; i < word.length; i++) hash = wordHash(hash, word.charCodeAt(i));
  let slot = hash & (KEYWORD_TABLE_SIZE - 1);
  while (keywordTable[slot] !== undefined) slot = (slot + 1) & (KEYWORD_TABLE_SIZE - 1);
  keywordTable[slot] = { lower: word, upper: word.toUpperCase(), type };
}

/** Set by keywordInText: the keyword's spelling as written, a shared string. */
export let keywordSpelling = "";

/**
 * The keyword written in `text` from `start` to `end` in all lower or all upper case (`upper`),
 * given the word's hash; its spelling is left in keywordSpelling. Undefined for other words.
 */
export function keywordInText(text: string, start: number, end: number, hash: number, upper: boolean): TokenType | undefined {
  const length = end - start;
  if (length > LONGEST_KEYWORD) return undefined;
  for (let slot = hash & (KEYWORD_TABLE_SIZE - 1); ; slot = (slot + 1) & (KEYWORD_TABLE_SIZE - 1)) {
    const entry = keywordTable[slot];
    if (entry === undefined) return undefined;
    const spelling = upper ? entry.upper : entry.lower;
    if (spelling.length === length && text.startsWith(spelling, start)) {
      keywordSpelling = spelling;
      return entry.type;
    }
  }
}

/**
 * keywordFor for the lexer, which already knows what the word is made of: a word with a digit is
 * never a keyword, and a word in one case needs no lower-casing.
 */
export function keywordForScannedWord(word: string, hasDigit: boolean, hasUpperCase: boolean, hasLowerCase: boolean): TokenType | undefined {
  if (hasDigit || word.length > LONGEST_KEYWORD) return undefined;
  if (hasUpperCase && hasLowerCase) return keywordByWord.get(word.toLowerCase());
  return keywordBySpelling.get(word);
}
