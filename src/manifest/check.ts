// Checks the manifest's names against the schema model: tables under `tables:`, their columns and
// the copies they declare,
// and the columns of abstract queries. A name that matches nothing is almost always a typo, and
// a typo here silently changes every estimate and match, so each is a `manifest-invalid` error
// at the name, with the closest existing names. Queries written in CQL are the planner's concern.
import type { Finding, SourceLocation } from "../findings.js";
import type { SchemaModel, TableModel } from "../schema/model.js";
import { findColumn, findTable, formatColumnType, isCollection } from "../schema/resolve.js";
import { didYouMean } from "./did-you-mean.js";
import { MANIFEST_RULE } from "./load.js";
import type { AbstractQuery, Manifest, TableVolume } from "./types.js";

export interface ManifestCheckOptions {
  /** the keyspace of unqualified names; defaults to the manifest's `keyspace` */
  keyspace?: string;
}

export function checkManifestAgainstSchema(manifest: Manifest, schema: SchemaModel, options: ManifestCheckOptions = {}): Finding[] {
  // Without any table (no schema file found, or none parsed) every name would be "unknown":
  // one finding per name would bury the real problem, which other stages report.
  if (schema.tables.size === 0) return [];
  const keyspace = options.keyspace ?? manifest.keyspace;
  const findings: Finding[] = [];
  const report = (location: SourceLocation, message: string, entity: string): void => {
    findings.push({ rule: MANIFEST_RULE, severity: "error", location, message, fingerprint: `${MANIFEST_RULE}:${location.file}#${entity}` });
  };

  for (const volume of manifest.tables) {
    const volumeKeyspace = volume.keyspace ?? keyspace;
    const table = findTable(schema, volume.name, volumeKeyspace);
    if (!table) {
      report(volume.location, `tables.${volume.name}: ${unknownTableReason(volume.name, schema, volumeKeyspace)}`, `tables.${volume.name}:unknown-table`);
      continue;
    }
    checkColumnSizes(volume, table, report);
    checkCopies(volume, table, schema, volumeKeyspace, report);
    checkTimeBucket(volume, table, report);
    checkDistinctValues(volume, table, report);
  }

  // The columns of the tables a query can read, per keyspace (one unless manifests were merged).
  const scopes = new Map<string | undefined, { label: string; known: Set<string> }>();
  const scopeOf = (space: string | undefined) => {
    let scope = scopes.get(space);
    if (!scope) {
      const inScope = tablesInScope(schema, space);
      scope = { label: inScope.label, known: new Set(inScope.tables.flatMap((t) => t.columns.map((c) => c.name))) };
      scopes.set(space, scope);
    }
    return scope;
  };
  for (const query of manifest.queries) {
    if (query.form !== "abstract") continue;
    const scope = scopeOf(query.keyspace ?? keyspace);
    const known = scope.known;
    for (const { column, location, part } of abstractColumns(query)) {
      if (known.has(column)) continue;
      report(
        location,
        `${query.id}.${part}.${column}: no table${scope.label} has a column "${column}"${didYouMean(column, known)}`,
        `query:${query.id}.${part}.${column}:unknown-column`,
      );
    }
  }
  return findings;
}

type Report = (location: SourceLocation, message: string, entity: string) => void;

function checkColumnSizes(volume: TableVolume, table: TableModel, report: Report): void {
  for (const [name, size] of Object.entries(volume.columns)) {
    const location = volume.columnLocations?.[name] ?? volume.location;
    const path = `tables.${volume.name}.columns.${name}`;
    const column = findColumn(table, name);
    if (!column) {
      report(
        location,
        `${path}: table ${table.qualifiedName} has no column "${name}"${didYouMean(name, table.columns.map((c) => c.name))}`,
        `${path}:unknown-column`,
      );
      continue;
    }
    const type = formatColumnType(column.type);
    if (size.kind === "collection" && !isCollection(column.type)) {
      report(location, `${path}: ${column.name} is ${type}, not a list, set or map; give its size in bytes (${column.name}: 60)`, `${path}:not-a-collection`);
    } else if (size.kind === "collection" && size.keyBytes !== undefined && column.type.kind !== "map") {
      report(location, `${path}: ${column.name} is ${type}; key_bytes and value_bytes are for maps, write { items, bytes }`, `${path}:not-a-map`);
    }
  }
}

/** `copies: { videos: [name] }`: the table copied from exists, and both tables have each column. */
function checkCopies(volume: TableVolume, table: TableModel, schema: SchemaModel, keyspace: string | undefined, report: Report): void {
  for (const copy of volume.copies ?? []) {
    const path = `tables.${volume.name}.copies.${copy.from}`;
    const source = findTable(schema, copy.from, keyspace);
    if (!source) {
      report(copy.location, `${path}: ${unknownTableReason(copy.from, schema, keyspace)}`, `${path}:unknown-table`);
      continue;
    }
    if (source === table) {
      report(copy.location, `${path}: a table cannot hold copies of its own columns; name the table they are copied from`, `${path}:self`);
      continue;
    }
    for (const name of copy.columns) {
      for (const holder of [table, source]) {
        if (findColumn(holder, name)) continue;
        report(
          copy.location,
          `${path}: table ${holder.qualifiedName} has no column "${name}"${didYouMean(name, holder.columns.map((c) => c.name))}; a copy has the same name in both tables`,
          `${path}.${name}:unknown-column:${holder.qualifiedName}`,
        );
      }
    }
  }
}

/** `time_bucket: { column }` names a column of the partition key. */
function checkTimeBucket(volume: TableVolume, table: TableModel, report: Report): void {
  const bucket = volume.timeBucket;
  if (!bucket) return;
  const path = `tables.${volume.name}.time_bucket.column`;
  if (table.partitionKey.some((c) => c.name === bucket.column)) return;
  const keyNames = table.partitionKey.map((c) => c.name);
  const reason = findColumn(table, bucket.column) ? `"${bucket.column}" is not in the partition key (${keyNames.join(", ")})` : `table ${table.qualifiedName} has no column "${bucket.column}"${didYouMean(bucket.column, keyNames)}`;
  report(bucket.location, `${path}: ${reason}; a time bucket is a partition-key column`, `${path}:not-partition-key`);
}

/** `distinct_values: { status: 5 }` names columns of the table, with max_rows at most the table's rows. */
function checkDistinctValues(volume: TableVolume, table: TableModel, report: Report): void {
  for (const [name, figure] of Object.entries(volume.distinctValues ?? {})) {
    // A figure taken from the code (an enum's constants) was not written in the manifest.
    if (figure.source) continue;
    const path = `tables.${volume.name}.distinct_values.${name}`;
    if (!findColumn(table, name)) {
      report(figure.location, `${path}: table ${table.qualifiedName} has no column "${name}"${didYouMean(name, table.columns.map((c) => c.name))}`, `${path}:unknown-column`);
    } else if (figure.count < 1) {
      report(figure.location, `${path}: a column takes at least one value; give the count of distinct values`, `${path}:zero`);
    }
  }
}

function unknownTableReason(written: string, schema: SchemaModel, keyspace: string | undefined): string {
  const qualified = written.includes(".");
  const tables = [...schema.tables.values()];
  const bareName = written.toLowerCase();
  if (!qualified) {
    const holders = tables.filter((t) => t.name === written || t.name === bareName).map((t) => t.keyspace);
    if (holders.length > 1) {
      return `a table "${written}" exists in keyspaces ${holders.join(" and ")}; write it as ${holders[0]}.${written} or set keyspace:`;
    }
  }
  const candidates = qualified ? tables.map((t) => t.qualifiedName) : tables.filter((t) => keyspace === undefined || t.keyspace === keyspace).map((t) => t.name);
  const where = qualified ? "the schema" : keyspace !== undefined ? `keyspace ${keyspace}` : "the schema";
  return `no table "${written}" in ${where}${didYouMean(written, candidates)}`;
}

function tablesInScope(schema: SchemaModel, keyspace: string | undefined): { tables: TableModel[]; label: string } {
  const all = [...schema.tables.values()];
  if (keyspace !== undefined) {
    const inKeyspace = all.filter((t) => t.keyspace === keyspace);
    // A keyspace the schema does not declare is a problem of its own; look everywhere instead.
    if (inKeyspace.length > 0) return { tables: inKeyspace, label: ` in keyspace ${keyspace}` };
  }
  return { tables: all, label: "" };
}

function abstractColumns(query: AbstractQuery): { column: string; location: SourceLocation; part: string }[] {
  return [
    ...query.select.map((column, k) => ({ column, location: query.selectLocations?.[k] ?? query.location, part: "select" })),
    ...query.where.map((w) => ({ column: w.column, location: w.location, part: "where" })),
    ...query.orderBy.map((o) => ({ column: o.column, location: o.location ?? query.location, part: "order_by" })),
  ];
}
