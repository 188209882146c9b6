// The queries of a manifest, checked without zod when they are written in the plain shapes nearly
// every manifest uses. zod validation of thousands of queries was a tenth of a large review's
// manifest loading (and its largest allocator); these checks accept a strict subset of what
// querySchema accepts and return exactly what it would. Anything else (an `ignore` list, an
// operator in lower case, a number where a string goes, any problem) is left to zod, which owns
// every message. test/manifest/plain-query.test.ts compares the two on generated queries.
import { ID_PATTERN, IDENTIFIER_PATTERN, WHERE_OPERATORS, type QueryDocument } from "./schema.js";
import { isRateText } from "./units.js";

const KEYS = new Set(["id", "description", "rate", "cql", "select", "where", "order_by", "limit"]);
const OPERATORS = new Set<string>(WHERE_OPERATORS);
const DIRECTIONS = new Set(["asc", "desc"]);
const NOT_BLANK = /\S/;

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** A copy of a mapping of column names to one of `allowed`, or undefined. */
function columnRecord(value: unknown, allowed: ReadonlySet<string>): Record<string, string> | undefined {
  if (!isPlainRecord(value)) return undefined;
  const copy: Record<string, string> = {};
  for (const key of Object.keys(value)) {
    const entry = value[key];
    if (!IDENTIFIER_PATTERN.test(key) || typeof entry !== "string" || !allowed.has(entry)) return undefined;
    copy[key] = entry;
  }
  return copy;
}

/** An entry's id as the schema's `id` reads it (numbers become text), when plainly valid. */
export function plainId(id: unknown): string | undefined {
  if (typeof id === "string" && id.length <= 64 && ID_PATTERN.test(id)) return id;
  if (typeof id === "number" && Number.isSafeInteger(id) && id >= 0) return String(id);
  return undefined;
}

/** The document querySchema would produce for `value`, when it is a plainly valid query; else undefined. */
export function plainQueryDocument(value: unknown): QueryDocument | undefined {
  if (!isPlainRecord(value)) return undefined;
  for (const key of Object.keys(value)) if (!KEYS.has(key)) return undefined;
  const { id, description, rate, cql, select, where, order_by: orderBy, limit } = value;

  const idText = plainId(id);
  if (idText === undefined) return undefined;
  const document: QueryDocument = { id: idText };
  if (!copyDescriptionAndRate(description, rate, document)) return undefined;

  if (cql !== undefined) {
    // One form only: `cql` with none of the abstract keys.
    if (typeof cql !== "string" || !NOT_BLANK.test(cql)) return undefined;
    if (select !== undefined || where !== undefined || orderBy !== undefined || limit !== undefined) return undefined;
    document.cql = cql;
    return document;
  }

  // The abstract form: select and where, then order_by and limit when given.
  if (!Array.isArray(select) || select.length === 0) return undefined;
  for (const column of select) if (typeof column !== "string" || !IDENTIFIER_PATTERN.test(column)) return undefined;
  const whereCopy = columnRecord(where, OPERATORS);
  if (!whereCopy || Object.keys(whereCopy).length === 0) return undefined;
  document.select = [...(select as string[])];
  document.where = whereCopy as QueryDocument["where"];
  if (orderBy !== undefined) {
    const orderCopy = columnRecord(orderBy, DIRECTIONS);
    if (!orderCopy) return undefined;
    document.order_by = orderCopy as QueryDocument["order_by"];
  }
  if (limit !== undefined) {
    if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit <= 0) return undefined;
    document.limit = limit;
  }
  return document;
}

/** `description` and `rate`, when present and plain, copied onto the document; false when either is not. */
export function copyDescriptionAndRate(description: unknown, rate: unknown, document: { description?: string; rate?: string }): boolean {
  if (description !== undefined) {
    if (typeof description !== "string") return false;
    document.description = description;
  }
  if (rate !== undefined) {
    if (typeof rate !== "string" || !isRateText(rate)) return false;
    document.rate = rate;
  }
  return true;
}

/** Every value's document, when all of them are plainly valid; else undefined (zod checks them all). */
export function allPlain<T>(values: readonly unknown[], plainDocument: (value: unknown) => T | undefined): T[] | undefined {
  const documents: T[] = [];
  for (const value of values) {
    const document = plainDocument(value);
    if (!document) return undefined;
    documents.push(document);
  }
  return documents;
}

/** Every query's document, when all of them are plainly valid; else undefined. */
export function plainQueryDocuments(values: readonly unknown[]): QueryDocument[] | undefined {
  return allPlain(values, plainQueryDocument);
}
