// TTL is set per cell when it is written: a retention decided after launch leaves every row written
// before it for ever. Time-window compaction only pays off when whole windows expire together.
import { formatTtl, timeWindowFor } from "../src/analysis/compaction-window.js";
import { isTimeType } from "../src/analysis/estimator.js";
import { queriesOnTable, tableEntity, writeTimestampUnit, tableLabel, tableLocation, volumeOf, writesOnTable } from "../src/rule-engine/helpers.js";
import type { AnalysedModel } from "../src/rule-engine/model.js";
import type { Term } from "../src/cql/ast.js";
import type { WriteStatement } from "../src/rule-engine/helpers.js";
import type { RuleContext, RuleModule } from "../src/rule-engine/types.js";
import type { ColumnModel, TableModel } from "../src/schema/model.js";

const RANGE_OPERATORS = new Set(["<", "<=", ">", ">="]);

/**
 * Whether a clustering column marks a time series. A timestamp or date does. A timeuuid is also
 * the usual unique identifier (a lookup table of repair runs keyed by their `id timeuuid`), so it
 * counts only when the model uses it as time: the table keeps it newest first (CLUSTERING ORDER
 * DESC), the manifest states the partitions' growth, a query reads a range of it or orders by it,
 * or a write fills it with now().
 */
function marksTimeSeries(model: AnalysedModel, table: TableModel, column: ColumnModel): boolean {
  if (!isTimeType(column.type)) return false;
  if (column.type.kind !== "native" || column.type.name !== "timeuuid") return true;
  if (column.order === "desc" || volumeOf(model, table)?.growthPerSecond !== undefined) return true;
  for (const query of queriesOnTable(model, table.qualifiedName)) {
    const select = query.select;
    if (!select) continue;
    if (select.orderBy.some((o) => o.column?.name === column.name)) return true;
    for (const relation of select.where?.relations ?? []) {
      if (relation.kind === "column" && relation.column.name === column.name && RANGE_OPERATORS.has(relation.operator)) return true;
    }
  }
  for (const write of writesOnTable(model, table)) {
    const statement = write.statement;
    if (statement.kind !== "insert") continue;
    const at = statement.columns.findIndex((c) => c.name === column.name);
    const value = at < 0 ? undefined : statement.values[at];
    if (value?.kind === "function" && value.name.name.name.toLowerCase() === "now") return true;
  }
  return false;
}

/** TTL seconds a term states: a whole-number literal; a bind marker says nothing. */
function literalSeconds(term: Term | undefined): number | undefined {
  if (term?.kind !== "literal" || !/^\d+$/.test(term.value)) return undefined;
  return Number(term.value);
}

/**
 * Whether the table's deletes are rare beside the rows written: each delete statement writes one
 * tombstone (partition, range or row), and TWCS handles a few of them well; what it handles badly
 * is a delete stream that keeps old windows alive. Rare means the delete statements run at most
 * 1 % as often as the statements that write rows, by the manifest's rates; unknown rates count as
 * not rare.
 */
function deletesAreRare(writes: readonly WriteStatement[]): boolean {
  const deletes = writes.filter((w) => w.statement.kind === "delete");
  if (deletes.length === 0) return true;
  const rateOf = (list: readonly WriteStatement[]) => list.reduce<number | undefined>((sum, w) => {
    const rate = w.write?.ratePerSecond;
    return sum === undefined || rate === undefined || !Number.isFinite(rate) ? undefined : sum + rate;
  }, 0);
  const deleted = rateOf(deletes);
  const written = rateOf(writes.filter((w) => w.statement.kind !== "delete"));
  return deleted !== undefined && written !== undefined && written > 0 && deleted <= written / 100;
}

/** What makes the table a series, for the message: its time clustering column, or its stated growth. */
function seriesBasis(model: AnalysedModel, table: TableModel): string | undefined {
  const timeColumn = table.clustering.find((c) => marksTimeSeries(model, table, c));
  if (timeColumn) return `clustered by \`${timeColumn.name}\``;
  // Rows appended to every partition at a stated rate: TWCS groups by write time, so rows written
  // together expire together whatever the clustering column holds (time inside a blob, say).
  const volume = volumeOf(model, table);
  if (table.clustering.length > 0 && volume?.growthPerSecond !== undefined) return `its partitions grow by ${volume.growthText ?? "a stated rate"}`;
  return undefined;
}

/**
 * A series whose every row expires by TTL, deleted from rarely if at all, left on the default
 * compaction: advise TWCS with a window sized from the TTL. A note: the default works, TWCS is cheaper.
 */
function adviseTimeWindows(context: RuleContext, table: TableModel, own: readonly WriteStatement[]): void {
  const { model } = context;
  if (table.compaction !== undefined) return;
  const writes = writesOnTable(model, table);
  // Many deletes leave tombstones that keep old windows alive; rare ones (a removed series) do not.
  if (!deletesAreRare(writes)) return;
  if (table.columns.some((c) => c.type.kind === "native" && c.type.name === "counter")) return;
  const series = seriesBasis(model, table);
  if (!series) return;
  // The TTL rows live: the table's default, unless every write sets its own (the longest one wins,
  // since a window is dropped only when its last row expires); a bound TTL falls back on the
  // manifest's stated retention.
  const writeTtls = own.map((w) => (w.statement.using?.ttl === undefined ? undefined : literalSeconds(w.statement.using.ttl)));
  const everyWriteSetsTtl = own.length > 0 && own.every((w) => w.statement.using?.ttl !== undefined);
  const longest = (values: readonly (number | undefined)[], start: number) => values.reduce<number>((max, t) => (t !== undefined && t > max ? t : max), start);
  let ttl: number | undefined;
  let ttlSource = "";
  if (everyWriteSetsTtl) ttl = writeTtls.every((t) => t !== undefined) ? longest(writeTtls, 0) : undefined;
  else ttl = table.defaultTtlSeconds > 0 ? longest(writeTtls, table.defaultTtlSeconds) : undefined;
  const retention = volumeOf(model, table)?.retentionSeconds;
  if (ttl === undefined && typeof retention === "number" && retention > 0) {
    ttl = retention;
    ttlSource = ", the manifest's retention, as the writes bind the TTL";
  }
  const unit = writeTimestampUnit(model, table);
  const resolution = unit === "milliseconds" ? ", 'timestamp_resolution': 'MILLISECONDS'" : "";
  let advice: string;
  let ttlText = "";
  if (ttl !== undefined && ttl > 0) {
    const window = timeWindowFor(ttl);
    ttlText = ` (${formatTtl(ttl)}${ttlSource})`;
    advice = `use compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': '${window.unit}', 'compaction_window_size': ${window.size}${resolution}}, about ${window.windows} windows over the TTL (the Apache Cassandra docs advise 20 to 30).`;
  } else {
    advice = `use compaction = {'class': 'TimeWindowCompactionStrategy'${resolution}} with compaction_window_unit and compaction_window_size set so the TTL spans about 20 to 30 windows (the Apache Cassandra docs' advice).`;
  }
  if (unit === "milliseconds") {
    advice += " The application writes millisecond timestamps, and TWCS reads write timestamps as microseconds unless timestamp_resolution says otherwise: without it every window would be 1,000 times too wide.";
  } else if (unit === "bound") {
    advice += " The writes set their own timestamps (USING TIMESTAMP), which TWCS reads as microseconds: if the application sends milliseconds, add 'timestamp_resolution': 'MILLISECONDS' (or state `write_timestamps` in the manifest), or every window is 1,000 times too wide.";
  }
  const deleted = writes.some((w) => w.statement.kind === "delete");
  context.report({
    messageId: "ttlOnDefaultCompaction",
    data: {
      table: tableLabel(model, table.qualifiedName),
      series,
      ttl: ttlText,
      deletes: deleted ? "are deleted from only rarely (a tombstone per delete, at most 1 % as often as rows are written)" : "are never deleted",
      advice,
    },
    ...tableLocation(table),
    entity: `${tableEntity(table.qualifiedName)}:twcs-advice`,
    // Advice: the default compaction works, time windows only make it cheaper.
    severityCap: "info",
  });
}

const tableTimeSeriesRetention: RuleModule = {
  meta: {
    id: "table-time-series-retention",
    category: "table",
    defaultSeverity: "warning",
    description: "A time-series table has no TTL and no stated retention, uses time-window compaction without a TTL, or expires by TTL on the default compaction.",
    messages: {
      noTtl:
        "{table} is a time series (clustered by `{column}`) with no default_time_to_live, no TTL on its writes and no `retention` in the manifest: its rows live for ever. Decide now: a TTL set later applies only to new writes, so every row written before it stays until deleted one by one. Set default_time_to_live, or state the retention the application enforces (`retention: 90d`, or `retention: forever` when keeping everything is intended).",
      twcsWithoutTtl:
        "{table} uses TimeWindowCompactionStrategy with default_time_to_live = 0{writesTtl}. TWCS is built to drop whole SSTables once every row in them has expired; without a TTL nothing expires, windows are never dropped, and deletes leave tombstones that TWCS compacts poorly. Cassandra 5.0 warns on such tables (guardrail `zero_ttl_on_twcs_warned`). Set default_time_to_live to the retention, or use another compaction strategy.",
      ttlOnDefaultCompaction:
        "{table} is a time series ({series}) whose rows all expire by TTL{ttl} and {deletes}, on the default compaction (SizeTieredCompactionStrategy). Size-tiered compaction keeps merging old and new rows, so expired data lingers in large SSTables and every compaction rewrites rows that are about to expire. TimeWindowCompactionStrategy groups rows by write time and drops a whole SSTable once all of it has expired, with no compaction at all: {advice}",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const table of model.schema.tables.values()) {
      if (table.kind !== "table") continue;
      const own = writesOnTable(model, table).filter((w) => w.statement.kind !== "delete");
      const everyWriteExpires = own.length > 0 && own.every((w) => w.statement.using?.ttl !== undefined);
      if (table.defaultTtlSeconds > 0 || everyWriteExpires) {
        adviseTimeWindows(context, table, own);
        continue;
      }
      const label = tableLabel(model, table.qualifiedName);

      if (table.compaction?.className === "TimeWindowCompactionStrategy") {
        const statement = table.statement.kind === "create-table" ? table.statement : undefined;
        const entry = statement?.options.find((o) => o.name.name === "compaction");
        context.report({
          messageId: "twcsWithoutTtl",
          data: { table: label, writesTtl: own.some((w) => w.statement.using?.ttl !== undefined) ? " and only some writes set a TTL" : "" },
          ...(entry ? { file: table.source.file, range: entry.range } : tableLocation(table)),
          entity: `${tableEntity(table.qualifiedName)}:twcs`,
        });
        continue;
      }

      const timeColumn = table.clustering.find((c) => marksTimeSeries(model, table, c));
      if (!timeColumn) continue;
      // Counters cannot expire; their retention is a delete job (table-unbounded-partition covers growth).
      if (table.columns.some((c) => c.type.kind === "native" && c.type.name === "counter")) continue;
      const volume = volumeOf(model, table);
      if (volume?.retentionSeconds !== undefined) continue;
      // Stated rows and no growth: the manifest says partitions do not keep growing (an ordered list, not a series).
      if (volume?.rowsPerPartition && volume.growthPerSecond === undefined) continue;
      context.report({
        messageId: "noTtl",
        data: { table: label, column: timeColumn.name },
        ...tableLocation(table),
        entity: `${tableEntity(table.qualifiedName)}:ttl`,
      });
    }
  },
};

export default tableTimeSeriesRetention;
