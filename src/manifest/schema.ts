// The access-patterns manifest as written in YAML (docs/manifest.md), in zod. Every field says what it
// means (`.describe()`): the text feeds the JSON Schema that editors show on hover. Objects are
// strict, so a misspelt key is an error instead of a silently ignored setting.
// src/manifest/load.ts turns a parsed document into the normalised Manifest (types.ts).
import * as z from "zod";
import type { CassandraVersion } from "../schema/model.js";
import type { WhereOperator } from "./types.js";
import { DURATION_PATTERN, NUMBER_PATTERN, parseNumberText, RATE_PATTERN, WHOLE_NUMBER_PATTERN } from "./units.js";

/** Every issue of a field gets the same plain message, whichever check fails. */
const says = (message: string) => ({ error: message });

// ---------------------------------------------------------------------------------------------
// Names, as CQL writes them: unquoted identifiers, or double-quoted ones keeping their case.

const IDENTIFIER = `(?:[A-Za-z][A-Za-z0-9_]*|"(?:[^"]|"")+")`;
export const IDENTIFIER_PATTERN = new RegExp(`^${IDENTIFIER}$`);
export const TABLE_NAME_PATTERN = new RegExp(`^${IDENTIFIER}(?:\\.${IDENTIFIER})?$`);

const columnName = z
  .string(says("expected a column name"))
  .regex(IDENTIFIER_PATTERN, says('expected a column name: letters, digits and _, or a "Quoted" name'))
  .describe('A column name as CQL writes it: unquoted names are case-insensitive, "Quoted" names keep their case.');

const tableName = z
  .string(says("expected a table name"))
  .regex(TABLE_NAME_PATTERN, says("expected a table name such as videos_by_user or killrvideo.videos_by_user"))
  .describe("A table name, `table` (in the manifest's keyspace) or `keyspace.table`.");

// ---------------------------------------------------------------------------------------------
// Figures. YAML 1.2 reads `2_000_000` as text, so counts also accept digits with `_` separators.

function wholeNumber(message: string) {
  return z
    .union(
      [z.number(says(message)).int(says(message)).nonnegative(says(message)), z.string(says(message)).regex(WHOLE_NUMBER_PATTERN, says(message))],
      says(message),
    )
    .transform((value) => parseNumberText(value));
}

function amount(message: string) {
  return z
    .union(
      [z.number(says(message)).nonnegative(says(message)), z.string(says(message)).regex(NUMBER_PATTERN, says(message))],
      says(message),
    )
    .transform((value) => parseNumberText(value));
}

const RATE_MESSAGE = "expected a rate such as 300/s, 10/min, 2/hour, 5/day, 1000/week, 3/month or 1/year";
const rate = z
  .string(says(RATE_MESSAGE))
  .regex(RATE_PATTERN, says(RATE_MESSAGE))
  .describe("Events per period: `300/s`, `10/min`, `2/hour`, `5/day`, `1000/week`, `3/month` (30 days), `1/year` (365 days).");

const RETENTION_MESSAGE = 'expected a duration such as 90s, 30m, 12h, 365d, 2w, 6mo, 1y, or "forever"';
const retention = z
  .string(says(RETENTION_MESSAGE))
  .regex(DURATION_PATTERN, says(RETENTION_MESSAGE))
  .describe(
    "How long rows live (TTL or deletes): `90s`, `30m` (minutes), `12h`, `365d`, `2w`, `6mo` (30-day months), `1y` (365 days), or `forever` when nothing removes them.",
  );

// ---------------------------------------------------------------------------------------------
// Versions. YAML reads an unquoted `5.0` as the number 5, so numbers are accepted and mapped.

export const CASSANDRA_VERSION_TEXT = ["3.11", "4.0", "4.1", "5.0"] as const satisfies readonly CassandraVersion[];
const VERSION_BY_NUMBER: ReadonlyMap<number, CassandraVersion> = new Map([
  [3.11, "3.11"],
  [4, "4.0"],
  [4.1, "4.1"],
  [5, "5.0"],
]);
const VERSION_MESSAGE = 'expected one of "3.11", "4.0", "4.1", "5.0"';
export const cassandraVersionSchema = z
  .union([z.enum(CASSANDRA_VERSION_TEXT, says(VERSION_MESSAGE)), z.literal([3.11, 4, 4.1, 5], says(VERSION_MESSAGE))], says(VERSION_MESSAGE))
  .transform((value): CassandraVersion => (typeof value === "number" ? VERSION_BY_NUMBER.get(value)! : value))
  .describe('The Cassandra version whose rules apply: "3.11", "4.0", "4.1" or "5.0" (unquoted 4.0 and 5.0 are read as the same).');

// ---------------------------------------------------------------------------------------------
// Operators and directions: any letter case is accepted and normalised (`in` → `IN`).

export const WHERE_OPERATORS = ["=", "IN", "<", "<=", ">", ">=", "CONTAINS", "CONTAINS KEY"] as const satisfies readonly WhereOperator[];

/** A JSON-Schema-safe pattern matching `words` in any letter case, words separated by spaces. */
function anyCase(words: readonly string[]): RegExp {
  const alternatives = words.map((word) =>
    word
      .split(/\s+/)
      .map((part) =>
        [...part].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join(""),
      )
      .join(" +"),
  );
  return new RegExp(`^ *(?:${alternatives.join("|")}) *$`);
}

const OPERATOR_MESSAGE = `expected one of ${WHERE_OPERATORS.join(", ")}`;
const operator = z
  .union([z.enum(WHERE_OPERATORS, says(OPERATOR_MESSAGE)), z.string(says(OPERATOR_MESSAGE)).regex(anyCase(WHERE_OPERATORS), says(OPERATOR_MESSAGE))], says(OPERATOR_MESSAGE))
  .transform((value) => value.trim().toUpperCase().replace(/\s+/g, " ") as WhereOperator)
  .describe("How the query restricts this column: = | IN | < | <= | > | >= | CONTAINS | CONTAINS KEY (quote `=` and the comparisons in YAML flow mappings).");

const DIRECTION_MESSAGE = "expected asc or desc";
const direction = z
  .union([z.enum(["asc", "desc"], says(DIRECTION_MESSAGE)), z.string(says(DIRECTION_MESSAGE)).regex(anyCase(["asc", "desc"]), says(DIRECTION_MESSAGE))], says(DIRECTION_MESSAGE))
  .transform((value) => value.trim().toLowerCase() as "asc" | "desc")
  .describe("asc (oldest or smallest first) or desc.");

// ---------------------------------------------------------------------------------------------
// Tables: volume figures for partition-size estimates.

const BYTES_MESSAGE = "expected an average size in bytes, a number such as 60 or 1201.8";
const VALUE_BYTES_MESSAGE = "expected an average size in bytes, a number such as 60 or 1201.8, or { avg: 60, max: 4_000 }";
const ITEMS_MESSAGE = "expected an average item count, a number such as 5, or { avg: 5, max: 200 }";
const COLUMN_SIZE_MESSAGE =
  "expected a size in bytes (title: 60, or { avg: 60, max: 4_000 }), { items, bytes } for a list or set, or { items, key_bytes, value_bytes } (or { items, bytes }) for a map";

/**
 * A figure of a column: its average, or { avg, max } for the average and the largest value one row
 * holds (the largest is the cell a write must carry whole; the average sizes the partitions).
 */
function averageOrLargest(message: string, what: string) {
  return z.union(
    [
      amount(message).describe(`Average ${what}.`),
      z
        .strictObject({
          avg: amount(message).describe(`Average ${what}.`),
          max: amount(message).describe(`Largest ${what} one row holds.`),
        })
        .refine((figure) => figure.max >= figure.avg, { error: "max must be at least avg", path: ["max"] }),
    ],
    says(message),
  ).describe(`Average ${what}, or { avg, max } for the average and the largest one row holds.`);
}

export const columnSizeSchema = z
  .union(
    [
      averageOrLargest(VALUE_BYTES_MESSAGE, "size of the value in bytes"),
      z
        .strictObject({
          items: averageOrLargest(ITEMS_MESSAGE, "number of elements (entries of a map)"),
          bytes: amount(BYTES_MESSAGE).describe("Average size of one element in bytes; for a map, of one value (the key size then comes from its type)."),
        })
        .describe("A list, set or map: element count and element size."),
      z
        .strictObject({
          items: averageOrLargest(ITEMS_MESSAGE, "number of entries"),
          key_bytes: amount(BYTES_MESSAGE).describe("Average size of one key in bytes."),
          value_bytes: amount(BYTES_MESSAGE).describe("Average size of one value in bytes."),
        })
        .describe("A map: entry count, key size and value size."),
    ],
    says(COLUMN_SIZE_MESSAGE),
  )
  .describe("Size of a variable-length column: bytes, or a collection's item count and item size; { avg, max } adds the largest value one row holds.");

const ROWS_MESSAGE = "expected a row count such as 300, or { avg: 300, max: 50_000 }";
export const rowsPerPartitionSchema = z
  .union(
    [
      amount(ROWS_MESSAGE).describe("Rows in a typical partition (also used as the worst case)."),
      z
        .strictObject({
          avg: amount(ROWS_MESSAGE).describe("Rows in a typical partition."),
          max: amount(ROWS_MESSAGE).describe("Rows in the largest partition (the worst case the estimate checks against the limits)."),
        })
        .refine((rows) => rows.max >= rows.avg, { error: "max must be at least avg", path: ["max"] }),
    ],
    says(ROWS_MESSAGE),
  )
  .describe("Rows per partition: a number, or { avg, max } for the typical and the largest partition.");

export const tableVolumeSchema = z
  .strictObject({
    partitions: wholeNumber("expected a partition count, a whole number such as 2000000 or 2_000_000")
      .describe("Distinct partition keys of the table, e.g. 2_000_000.")
      .optional(),
    rows_per_partition: rowsPerPartitionSchema.optional(),
    growth: rate.describe("Rows added to each partition per period (time series), e.g. `5/day`; with `retention` it bounds the partition.").optional(),
    retention: retention.optional(),
    columns: z
      .record(columnName, columnSizeSchema, says("expected a mapping of column names to sizes, e.g. { title: 60 }"))
      .describe("Average sizes of variable-length columns (text, blob, collections), by column name.")
      .optional(),
    write_timestamps: z
      .enum(["milliseconds", "microseconds"], says('expected "milliseconds" or "microseconds"'))
      .describe(
        "The unit of the write timestamps the application sets itself (USING TIMESTAMP, or a driver's timestamp generator): `milliseconds` or `microseconds` (Cassandra's own). Time-window compaction must be told when it is milliseconds.",
      )
      .optional(),
    time_bucket: z
      .strictObject({
        column: columnName.describe("The partition-key column whose value the writes derive from time, whatever its name."),
        width: retention.describe("How much time one value of it spans, e.g. `7d`; read from rows_per_partition over growth when left out.").optional(),
      })
      .describe("The partition key's time bucket: the column the writes fill with the time floored to a width (a day, a week, a shard of time), e.g. { column: partition, width: 7d }.")
      .optional(),
    distinct_values: z
      .record(
        columnName,
        z.union(
          [
            wholeNumber("expected a count of distinct values such as 5, or { count: 5, max_rows: 1_800_000 }").describe("Distinct values the column takes across the table."),
            z.strictObject({
              count: wholeNumber("expected a count of distinct values such as 5").describe("Distinct values the column takes across the table."),
              max_rows: wholeNumber("expected a row count such as 1_800_000").describe("Rows of the table holding the most common value (the skew an index read meets at worst)."),
            }),
          ],
          says("expected a count of distinct values such as 5, or { count: 5, max_rows: 1_800_000 }"),
        ),
        says("expected a mapping of column names to distinct-value counts, e.g. { status: 5 }"),
      )
      .describe(
        "Distinct values of indexed columns, e.g. { status: 5 } or { country: { count: 200, max_rows: 3_000_000 } }: an index read for one value scans the table's rows over this count (max_rows at worst).",
      )
      .optional(),
    copies: z
      .record(
        tableName,
        z
          .array(columnName, says("expected a list of column names, e.g. [name, preview_image]"))
          .min(1, says("list at least one column this table copies")),
        says("expected a mapping of table names to the columns this table copies from them, e.g. { videos: [name, preview_image] }"),
      )
      .describe(
        "Columns this table holds copies of, by the table they are copied from (same column names in both), e.g. { videos: [name, preview_image] }. write-denormalisation-drift checks that every write path changing them changes every copy.",
      )
      .optional(),
  })
  .describe("Volume figures of one table (for partition-size estimates), and the columns it copies from other tables.");

// ---------------------------------------------------------------------------------------------
// Queries and writes.

export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;
const ID_MESSAGE = "expected a short id such as Q1 (letters, digits, _ - . :)";
const id = z
  .union([z.string(says(ID_MESSAGE)).max(64, says("an id must be at most 64 characters")).regex(ID_PATTERN, says(ID_MESSAGE)), z.number(says(ID_MESSAGE)).int(says(ID_MESSAGE)).nonnegative(says(ID_MESSAGE))], says(ID_MESSAGE))
  .transform((value) => String(value));

const RULE_ID_MESSAGE = "expected a rule id such as query-needs-allow-filtering";
export const ignoreEntrySchema = z
  .strictObject({
    rule: z
      .string(says(RULE_ID_MESSAGE))
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, says(RULE_ID_MESSAGE))
      .describe("The id of the rule to silence for this entry."),
    reason: z.string(says("expected the reason as text")).describe("Why the finding does not apply here; a suppression without a reason is reported.").optional(),
  })
  .describe("Silences one rule for this query or write.");

const ignoreList = z
  .array(ignoreEntrySchema, says("expected a list of { rule, reason } entries"))
  .describe("Rules to silence for this entry, each with the reason: [{ rule: query-full-scan, reason: nightly export }].");

const CQL_MESSAGE = "expected CQL text";
const cqlText = z.string(says(CQL_MESSAGE)).regex(/\S/, says("the CQL is empty"));

// A statement of the application's code, `path/to/File.java#Class.method` (src/code): the entry
// attaches its rate and ignores to that statement, whose CQL then comes from the code.
const CODE_REFERENCE_MESSAGE = "expected a code statement such as src/main/java/com/example/VideoDao.java#VideoDao.findByUser";
export const codeReference = z
  .string(says(CODE_REFERENCE_MESSAGE))
  .regex(/^[^#\s]+#\S/, says(CODE_REFERENCE_MESSAGE))
  .describe("The statement in the application's code this entry describes: its file and function, `path#Class.method` (as the code-statement-not-in-manifest finding shows it).");

export const querySchema = z
  .strictObject({
    id: id.describe("A unique, short id used in comments and `/cql explain <id>`, e.g. Q1."),
    description: z.string(says("expected text")).describe("What the query is for, in the application's words.").optional(),
    rate: rate.describe("How often the query runs, e.g. `300/s`.").optional(),
    ignore: ignoreList.optional(),
    cql: cqlText.describe("The query as one CQL SELECT statement (it names its table). Use a block scalar (`cql: |`) for long queries.").optional(),
    code: codeReference.optional(),
    select: z
      .array(columnName, says("expected a list of column names, e.g. [userid, name]"))
      .min(1, says("list at least one column"))
      .describe("Abstract form: the columns the query returns; cql-review finds the table that serves it.")
      .optional(),
    where: z
      .record(columnName, operator, says('expected a mapping of columns to operators, e.g. { userid: "=" }'))
      .refine((where) => Object.keys(where).length > 0, says('list at least one column, e.g. { userid: "=" }; to read a whole table, write the query with cql'))
      .describe('Abstract form: the restricted columns and their operators, e.g. { userid: "=", added_date: "<" }.')
      .optional(),
    order_by: z
      .record(columnName, direction, says("expected a mapping of columns to asc or desc, e.g. { added_date: desc }"))
      .describe("Abstract form: the order of the results, e.g. { added_date: desc }.")
      .optional(),
    limit: z
      .number(says("expected a whole number of rows, at least 1"))
      .int(says("expected a whole number of rows, at least 1"))
      .positive(says("expected a whole number of rows, at least 1"))
      .describe("Abstract form: at most this many rows.")
      .optional(),
  })
  .superRefine((query, context) => {
    const abstractKeys = (["select", "where", "order_by", "limit"] as const).filter((key) => query[key] !== undefined);
    if (query.cql !== undefined && abstractKeys.length > 0) {
      context.addIssue({
        code: "custom",
        path: ["cql"],
        message: `use either cql or the abstract form (${abstractKeys.join(", ")}), not both; with cql, write ORDER BY and LIMIT in the statement`,
      });
    } else if (query.cql === undefined && abstractKeys.length === 0) {
      if (query.code === undefined) context.addIssue({ code: "custom", path: [], message: "needs either cql (a SELECT statement) or select and where (the abstract form)" });
    } else if (query.cql === undefined) {
      for (const key of ["select", "where"] as const) {
        if (query[key] === undefined) context.addIssue({ code: "custom", path: [], message: `the abstract form needs ${key} as well` });
      }
    }
  })
  .describe("A read of the application: either `cql` (a SELECT) or the abstract form `select` + `where` (+ `order_by`, `limit`).");

export const writeSchema = z
  .strictObject({
    id: id.describe("A unique, short id, e.g. W1."),
    description: z.string(says("expected text")).describe("What the write path does, in the application's words.").optional(),
    rate: rate.describe("How often the write path runs, e.g. `700000/s`.").optional(),
    cql: z
      .union([cqlText, z.array(cqlText, says("expected CQL statements")).min(1, says("list at least one statement"))], says("expected a CQL statement or a list of them"))
      .describe("The statements the application runs together: INSERT, UPDATE, DELETE or BATCH, one per list item.")
      .optional(),
    code: codeReference.optional(),
    retried: z
      .boolean(says("expected true or false"))
      .describe("Whether the client retries these statements on timeout (default false, as the DataStax drivers do not retry non-idempotent statements); matters for non-idempotent writes such as counters.")
      .optional(),
    ignore: ignoreList.optional(),
  })
  .superRefine((write, context) => {
    if (write.cql === undefined && write.code === undefined) context.addIssue({ code: "custom", path: [], message: "needs cql (the statements written together) or code (a statement of the application's code)" });
  })
  .describe("A write path: the statements written together, for denormalisation checks.");

// ---------------------------------------------------------------------------------------------
// The document.

export const manifestSchema = z
  .strictObject({
    version: z.literal(1, says("must be 1 (the only manifest format so far)")).describe("The manifest format; always 1."),
    keyspace: z
      .string(says("expected a keyspace name"))
      .regex(IDENTIFIER_PATTERN, says("expected a keyspace name: letters, digits and _"))
      .describe("The keyspace of unqualified table names in this manifest.")
      .optional(),
    cassandra: cassandraVersionSchema.optional(),
    schema: z
      .array(z.string(says("expected a path or glob such as cql/changelog/*.cql")).regex(/\S/, says("a path must not be empty")), says("expected a list of paths or globs"))
      .min(1, says("list at least one schema file"))
      .describe(
        "The schema files of this model, in the order they are applied: paths or globs relative to this manifest, files of one glob in name order (numbers as numbers). Unset: every schema file, in the order detected.",
      )
      .optional(),
    tables: z
      .record(tableName, tableVolumeSchema, says("expected a mapping of table names to their volume figures"))
      .describe("Volume figures by table name (`table` or `keyspace.table`), for partition-size estimates.")
      .optional(),
    queries: z.array(querySchema, says("expected a list of queries (each item starts with `- id:`)")).describe("The application's reads.").optional(),
    writes: z.array(writeSchema, says("expected a list of write paths (each item starts with `- id:`)")).describe("The application's write paths (optional).").optional(),
  })
  .describe("cql-review access-patterns manifest: the application's queries and writes, and the volume figures of its tables.");

/** The manifest as written (input) and as validated (output, before normalisation). */
export type ManifestDocumentInput = z.input<typeof manifestSchema>;
export type ManifestDocument = z.output<typeof manifestSchema>;
export type QueryDocument = z.output<typeof querySchema>;
export type WriteDocument = z.output<typeof writeSchema>;
export type TableVolumeDocument = z.output<typeof tableVolumeSchema>;
export type ColumnSizeDocument = z.output<typeof columnSizeSchema>;
