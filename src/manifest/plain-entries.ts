// The writes and the tables of a manifest, checked without zod when they are written in the plain
// shapes, as plain-query.ts does for queries: with the queries, they were zod's whole work on a
// large manifest (a tenth of its loading time, and its largest allocator after the YAML reader).
// Each check accepts a strict subset of what its schema accepts and returns exactly what the
// schema would; anything else (an `ignore` list, a figure outside the common forms, any problem)
// is left to zod, which owns every message. test/manifest/plain-entries.test.ts compares the two.
import { IDENTIFIER_PATTERN, TABLE_NAME_PATTERN, type TableVolumeDocument, type WriteDocument } from "./schema.js";
import { allPlain, copyDescriptionAndRate, isPlainRecord, plainId } from "./plain-query.js";
import { DURATION_PATTERN, isRateText, NUMBER_PATTERN, parseNumberText, WHOLE_NUMBER_PATTERN } from "./units.js";

const WRITE_KEYS = new Set(["id", "description", "rate", "cql", "retried"]);
const TABLE_KEYS = new Set(["partitions", "rows_per_partition", "growth", "retention", "columns"]);
const NOT_BLANK = /\S/;

/** The document writeSchema would produce for `value`, when it is a plainly valid write; else undefined. */
export function plainWriteDocument(value: unknown): WriteDocument | undefined {
  if (!isPlainRecord(value)) return undefined;
  for (const key of Object.keys(value)) if (!WRITE_KEYS.has(key)) return undefined;
  const { id, description, rate, cql, retried } = value;
  const idText = plainId(id);
  if (idText === undefined) return undefined;
  let statements: WriteDocument["cql"];
  if (typeof cql === "string") {
    if (!NOT_BLANK.test(cql)) return undefined;
    statements = cql;
  } else if (Array.isArray(cql) && cql.length > 0) {
    for (const text of cql) if (typeof text !== "string" || !NOT_BLANK.test(text)) return undefined;
    statements = [...(cql as string[])];
  } else return undefined;
  const document: WriteDocument = { id: idText, cql: statements };
  if (!copyDescriptionAndRate(description, rate, document)) return undefined;
  if (retried !== undefined) {
    if (typeof retried !== "boolean") return undefined;
    document.retried = retried;
  }
  return document;
}

/** Every write's document, when all of them are plainly valid; else undefined (zod checks them all). */
export function plainWriteDocuments(values: readonly unknown[]): WriteDocument[] | undefined {
  return allPlain(values, plainWriteDocument);
}

/** A count: a safe whole number, or digits with `_` separators. NaN when it is neither. */
function wholeNumber(value: unknown): number {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? value : Number.NaN;
  return typeof value === "string" && WHOLE_NUMBER_PATTERN.test(value) ? parseNumberText(value) : Number.NaN;
}

/** An amount: a finite number at least 0, or digits with `_` separators and a fraction. NaN when it is neither. */
function amount(value: unknown): number {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : Number.NaN;
  return typeof value === "string" && NUMBER_PATTERN.test(value) ? parseNumberText(value) : Number.NaN;
}

/** Whether `value` has exactly the keys `keys` (a strict object with every key given). */
function hasExactly(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => own.includes(key));
}

type ColumnSizeDocument = NonNullable<TableVolumeDocument["columns"]>[string];

function columnSize(value: unknown): ColumnSizeDocument | undefined {
  if (!isPlainRecord(value)) {
    const bytes = wholeNumber(value);
    return Number.isNaN(bytes) ? undefined : bytes;
  }
  if (hasExactly(value, ["items", "bytes"])) {
    const items = amount(value.items);
    const bytes = wholeNumber(value.bytes);
    return Number.isNaN(items) || Number.isNaN(bytes) ? undefined : { items, bytes };
  }
  if (hasExactly(value, ["items", "key_bytes", "value_bytes"])) {
    const items = amount(value.items);
    const keyBytes = wholeNumber(value.key_bytes);
    const valueBytes = wholeNumber(value.value_bytes);
    if (Number.isNaN(items) || Number.isNaN(keyBytes) || Number.isNaN(valueBytes)) return undefined;
    return { items, key_bytes: keyBytes, value_bytes: valueBytes };
  }
  return undefined;
}

/** The document tableVolumeSchema would produce for `value`, when it is plainly valid; else undefined. */
export function plainTableDocument(value: unknown): TableVolumeDocument | undefined {
  if (!isPlainRecord(value)) return undefined;
  for (const key of Object.keys(value)) if (!TABLE_KEYS.has(key)) return undefined;
  const { partitions, rows_per_partition: rows, growth, retention, columns } = value;
  const document: TableVolumeDocument = {};
  if (partitions !== undefined) {
    const count = wholeNumber(partitions);
    if (Number.isNaN(count)) return undefined;
    document.partitions = count;
  }
  if (rows !== undefined) {
    if (isPlainRecord(rows)) {
      if (!hasExactly(rows, ["avg", "max"])) return undefined;
      const avg = amount(rows.avg);
      const max = amount(rows.max);
      if (Number.isNaN(avg) || Number.isNaN(max) || !(max >= avg)) return undefined;
      document.rows_per_partition = { avg, max };
    } else {
      const count = amount(rows);
      if (Number.isNaN(count)) return undefined;
      document.rows_per_partition = count;
    }
  }
  if (growth !== undefined) {
    if (typeof growth !== "string" || !isRateText(growth)) return undefined;
    document.growth = growth;
  }
  if (retention !== undefined) {
    if (typeof retention !== "string" || !DURATION_PATTERN.test(retention)) return undefined;
    document.retention = retention;
  }
  if (columns !== undefined) {
    if (!isPlainRecord(columns)) return undefined;
    const sizes: NonNullable<TableVolumeDocument["columns"]> = {};
    for (const column of Object.keys(columns)) {
      if (!IDENTIFIER_PATTERN.test(column)) return undefined;
      const size = columnSize(columns[column]);
      if (size === undefined) return undefined;
      sizes[column] = size;
    }
    document.columns = sizes;
  }
  return document;
}

/** Every table's document by name, when all of them are plainly valid; else undefined (zod checks them all). */
export function plainTableDocuments(value: unknown): Record<string, TableVolumeDocument> | undefined {
  if (!isPlainRecord(value)) return undefined;
  const documents: Record<string, TableVolumeDocument> = {};
  for (const name of Object.keys(value)) {
    if (!TABLE_NAME_PATTERN.test(name)) return undefined;
    const document = plainTableDocument(value[name]);
    if (!document) return undefined;
    documents[name] = document;
  }
  return documents;
}
