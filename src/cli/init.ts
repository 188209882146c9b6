// `cql-review init`: a first access-patterns manifest drafted from the schema, so that editing a
// draft is the work rather than writing one from nothing. Pure: the schema model in, YAML text
// out; src/cli.ts finds the schema, writes the file and checks the draft with the review itself.
import { quoteName } from "../cql/print.js";
import type { CassandraVersion, ColumnModel, ColumnType, SchemaModel, TableModel } from "../schema/model.js";

/** A read the draft proposes: one per table today; queries found in code would be more of these. */
export interface DraftQuery {
  id: string;
  description: string;
  cql: string;
}

export interface DraftOptions {
  cassandra: CassandraVersion;
  /** the modeline's target: a path relative to the manifest, or a URL */
  schemaReference: string;
  /** the schema files the draft was made from, named in its header */
  sourceFiles: readonly string[];
  /**
   * Reads found elsewhere than the schema. The seam for model files in code: once code
   * extraction exists, its queries come in here and replace the per-table guesses for the tables
   * they read. Empty today.
   */
  queriesFromCode?: readonly DraftQuery[];
}

/** Placeholder figures: plausible, valid, and marked TODO wherever they appear. */
const PLACEHOLDER = {
  partitions: "1_000_000",
  rowsPerPartition: "{ avg: 100, max: 10_000 }",
  rate: "10/s",
  textBytes: 32,
  blobBytes: 256,
  collection: "{ items: 4, bytes: 16 }",
} as const;

const VARIABLE_LENGTH = new Set(["text", "varchar", "ascii", "blob", "varint", "decimal"]);

/** A YAML plain scalar when safe, else a double-quoted one (JSON strings are valid YAML). */
function yamlScalar(text: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(text) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(text) ? text : JSON.stringify(text);
}

/** How a column's average size is written in `columns:`, or undefined for fixed-size types. */
function sizePlaceholder(type: ColumnType): string | undefined {
  switch (type.kind) {
    case "native":
      if (!VARIABLE_LENGTH.has(type.name)) return undefined;
      return String(type.name === "blob" ? PLACEHOLDER.blobBytes : PLACEHOLDER.textBytes);
    case "list":
    case "set":
    case "map":
      return PLACEHOLDER.collection;
    default:
      return undefined;
  }
}

function isCounterTable(table: TableModel): boolean {
  return table.regular.some((column) => column.type.kind === "native" && column.type.name === "counter");
}

/** The name a statement uses: bare in the manifest's keyspace, qualified elsewhere. */
function tableReference(table: TableModel, keyspace: string): string {
  const name = quoteName(table.name);
  return table.keyspace === keyspace ? name : `${quoteName(table.keyspace)}.${name}`;
}

function equalities(columns: readonly ColumnModel[]): string {
  return columns.map((column) => `${quoteName(column.name)} = ?`).join(" AND ");
}

/** One read by the full partition key, in the table's clustering order, bounded when a partition has many rows. */
export function partitionQuery(table: TableModel, keyspace: string): DraftQuery {
  const order = table.clustering.map((column) => `${quoteName(column.name)} ${(column.order ?? "asc").toUpperCase()}`).join(", ");
  const clauses = [
    `SELECT * FROM ${tableReference(table, keyspace)} WHERE ${equalities(table.partitionKey)}`,
    ...(table.clustering.length > 0 ? [`ORDER BY ${order}`, "LIMIT 100"] : []),
  ];
  return {
    id: `${table.name}-by-${table.partitionKey.map((column) => column.name).join("-")}`.toLowerCase().replace(/[^a-z0-9_-]+/g, "-"),
    description: `TODO: what the application reads from ${table.name} (drafted: one partition by its full key)`,
    cql: clauses.join(" "),
  };
}

/** One write that fills every column (counters: an increment), as the application's writes would. */
export function tableWrite(table: TableModel, keyspace: string): { id: string; cql: string; counter: boolean } {
  const reference = tableReference(table, keyspace);
  const id = `write-${table.name}`.toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
  if (isCounterTable(table)) {
    const increments = table.regular.map((column) => `${quoteName(column.name)} = ${quoteName(column.name)} + 1`).join(", ");
    const key = equalities([...table.partitionKey, ...table.clustering]);
    return { id, cql: `UPDATE ${reference} SET ${increments} WHERE ${key}`, counter: true };
  }
  const columns = table.columns.map((column) => quoteName(column.name));
  return { id, cql: `INSERT INTO ${reference} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, counter: false };
}

/** The keyspace most tables are in (ties: the first in name order). */
export function mainKeyspace(tables: readonly TableModel[]): string | undefined {
  const counts = new Map<string, number>();
  for (const table of tables) counts.set(table.keyspace, (counts.get(table.keyspace) ?? 0) + 1);
  return [...counts].sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))[0]?.[0];
}

function uniqueIds<T extends { id: string }>(entries: T[]): T[] {
  const seen = new Map<string, number>();
  return entries.map((entry) => {
    const count = (seen.get(entry.id) ?? 0) + 1;
    seen.set(entry.id, count);
    return count === 1 ? entry : { ...entry, id: `${entry.id}-${count}` };
  });
}

function volumeLines(table: TableModel, keyspace: string): string[] {
  // Manifest names are read as CQL reads them: a name that needs quotes in CQL keeps them here.
  const key = table.keyspace === keyspace ? quoteName(table.name) : `${quoteName(table.keyspace)}.${quoteName(table.name)}`;
  const sizes = table.columns
    .map((column) => [quoteName(column.name), sizePlaceholder(column.type)] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== undefined);
  return [
    `  ${yamlScalar(key)}:`,
    `    partitions: ${PLACEHOLDER.partitions}   # TODO: distinct partition keys`,
    ...(table.clustering.length > 0
      ? [`    rows_per_partition: ${PLACEHOLDER.rowsPerPartition}   # TODO: rows in a typical and in the largest partition`]
      : []),
    ...(sizes.length > 0
      ? [`    columns: { ${sizes.map(([name, size]) => `${yamlScalar(name)}: ${size}`).join(", ")} }   # TODO: average sizes in bytes`]
      : []),
  ];
}

/** The draft manifest's text; undefined when the schema has no table to draft from. */
export function draftManifest(schema: SchemaModel, options: DraftOptions): string | undefined {
  const tables = [...schema.tables.values()].sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0));
  const keyspace = mainKeyspace(tables);
  if (keyspace === undefined) return undefined;
  const writable = tables.filter((table) => table.kind === "table");
  const queries = uniqueIds([...(options.queriesFromCode ?? []), ...tables.map((table) => partitionQuery(table, keyspace))]);
  const writes = uniqueIds(writable.map((table) => tableWrite(table, keyspace)));
  const lines = [
    `# yaml-language-server: $schema=${options.schemaReference}`,
    `# Drafted by \`cql-review init\` from ${options.sourceFiles.join(", ")}.`,
    "# Every TODO is a placeholder: put in your own figures and the application's real queries",
    "# (one read per table by its full partition key was guessed), then run `cql-review check`.",
    "version: 1",
    `keyspace: ${yamlScalar(keyspace)}`,
    `cassandra: "${options.cassandra}"`,
    "",
    "tables:",
    ...writable.flatMap((table) => volumeLines(table, keyspace)),
    "",
    "queries:",
    ...queries.flatMap((query) => [
      `  - id: ${yamlScalar(query.id)}`,
      `    description: ${JSON.stringify(query.description)}`,
      `    cql: ${JSON.stringify(query.cql)}`,
      `    rate: ${PLACEHOLDER.rate}   # TODO: how often it runs`,
    ]),
    ...(writes.length > 0 ? ["", "writes:"] : []),
    ...writes.flatMap((write) => [
      `  - id: ${yamlScalar(write.id)}`,
      `    description: "TODO: what the application writes to ${write.id.slice("write-".length)}"`,
      `    rate: ${PLACEHOLDER.rate}   # TODO: how often it runs`,
      ...(write.counter ? ["    retried: false   # counters are not idempotent: say whether the client retries them"] : []),
      "    cql:",
      `      - ${JSON.stringify(write.cql)}`,
    ]),
  ];
  return `${lines.join("\n")}\n`;
}
