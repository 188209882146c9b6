// A CREATE TABLE that serves an abstract access pattern no table serves:
// equality attributes → partition key; range and ORDER BY attributes → clustering columns in
// order, with a matching CLUSTERING ORDER BY; then the key columns that make a row unique (the
// primary key of the table the selected attributes come from). Column types are taken from the
// tables that already hold those columns.
import { quoteName } from "../cql/print.js";
import type { AbstractQuery, TableVolume } from "../manifest/types.js";
import type { CassandraVersion, ColumnModel, ColumnType, SchemaModel, TableModel } from "../schema/model.js";
import { formatColumnType } from "../schema/resolve.js";
import { bucketColumnFor, HARD_CELL_LIMIT, newColumnName } from "./buckets.js";
import { estimatePartition } from "./estimator.js";
import { formatBytes, formatCount } from "./estimator-text.js";
import type { PartitionLimits } from "./limits.js";
import type { PartitionEstimate, QueryAnalysis } from "./types.js";
import { compareCodeUnits } from "../arrays.js";

/** What sizes a suggestion: the manifest's figures for the table it copies, and the limits. */
export interface SuggestionSizing {
  volumeOf: (table: TableModel) => TableVolume | undefined;
  limits: PartitionLimits;
  version: CassandraVersion;
  /** the reads the table is for: their LIMIT bounds the bucket's width from below */
  queries?: QueryAnalysis[];
}

export interface SuggestOptions {
  keyspace?: string;
  sizing?: SuggestionSizing;
}

const RANGE_OPERATORS = new Set(["<", "<=", ">", ">="]);

interface KeyColumn {
  name: string;
  order: "asc" | "desc";
}

/** Key columns may not be non-frozen collections or user types: freeze them. */
function keyType(type: ColumnType): ColumnType {
  if (type.kind === "list" || type.kind === "set" || type.kind === "map" || type.kind === "udt") return { ...type, frozen: true };
  return type;
}

/** The table the selected attributes come from: the one holding most of them, keyed most simply. */
function entityTable(query: AbstractQuery, order: TableOrder): TableModel | undefined {
  const wanted = new Set([...query.select.filter((s) => s !== "*"), ...query.where.map((w) => w.column)]);
  // Counted through the column index, in a reused array: the cost is the number of tables holding
  // a wanted column, with no map per query.
  const { overlap, touched } = order;
  let touchedCount = 0;
  for (const name of wanted) {
    const holders = order.withColumn.get(name);
    if (holders) touchedCount = countHolders(holders, overlap, touched, touchedCount);
  }
  let best: TableModel | undefined;
  let bestOverlap = 0;
  let bestKeyLength = 0;
  for (let i = 0; i < touchedCount; i++) {
    const number = touched[i]!;
    const tableOverlap = overlap[number]!;
    overlap[number] = 0;
    const keyLength = order.keyLength[number]!;
    // A total order (names are unique), so the order tables are met in does not matter. The
    // table itself is read only on a tie: hundreds of tables may hold a common column.
    if (
      !best ||
      tableOverlap > bestOverlap ||
      (tableOverlap === bestOverlap && (keyLength < bestKeyLength || (keyLength === bestKeyLength && order.tables[number]!.qualifiedName < best.qualifiedName)))
    ) {
      best = order.tables[number]!;
      bestOverlap = tableOverlap;
      bestKeyLength = keyLength;
    }
  }
  return best;
}

/**
 * Counts one wanted column into the overlap of the tables holding it; returns the new number of
 * touched tables. Its own function over typed arrays: a column most tables hold (`name`, `status`)
 * makes this the hot loop, and it stays optimised whatever happens around it.
 */
function countHolders(holders: Int32Array, overlap: Int32Array, touched: Int32Array, touchedCount: number): number {
  for (let i = 0; i < holders.length; i++) {
    const table = holders[i]!;
    if (overlap[table]++ === 0) touched[touchedCount++] = table;
  }
  return touchedCount;
}

/** `tags` → `tag`; otherwise `<name>_value` (`<name>_key` for CONTAINS KEY). */
function elementColumnName(collection: string, key: boolean): string {
  if (key) return `${collection}_key`;
  return collection.length > 1 && collection.endsWith("s") && !collection.endsWith("ss") ? collection.slice(0, -1) : `${collection}_value`;
}

/** `text` without leading and trailing underscores; a scan, as `/_+$/` is quadratic on `a___…b`. */
function trimUnderscores(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === "_") start++;
  while (end > start && text[end - 1] === "_") end--;
  return text.slice(start, end);
}

function identifierPart(text: string): string {
  const cleaned = trimUnderscores(text.toLowerCase().replace(/[^a-z0-9_]+/g, "_"));
  return /^[a-z]/.test(cleaned) ? cleaned : `q_${cleaned}`;
}

/** Which tables hold each column (the keyspace's first), and where each column's type comes from. */
interface TableOrder {
  /** the tables, the keyspace's first */
  tables: TableModel[];
  /** per column name, the numbers (in `tables`) of the tables holding it, in table order */
  withColumn: Map<string, Int32Array>;
  /** scratch for entityTable, zero between calls: wanted columns per table number */
  overlap: Int32Array;
  /** scratch for entityTable: the numbers of the tables holding a wanted column, first met first */
  touched: Int32Array;
  /** per table number, its primary key columns (partition key and clustering) */
  keyLength: Int32Array;
  /** per column name, where to take its type: the first table (in order) where it is a key column, else the first holding it */
  typeSource: Map<string, ColumnModel>;
}

function isKeyColumn(column: ColumnModel): boolean {
  return column.kind === "partition" || column.kind === "clustering";
}

// Every unserved query asks: order and index the tables once per schema and keyspace, not per query.
const tableOrders = new WeakMap<SchemaModel, Map<string, TableOrder>>();

function tableOrder(schema: SchemaModel, keyspace: string | undefined): TableOrder {
  let byKeyspace = tableOrders.get(schema);
  if (!byKeyspace) tableOrders.set(schema, (byKeyspace = new Map()));
  const key = keyspace === undefined ? "" : `:${keyspace}`;
  let order = byKeyspace.get(key);
  if (!order) {
    const all = [...schema.tables.values()].sort((a, b) => compareCodeUnits(a.qualifiedName, b.qualifiedName));
    const inKeyspace = keyspace !== undefined ? all.filter((t) => t.keyspace === keyspace) : [];
    const tables = inKeyspace.length > 0 ? [...inKeyspace, ...all.filter((t) => t.keyspace !== keyspace)] : all;
    const withColumn = new Map<string, number[]>();
    const typeSource = new Map<string, ColumnModel>();
    for (const [number, table] of tables.entries()) {
      for (const column of table.columns) {
        const list = withColumn.get(column.name);
        if (list) list.push(number);
        else withColumn.set(column.name, [number]);
        const source = typeSource.get(column.name);
        if (!source || (isKeyColumn(column) && !isKeyColumn(source))) typeSource.set(column.name, column);
      }
    }
    const holders = new Map<string, Int32Array>();
    for (const [name, list] of withColumn) holders.set(name, Int32Array.from(list));
    const keyLength = Int32Array.from(tables, (t) => t.partitionKey.length + t.clustering.length);
    order = { tables, withColumn: holders, overlap: new Int32Array(tables.length), touched: new Int32Array(tables.length), keyLength, typeSource };
    byKeyspace.set(key, order);
  }
  return order;
}

/** A suggested CREATE TABLE, and the name it creates when that is known without parsing it. */
export interface TableSuggestion {
  text: string;
  /** present only when the text is made of pieces that always print as CQL that parses (printsAsCql) */
  name?: { keyspace?: string; name: string };
  /** how the manifest's figures for the copied table size it, in words, when they do */
  sizing?: string;
}

// Names that are printed bare or quoted, and parse again as written either way. Others (empty, with
// line breaks, quotes or other signs) are left to a parse of the text, by whoever needs the name.
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Type words the parser reads as the start of a type, not as a user type's name (`frozen<map>`).
const TYPE_WORDS = new Set(["map", "list", "set", "frozen", "tuple", "vector"]);

/** Whether formatColumnType prints the type as CQL that parses as a column type. */
function printsAsCql(type: ColumnType): boolean {
  switch (type.kind) {
    case "native":
      return true;
    case "list":
    case "set":
      return printsAsCql(type.element);
    case "map":
      return printsAsCql(type.key) && printsAsCql(type.value);
    case "tuple":
      return type.elements.length > 0 && type.elements.every(printsAsCql);
    case "udt":
      return PLAIN_NAME.test(type.name) && !TYPE_WORDS.has(type.name);
    case "vector":
      return Number.isInteger(type.dimension) && type.dimension > 0 && printsAsCql(type.element);
    default:
      return false;
  }
}

/**
 * A table is named after what it serves: `videos_by_tag`; when that name is taken (a table keyed
 * alike, ordered otherwise), after what sets it apart (`videos_by_tag_and_added_date`), then after
 * the pattern (`videos_for_latest_by_tag`); a number only when every such name is taken.
 */
function productName(schema: SchemaModel, keyspace: string, entity: string, byPart: string, shapedBy: readonly string[], queryId: string): string {
  const free = (name: string) => !schema.tables.has(`${keyspace}.${name}`);
  const base = `${entity}_by_${byPart}`;
  const candidates = [base];
  if (shapedBy.length > 0) candidates.push(`${base}_and_${shapedBy.map(identifierPart).join("_and_")}`);
  candidates.push(`${entity}_for_${identifierPart(queryId)}`);
  const found = candidates.find(free);
  if (found) return found;
  let n = 2;
  while (!free(`${base}_${n}`)) n += 1;
  return `${base}_${n}`;
}

export function suggestTable(query: AbstractQuery, schema: SchemaModel, options: SuggestOptions = {}): string {
  return suggestTableFor(query, schema, options).text;
}

export function suggestTableFor(query: AbstractQuery, schema: SchemaModel, options: SuggestOptions = {}): TableSuggestion {
  const order = tableOrder(schema, options.keyspace);
  // Whether every name and type printed is known to parse again (PLAIN_NAME, printsAsCql).
  let parses = true;

  const partitionKey: string[] = [];
  const clustering: KeyColumn[] = [];
  const regular: string[] = [];
  const seen = new Set<string>();
  const take = (name: string) => {
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  };

  for (const w of query.where) if ((w.operator === "=" || w.operator === "IN") && take(w.column)) partitionKey.push(w.column);
  // CONTAINS cannot use a key: the expert's answer is one row per element, keyed by the element.
  const elementColumns = new Map<string, { collection: string; key: boolean }>();
  for (const w of query.where) {
    if (w.operator !== "CONTAINS" && w.operator !== "CONTAINS KEY") continue;
    const element = elementColumnName(w.column, w.operator === "CONTAINS KEY");
    if (take(element)) {
      partitionKey.push(element);
      elementColumns.set(element, { collection: w.column, key: w.operator === "CONTAINS KEY" });
    }
  }
  const orderDirection = new Map(query.orderBy.map((o) => [o.column, o.direction]));
  for (const w of query.where) {
    if (RANGE_OPERATORS.has(w.operator) && take(w.column)) clustering.push({ name: w.column, order: orderDirection.get(w.column) ?? "asc" });
  }
  for (const o of query.orderBy) if (take(o.column)) clustering.push({ name: o.column, order: o.direction });
  // The columns the pattern ranges over or sorts by: what sets this table apart from one keyed alike.
  const shapedBy = clustering.map((c) => c.name);

  const bucketed = partitionKey.length === 0;
  if (bucketed) partitionKey.push("bucket");

  // Rows stay unique through the key of the table the selected attributes come from.
  const entity = entityTable(query, order);
  if (entity) {
    for (const column of [...entity.partitionKey, ...entity.clustering]) {
      if (take(column.name)) clustering.push({ name: column.name, order: "asc" });
    }
  } else {
    const idLike = query.select.find((s) => s === "id" || s.endsWith("_id") || s.endsWith("id"));
    if (idLike && take(idLike)) clustering.push({ name: idLike, order: "asc" });
  }
  for (const name of query.select) if (name !== "*" && take(name)) regular.push(name);
  for (const w of query.where) if (take(w.column)) regular.push(w.column);

  // Sized from the copied table's figures: a bucket goes into the partition key when its worst
  // partition would cross the limits (sizeFromEntity says when the figures say so).
  const sized = options.sizing && entity && !bucketed && elementColumns.size === 0 ? sizeFromEntity(entity, partitionKey, clustering, regular, order, options.sizing) : undefined;
  const timeBucket = sized?.bucket;
  if (timeBucket) partitionKey.push(timeBucket.name);

  const keyNames = new Set([...partitionKey, ...clustering.map((c) => c.name)]);
  const printed = (type: ColumnType): string => {
    if (parses && !printsAsCql(type)) parses = false;
    return formatColumnType(type);
  };
  const typeOf = (name: string): string => {
    if (bucketed && name === "bucket") return "int";
    if (timeBucket && name === timeBucket.name) return timeBucket.type;
    const element = elementColumns.get(name);
    if (element) {
      const collection = order.typeSource.get(element.collection)?.type;
      if (!collection) return "text";
      if (collection.kind === "map") return printed(keyType(element.key ? collection.key : collection.value));
      if (collection.kind === "list" || collection.kind === "set") return printed(keyType(collection.element));
      return "text";
    }
    const source = order.typeSource.get(name);
    if (!source) return "text";
    const type = keyNames.has(name) ? keyType(source.type) : source.type;
    return printed(type);
  };

  const entityName = entity ? entity.name.split("_by_", 1)[0]! : identifierPart(query.id);
  // Named after what the application looks up; the time bucket is how it is stored.
  const byPart = bucketed ? "bucket" : partitionKey.filter((c) => c !== timeBucket?.name).map(identifierPart).join("_");
  const keyspace = options.keyspace ?? entity?.keyspace ?? "";
  const name = productName(schema, keyspace, entityName, byPart, shapedBy, query.id);
  const qualified = keyspace ? `${quoteName(keyspace)}.${quoteName(name)}` : quoteName(name);

  const lines: string[] = [];
  if (bucketed) lines.push("-- no equality attribute: bucket is a partition the application computes (e.g. a day or a shard number)");
  if (timeBucket) {
    const lookedUp = partitionKey.filter((c) => c !== timeBucket.name).map(quoteName).join(", ");
    lines.push(`-- ${timeBucket.name} = ${timeBucket.truncate} of ${timeBucket.source}: a partition by (${lookedUp}) alone would outgrow the limits`);
  }
  for (const [element, { collection }] of elementColumns) {
    // A comment runs to the end of its line: a name with a line break would end it early.
    if (!PLAIN_NAME.test(collection)) parses = false;
    lines.push(`-- one row per element of ${collection}: ${element} holds the element the pattern looks for`);
  }
  lines.push(`CREATE TABLE ${qualified} (`);
  for (const column of [...partitionKey, ...clustering.map((c) => c.name), ...regular]) {
    if (!PLAIN_NAME.test(column)) parses = false;
    lines.push(`  ${quoteName(column)} ${typeOf(column)},`);
  }
  const pk = `(${partitionKey.map(quoteName).join(", ")})`;
  const key = [pk, ...clustering.map((c) => quoteName(c.name))].join(", ");
  lines.push(`  PRIMARY KEY (${key})`);
  const clusteringOrder = clustering.length > 0 ? ` WITH CLUSTERING ORDER BY (${clustering.map((c) => `${quoteName(c.name)} ${c.order.toUpperCase()}`).join(", ")})` : "";
  lines.push(`)${clusteringOrder};`);
  const suggestion: TableSuggestion = { text: lines.join("\n") };
  if (sized) suggestion.sizing = sized.sentence;
  if (parses && PLAIN_NAME.test(name) && (keyspace === "" || PLAIN_NAME.test(keyspace))) {
    suggestion.name = keyspace ? { keyspace, name } : { name };
  }
  return suggestion;
}

/** A time bucket added to a suggestion's partition key, and the sentence that says why. */
interface SizedSuggestion {
  bucket?: { name: string; type: string; truncate: string; source: string };
  sentence: string;
}

/**
 * Sizes a suggestion with the manifest's figures for the table it copies. Only when its partition
 * key holds the copied table's whole partition key: each new partition is then a part of one old
 * partition, so the old figures (rows, growth, retention, worst partition) bound the new ones.
 * Otherwise (a new key such as a tag) nothing says how the rows spread, and nothing is claimed.
 */
function sizeFromEntity(
  entity: TableModel,
  partitionKey: readonly string[],
  clustering: readonly KeyColumn[],
  regular: readonly string[],
  order: TableOrder,
  sizing: SuggestionSizing,
): SizedSuggestion | undefined {
  const volume = sizing.volumeOf(entity);
  if (!volume || entity.clustering.length === 0) return undefined;
  if (!entity.partitionKey.every((c) => partitionKey.includes(c.name))) return undefined;
  const column = (name: string, kind: ColumnModel["kind"], position: number, columnOrder?: "asc" | "desc"): ColumnModel | undefined => {
    const source = entity.columns.find((c) => c.name === name) ?? order.typeSource.get(name);
    if (!source) return undefined;
    const made: ColumnModel = { ...source, kind, position };
    if (columnOrder) made.order = columnOrder;
    else delete made.order;
    return made;
  };
  const pk = partitionKey.map((name, i) => column(name, "partition", i));
  const ck = clustering.map((c, i) => column(c.name, "clustering", i, c.order));
  const rest = regular.map((name) => column(name, "regular", -1));
  const columns = [...pk, ...ck, ...rest];
  if (columns.some((c) => c === undefined)) return undefined;
  const defined = columns as ColumnModel[];
  const table: TableModel = {
    ...entity,
    columns: defined,
    partitionKey: defined.slice(0, pk.length),
    clustering: defined.slice(pk.length, pk.length + ck.length),
    static: [],
    regular: defined.slice(pk.length + ck.length),
    indexes: [],
    views: [],
  };
  const estimate = estimatePartition(table, volume, { version: sizing.version, limits: sizing.limits, queries: sizing.queries ?? [] });
  const advice = estimate.bucket;
  if (!advice) return undefined;
  const figures = worstAgainstLimits(estimate, sizing.limits);
  const copied = `Sized with the manifest's figures for ${entity.name}, whose rows it copies (${estimate.basisText})`;
  if (advice.kind === "bucket" && advice.widthSeconds !== undefined && advice.width !== undefined) {
    const timeColumn = table.clustering.find((c) => TIME_KINDS.has(c.type.kind === "native" ? c.type.name : ""));
    const { unit, type, truncate } = bucketColumnFor(advice.widthSeconds, advice.width);
    const name = newColumnName(defined.map((c) => c.name), unit);
    const source = timeColumn ? timeColumn.name : "the time each row is written";
    return {
      bucket: { name, type, truncate, source },
      sentence:
        `${copied}: partitioned by (${partitionKey.join(", ")}) alone, its worst partition would hold ${figures}, ` +
        `so the suggested table puts \`${name}\` in its partition key. ${advice.explanation} ` +
        `The application computes \`${name}\` from the time it reads (the query then binds it with =, one bucket after the other); ` +
        "cost: a read of more than one bucket's rows reads one partition per bucket.",
    };
  }
  return { sentence: `${copied}: its worst partition would hold ${figures}. ${advice.explanation}` };
}

/**
 * The worst partition's rows and bytes, each with the limit it crosses, and why that calls for a
 * split: the bytes limit or Cassandra's hard cell limit (as the estimator decides), else growth
 * without bound (the figures are then those after a year).
 */
function worstAgainstLimits(estimate: PartitionEstimate, limits: PartitionLimits): string {
  const { worst } = estimate;
  const cells = Math.max(worst.values, worst.cells);
  // Rows are told, not held against a limit: like the width rule, the split is for bytes and cells.
  const rows = `${formatCount(worst.rows)} rows`;
  const bytes = `${formatBytes(worst.bytes)}${worst.bytes > limits.partitionBytes ? ` (limit ${formatBytes(limits.partitionBytes)})` : ""}`;
  const hardCells = cells > HARD_CELL_LIMIT ? ` and ${formatCount(cells)} cells (Cassandra's hard limit is about 2.1 billion)` : "";
  const past = worst.bytes > limits.partitionBytes || cells > HARD_CELL_LIMIT;
  return `${rows} and ${bytes}${hardCells}, ${past ? "past the limits" : "and it grows without bound"}`;
}

const TIME_KINDS = new Set(["timestamp", "timeuuid", "date"]);
