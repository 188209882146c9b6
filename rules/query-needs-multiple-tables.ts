// Cassandra has no JOIN: when the columns a read needs are spread over several tables, the
// application joins them itself, one extra round trip (and partition) per table and per row.
import { abstractQueryColumns, joinWords, manifestQuery, queryEntity, tableLabel } from "../src/rule-engine/helpers.js";
import { entryKeyspace } from "../src/manifest/types.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";
import { compareCodeUnits } from "../src/arrays.js";

interface CoverPart {
  table: TableModel;
  columns: string[];
}

/**
 * The fewest tables (greedily) that together hold every wanted column, or undefined when no table
 * has some column at all (the manifest check reports unknown columns). Among equal choices, a
 * table the application could read by key (its partition key given by the query or by a table
 * read before) is the join it would really make.
 */
function coverColumns(tables: TableModel[], wanted: string[], given: string[]): CoverPart[] | undefined {
  const missing = new Set(wanted);
  const known = new Set(given);
  const parts: CoverPart[] = [];
  const readableByKey = (table: TableModel) => table.partitionKey.every((c) => known.has(c.name));
  while (missing.size > 0) {
    // Counted without building each table's list: only the chosen table's columns are listed.
    let best: TableModel | undefined;
    let bestCount = 0;
    for (const table of tables) {
      let count = 0;
      for (const column of table.columns) if (missing.has(column.name)) count++;
      const better = count > bestCount || (best !== undefined && count === bestCount && readableByKey(table) && !readableByKey(best));
      if (better) {
        best = table;
        bestCount = count;
      }
    }
    if (!best) return undefined;
    const columns = best.columns.map((c) => c.name).filter((name) => missing.has(name));
    for (const column of columns) missing.delete(column);
    for (const column of best.columns) known.add(column.name);
    parts.push({ table: best, columns });
  }
  return parts;
}

/** The tables a query of one keyspace can join, with a lookup of the tables by column. */
interface Scope {
  tables: TableModel[];
  /** table indexes by column name, in scope order */
  byColumn: Map<string, number[]>;
  columnSets: Set<string>[];
}

/**
 * Tables of a keyspace (all tables when the manifest names none), in a stable order. Only tables
 * holding a wanted column can hold them all or join into the cover: they are looked up by column,
 * instead of scanning every table for every query.
 */
function scopeOf(model: AnalysedModel, keyspace: string | undefined): Scope {
  const tables = [...model.schema.tables.values()]
    .filter((t) => t.kind === "table" && (keyspace === undefined || t.keyspace === keyspace))
    .sort((a, b) => compareCodeUnits(a.qualifiedName, b.qualifiedName));
  const byColumn = new Map<string, number[]>();
  const columnSets = tables.map((table) => new Set(table.columns.map((c) => c.name)));
  tables.forEach((table, index) => {
    for (const column of table.columns) {
      const list = byColumn.get(column.name);
      if (list) list.push(index);
      else byColumn.set(column.name, [index]);
    }
  });
  return { tables, byColumn, columnSets };
}

/** Whether one table holds every wanted column: one of the tables of the rarest, checked by set. */
function someTableHoldsAll(wanted: string[], byColumn: Map<string, number[]>, columnSets: Set<string>[]): boolean {
  if (wanted.length === 0) return false;
  let rarest: number[] | undefined;
  for (const name of wanted) {
    const tables = byColumn.get(name) ?? [];
    if (!rarest || tables.length < rarest.length) rarest = tables;
  }
  return rarest!.some((index) => wanted.every((name) => columnSets[index]!.has(name)));
}

const queryNeedsMultipleTables: RuleModule = {
  meta: {
    id: "query-needs-multiple-tables",
    category: "query",
    defaultSeverity: "warning",
    description: "No single table holds every column the access pattern needs, so the application would join tables itself.",
    messages: {
      clientJoin:
        "No single table holds every column {query} needs; it takes {count} tables: {parts}. Cassandra has no JOIN, so the application would read them one after another and join the rows itself. Denormalise: one table with all of these columns, keyed for {query}.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    // With several manifests, a query joins tables of its own manifest's keyspace.
    const scopes = new Map<string | undefined, Scope>();
    for (const query of model.queries) {
      if (query.form !== "abstract" || query.table !== null) continue;
      const entry = manifestQuery(model, query.id);
      if (entry?.form !== "abstract") continue;
      const keyspace = entryKeyspace(entry, model.manifest);
      let scope = scopes.get(keyspace);
      if (!scope) scopes.set(keyspace, (scope = scopeOf(model, keyspace)));
      const { tables, byColumn, columnSets } = scope;
      const wanted = abstractQueryColumns(entry);
      if (someTableHoldsAll(wanted, byColumn, columnSets)) continue;
      const holding = [...new Set(wanted.flatMap((name) => byColumn.get(name) ?? []))].sort((a, b) => a - b).map((index) => tables[index]!);
      const parts = coverColumns(holding, wanted, entry.where.map((w) => w.column));
      if (!parts || parts.length < 2) continue;
      context.report({
        messageId: "clientJoin",
        data: {
          query: query.id,
          count: parts.length,
          parts: joinWords(parts.map((p) => `${tableLabel(model, p.table.qualifiedName)} (${p.columns.join(", ")})`)),
          tables: parts.map((p) => p.table.qualifiedName).join(", "),
        },
        file: query.location.file,
        range: query.location.range,
        entity: queryEntity(query.id),
      });
    }
  },
};

export default queryNeedsMultipleTables;
